"""The stage-3 inputs written beside the facts files: the architecture overlay map, the trace
bindings and the report hand-off, in the shapes of hicann/oam-tools (commit 5f42532,
``skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/scripts/build_overlay_and_config.py`` and
``scripts/build_trace_bindings.py``)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from mspti_trace.breakdown.schema import (
    BINDINGS_CONTRACT,
    HANDOFF_SCHEMA,
    NON_COMPUTE_MAPPING,
    OVERLAY_SCHEMA,
)

__all__ = ["bindings", "graph_items", "handoff", "overlay"]

#: Nanoseconds a bound raw event's start may differ from the timeline event's (the raw trace writes
#: microseconds with three decimals).
_TS_TOLERANCE_US = 0.0015


def graph_items(graph: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every item of the graph's tree, by id."""
    items: dict[str, dict[str, Any]] = {}
    stack = list(graph.get("roots") or [])
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            items[str(item.get("id"))] = item
            stack.extend(item.get("children") or [])
    return items


def overlay(analysis: dict[str, Any], perf: dict[str, Any], graph: dict[str, Any]) -> dict[str, Any]:
    """architecture_overlay_map.json: each perf node mapped to the graph item of the same id."""
    items = graph_items(graph)
    mappings = []
    for module in perf.get("modules") or []:
        node_id = module["node_id"]
        item = items.get(node_id, {})
        refs = item.get("sourceRefs") or []
        mappings.append(
            {
                "backend_node_id": node_id,
                "source_node_ids": [node_id],
                "projected_graph_node_id": node_id if item else None,
                "mapping_kind": item.get("mappingKind") or "exact",
                "evidence": [
                    f"source: {refs[0]}" if refs else "source: declared mstx range structure",
                    f"performance scope: representative step {analysis.get('representative_step')}",
                ],
                "review_state": "resolved" if item else "unresolved",
            }
        )
    modules = perf.get("modules") or []
    classified = sum(1 for m in mappings if m["review_state"] == "resolved")
    return {
        "schema_version": OVERLAY_SCHEMA,
        "model_id": analysis.get("model_id"),
        "report_id": analysis.get("report_id"),
        "purpose": "bind backend performance nodes to declared source architecture items",
        "id_namespace": analysis.get("id_namespace"),
        "mappings": mappings,
        "source_only_nodes": [
            e.get("structure_node_id") for e in analysis.get("source_only_structure") or []
        ],
        "validation": {
            "backend_node_count": len(modules),
            "mapped_or_classified_backend_node_count": classified,
            "all_backend_nodes_classified": classified == len(modules),
        },
    }


def handoff(
    names: dict[str, str], analysis: dict[str, Any], graph: dict[str, Any], with_trace: bool
) -> dict[str, Any]:
    """ui-report-handoff.json. Paths are relative to the directory holding it. ``modelSource`` is
    the first declared ``architecture.source_of_truth``, null when none is declared (stage 3 then
    asks for it)."""
    truth = (analysis.get("architecture") or {}).get("source_of_truth")
    sources = [truth] if isinstance(truth, str) else list(truth or [])
    model_source = next((s for s in sources if isinstance(s, str) and s.strip()), None)
    repeated = any(int(item.get("repeatCount") or 0) > 1 for item in graph_items(graph).values())
    return {
        "schema_version": HANDOFF_SCHEMA,
        "model_family": analysis.get("model_name") or analysis.get("model_id"),
        "skill3_adapter": "generic",
        "inputs": {
            "analysis": f"./{names['analysis']}",
            "performance": f"./{names['perf']}",
            "timeline": f"./{names['timeline']}",
            "trace": f"./{names['trace']}" if with_trace else None,
            "bindings": f"./{names['bindings']}" if with_trace else None,
            "architecture": f"./{names['graph']}",
            "overlay": f"./{names['overlay']}",
        },
        "optional_inputs": {},
        "capabilities": {
            "repeatedLayers": repeated,
            "expertInventory": False,
            # A derived clock range needs cycle counters, which activity records do not carry.
            "aicoreFrequency": False,
        },
        "provenance": {
            "skills": ["cann-perf-breakdown", "cann-perf-breakdown-to-ui-json"],
            "modelSource": model_source,
            "extractorModel": "mspti-sim trace breakdown (declared mstx ranges, correlation ids)",
        },
    }


def _raw_ns(raw: str) -> int:
    """start_time_us_raw (exact microseconds text) back to nanoseconds."""
    negative = raw.startswith("-")
    whole, _, frac = raw.lstrip("-").partition(".")
    ns = int(whole) * 1000 + int((frac + "000")[:3])
    return -ns if negative else ns


def _raw_index(trace_path: Path) -> tuple[list[dict[str, Any]], dict[tuple, list[int]]]:
    events = json.loads(trace_path.read_text(encoding="utf-8")).get("traceEvents") or []
    index: dict[tuple, list[int]] = defaultdict(list)
    for position, event in enumerate(events):
        if event.get("ph") != "X":
            continue
        args = event.get("args") or {}
        correlation = args.get("correlation_id", args.get("correlation"))
        index[(event.get("pid"), event.get("name"), correlation)].append(position)
    return events, index


def bindings(
    timeline: dict[str, Any], trace_path: Path, time_base_ns: int, host_pid: int, names: dict[str, str]
) -> dict[str, Any]:
    """trace_bindings.json: every timeline event bound to one X event of the raw trace, by exact
    (process, name, correlation id) and the nearest start within the trace's precision; runtime
    windows to the mstx slice of their range. An event that matches nothing stays unbound and is
    listed (never bound to a guess)."""
    from mspti_trace.chrome import device_pid

    raw, index = _raw_index(trace_path)
    used: set[int] = set()
    bound: list[dict[str, Any]] = []
    unbound: list[dict[str, Any]] = []
    events = timeline.get("events") or []
    for event in events:
        compute = event.get("mapping_status") != NON_COMPUTE_MAPPING
        if compute:
            key = (device_pid(int(event["device_id"])), event["name"], event["correlation_id"])
        else:
            key = (host_pid, event["name"], None)
        start_ns = _raw_ns(str(event["start_time_us_raw"]))
        ts = (start_ns - time_base_ns) / 1000.0
        candidates = [i for i in index.get(key, []) if i not in used]
        pick = min(candidates, key=lambda i: abs(float(raw[i].get("ts", 0.0)) - ts), default=None)
        if pick is None or abs(float(raw[pick].get("ts", 0.0)) - ts) > _TS_TOLERANCE_US:
            unbound.append({"timeline_event_id": event["event_id"], "reason": "no raw X event matches"})
            continue
        used.add(pick)
        bound.append(
            {
                "trace_event_id": event["event_id"],
                "raw_source_event_index": pick,
                "timeline_event_id": event["event_id"],
                "op_index": event.get("op_index"),
                "node_id": event["owner_node_id"],
                "instance_id": event.get("instance_index"),
                "structure_instance_node_id": event.get("structure_instance_node_id"),
                "submodule": event.get("submodule"),
                "relation": "direct_kernel_owner" if compute else "window_owner",
                "mapping_method": event.get("mapping_status"),
                "confidence": "high",
            }
        )
    return {
        "schema_version": 1,
        "contract": BINDINGS_CONTRACT,
        "model_id": timeline.get("model_id"),
        "report_id": timeline.get("report_id"),
        "representative_step": timeline.get("representative_step"),
        "sources": {
            "timeline": names["timeline"],
            "raw_trace": names["trace"],
            "attribution": names["attribution"],
        },
        "bindings": bound,
        "unbound": unbound,
        "summary": {
            "timeline_events": len(events),
            "bound_events": len(bound),
            "direct_events": sum(1 for b in bound if b["relation"] == "direct_kernel_owner"),
            "propagated_events": 0,
            "coverage_pct": round(100.0 * len(bound) / max(1, len(events)), 4),
        },
    }
