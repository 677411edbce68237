"""The breakdown of one capture and its facts files in oam-tools' stage-2 schema: analysis config,
perf data, timeline (timeline.py) and architecture graph (architecture_graph.py), plus the stage-3
inputs (docs/trace.md describes every field); what the documents share is in facts_fields.py."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from mspti_trace.breakdown import handoff
from mspti_trace.breakdown.architecture_graph import build_graph
from mspti_trace.breakdown.attribution import (
    ATTRIBUTED,
    EXCLUDED,
    UNATTRIBUTED,
    Attribution,
    attribute,
    device_ops,
)
from mspti_trace.breakdown.facts_fields import declared_of, identity, rounded
from mspti_trace.breakdown.forest import RangeForest, build_forest
from mspti_trace.breakdown.options import BreakdownError, BreakdownOptions, ConversionRefused
from mspti_trace.breakdown.output_dir import claim_output_dir, record_written
from mspti_trace.breakdown.schema import (
    ANALYSIS_SCHEMA_VERSION,
    ATTRIBUTION_SCHEMA_VERSION,
    COUNTER_KEYS,
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
from mspti_trace.breakdown.timeline import build_timeline
from mspti_trace.kinds import ActivityKind
from mspti_trace.reader import Capture, Trace, device_properties

__all__ = ["Breakdown", "build_breakdown", "emit_facts"]

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
    timeline = build_timeline(capture, forest, structure, attribution, options)
    graph = build_graph(structure, options)
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


def _node_json(
    structure: Structure, node: Node, options: BreakdownOptions, metrics: _Metrics
) -> dict[str, Any]:
    declared = declared_of(options, node)
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
                "duration_us": rounded(max(end - start, 0) / 1000.0),
                "duplicate_of": None,
                "start_time_us": rounded(start / 1000.0),
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
        **identity(options, structure),
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
            "time_us": None if sampled else rounded(metrics.time[node.index]),
            "time_pct": None
            if sampled
            else (rounded(100.0 * metrics.time[node.index] / total) if total else 0.0),
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
            "code_ref": declared_of(options, node).get("code_ref"),
            "kernel_scope_note": _scope_note(node, options),
            "sampled_window_span_us": rounded(node.window_span_ns / 1000.0) if sampled else None,
        }
        modules.append(record)
    modules.sort(key=lambda m: -(m["time_us"] or 0.0))  # stable: ties keep the structure order
    profile = _device_profile(capture)
    return {
        "schema_version": ANALYSIS_SCHEMA_VERSION,
        **identity(options, structure),
        "id_namespace": options.namespace,
        "peak_bf16_tflops_assumed": None,
        "aicore_freq_mhz": profile["aicore_freq_mhz"],
        "device_profile": profile,
        "total_time_us": rounded(total),
        "accounting": _accounting(structure, forest, attribution, options),
        "modules": modules,
        "scope_note": "Metrics are representative-step aggregates over attributed kernels and "
        "communication operations; time is the device span of each operation.",
    }
