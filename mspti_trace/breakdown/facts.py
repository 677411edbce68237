"""The breakdown of one capture and its facts files in oam-tools' stage-2 schema: analysis config,
perf data, timeline and architecture graph, plus the stage-3 inputs (docs/trace.md describes every
field)."""

from __future__ import annotations

import copy
import difflib
import itertools
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from mspti_trace.breakdown import handoff
from mspti_trace.breakdown.attribution import (
    ATTRIBUTED,
    EXCLUDED,
    UNATTRIBUTED,
    Attribution,
    attribute,
    device_ops,
)
from mspti_trace.breakdown.declarations import BLOCK_INPUT
from mspti_trace.breakdown.forest import RangeForest, build_forest
from mspti_trace.breakdown.options import BreakdownError, BreakdownOptions, ConversionRefused
from mspti_trace.breakdown.output_dir import claim_output_dir, record_written
from mspti_trace.breakdown.schema import (
    ANALYSIS_SCHEMA_VERSION,
    ATTRIBUTION_SCHEMA_VERSION,
    COUNTER_KEYS,
    DATAFLOW_KINDS,
    GRAPH_SCHEMA,
    NON_COMPUTE_MAPPING,
    SOURCE_ROOT,
    TIMELINE_SCHEMA_VERSION,
    TRACE_EXTENSION_ORIGIN,
    facts_paths,
)
from mspti_trace.breakdown.schemas import schema_errors
from mspti_trace.breakdown.structure import (
    SECTION_GROUP,
    SECTION_RUNTIME,
    SECTION_STAGE,
    Node,
    Structure,
)
from mspti_trace.breakdown.structure import build_structure as _build_structure
from mspti_trace.kinds import ActivityKind
from mspti_trace.reader import Capture, Trace, device_properties

__all__ = ["Breakdown", "build_breakdown", "emit_facts"]

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
    kernel_attribution: dict[str, Any]

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
    _check_declared_nodes(structure, options)
    communication_type = _string_id(capture, COMMUNICATION_TYPE)
    ops = device_ops(capture, communication_type)
    attribution = attribute(capture, forest, structure, ops)
    metrics = _Metrics(capture, structure, attribution, options)
    analysis = _analysis(capture, structure, attribution, options, metrics)
    perf = _perf(capture, forest, structure, attribution, options, metrics)
    timeline = _timeline(capture, forest, structure, attribution, options)
    graph = _graph(structure, options)
    kernels = _kernel_attribution(capture, structure, attribution, options)
    return Breakdown(
        options, capture, forest, structure, attribution, analysis, perf, timeline, graph, kernels
    )


def emit_facts(
    breakdown: Breakdown, out_dir: Path | str, prefix: str | None = None, *, trace_view: bool = True
) -> dict[str, Path]:
    """Writes the three facts files, ``outputs/model_architecture_graph.json`` and the stage-3
    inputs (``ui-report-handoff.json``, ``outputs/architecture_overlay_map.json`` and, with
    ``trace_view``, the raw trace ``trace_view.json`` and ``outputs/trace_bindings.json``); raises
    ConversionRefused (writing nothing) unless every kernel is accounted for as attributed or
    excluded, and BreakdownError (writing nothing) when a document breaks its JSON Schema or
    ``out_dir`` is a folder breakdown may not write into (see output_dir.py: an earlier run's files
    are replaced, a folder with other files is refused)."""
    if not breakdown.complete:
        raise ConversionRefused(breakdown.account, breakdown.unattributed_details())
    out = Path(out_dir)
    names = facts_paths(prefix or breakdown.options.resolved_model_id)
    documents: dict[str, dict[str, Any]] = {
        "analysis": breakdown.analysis,
        "perf": breakdown.perf,
        "timeline": breakdown.timeline,
        "graph": breakdown.graph,
        "overlay": handoff.overlay(breakdown.analysis, breakdown.perf, breakdown.graph),
        "handoff": handoff.handoff(names, breakdown.analysis, breakdown.graph, trace_view),
        "attribution": breakdown.kernel_attribution,
    }

    def check(key: str) -> None:
        errors = schema_errors(key, documents[key])
        if errors:
            raise BreakdownError(f"{names[key]} breaks its schema: " + "; ".join(errors[:5]))

    for key in documents:
        check(key)
    claim_output_dir(out)
    (out / "outputs").mkdir(parents=True, exist_ok=True)
    written = {}
    if trace_view:
        from mspti_trace.chrome import export_chrome_trace

        trace_path = out / names["trace"]
        source = Trace(directory=out, captures=[_step_window_capture(breakdown)])
        stats = export_chrome_trace(source, trace_path)
        documents["bindings"] = handoff.bindings(
            breakdown.timeline, trace_path, stats.time_base_ns, breakdown.capture.pid, names
        )
        try:
            check("bindings")
        except BreakdownError:
            trace_path.unlink()
            raise
        written["trace"] = trace_path
    for key, document in documents.items():
        path = out / names[key]
        path.write_text(json.dumps(document, indent=1, allow_nan=False) + "\n", encoding="utf-8")
        written[key] = path
    record_written(out, written.values())
    return written


def _step_window_capture(breakdown: Breakdown) -> Capture:
    """The capture narrowed to the representative step, as stage 3 loads it: records overlapping
    the step window widened to every attributed operation, mstx ranges kept whole (both markers of
    every range with one marker in the window)."""
    capture, attribution = breakdown.capture, breakdown.attribution
    window = breakdown.structure.step_window
    ops = attribution.ops[attribution.status == ATTRIBUTED]
    if window is None and not len(ops):
        return capture
    bounds = [int(ops["start"].min()), int(ops["end"].max())] if len(ops) else []
    if window is not None:
        bounds += [int(window[0]), int(window[1])]
    lo, hi = min(bounds), max(bounds)
    records = {}
    for kind, table in capture.records.items():
        names = table.dtype.names or ()
        if "start" in names and "end" in names:
            table = table[(table["start"] <= hi) & (table["end"] >= lo)]
        elif kind == ActivityKind.MARKER and len(table):
            inside = (table["timestamp"] >= lo) & (table["timestamp"] <= hi)
            table = table[np.isin(table["id"], table["id"][inside])]
        records[kind] = table
    return replace(capture, records=records)


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


def _check_declared_nodes(structure: Structure, options: BreakdownOptions) -> None:
    """A node described in the declarations must be one the capture has (docs/trace.md), unless it
    is declared ``optional`` (a stage the program runs only where, say, HCCL is available)."""
    observed = sorted(node.node_id[len(options.namespace) + 1 :] for node in structure.nodes)
    for relative, described in options.declarations.get("nodes", {}).items():
        if relative not in observed and not (
            isinstance(described, dict) and described.get("optional") is True
        ):
            close = difflib.get_close_matches(relative, observed, n=3)
            hint = f"; did you mean {', '.join(repr(name) for name in close)}?" if close else ""
            raise BreakdownError(f"declared node {relative!r} is not in the capture{hint}")


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
        # Operation types, as the timeline's op_type: the record's kernel type string.
        texts = capture.text(ops["type"]).astype(str)
        texts[(texts == "") | (texts == "None")] = "unknown"
        type_names, type_index = np.unique(texts, return_inverse=True)
        self.op_types: list[str] = [str(t) for t in type_names]
        self.time = np.bincount(nodes, weights=self.durations_us, minlength=count)
        self.kernels = np.bincount(nodes, minlength=count).astype(np.int64)
        # Time per (node, op type); msPTI records carry no counters, so no core time is derived.
        self.type_time = np.zeros((count, len(self.op_types)))
        np.add.at(self.type_time, (nodes, type_index.reshape(-1)), self.durations_us)
        for node in reversed(structure.nodes):  # children come after their parents
            if node.parent is not None:
                for array in (self.time, self.kernels, self.type_time):
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
        **({"invocation_count": node.occurrences} if node.group is not None else {}),
        "mapped_kernels": int(metrics.kernels[node.index]),
        "children": [_node_json(structure, structure.nodes[c], options, metrics) for c in node.children],
    }


def _device_profile(capture: Capture) -> dict[str, Any]:
    """The device clock block of the perf data: the SoC catalogue's nameplate when the capture names
    its SoC (``declared``), never a derived value (activity records carry no cycle counters)."""
    soc_name = capture.meta.get("soc")
    mhz = device_properties(capture).get("clockRateMHz")
    declared = int(mhz) if isinstance(mhz, (int, float)) and mhz > 0 else None
    return {
        "soc": soc_name,
        "aicore_freq_mhz": declared,
        "aicore_freq_basis": "declared" if declared is not None else "unavailable",
        "declared": {
            "aicore_freq_mhz": declared,
            "mhz": declared,
            "source": "SoC catalogue nameplate" if declared else None,
        },
        "derived": {
            "aicore_freq_mhz": None,
            "min_mhz": None,
            "max_mhz": None,
            "reason": "activity records carry no cycle counters",
        },
        "cross_check": {"agreement": "unavailable", "delta_pct": None},
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


def _notes(options: BreakdownOptions) -> list[str]:
    declared = options.declarations.get("notes") or []
    notes = [declared] if isinstance(declared, str) else [str(n) for n in declared]
    notes.append(
        "Structure comes from declared mstx ranges; each kernel is owned by the innermost range "
        "containing the API call that launched it (same correlation id), never by its name."
    )
    notes.append(
        "Counter metrics (core times, pipe ratios, cycles) are null: msPTI activity records carry "
        "no hardware counters. hbm_mb, gflops and MFU are null: the records carry no shapes."
    )
    return notes


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
            "instance_indices": [],
            "declared_not_observed": True,
            "reason": entry["reason"],
        }
        for entry in options.declarations.get("source_only", [])
    ]
    analysis = {
        "schema_version": ANALYSIS_SCHEMA_VERSION,
        "model_id": options.resolved_model_id,
        "model_name": options.model_name,
        "report_id": options.report_id,
        "id_namespace": options.namespace,
        "representative_step": structure.representative_step,
        "architecture": options.declarations.get("architecture", {"source_of_truth": None, "facts": {}}),
        "model_flow": [str(name) for name in options.declarations.get("model_flow", [])],
        "trace_scope": options.declarations.get("trace_scope") or _trace_scope(structure, capture, options),
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
        "notes": _notes(options),
    }
    if "dataflow" in options.declarations:
        analysis["dataflow"] = options.declarations["dataflow"]
    return analysis


def _scope_note(node: Node, options: BreakdownOptions) -> str:
    if node.sampled_window:
        return f"wall-clock window of the {options.sampler_domain!r} sampler; not compute time"
    if node.section == SECTION_RUNTIME:
        return f"runtime work declared by a {options.runtime_domain!r} range"
    if node.group is not None:
        indices = sorted(node.instance_indices)
        return f"sum over {len(indices)} observed instance(s) {indices} of {node.group}"
    return "one instance per step"


def _op_ratio(metrics: _Metrics, index: int) -> dict[str, float]:
    """Share of the node's time per op type, in percent, largest first ({} without time)."""
    total = float(metrics.time[index])
    if total <= 0:
        return {}
    shares = [(t, float(v)) for t, v in zip(metrics.op_types, metrics.type_time[index], strict=True) if v > 0]
    shares.sort(key=lambda item: (-item[1], item[0]))
    return {name: round(100.0 * value / total, 2) for name, value in shares}


def _accounting(
    structure: Structure, forest: RangeForest, attribution: Attribution, options: BreakdownOptions
) -> dict[str, Any]:
    """Kernel accounting in the terms of oam-tools' attribution summary (kernels_total,
    kernels_attributed, kernels_excluded, kernels_accounted, unattributed, accounting_coverage_pct)."""
    total = attribution.total
    attributed, excluded = attribution.count(ATTRIBUTED), attribution.count(EXCLUDED)
    unattributed_rows = sorted(attribution.op_index()[attribution.status == UNATTRIBUTED].tolist())
    coverage = 100.0 * (attributed + excluded) / total if total else 100.0
    return {
        "kernels_total": total,
        "kernels_attributed": attributed,
        "kernels_excluded": excluded,
        "kernels_accounted": attributed + excluded,
        "unattributed": [int(row) for row in unattributed_rows],
        "accounting_coverage_pct": round(coverage, 4),
        "account": attribution.account(),
        "excluded_reasons": attribution.reasons(EXCLUDED, structure, forest, options.step_range),
        "unattributed_reasons": attribution.reasons(UNATTRIBUTED, structure, forest, options.step_range),
    }


def _kernel_attribution(
    capture: Capture, structure: Structure, attribution: Attribution, options: BreakdownOptions
) -> dict[str, Any]:
    """kernel_attribution.json in the shape of oam-tools' ``attribute_kernels.py`` output: one row per
    attributed operation, the excluded and unattributed operations by ``op_index``, and a summary
    counted from those lists. Each operation has exactly one status in the attribution, so each
    op_index is in exactly one of the three."""
    op_index = attribution.op_index()
    attributed = np.flatnonzero(attribution.status == ATTRIBUTED)
    attributed = attributed[np.argsort(op_index[attributed], kind="stable")]
    names = capture.text(attribution.ops["name"][attributed]).tolist()
    types = capture.text(attribution.ops["type"][attributed]).tolist()
    rows = []
    for row, name, kind in zip(attributed.tolist(), names, types, strict=True):
        op = attribution.ops[row]
        instance = int(attribution.instance[row])
        start, end = int(op["start"]), int(op["end"])
        rows.append(
            {
                "op_index": int(op_index[row]),
                "owner_node_id": structure.nodes[int(attribution.node[row])].node_id,
                "layer_index": None if instance < 0 else instance,
                "op_name": name,
                "op_type": kind,
                "duration_us": _round(max(end - start, 0) / 1000.0),
                "duplicate_of": None,
                "start_time_us": _round(start / 1000.0),
                "stream_id": int(op["stream_id"]),
                "device_id": int(op["device_id"]),
                "correlation_id": int(op["correlation_id"]),
                # msPTI activity records carry no tensor shapes.
                "input_shapes": [],
                "output_shapes": [],
                "attribution_evidence": "correlation_id_in_declared_range",
            }
        )
    excluded = sorted(op_index[attribution.status == EXCLUDED].tolist())
    unattributed = sorted(op_index[attribution.status == UNATTRIBUTED].tolist())
    total = attribution.total
    accounted = len(rows) + len(excluded)
    coverage = round(100.0 * accounted / total, 4) if total else 100.0
    per_node: dict[str, int] = {}
    for entry in rows:
        per_node[entry["owner_node_id"]] = per_node.get(entry["owner_node_id"], 0) + 1
    return {
        "schema_version": ATTRIBUTION_SCHEMA_VERSION,
        **_identity(options, structure),
        "kernel_source": f"msPTI KERNEL and COMMUNICATION records of pid {capture.pid}, ordered by start",
        "counter_source": None,
        "counter_rows": 0,
        "summary": {
            "kernels_total": total,
            "kernels_attributed": len(rows),
            "kernels_excluded": len(excluded),
            "kernels_accounted": accounted,
            "attribution_pct": round(100.0 * len(rows) / total, 4) if total else 0.0,
            "accounting_coverage_pct": coverage,
            "coverage_pct": coverage,
            "excluded": excluded,
            "unattributed": unattributed,
            "conflicts": [],
            "evidence_mix": {"correlation_id_in_declared_range": len(rows)} if rows else {},
        },
        "per_node_kernel_counts": per_node,
        "rows": rows,
    }


def _perf(
    capture: Capture,
    forest: RangeForest,
    structure: Structure,
    attribution: Attribution,
    options: BreakdownOptions,
    metrics: _Metrics,
) -> dict[str, Any]:
    total = metrics.total_time_us
    modules = []
    for node in structure.nodes:
        top = node
        while top.parent is not None:
            top = structure.nodes[top.parent]
        sampled = node.sampled_window
        kernels = int(metrics.kernels[node.index])
        record: dict[str, Any] = {
            "node_id": node.node_id,
            "module": top.name,
            "metric_scope": node.metric_scope,
            "time_us": None if sampled else _round(metrics.time[node.index]),
            "time_pct": None
            if sampled
            else (_round(100.0 * metrics.time[node.index] / total) if total else 0.0),
            "nops": None if sampled else kernels,
            "hbm_mb": None,
            "gflops": None,
            "mfu_bf16_pct": None,
            "mfu_int8_pct": None,
            # Counter metrics stay null: no kernel carries counters (counter_coverage says so).
            **dict.fromkeys(COUNTER_KEYS),
            "counter_coverage": {
                "kernels_with_counters": 0,
                "kernels_total": kernels,
                "pct": 0.0 if kernels else None,
            },
            "op_ratio": {} if sampled else _op_ratio(metrics, node.index),
            "instance_indices": sorted(node.instance_indices) if node.group is not None else [],
            "invocation_count": node.occurrences if node.group is not None else None,
            "code_ref": _declared(options, node).get("code_ref"),
            "kernel_scope_note": _scope_note(node, options),
            "sampled_window_span_us": _round(node.window_span_ns / 1000.0) if sampled else None,
        }
        modules.append(record)
    modules.sort(key=lambda m: -(m["time_us"] or 0.0))  # stable: ties keep the structure order
    profile = _device_profile(capture)
    return {
        "schema_version": ANALYSIS_SCHEMA_VERSION,
        **_identity(options, structure),
        "id_namespace": options.namespace,
        "peak_bf16_tflops_assumed": None,
        "aicore_freq_mhz": profile["aicore_freq_mhz"],
        "device_profile": profile,
        "total_time_us": _round(total),
        "accounting": _accounting(structure, forest, attribution, options),
        "modules": modules,
        "scope_note": "Metrics are representative-step aggregates over attributed kernels and "
        "communication operations; time is the device span of each operation.",
    }


def _raw_us(ns: int) -> str:
    """A nanosecond time as exact microseconds text (start_time_us_raw)."""
    sign = "-" if ns < 0 else ""
    whole, frac = divmod(abs(int(ns)), 1000)
    return f"{sign}{whole}.{frac:03d}"


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
                wait=None if gap != gap else _round(gap),  # NaN: first on its stream
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
        **_identity(options, structure),
        "time_origin_us": min((e["ts_us"] for e in events), default=_round(base / 1000.0)),
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
    ts = _round(start / 1000.0)
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
        "start_time_us_raw": _raw_us(start),
        "ts_us": ts,
        "duration_us": duration,
        "end_us": None if end is None else _round(max(end, start) / 1000.0),
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
                    span_us=_round((end - start) / 1000.0),
                )
            )
    return events


def _tensor(declared: Any, role: str, source: str | None, target: str | None, where: str) -> dict[str, Any]:
    """An edge's tensor as stage 3 reads it: ``role``, ``from`` / ``to`` (the ports or endpoint names)
    and the declared ``name``, ``shape`` and ``dtype`` as strings. A shape declared as a list of
    dimensions is written as text, ``["tokens", "hidden"]`` -> ``"[tokens, hidden]"``."""
    tensor = declared if isinstance(declared, dict) else {}
    shape = tensor.get("shape")
    if isinstance(shape, list) and all(isinstance(d, str | int) and not isinstance(d, bool) for d in shape):
        shape = "[" + ", ".join(str(d) for d in shape) + "]"
    for key, value in (("name", tensor.get("name")), ("shape", shape), ("dtype", tensor.get("dtype"))):
        if value is not None and not isinstance(value, str):
            raise BreakdownError(
                f"{where}: tensor {key} {value!r} must be a string"
                + (" or a list of dimension names and sizes" if key == "shape" else "")
            )
    return {
        "role": role,
        "from": source,
        "to": target,
        "name": tensor.get("name"),
        "shape": shape,
        "dtype": tensor.get("dtype"),
    }


#: Layout of the graph's flat node and cluster lists: children stack top to bottom in declaration
#: order inside their container (boxes in px; the UI checks edge ports against positions).
_BOX_W, _BOX_H, _GAP, _PAD_X, _PAD_Y, _MARGIN = 320, 56, 32, 24, 56, 40


def _place(item: dict[str, Any], x: int, y: int) -> tuple[int, int]:
    if not item["children"]:
        item["_box"] = (x, y, _BOX_W, _BOX_H)
        return _BOX_W, _BOX_H
    cursor, widest = y + _PAD_Y, 0
    for child in item["children"]:
        width, height = _place(child, x + _PAD_X, cursor)
        widest = max(widest, width)
        cursor += height + _GAP
    size = (widest + 2 * _PAD_X, cursor - _GAP - y + _PAD_X)
    item["_box"] = (x, y, *size)
    return size


def _flatten(roots: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    nodes: list[dict[str, Any]] = []
    clusters: list[dict[str, Any]] = []
    stack: list[tuple[dict[str, Any], str]] = [(root, "") for root in reversed(roots)]
    while stack:
        item, parent = stack.pop()
        x, y, width, height = item.pop("_box")
        flat = {
            "id": item["id"],
            "label": item["label"],
            "kind": item["kind"],
            "x": x,
            "y": y,
            "width": width,
            "height": height,
            "dataState": item["dataState"],
            "origin": item["origin"],
            "selectable": item["selectable"],
            "parent": parent,
        }
        if item.get("backendNodeId"):
            flat["backendNodeId"] = item["backendNodeId"]
        if item["children"]:
            flat.update(
                children=[c["id"] for c in item["children"]],
                repeat=bool(item.get("repeatCount")),
                collapsible=True,
                structuralRoot=parent == "",
            )
            clusters.append(flat)
        else:
            nodes.append(flat)
        stack.extend((child, item["id"]) for child in reversed(item["children"]))
    return nodes, clusters


def _graph(structure: Structure, options: BreakdownOptions) -> dict[str, Any]:
    """model_architecture_graph.v1: a tree of items under two section roots (item id = node id, so
    that the overlay maps each perf node to the item of the same id), edges from the observed order
    of ranges and from declarations, typed with the stage-3 semantic edge types. An item with a
    declared ``code_ref`` is ``hybrid`` (source and trace) and cites it in ``sourceRefs``; one without
    is known from the trace only (``backend_trace_extension``), which stage 3 does not ask to cite."""
    model_root, runtime_root = SOURCE_ROOT, "section/runtime_auxiliary"
    by_relative = {n.node_id[len(options.namespace) + 1 :]: n for n in structure.nodes}

    def item(node: Node) -> dict[str, Any]:
        code_ref = _declared(options, node).get("code_ref")
        semantic = _declared(options, node).get("semantic")
        entry: dict[str, Any] = {
            "id": node.node_id,
            "label": node.name,
            "kind": "module" if node.children else "op",
            "type": node.node_kind,
            "origin": "hybrid" if code_ref else TRACE_EXTENSION_ORIGIN,
            "dataState": "runtime" if node.section == SECTION_RUNTIME else "mapped",
            "selectable": True,
            "sourceRefs": [code_ref] if code_ref else [],
            "attributes": {
                k: v
                for k, v in (
                    ("semantic", semantic),
                    ("metricScope", node.metric_scope),
                    ("semanticKey", node.name),
                )
                if v
            },
            "backendNodeId": node.node_id,
            "mappingKind": "aggregate" if node.children else "exact",
            "children": [item(structure.nodes[c]) for c in node.children],
        }
        if node.group is not None:
            indices = sorted(node.instance_indices)
            entry["instanceIndices"] = indices
            if len(indices) > 1:
                entry["repeatCount"] = len(indices)
        if node.section == SECTION_GROUP and node.parent is None:
            entry["structureKey"] = node.name
        return entry

    tops = [structure.nodes[i] for i in structure.roots]
    source_children = [item(n) for n in tops if n.section != SECTION_RUNTIME]
    runtime_children = [item(n) for n in tops if n.section == SECTION_RUNTIME]
    for entry in options.declarations.get("source_only", []):
        source_children.append(
            {
                "id": f"{options.namespace}/{entry['path']}",
                "label": entry.get("name") or entry["path"].rsplit("/", 1)[-1],
                "kind": "op",
                "type": "op",
                "origin": "source",
                "dataState": "source_only",
                "selectable": True,
                "sourceRefs": [entry["code_ref"]] if entry.get("code_ref") else [],
                "attributes": {"reason": entry["reason"]},
                "children": [],
            }
        )
    roots = [
        {
            "id": model_root,
            "label": "Source architecture",
            "kind": "section",
            "type": "section",
            "origin": "synthetic",
            "synthetic": True,
            "dataState": "source_only",
            "selectable": False,
            "sourceRefs": [],
            "attributes": {"model": options.model_name},
            "children": source_children,
        },
        {
            "id": runtime_root,
            "label": "Runtime auxiliary",
            "kind": "section",
            "type": "section",
            "origin": "synthetic",
            "synthetic": True,
            "dataState": "runtime",
            "selectable": False,
            "sourceRefs": [],
            "attributes": {},
            "children": runtime_children,
        },
    ]
    edges: list[dict[str, Any]] = []
    declared = _dataflow_edges(options, by_relative)
    joined = {(edge["source"], edge["target"]) for edge in declared}

    def activation(parent_label: str, code_ref: str | None, members: list[Node]) -> None:
        """Edges in the observed order of the members; each carries the declared output tensor of
        its source. A pair that a declared dataflow edge joins gets that edge instead."""
        for first, second in itertools.pairwise(members):
            if (first.node_id, second.node_id) in joined:
                continue
            edges.append(
                {
                    "id": f"activation::{first.node_id}->{second.node_id}",
                    "source": first.node_id,
                    "target": second.node_id,
                    "semanticEdgeType": "activation",
                    "tensor": _tensor(
                        _declared(options, first).get("tensor"),
                        "activation",
                        first.name,
                        second.name,
                        f"node {first.node_id}",
                    ),
                    "provenance": [f"declared children order in {parent_label}", code_ref or "mstx ranges"],
                }
            )

    top_model = [n for n in tops if n.section != SECTION_RUNTIME]
    activation(f"step {structure.representative_step}", None, top_model)
    for node in structure.nodes:
        if node.children and node.section != SECTION_RUNTIME:
            activation(
                node.node_id,
                _declared(options, node).get("code_ref"),
                [structure.nodes[c] for c in node.children],
            )
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
                        "id": f"residual::{group}::{branch['name']}::{position}:{name}->{branch['output']}",
                        "source": source.node_id,
                        "target": output.node_id,
                        "semanticEdgeType": "residual",
                        "dashed": True,
                        "tag": "residual",
                        "tensor": _tensor(
                            branch.get("tensor"),
                            "residual",
                            name,
                            branch["output"],
                            f"branch {branch['name']!r} of {group!r}",
                        ),
                        "provenance": [
                            f"declared branch {branch['name']} of {group}",
                            branch.get("source_ref") or "declarations branches",
                        ],
                    }
                )
    edges.extend(declared)
    cursor = _MARGIN
    for root in roots:
        _, height = _place(root, _MARGIN, cursor)
        cursor += height + 2 * _GAP
    flat_nodes, clusters = _flatten(copy.deepcopy(roots))
    for root in roots:
        _strip_boxes(root)
    extent = flat_nodes + clusters
    return {
        "schema_version": GRAPH_SCHEMA,
        "metadata": {
            "modelId": options.resolved_model_id,
            "reportId": options.report_id,
            "representativeStep": structure.representative_step,
            "extractionScope": "hybrid",
            "sourceScope": "declared_structure",
            "backendScope": structure.representative_step,
            "sourceNodeCount": len(structure.nodes) + len(options.declarations.get("source_only", [])),
            "backendNodeCount": len(structure.nodes),
        },
        "roots": roots,
        "edges": edges,
        "width": max((n["x"] + n["width"] for n in extent), default=0) + _MARGIN,
        "height": max((n["y"] + n["height"] for n in extent), default=0) + _MARGIN,
        "nodes": flat_nodes,
        "clusters": clusters,
    }


def _dataflow_edges(options: BreakdownOptions, by_relative: dict[str, Node]) -> list[dict[str, Any]]:
    """The declared dataflow edges, typed as oam-tools' builder types ``dataflow.edges[].kind``
    (DATAFLOW_KINDS; ``activation`` when no kind is declared): a ``residual`` is dashed, a
    ``runtime_carry`` (state carried to a later invocation) needs a positive ``invocation_offset``
    and crosses invocations. Declared ports become the tensor's ``from`` / ``to``."""
    edges = []
    for position, flow in enumerate(options.declarations.get("dataflow", [])):
        label = f"dataflow {flow.get('name', position)!r}"
        ends = []
        for side in ("source", "target"):
            path = flow[side]["structure"]
            found = by_relative.get(path)
            if found is None:
                raise BreakdownError(f"{label}: {side} {path!r} is not in the capture")
            ends.append(found)
        kind = flow.get("kind", "activation")
        if kind not in DATAFLOW_KINDS:
            raise BreakdownError(f"{label}: kind {kind!r} is not one of {', '.join(DATAFLOW_KINDS)}")
        edge_type = DATAFLOW_KINDS[kind]
        edge: dict[str, Any] = {
            "id": f"dataflow::{position}::{ends[0].node_id}->{ends[1].node_id}",
            "source": ends[0].node_id,
            "target": ends[1].node_id,
            "semanticEdgeType": edge_type,
            "tensor": _tensor(
                flow.get("tensor"),
                edge_type,
                flow["source"].get("port") or ends[0].name,
                flow["target"].get("port") or ends[1].name,
                label,
            ),
            "provenance": [
                f"declared dataflow {flow.get('name', position)}",
                flow.get("source_ref") or "declarations dataflow",
            ],
        }
        if edge_type == "residual":
            edge.update(dashed=True, tag="residual")
        if kind == "runtime_carry":
            offset = flow.get("invocation_offset")
            if not isinstance(offset, int) or isinstance(offset, bool) or offset <= 0:
                raise BreakdownError(
                    f"{label}: a runtime_carry edge needs a positive integer invocation_offset"
                )
            edge.update(crossInvocation=True, crossStep=offset)
        edges.append(edge)
    return edges


def _strip_boxes(item: dict[str, Any]) -> None:
    item.pop("_box", None)
    for child in item["children"]:
        _strip_boxes(child)
