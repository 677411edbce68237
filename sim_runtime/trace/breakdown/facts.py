"""The breakdown of one capture and its four facts files: analysis config, perf data, timeline and
architecture graph (docs/trace.md describes every field)."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from sim_runtime.trace.breakdown.attribution import (
    ATTRIBUTED,
    EXCLUDED,
    UNATTRIBUTED,
    Attribution,
    attribute,
    device_ops,
)
from sim_runtime.trace.breakdown.declarations import BLOCK_INPUT
from sim_runtime.trace.breakdown.forest import RangeForest, build_forest
from sim_runtime.trace.breakdown.options import BreakdownError, BreakdownOptions, ConversionRefused
from sim_runtime.trace.breakdown.schema import (
    ANALYSIS_SCHEMA_VERSION,
    COUNTER_KEYS,
    GRAPH_SCHEMA,
    facts_paths,
)
from sim_runtime.trace.breakdown.structure import (
    SECTION_GROUP,
    SECTION_RUNTIME,
    SECTION_STAGE,
    Node,
    Structure,
)
from sim_runtime.trace.breakdown.structure import build_structure as _build_structure
from sim_runtime.trace.kinds import ActivityKind
from sim_runtime.trace.reader import Capture, Trace

__all__ = ["Breakdown", "build_breakdown", "emit_facts"]

_AICORE_TYPES = ("KERNEL_AICORE", "KERNEL_MIX_AIC")
_AIV_TYPES = ("KERNEL_AIVEC", "KERNEL_MIX_AIV")
_CORES = {
    "KERNEL_AICORE": "AI_CORE",
    "KERNEL_AIVEC": "AI_VECTOR_CORE",
    "KERNEL_MIX_AIC": "MIX_AIC",
    "KERNEL_MIX_AIV": "MIX_AIV",
    "KERNEL_AICPU": "AI_CPU",
    "COMMUNICATION": "COMMUNICATION",
}
COMMUNICATION_TYPE = "COMMUNICATION"


@dataclass
class Breakdown:
    options: BreakdownOptions
    capture: Capture
    forest: RangeForest
    structure: Structure
    attribution: Attribution
    analysis: dict[str, Any]
    perf: dict[str, Any]
    timeline: dict[str, Any]
    graph: dict[str, Any]

    @property
    def account(self) -> str:
        return self.attribution.account()

    @property
    def complete(self) -> bool:
        return self.attribution.count(UNATTRIBUTED) == 0

    def unattributed_details(self, limit: int = 20) -> list[str]:
        reasons = self.perf["accounting"]["unattributed_reasons"]
        lines = [f"  {count} unattributed: {reason}" for reason, count in reasons.items()]
        attribution, capture = self.attribution, self.capture
        rows = np.flatnonzero(attribution.status == UNATTRIBUTED)[:limit]
        for row in rows.tolist():
            op = attribution.ops[row]
            lines.append(
                f"    {capture.strings[int(op['name'])]} (correlation id {int(op['correlation_id'])}, "
                f"device {int(op['device_id'])} stream {int(op['stream_id'])}, "
                f"thread {int(attribution.thread[row])})"
            )
        return lines


def _prefix_options(capture: Capture, options: BreakdownOptions) -> BreakdownOptions:
    declared = options.declarations
    name = (
        declared.get("model_name", options.model_name)
        if options.model_name == "model"
        else options.model_name
    )
    report = options.report_id or f"{options.resolved_model_id}-pid{capture.pid}"
    return replace(options, model_name=name, report_id=report)


def build_breakdown(source: Trace | Capture, options: BreakdownOptions | None = None) -> Breakdown:
    """Builds the breakdown of one process (``options.pid``; the lowest pid of a trace by default)."""
    options = options or BreakdownOptions()
    capture = source.capture(options.pid) if isinstance(source, Trace) else source
    options = _prefix_options(capture, options)
    forest, sampled = build_forest(capture, exclude_domains=(options.sampler_domain,))
    structure = _build_structure(forest, sampled, capture.text(sampled["name"]).tolist(), options)
    _check_source_only(structure, options)
    communication_type = _string_id(capture, COMMUNICATION_TYPE)
    ops = device_ops(capture, communication_type)
    attribution = attribute(capture, forest, structure, ops)
    metrics = _Metrics(capture, structure, attribution, options)
    analysis = _analysis(capture, structure, attribution, options, metrics)
    perf = _perf(capture, forest, structure, attribution, options, metrics)
    timeline = _timeline(capture, forest, structure, attribution, options)
    graph = _graph(structure, options)
    return Breakdown(options, capture, forest, structure, attribution, analysis, perf, timeline, graph)


def emit_facts(breakdown: Breakdown, out_dir: Path | str, prefix: str | None = None) -> dict[str, Path]:
    """Writes the four facts files; raises ConversionRefused (writing nothing) unless every kernel
    is accounted for as attributed or excluded."""
    if not breakdown.complete:
        raise ConversionRefused(breakdown.account, breakdown.unattributed_details())
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = facts_paths(prefix or breakdown.options.resolved_model_id)
    documents = {
        "analysis": breakdown.analysis,
        "perf": breakdown.perf,
        "timeline": breakdown.timeline,
        "graph": breakdown.graph,
    }
    written = {}
    for key, document in documents.items():
        path = out / names[key]
        path.write_text(json.dumps(document, indent=1, allow_nan=False) + "\n", encoding="utf-8")
        written[key] = path
    return written


def _string_id(capture: Capture, text: str) -> int:
    found = np.flatnonzero(capture.strings == text)
    if len(found):
        return int(found[0])
    capture.strings = np.append(capture.strings, np.array([text], dtype=object))
    return len(capture.strings) - 1


def _check_source_only(structure: Structure, options: BreakdownOptions) -> None:
    observed = {node.node_id for node in structure.nodes}
    for entry in options.declarations.get("source_only", []):
        node_id = f"{options.namespace}/{entry['path']}"
        if node_id in observed:
            raise BreakdownError(f"{entry['path']!r} is declared source-only but the capture observed it")


class _Metrics:
    """Per node: time, kernel count and core times of its attributed operations (descendants'
    summed into modules)."""

    def __init__(
        self, capture: Capture, structure: Structure, attribution: Attribution, options: BreakdownOptions
    ) -> None:
        count = len(structure.nodes)
        mask = attribution.status == ATTRIBUTED
        ops = attribution.ops[mask]
        nodes = attribution.node[mask]
        self.durations_us = (ops["end"] - ops["start"]).clip(min=0) / 1000.0
        types = capture.text(ops["type"])
        aicore = np.isin(types, _AICORE_TYPES)
        aiv = np.isin(types, _AIV_TYPES)
        self.time = np.bincount(nodes, weights=self.durations_us, minlength=count)
        self.kernels = np.bincount(nodes, minlength=count).astype(np.int64)
        self.aicore = np.bincount(nodes, weights=np.where(aicore, self.durations_us, 0.0), minlength=count)
        self.aiv = np.bincount(nodes, weights=np.where(aiv, self.durations_us, 0.0), minlength=count)
        for node in reversed(structure.nodes):  # children come after their parents
            if node.parent is not None:
                for array in (self.time, self.kernels, self.aicore, self.aiv):
                    array[node.parent] += array[node.index]
        self.total_time_us = float(self.durations_us.sum())
        self.attributed = int(mask.sum())


def _round(value: float) -> float:
    return round(float(value), 6)


def _declared(options: BreakdownOptions, node: Node) -> dict[str, Any]:
    relative = node.node_id[len(options.namespace) + 1 :]
    found = options.declarations.get("nodes", {}).get(relative, {})
    return found if isinstance(found, dict) else {}


def _node_json(
    structure: Structure, node: Node, options: BreakdownOptions, metrics: _Metrics
) -> dict[str, Any]:
    declared = _declared(options, node)
    return {
        "node_id": node.node_id,
        "semantic_key": node.name,
        "node_kind": node.node_kind,
        "metric_scope": node.metric_scope,
        "name": node.name,
        "semantic": declared.get("semantic"),
        "code_ref": declared.get("code_ref"),
        "instance_indices": sorted(node.instance_indices) if node.group is not None else [],
        "mapped_kernels": int(metrics.kernels[node.index]),
        "children": [_node_json(structure, structure.nodes[c], options, metrics) for c in node.children],
    }


def _device_profile(capture: Capture) -> dict[str, Any]:
    soc_name = capture.meta.get("soc")
    declared = None
    if soc_name:
        from sim_runtime import soc as soc_catalogue

        try:
            declared = soc_catalogue.default_catalogue().get(soc_name).cube_mhz
        except Exception:  # an unknown SoC leaves the clock unavailable, never guessed
            declared = None
    return {
        "soc": soc_name,
        "aicore_freq_mhz": declared,
        "aicore_freq_basis": "declared" if declared is not None else "unavailable",
        "declared": {"aicore_freq_mhz": declared, "source": "SoC catalogue nameplate" if declared else None},
        "derived": {"aicore_freq_mhz": None, "reason": "activity records carry no cycle counters"},
        "cross_check": {"agreement": "unavailable"},
    }


def _trace_scope(structure: Structure, capture: Capture, options: BreakdownOptions) -> dict[str, Any]:
    return {
        "kind": "representative_step" if structure.step_ranges else "whole_capture",
        "step_range": options.step_range,
        "steps_observed": len(structure.step_ranges),
        "pid": capture.pid,
        "capture_complete": capture.meta.get("complete"),
        "clock": capture.meta.get("clock"),
    }


def _identity(options: BreakdownOptions, structure: Structure) -> dict[str, Any]:
    return {
        "model_id": options.resolved_model_id,
        "report_id": options.report_id,
        "representative_step": structure.representative_step,
    }


def _analysis(
    capture: Capture,
    structure: Structure,
    attribution: Attribution,
    options: BreakdownOptions,
    metrics: _Metrics,
) -> dict[str, Any]:
    roots = [structure.nodes[i] for i in structure.roots]
    source_only = [
        {
            "structure_node_id": f"{options.namespace}/{entry['path']}",
            "name": entry.get("name") or entry["path"].rsplit("/", 1)[-1],
            "code_ref": entry.get("code_ref"),
            "data_state": "source_only",
            "reason": entry["reason"],
        }
        for entry in options.declarations.get("source_only", [])
    ]
    return {
        "schema_version": ANALYSIS_SCHEMA_VERSION,
        "model_name": options.model_name,
        **_identity(options, structure),
        "id_namespace": options.namespace,
        "architecture": options.declarations.get("architecture", {"source_of_truth": None, "facts": {}}),
        "trace_scope": options.declarations.get("trace_scope") or _trace_scope(structure, capture, options),
        "device_profile": _device_profile(capture),
        "stages": {
            node.name: _node_json(structure, node, options, metrics)
            for node in roots
            if node.section == SECTION_STAGE
        },
        "layer_structure": {
            node.name: _node_json(structure, node, options, metrics)
            for node in roots
            if node.section == SECTION_GROUP
        },
        "runtime_auxiliary": [
            _node_json(structure, node, options, metrics) for node in roots if node.section == SECTION_RUNTIME
        ],
        "source_only_structure": source_only,
        "dataflow": options.declarations.get("dataflow", []),
    }


def _scope_note(node: Node, options: BreakdownOptions) -> str:
    if node.sampled_window:
        return f"wall-clock window of the {options.sampler_domain!r} sampler; not compute time"
    if node.section == SECTION_RUNTIME:
        return f"runtime work declared by a {options.runtime_domain!r} range"
    if node.group is not None:
        indices = sorted(node.instance_indices)
        return f"sum over {len(indices)} observed instance(s) {indices} of {node.group}"
    return "one instance per step"


def _perf(
    capture: Capture,
    forest: RangeForest,
    structure: Structure,
    attribution: Attribution,
    options: BreakdownOptions,
    metrics: _Metrics,
) -> dict[str, Any]:
    total = metrics.total_time_us
    step_label = options.step_range
    records = []
    for node in structure.nodes:
        top = node
        while top.parent is not None:
            top = structure.nodes[top.parent]
        sampled = node.sampled_window
        time_us = None if sampled else _round(metrics.time[node.index])
        kernels = int(metrics.kernels[node.index])
        record: dict[str, Any] = {
            "node_id": node.node_id,
            "module": top.name,
            "metric_scope": node.metric_scope,
            "time_us": time_us,
            "time_pct": None
            if sampled
            else (_round(100.0 * metrics.time[node.index] / total) if total else 0.0),
            "nops": None if sampled else kernels,
            "hbm_mb": None,
            "gflops": None,
            "mfu_bf16_pct": None,
            "mfu_int8_pct": None,
            "aicore_time_us": None if sampled else _round(metrics.aicore[node.index]),
            "aiv_time_us": None if sampled else _round(metrics.aiv[node.index]),
            "aicore_time_pct": (
                None
                if sampled or not metrics.time[node.index]
                else _round(100.0 * metrics.aicore[node.index] / metrics.time[node.index])
            ),
            **dict.fromkeys(COUNTER_KEYS),
            "counter_coverage": None if sampled else {"kernels_with_counters": 0, "kernels": kernels},
            "op_ratio": None if sampled or not metrics.attributed else _round(kernels / metrics.attributed),
            "instance_indices": sorted(node.instance_indices) if node.group is not None else [],
            "code_ref": _declared(options, node).get("code_ref"),
            "kernel_scope_note": _scope_note(node, options),
            "sampled_window_span_us": _round(node.window_span_ns / 1000.0) if sampled else None,
        }
        records.append(record)
    profile = _device_profile(capture)
    return {
        "schema_version": ANALYSIS_SCHEMA_VERSION,
        **_identity(options, structure),
        "total_time_us": _round(total),
        "aicore_freq_mhz": profile["aicore_freq_mhz"],
        "accounting": {
            "total": attribution.total,
            "attributed": attribution.count(ATTRIBUTED),
            "excluded": attribution.count(EXCLUDED),
            "unattributed": attribution.count(UNATTRIBUTED),
            "coverage_pct": _round(
                100.0 * (attribution.total - attribution.count(UNATTRIBUTED)) / attribution.total
            )
            if attribution.total
            else 100.0,
            "account": attribution.account(),
            "excluded_reasons": attribution.reasons(EXCLUDED, structure, forest, step_label),
            "unattributed_reasons": attribution.reasons(UNATTRIBUTED, structure, forest, step_label),
        },
        "records": records,
    }


def _timeline(
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
    order = np.argsort(ops["start"], kind="stable")
    ops, nodes, instances = ops[order], nodes[order], instances[order]
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
    for position, (op, node_index, instance, name, kind, gap) in enumerate(
        zip(ops.tolist(), nodes.tolist(), instances.tolist(), names, types, wait.tolist(), strict=True)
    ):
        source_kind, row, start, end, device, stream, correlation = op[:7]
        node = node_list[node_index]
        events.append(
            _event(
                event_id=f"{ActivityKind(source_kind).name.lower()}-{row}",
                event_class="communication" if source_kind == ActivityKind.COMMUNICATION else "kernel",
                op_index=position,
                name=name,
                op_type=kind,
                device=device,
                stream=stream,
                start=start,
                end=end,
                base=base,
                wait=None if gap != gap else _round(gap),  # NaN: first on its stream
                node=node,
                instance=None if instance < 0 else instance,
                structure=structure,
                mapping="attributed",
                join="correlation_id",
                correlation=correlation,
            )
        )
    events.extend(_window_events(forest, structure, base))
    return {
        "schema_version": ANALYSIS_SCHEMA_VERSION,
        **_identity(options, structure),
        "time_base_us": _round(base / 1000.0),
        "events": events,
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
    base: int,
    wait: float | None,
    node: Node,
    instance: int | None,
    structure: Structure,
    mapping: str,
    join: str,
    correlation: int | None,
    span_us: float | None = None,
) -> dict[str, Any]:
    ts = _round((start - base) / 1000.0)
    duration = None if end is None else _round(max(end - start, 0) / 1000.0)
    return {
        "event_id": event_id,
        "event_class": event_class,
        "op_index": op_index,
        "name": name,
        "op_type": op_type,
        "device_id": device,
        "stream_id": stream,
        "accelerator_core": _CORES.get(op_type or "", "UNKNOWN")
        if event_class in ("kernel", "communication")
        else None,
        "start_time_us": _round(start / 1000.0),
        "ts_us": ts,
        "duration_us": duration,
        "end_us": None if duration is None else _round(ts + duration),
        "wait_time_us": wait,
        "owner_node_id": node.node_id,
        "instance_index": instance,
        "structure_instance_node_id": _instance_node_id(structure, node, instance),
        "submodule": node.name,
        "mapping_status": mapping,
        "trace_join_status": join,
        "correlation_id": correlation,
        "duplicate_of": None,
        "counters": None,
        "sampled_window_span_us": span_us,
    }


def _window_events(forest: RangeForest, structure: Structure, base: int) -> list[dict[str, Any]]:
    """One event per runtime auxiliary range of the step and per sampled window node."""
    events = []
    for index in np.flatnonzero(structure.range_node >= 0).tolist():
        node = structure.nodes[int(structure.range_node[index])]
        parent = int(forest.parent[index])
        if node.section != SECTION_RUNTIME or (parent >= 0 and structure.range_node[parent] == node.index):
            continue
        start, end = int(forest.ranges["start"][index]), int(forest.ranges["end"][index])
        events.append(
            _event(
                event_id=f"range-{int(forest.ranges['id'][index])}",
                event_class="runtime_window",
                op_index=None,
                name=node.name,
                op_type=None,
                device=None,
                stream=None,
                start=start,
                end=end,
                base=base,
                wait=None,
                node=node,
                instance=None,
                structure=structure,
                mapping="declared_window",
                join="mstx_range",
                correlation=None,
            )
        )
    for node in structure.nodes:
        if node.sampled_window:
            span = _round(node.window_span_ns / 1000.0)
            events.append(
                _event(
                    event_id=f"window-{node.index}",
                    event_class="sampled_window",
                    op_index=None,
                    name=node.name,
                    op_type=None,
                    device=None,
                    stream=None,
                    start=base,
                    end=None,
                    base=base,
                    wait=None,
                    node=node,
                    instance=None,
                    structure=structure,
                    mapping="declared_window",
                    join="mstx_range",
                    correlation=None,
                    span_us=span,
                )
            )
    return events


def _graph_id(options: BreakdownOptions, node_id: str) -> str:
    return "node/" + node_id[len(options.namespace) + 1 :]


def _tensor(declared: Any) -> dict[str, Any]:
    tensor = declared if isinstance(declared, dict) else {}
    return {"name": tensor.get("name"), "shape": tensor.get("shape"), "dtype": tensor.get("dtype")}


def _graph(structure: Structure, options: BreakdownOptions) -> dict[str, Any]:
    model_root, runtime_root = "section/source_architecture", "section/runtime_auxiliary"
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    top_model = [n for n in (structure.nodes[i] for i in structure.roots) if n.section != SECTION_RUNTIME]
    top_runtime = [n for n in (structure.nodes[i] for i in structure.roots) if n.section == SECTION_RUNTIME]
    by_relative = {n.node_id[len(options.namespace) + 1 :]: n for n in structure.nodes}
    source_only = options.declarations.get("source_only", [])
    nodes.append(
        {
            "id": model_root,
            "kind": "section",
            "label": options.model_name,
            "children": [_graph_id(options, n.node_id) for n in top_model]
            + [f"source/{e['path']}" for e in source_only],
        }
    )
    nodes.append(
        {
            "id": runtime_root,
            "kind": "section",
            "label": "runtime auxiliary",
            "children": [_graph_id(options, n.node_id) for n in top_runtime],
        }
    )
    for node in structure.nodes:
        parent = (
            _graph_id(options, structure.nodes[node.parent].node_id)
            if node.parent is not None
            else runtime_root
            if node.section == SECTION_RUNTIME
            else model_root
        )
        code_ref = _declared(options, node).get("code_ref")
        nodes.append(
            {
                "id": _graph_id(options, node.node_id),
                "kind": node.node_kind,
                "label": node.name,
                "parent": parent,
                "children": [_graph_id(options, structure.nodes[c].node_id) for c in node.children],
                "dataState": "runtime" if node.section == SECTION_RUNTIME else "mapped",
                "origin": "source",
                "backendNodeId": node.node_id,
                "mappingKind": "node_id",
                "selectable": True,
                "sourceRefs": [code_ref] if code_ref else [],
            }
        )
    for entry in source_only:
        nodes.append(
            {
                "id": f"source/{entry['path']}",
                "kind": "op",
                "label": entry.get("name") or entry["path"].rsplit("/", 1)[-1],
                "parent": model_root,
                "children": [],
                "dataState": "source_only",
                "origin": "source",
                "selectable": True,
                "sourceRefs": [entry["code_ref"]] if entry.get("code_ref") else [],
            }
        )

    def activation(parent_label: str, members: list[Node]) -> None:
        for first, second in itertools.pairwise(members):
            edges.append(
                {
                    "id": f"edge/activation/{len(edges)}",
                    "source": _graph_id(options, first.node_id),
                    "target": _graph_id(options, second.node_id),
                    "semanticEdgeType": "activation",
                    "tensor": _tensor(None),
                    "provenance": {
                        "kind": "declared_nesting",
                        "evidence": f"children order of {parent_label}",
                    },
                }
            )

    activation(f"step {structure.representative_step}", top_model)
    for node in structure.nodes:
        if node.children and node.section != SECTION_RUNTIME:
            activation(node.node_id, [structure.nodes[c] for c in node.children])
    for group, branches in options.declarations.get("branches", {}).items():
        group_node = by_relative.get(group)
        if group_node is None:
            raise BreakdownError(f"branches declared for {group!r}, which the capture does not contain")
        for branch in branches:
            output = by_relative.get(f"{group}/{branch['output']}")
            if output is None:
                raise BreakdownError(
                    f"branch {branch['name']!r} of {group!r} outputs to undefined {branch['output']!r}"
                )
            for position, name in enumerate(branch["inputs"]):
                source = group_node if name == BLOCK_INPUT else by_relative.get(f"{group}/{name}")
                if source is None:
                    raise BreakdownError(
                        f"branch {branch['name']!r} of {group!r} references undefined input {name!r}"
                    )
                edges.append(
                    {
                        "id": f"edge/residual/{group}/{branch['name']}/{position}",
                        "source": _graph_id(options, source.node_id),
                        "target": _graph_id(options, output.node_id),
                        "sourcePort": "input" if name == BLOCK_INPUT else "output",
                        "semanticEdgeType": "residual",
                        "tensor": _tensor(branch.get("tensor")),
                        "provenance": {
                            "kind": "declared_branch",
                            "evidence": branch["name"],
                            "source_ref": branch.get("source_ref"),
                        },
                    }
                )
    for position, flow in enumerate(options.declarations.get("dataflow", [])):
        ends = []
        for side in ("source", "target"):
            path = flow[side]["structure"]
            found = by_relative.get(path)
            if found is None:
                raise BreakdownError(
                    f"dataflow {flow.get('name', position)!r}: {side} {path!r} is not in the capture"
                )
            ends.append(found)
        edges.append(
            {
                "id": f"edge/dataflow/{position}",
                "source": _graph_id(options, ends[0].node_id),
                "target": _graph_id(options, ends[1].node_id),
                "sourcePort": flow["source"].get("port"),
                "targetPort": flow["target"].get("port"),
                "semanticEdgeType": "dataflow",
                "tensor": _tensor(flow.get("tensor")),
                "provenance": {
                    "kind": "declared_dataflow",
                    "evidence": flow.get("name"),
                    "source_ref": flow.get("source_ref"),
                },
            }
        )
    return {
        "schema": GRAPH_SCHEMA,
        "model_id": options.resolved_model_id,
        "report_id": options.report_id,
        "roots": [model_root, runtime_root],
        "nodes": nodes,
        "edges": edges,
    }
