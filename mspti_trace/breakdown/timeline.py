"""The facts' timeline: the representative step's ranges and device operations as events, with
exact microsecond start times."""

from __future__ import annotations

from typing import Any

import numpy as np

from mspti_trace.breakdown.attribution import (
    ATTRIBUTED,
    Attribution,
)
from mspti_trace.breakdown.facts_fields import CORE_TYPES, identity, rounded
from mspti_trace.breakdown.forest import RangeForest
from mspti_trace.breakdown.options import BreakdownOptions
from mspti_trace.breakdown.schema import (
    NON_COMPUTE_MAPPING,
    TIMELINE_SCHEMA_VERSION,
)
from mspti_trace.breakdown.structure import (
    SECTION_RUNTIME,
    Node,
    Structure,
)
from mspti_trace.kinds import ActivityKind
from mspti_trace.reader import Capture


def _raw_us(ns: int) -> str:
    """A nanosecond time as exact microseconds text (start_time_us_raw)."""
    sign = "-" if ns < 0 else ""
    whole, frac = divmod(abs(int(ns)), 1000)
    return f"{sign}{whole}.{frac:03d}"


def build_timeline(
    capture: Capture,
    forest: RangeForest,
    structure: Structure,
    attribution: Attribution,
    options: BreakdownOptions,
) -> dict[str, Any]:
    mask = attribution.status == ATTRIBUTED
    ops = attribution.ops[mask]
    nodes = attribution.node[mask]
    instances = attribution.instance[mask]
    op_indices = attribution.op_index()[mask]
    order = np.argsort(ops["start"], kind="stable")
    ops, nodes, instances, op_indices = ops[order], nodes[order], instances[order], op_indices[order]
    if structure.step_window is not None:
        base = structure.step_window[0]
    else:
        base = int(ops["start"].min()) if len(ops) else 0
    # Wait time: gap to the previous attributed operation on the same device stream.
    wait = np.full(len(ops), np.nan)
    if len(ops):
        lane = ops["device_id"].astype(np.int64) * (1 << 32) + ops["stream_id"].astype(np.int64)
        by_lane = np.lexsort((ops["start"], lane))
        lanes, starts, ends = lane[by_lane], ops["start"][by_lane], ops["end"][by_lane]
        gaps = np.full(len(ops), np.nan)
        same = lanes[1:] == lanes[:-1]
        gaps[1:] = np.where(same, np.maximum(starts[1:] - ends[:-1], 0) / 1000.0, np.nan)
        wait[by_lane] = gaps
    names = capture.text(ops["name"]).tolist()
    types = capture.text(ops["type"]).tolist()
    node_list = structure.nodes
    events: list[dict[str, Any]] = []
    for op, node_index, instance, name, kind, gap, op_index in zip(
        ops.tolist(),
        nodes.tolist(),
        instances.tolist(),
        names,
        types,
        wait.tolist(),
        op_indices.tolist(),
        strict=True,
    ):
        source_kind, row, start, end, device, stream, correlation = op[:7]
        node = node_list[node_index]
        events.append(
            _event(
                event_id=f"{options.namespace}/step/{structure.representative_step}/"
                f"{ActivityKind(source_kind).name.lower()}/{row}",
                event_class="communication" if source_kind == ActivityKind.COMMUNICATION else "kernel",
                op_index=op_index,
                name=name,
                op_type=kind,
                device=device,
                stream=stream,
                start=start,
                end=end,
                wait=None if gap != gap else rounded(gap),  # NaN: first on its stream
                node=node,
                instance=None if instance < 0 else instance,
                structure=structure,
                mapping="correlation_id_in_declared_range",
                join="breakdown_attributed_kernel",
                correlation=correlation,
            )
        )
    compute = len(events)
    events.extend(_window_events(forest, structure, options))
    return {
        "schema_version": TIMELINE_SCHEMA_VERSION,
        **identity(options, structure),
        "time_origin_us": min((e["ts_us"] for e in events), default=rounded(base / 1000.0)),
        "time_unit": "us",
        "event_count": len(events),
        "events": events,
        "mapping_summary": {
            "mapped_events": compute,
            "unmapped_events": 0,
            "mapping_coverage_pct": 100,
            "window_events": len(events) - compute,
            "mapping_semantics": "each kernel or communication operation is owned by the innermost "
            "declared mstx range containing the API call that carries its correlation id; no "
            "name-similarity matching",
        },
        "scope_note": f"Representative step {structure.representative_step} of the capture of pid "
        f"{capture.pid}; ts_us and end_us are microseconds on the capture's clock.",
    }


def _instance_node_id(structure: Structure, node: Node, instance: int | None) -> str:
    if instance is None or node.group is None:
        return node.node_id
    top = node
    while top.parent is not None:
        top = structure.nodes[top.parent]
    return top.node_id + f"[{instance}]" + node.node_id[len(top.node_id) :]


def _event(
    *,
    event_id: str,
    event_class: str,
    op_index: int | None,
    name: str,
    op_type: str | None,
    device: int | None,
    stream: int | None,
    start: int,
    end: int | None,
    wait: float | None,
    node: Node,
    instance: int | None,
    structure: Structure,
    mapping: str,
    join: str,
    correlation: int | None,
    span_us: float | None = None,
) -> dict[str, Any]:
    ts = rounded(start / 1000.0)
    duration = None if end is None else rounded(max(end - start, 0) / 1000.0)
    return {
        "event_id": event_id,
        "event_class": event_class,
        "op_index": op_index,
        "name": name,
        "op_type": op_type,
        "device_id": device,
        "stream_id": stream,
        "accelerator_core": CORE_TYPES.get(op_type or "", "UNKNOWN")
        if event_class in ("kernel", "communication")
        else None,
        "start_time_us_raw": _raw_us(start),
        "ts_us": ts,
        "duration_us": duration,
        "end_us": None if end is None else rounded(max(end, start) / 1000.0),
        "wait_time_us": wait,
        "owner_node_id": node.node_id,
        "instance_index": instance,
        "structure_instance_node_id": _instance_node_id(structure, node, instance),
        "submodule": node.name,
        "mapping_status": mapping,
        "trace_join_status": join,
        "layer_index": instance,
        "correlation_id": correlation,
        "duplicate_of": None,
        "counters": None,
        "sampled_window_span_us": span_us,
    }


def _window_events(
    forest: RangeForest, structure: Structure, options: BreakdownOptions
) -> list[dict[str, Any]]:
    """One event per runtime auxiliary range of the step and per sampled window node."""
    events = []
    prefix = f"{options.namespace}/step/{structure.representative_step}"
    for index in np.flatnonzero(structure.range_node >= 0).tolist():
        node = structure.nodes[int(structure.range_node[index])]
        parent = int(forest.parent[index])
        if node.section != SECTION_RUNTIME or (parent >= 0 and structure.range_node[parent] == node.index):
            continue
        start, end = int(forest.ranges["start"][index]), int(forest.ranges["end"][index])
        events.append(
            _event(
                event_id=f"{prefix}/range/{int(forest.ranges['id'][index])}",
                event_class="runtime_window",
                op_index=None,
                name=node.name,
                op_type=None,
                device=None,
                stream=None,
                start=start,
                end=end,
                wait=None,
                node=node,
                instance=None,
                structure=structure,
                mapping=NON_COMPUTE_MAPPING,
                join="mstx_range",
                correlation=None,
            )
        )
    for node in structure.nodes:
        if not node.sampled_window:
            continue
        for position, (start, end) in enumerate(sorted(node.windows)):
            events.append(
                _event(
                    event_id=f"{prefix}/window/{node.index}/{position}",
                    event_class="sampled_window",
                    op_index=None,
                    name=node.name,
                    op_type=None,
                    device=None,
                    stream=None,
                    start=start,
                    end=None,  # a window's wall clock is not compute time: its span is separate
                    wait=None,
                    node=node,
                    instance=None,
                    structure=structure,
                    mapping=NON_COMPUTE_MAPPING,
                    join="mstx_range",
                    correlation=None,
                    span_us=rounded((end - start) / 1000.0),
                )
            )
    return events
