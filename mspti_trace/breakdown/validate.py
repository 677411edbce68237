"""Cross-file invariants of the facts files and the stage-3 inputs. Every failure names the invariant
and the node (or event, edge, file) it concerns.

The invariants re-express the checks of hicann/oam-tools' ``validate_conversion.py`` (commit 5f42532,
``skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/scripts/``; ``OAM_TOOLS_CHECKS`` names the
checks each one covers) and the cross-file invariants of ``references/schema-mapping.md``; ``schema``
checks every document against its JSON Schema (``mspti_trace/breakdown/schemas``). Not
re-expressed: the MoE expert-inventory checks, since the breakdown writes no expert inventory. The graph
rules of the stage-3 validator (``3-generate-ui-json-report/scripts/validate-architecture-graph.mjs``,
same commit) on edge types, tensor fields and ``sourceRefs`` are re-expressed too (validate_graph.py),
and the kernel attribution (``kernel_attribution.json``, when present) is checked to count every kernel
once."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mspti_trace.breakdown.schema import (
    ATTRIBUTION_FILE,
    BINDINGS_FILE,
    FREQ_BASES,
    GRAPH_FILE,
    HANDOFF_FILE,
    METRIC_SCOPES,
    NODE_KINDS,
    NON_COMPUTE_MAPPING,
    OVERLAY_FILE,
    PERF_KEYS,
    RATIO_KEYS,
)
from mspti_trace.breakdown.validate_graph import (
    graph_edges,
    graph_ids,
    graph_items_of,
    graph_source_refs,
    runtime_separation,
    walk,
)
from mspti_trace.breakdown.validation_report import Failure, ValidationReport
from mspti_trace.reader import read_json_object

__all__ = [
    "INVARIANTS",
    "OAM_TOOLS_CHECKS",
    "Failure",
    "ValidationReport",
    "load_facts",
    "validate_documents",
    "validate_facts",
]

#: Every invariant the validator enforces, by the name its failures carry.
INVARIANTS: dict[str, str] = {
    "identity": "model_id, report_id and representative_step are identical across the files",
    "node_sets": "analysis and perf data have the same node ids, one to one, without duplicates",
    "perf_keys": "every perf record carries every key (null for what was not measured)",
    "node_shape": "node kinds and metric scopes are valid; modules have children, ops have none",
    "aggregate_sums": "an aggregate node's time and kernel count are the sums over its children",
    "timeline_owners": "every timeline event has an owner node and the owner resolves",
    "kernel_conservation": "leaf mapped_kernels = attributed = timeline compute events, and "
    "attributed + excluded + unattributed = total with 0 unattributed; in kernel_attribution.json every "
    "kernel is attributed (to its timeline owner), excluded or unattributed exactly once",
    "source_only": "source-only entries are keyed by structure_node_id, carry a reason and never appear "
    "in perf data",
    "graph_backend_ids": "every graph backendNodeId resolves and source-only entries have none",
    "graph_edges": "the graph has roots, and every edge joins known nodes, has a stage-3 semantic edge "
    "type and carries tensor metadata (text name, shape and dtype) and provenance; residual edges are "
    "dashed, cross-invocation edges name their step",
    "graph_source_refs": "every item of the source architecture cites its source (sourceRefs) unless it "
    "is synthetic or known from the trace only",
    "runtime_separation": "runtime auxiliary graph nodes sit under the runtime root and no edge joins "
    "them to the model dataflow",
    "counter_consistency": "a cycle-implied time is within 1 % of the reported counter time, and no cycle "
    "count is given without a clock",
    "pipe_ratio_range": "every pipeline ratio lies in [0, 1]",
    "counter_fabrication": "no counter metric on a node none of whose kernels carried counters",
    "duplicate_counters": "of a duplicate pair of timeline rows at most one carries counters",
    "sampled_window_time": "sampled-window nodes have time_us null",
    "clock_basis": "no clock without a device profile; the clock basis is derived, declared or unavailable, "
    "agrees with the device profile and no cross-check reports a mismatch",
    "schema": "every document matches its JSON Schema",
    "stage3_inputs": "the overlay maps every perf node to a graph item and every timeline event is bound to "
    "one raw trace event of its name",
}

_VC = "skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/scripts/validate_conversion.py"
_AG = "skills/cann-perf-breakdown/3-generate-ui-json-report/scripts/validate-architecture-graph.mjs"
_AK = "skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/scripts/attribute_kernels.py"
_SM = "skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/references/schema-mapping.md"
#: Per invariant: the checks of oam-tools (commit 5f42532) it re-expresses, as ``path: check label``.
OAM_TOOLS_CHECKS: dict[str, tuple[str, ...]] = {
    "identity": (f"{_VC}: {{field}} identical across the three facts",),
    "node_sets": (
        f"{_VC}: one analysis definition per node_id",
        f"{_VC}: one performance record per node_id",
        f"{_VC}: every performance node exists in analysis",
    ),
    "perf_keys": (f"{_VC}: every performance record declares all metric keys",),
    "node_shape": (f"{_SM}: Node shape (node_kind module when it has children, op when it is a leaf)",),
    "aggregate_sums": (f"{_SM}: Metric scope (aggregate sums descendants)",),
    "timeline_owners": (
        f"{_VC}: every timeline owner resolves in analysis",
        f"{_VC}: every timeline event has an owner",
    ),
    "kernel_conservation": (
        f"{_VC}: timeline compute events match attributed kernels",
        f"{_VC}: attributed + excluded + unattributed equals total kernels",
        f"{_VC}: reported accounted kernel count is internally consistent",
        f"{_VC}: kernel accounting coverage is 100%",
        f"{_SM}: Cross-file invariants (sum(mapped_kernels) over leaves equals the attributed count)",
        f"{_AK}: every kernel accounted for exactly once (kernel(s) claimed twice, unattributed)",
    ),
    "source_only": (
        f"{_VC}: no source-only node carries metrics",
        f"{_VC}: source-only entries use structure_node_id, not node_id",
        f"{_VC}: every source-only node records a reason",
    ),
    "graph_backend_ids": (
        f"{_VC}: every graph backendNodeId resolves in analysis",
        f"{_VC}: source-only graph items carry no backendNodeId",
    ),
    "graph_edges": (
        f"{_VC}: graph declares the v1 contract",
        f"{_VC}: graph roots are nonempty",
        f"{_VC}: graph declares section/source_architecture",
        f"{_VC}: graph declares section/runtime_auxiliary",
        f"{_VC}: graph declares explicit edges",
        f"{_VC}: every edge carries tensor metadata and provenance",
        f"{_AG}: has unsupported semanticEdgeType",
        f"{_AG}: tensor.name / tensor.shape / tensor.dtype is missing (a string) for activation and residual",
        f"{_AG}: tensor.role ... but semanticEdgeType is activation",
        f"{_AG}: is a residual edge but dashed is not true",
        f"{_AG}: has crossInvocation=true but lacks crossStep or crossSteps",
    ),
    "graph_source_refs": (f"{_AG}: has no sourceRefs",),
    "runtime_separation": (f"{_SM}: Graph (a separate section/runtime_auxiliary root)",),
    "counter_consistency": (f"{_VC}: cycle-implied time reconciles with reported counter time",),
    "pipe_ratio_range": (f"{_VC}: every pipeline ratio lies in [0,1]",),
    "counter_fabrication": (f"{_VC}: no counter metric without a counter-bearing kernel",),
    "duplicate_counters": (f"{_VC}: a duplicated collective reports counters on one row only",),
    "sampled_window_time": (f"{_VC}: sampled-window nodes report time_us as null",),
    "clock_basis": (
        f"{_VC}: no device_profile means no clock is claimed",
        f"{_VC}: top-level aicore_freq_mhz matches device_profile",
        f"{_VC}: clock basis is a known provenance",
        f"{_VC}: declared and derived clocks agree within tolerance",
    ),
    "schema": (f"{_SM}: Performance record (every key present even when null), Timeline event",),
    "stage3_inputs": (
        "skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/scripts/build_overlay_and_config.py: "
        "performance node absent from architecture graph",
        "skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/scripts/build_trace_bindings.py: "
        "Timeline event(s) could not be bound",
    ),
}
_TOLERANCE = 0.01


def load_facts(directory: Path | str) -> dict[str, Any]:
    """The documents of a facts directory (one ``*_analysis_config.json`` in it): ``analysis``,
    ``perf``, ``timeline``, ``graph`` and, when written, ``overlay``, ``bindings``, ``handoff``,
    ``attribution``."""
    root = Path(directory)
    configs = sorted(root.glob("*_analysis_config.json"))
    if len(configs) != 1:
        raise FileNotFoundError(f"{root}: expected one *_analysis_config.json, found {len(configs)}")
    prefix = configs[0].name[: -len("_analysis_config.json")]
    paths = {
        "analysis": configs[0],
        "perf": root / f"{prefix}_perf_data.json",
        "timeline": root / f"{prefix}_timeline.json",
        "graph": root / GRAPH_FILE,
    }
    optional = {
        "overlay": root / OVERLAY_FILE,
        "bindings": root / BINDINGS_FILE,
        "handoff": root / HANDOFF_FILE,
        "attribution": root / ATTRIBUTION_FILE,
    }
    documents = {}
    for key, path in paths.items():
        if not path.exists():
            raise FileNotFoundError(f"{path}: missing facts file")
        documents[key] = read_json_object(path)
    for key, path in optional.items():
        if path.exists():
            documents[key] = read_json_object(path)
    return documents


def validate_facts(directory: Path | str) -> ValidationReport:
    """Validates the facts files in ``directory``."""
    return validate_documents(load_facts(directory))


def _analysis_nodes(analysis: dict[str, Any]) -> list[dict[str, Any]]:
    tops = [
        *analysis.get("stages", {}).values(),
        *analysis.get("layer_structure", {}).values(),
        *analysis.get("runtime_auxiliary", []),
    ]
    return walk(tops)


def validate_documents(documents: dict[str, Any]) -> ValidationReport:
    """Validates the documents (keys ``analysis``, ``perf``, ``timeline``, ``graph``; ``overlay``,
    ``bindings``, ``handoff`` and ``attribution`` when present)."""
    report = ValidationReport(checked=list(INVARIANTS))
    analysis, perf, timeline, graph = (documents[k] for k in ("analysis", "perf", "timeline", "graph"))
    try:
        nodes = _analysis_nodes(analysis)
    except (AttributeError, TypeError) as error:
        report.fail("schema", "analysis", f"the node tree cannot be walked ({error})")
        nodes = []
    nodes = [node for node in nodes if isinstance(node, dict)]
    by_id: dict[str, dict[str, Any]] = {str(node.get("node_id")): node for node in nodes}
    records = [r for r in perf.get("modules") or [] if isinstance(r, dict)] if isinstance(perf, dict) else []
    report.account = (perf.get("accounting") or {}).get("account") if isinstance(perf, dict) else None
    checks: list[tuple[str, Callable[[], None]]] = [
        ("schema", lambda: _schema(report, documents)),
        ("identity", lambda: _identity(report, documents)),
        ("node_sets", lambda: _node_sets(report, nodes, records)),
        ("perf_keys", lambda: _perf_keys(report, records)),
        ("node_shape", lambda: _node_shape(report, nodes)),
        ("aggregate_sums", lambda: _aggregate_sums(report, nodes, records)),
        ("timeline_owners", lambda: _timeline_owners(report, timeline, by_id)),
        ("kernel_conservation", lambda: _conservation(report, nodes, perf, timeline)),
        ("kernel_conservation", lambda: _attribution(report, documents.get("attribution"), perf, timeline)),
        ("source_only", lambda: _source_only(report, analysis, records)),
        ("graph_backend_ids", lambda: graph_ids(report, graph, by_id)),
        ("graph_edges", lambda: graph_edges(report, graph)),
        ("graph_source_refs", lambda: graph_source_refs(report, graph)),
        ("runtime_separation", lambda: runtime_separation(report, graph)),
        ("counter_consistency", lambda: _counters(report, records, perf)),
        ("pipe_ratio_range", lambda: _ratios(report, records)),
        ("counter_fabrication", lambda: _fabricated(report, records)),
        ("duplicate_counters", lambda: _duplicates(report, timeline)),
        ("sampled_window_time", lambda: _sampled(report, records)),
        ("clock_basis", lambda: _clock(report, perf)),
        ("stage3_inputs", lambda: _stage3(report, documents, records, timeline)),
    ]
    for name, check in checks:
        try:
            check()
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            # A document too malformed to walk (the schema check names where): reported, not raised.
            report.fail(name, None, f"cannot be checked on these documents ({type(error).__name__}: {error})")
    return report


def _schema(report: ValidationReport, documents: dict[str, Any]) -> None:
    from mspti_trace.breakdown.schemas import SCHEMA_FILES, schema_errors

    for key in SCHEMA_FILES:
        if key in documents:
            for error in schema_errors(key, documents[key]):
                report.fail("schema", key, error)


def _identity(report: ValidationReport, documents: dict[str, Any]) -> None:
    graph_meta = documents["graph"].get("metadata") or {}
    for key, graph_key in (("model_id", "modelId"), ("report_id", "reportId"), ("representative_step", None)):
        values = {
            name: documents[doc].get(key, "<missing>")
            for name, doc in (
                ("analysis config", "analysis"),
                ("perf data", "perf"),
                ("timeline", "timeline"),
            )
        }
        if graph_key is not None:
            values["architecture graph"] = graph_meta.get(graph_key, "<missing>")
            for name in ("overlay", "bindings"):
                if name in documents:
                    values[name] = documents[name].get(key, "<missing>")
        elif "bindings" in documents:
            values["bindings"] = documents["bindings"].get(key, "<missing>")
        if len({json.dumps(v) for v in values.values()}) != 1:
            shown = ", ".join(f"{name}={value!r}" for name, value in values.items())
            report.fail("identity", key, f"differs across the files: {shown}")


def _node_sets(report: ValidationReport, nodes: list[dict], records: list[dict]) -> None:
    analysis_ids = Counter(node.get("node_id") for node in nodes)
    perf_ids = Counter(record.get("node_id") for record in records)
    for node_id, count in analysis_ids.items():
        if count > 1:
            report.fail("node_sets", node_id, f"appears {count} times in the analysis config")
    for node_id, count in perf_ids.items():
        if count > 1:
            report.fail("node_sets", node_id, f"has {count} perf records")
    for node_id in analysis_ids.keys() - perf_ids.keys():
        report.fail("node_sets", node_id, "is in the analysis config but has no perf record")
    for node_id in perf_ids.keys() - analysis_ids.keys():
        report.fail("node_sets", node_id, "has a perf record but is not in the analysis config")


def _perf_keys(report: ValidationReport, records: list[dict]) -> None:
    for record in records:
        missing = [key for key in PERF_KEYS if key not in record]
        if missing:
            report.fail("perf_keys", record.get("node_id"), f"missing key(s) {', '.join(missing)}")


def _node_shape(report: ValidationReport, nodes: list[dict]) -> None:
    for node in nodes:
        node_id, kind, children = node.get("node_id"), node.get("node_kind"), node.get("children") or []
        if kind not in NODE_KINDS:
            report.fail("node_shape", node_id, f"node_kind {kind!r} is not one of {', '.join(NODE_KINDS)}")
        if node.get("metric_scope") not in METRIC_SCOPES:
            report.fail("node_shape", node_id, f"metric_scope {node.get('metric_scope')!r} is not known")
        if kind == "module" and not children:
            report.fail("node_shape", node_id, "a module without children")
        if kind == "op" and children:
            report.fail("node_shape", node_id, "an op with children (its kernels would count twice)")
        if children and node.get("metric_scope") != "aggregate":
            report.fail("node_shape", node_id, "a node with children must have metric_scope aggregate")
        if not isinstance(node.get("mapped_kernels"), int):
            report.fail("node_shape", node_id, "mapped_kernels is not a count")


def _aggregate_sums(report: ValidationReport, nodes: list[dict], records: list[dict]) -> None:
    perf_by_id = {record.get("node_id"): record for record in records}
    for node in nodes:
        children = node.get("children") or []
        if node.get("metric_scope") != "aggregate" or not children:
            continue
        kernels = sum(child.get("mapped_kernels", 0) for child in children)
        if node.get("mapped_kernels") != kernels:
            report.fail(
                "aggregate_sums",
                node.get("node_id"),
                f"mapped_kernels {node.get('mapped_kernels')} != {kernels}, the sum over its children",
            )
        own = perf_by_id.get(node.get("node_id"), {}).get("time_us")
        parts = [perf_by_id.get(child.get("node_id"), {}).get("time_us") for child in children]
        if own is None or any(part is None for part in parts):
            continue
        total = sum(float(part) for part in parts if part is not None)
        if not math.isclose(own, total, rel_tol=1e-6, abs_tol=1e-3):
            report.fail(
                "aggregate_sums", node.get("node_id"), f"time_us {own} != {total}, the sum over its children"
            )


def _timeline_owners(report: ValidationReport, timeline: dict, by_id: dict[str, dict]) -> None:
    for event in timeline.get("events", []):
        owner = event.get("owner_node_id")
        if not owner:
            report.fail("timeline_owners", event.get("event_id"), "event without an owner_node_id")
        elif owner not in by_id:
            report.fail(
                "timeline_owners",
                event.get("event_id"),
                f"owner {owner!r} is not a node of the analysis config",
            )


def _is_compute(event: dict) -> bool:
    """As validate_conversion.py counts them: every event that is not a window."""
    return event.get("mapping_status") != NON_COMPUTE_MAPPING


def _conservation(report: ValidationReport, nodes: list[dict], perf: dict, timeline: dict) -> None:
    accounting = perf.get("accounting")
    if not isinstance(accounting, dict):
        report.fail("kernel_conservation", "perf data", "no accounting block")
        return
    leaves = sum(node.get("mapped_kernels", 0) for node in nodes if not node.get("children"))
    attributed = accounting.get("kernels_attributed")
    compute = sum(1 for event in timeline.get("events", []) if _is_compute(event))
    if not leaves == attributed == compute:
        report.fail(
            "kernel_conservation",
            "perf data",
            f"leaf mapped_kernels {leaves}, attributed {attributed} and timeline compute events "
            f"{compute} differ",
        )
    excluded = accounting.get("kernels_excluded")
    unattributed = accounting.get("unattributed")
    parts = [attributed, excluded, len(unattributed) if isinstance(unattributed, list) else None]
    counts = [part for part in parts if isinstance(part, int)]
    if len(counts) != len(parts) or sum(counts) != accounting.get("kernels_total"):
        report.fail(
            "kernel_conservation",
            "perf data",
            f"attributed + excluded + unattributed = {parts} does not add up to total "
            f"{accounting.get('kernels_total')}",
        )
    if len(counts) == len(parts) and accounting.get("kernels_accounted") != counts[0] + counts[1]:
        report.fail(
            "kernel_conservation",
            "perf data",
            f"kernels_accounted {accounting.get('kernels_accounted')} != attributed + excluded "
            f"{counts[0] + counts[1]}",
        )
    if accounting.get("accounting_coverage_pct") != 100.0 or unattributed:
        report.fail(
            "kernel_conservation",
            "perf data",
            f"accounting below 100 %: coverage {accounting.get('accounting_coverage_pct')} %, "
            f"{len(unattributed or [])} unattributed kernel(s)",
        )
    per_node = Counter(
        event.get("owner_node_id") for event in timeline.get("events", []) if _is_compute(event)
    )
    for node in nodes:
        if not node.get("children") and per_node.get(node.get("node_id"), 0) != node.get("mapped_kernels", 0):
            report.fail(
                "kernel_conservation",
                node.get("node_id"),
                f"mapped_kernels {node.get('mapped_kernels')} but {per_node.get(node.get('node_id'), 0)} "
                "timeline compute events",
            )


def _attribution(report: ValidationReport, attribution: Any, perf: dict, timeline: dict) -> None:
    """kernel_attribution.json: each op_index of the capture's kernels is attributed, excluded or
    unattributed exactly once; the summary counts those lists and agrees with the perf accounting;
    the attributed rows are the timeline's compute events, with the same owners."""
    if attribution is None:
        return
    summary, rows = attribution["summary"], attribution["rows"]
    excluded, unattributed = summary["excluded"], summary["unattributed"]
    seen = Counter(row["op_index"] for row in rows)
    seen.update(excluded)
    seen.update(unattributed)
    accounting = perf.get("accounting") or {}
    total = max(summary["kernels_total"], accounting.get("kernels_total") or 0)
    for op_index in range(total):
        if seen.get(op_index, 0) == 0:
            report.fail(
                "kernel_conservation",
                f"op_index {op_index}",
                "kernel lost: neither attributed, excluded nor unattributed in kernel_attribution.json",
            )
    for op_index, count in sorted(seen.items(), key=lambda item: str(item[0])):
        if count > 1:
            report.fail(
                "kernel_conservation",
                f"op_index {op_index}",
                f"kernel counted {count} times in kernel_attribution.json (attributed twice, or both "
                "attributed and excluded)",
            )
        elif not isinstance(op_index, int) or not 0 <= op_index < total:
            report.fail("kernel_conservation", f"op_index {op_index}", f"not a kernel of the {total}")
    counted = {
        "kernels_attributed": len(rows),
        "kernels_excluded": len(excluded),
        "kernels_accounted": len(rows) + len(excluded),
        "kernels_total": len(rows) + len(excluded) + len(unattributed),
    }
    for key, value in counted.items():
        if summary.get(key) != value:
            report.fail(
                "kernel_conservation",
                "kernel_attribution",
                f"summary {key} {summary.get(key)}, its lists hold {value}",
            )
        if key in accounting and accounting[key] != summary.get(key):
            report.fail(
                "kernel_conservation",
                "kernel_attribution",
                f"summary {key} {summary.get(key)}, the perf accounting {accounting[key]}",
            )
    owners = {
        event.get("op_index"): event.get("owner_node_id")
        for event in timeline.get("events", [])
        if _is_compute(event)
    }
    for row in rows:
        if row["op_index"] in owners and owners[row["op_index"]] != row["owner_node_id"]:
            report.fail(
                "kernel_conservation",
                f"op_index {row['op_index']}",
                f"attributed to {row['owner_node_id']!r}, the timeline owner is {owners[row['op_index']]!r}",
            )
        elif row["op_index"] not in owners:
            report.fail(
                "kernel_conservation", f"op_index {row['op_index']}", "attributed but not in the timeline"
            )
    for op_index in owners.keys() - seen.keys():
        report.fail("kernel_conservation", f"op_index {op_index}", "in the timeline but not attributed")


def _source_only(report: ValidationReport, analysis: dict, records: list[dict]) -> None:
    perf_ids = {record.get("node_id") for record in records}
    metric_keys = set(PERF_KEYS) - {"node_id", "code_ref", "instance_indices", "module", "metric_scope"}
    for entry in analysis.get("source_only_structure", []):
        key = entry.get("structure_node_id")
        if "node_id" in entry or not key:
            report.fail(
                "source_only",
                key or entry.get("node_id"),
                "source-only entry keyed by node_id, not structure_node_id",
            )
        if key in perf_ids or entry.get("node_id") in perf_ids:
            report.fail("source_only", key, "a source-only node appears in perf data")
        carried = sorted(metric_keys & set(entry))
        if carried:
            report.fail("source_only", key, f"a source-only node carries metrics ({', '.join(carried)})")
        if not str(entry.get("reason") or "").strip():
            report.fail("source_only", key, "a source-only node without a concrete reason")


def _counters(report: ValidationReport, records: list[dict], perf: dict) -> None:
    clock = perf.get("aicore_freq_mhz")
    for record in records:
        node_id = record.get("node_id")
        for cycle_time_key, time_key in (
            ("aicore_cycle_time_us", "aicore_time_us"),
            ("aiv_cycle_time_us", "aiv_time_us"),
        ):
            cycle_time, measured = record.get(cycle_time_key), record.get(time_key)
            if record.get(cycle_time_key) is not None and not clock:
                report.fail(
                    "counter_consistency",
                    node_id,
                    f"{cycle_time_key} without a clock: cycle times cannot be derived",
                )
            if (
                clock
                and cycle_time is not None
                and measured
                and not math.isclose(cycle_time, measured, rel_tol=_TOLERANCE)
            ):
                report.fail(
                    "counter_consistency",
                    node_id,
                    f"{cycle_time_key} {cycle_time} is not within 1 % of {time_key} {measured}",
                )


def _ratios(report: ValidationReport, records: list[dict]) -> None:
    for record in records:
        for key in RATIO_KEYS:
            value = record.get(key)
            if value is not None and not (isinstance(value, int | float) and 0.0 <= value <= 1.0):
                report.fail("pipe_ratio_range", record.get("node_id"), f"{key} = {value!r} is outside [0, 1]")


def _fabricated(report: ValidationReport, records: list[dict]) -> None:
    from mspti_trace.breakdown.schema import COUNTER_KEYS

    for record in records:
        coverage = record.get("counter_coverage") or {}
        if coverage.get("kernels_with_counters") != 0:
            continue
        carried = [key for key in COUNTER_KEYS if record.get(key) is not None]
        if carried:
            report.fail(
                "counter_fabrication",
                record.get("node_id"),
                f"{', '.join(carried)} set although none of its kernels carried counters",
            )


def _duplicates(report: ValidationReport, timeline: dict) -> None:
    events = {event.get("event_id"): event for event in timeline.get("events", [])}
    for event in events.values():
        other_id = event.get("duplicate_of")
        if other_id is None:
            continue
        other = events.get(other_id)
        if other is None:
            report.fail(
                "duplicate_counters", event.get("event_id"), f"duplicate_of {other_id!r} is not an event"
            )
        elif event.get("counters") and other.get("counters"):
            report.fail(
                "duplicate_counters",
                event.get("event_id"),
                f"both rows of the pair with {other_id} carry counters",
            )


def _sampled(report: ValidationReport, records: list[dict]) -> None:
    for record in records:
        if record.get("metric_scope") == "sampled_window_context" and record.get("time_us") is not None:
            report.fail(
                "sampled_window_time",
                record.get("node_id"),
                f"time_us {record.get('time_us')} on a sampled window "
                "(its span belongs in sampled_window_span_us)",
            )


def _clock(report: ValidationReport, perf: dict) -> None:
    profile = perf.get("device_profile")
    freq = perf.get("aicore_freq_mhz")
    if profile is None:
        if freq is not None:
            report.fail("clock_basis", "device_profile", f"aicore_freq_mhz {freq} without a device profile")
        return
    basis = profile.get("aicore_freq_basis")
    if basis not in FREQ_BASES:
        report.fail(
            "clock_basis",
            "device_profile",
            f"aicore_freq_basis {basis!r} is not one of {', '.join(FREQ_BASES)}",
        )
    if profile.get("aicore_freq_mhz") != freq:
        report.fail(
            "clock_basis",
            "device_profile",
            f"aicore_freq_mhz {freq} at the top, {profile.get('aicore_freq_mhz')} in the profile",
        )
    if basis == "unavailable" and profile.get("aicore_freq_mhz") is not None:
        report.fail("clock_basis", "device_profile", "a clock value with basis unavailable")
    if (profile.get("cross_check") or {}).get("agreement") == "mismatch":
        report.fail(
            "clock_basis", "device_profile", "declared and derived clocks disagree (cross_check mismatch)"
        )


def _stage3(report: ValidationReport, documents: dict[str, Any], records: list[dict], timeline: dict) -> None:
    items = graph_items_of(documents["graph"])
    for record in records:
        if record.get("node_id") not in items:
            report.fail(
                "stage3_inputs", record.get("node_id"), "perf node absent from the architecture graph"
            )
    overlay = documents.get("overlay")
    if overlay is not None:
        mapped = {m.get("backend_node_id"): m for m in overlay.get("mappings") or []}
        for record in records:
            mapping = mapped.get(record.get("node_id"))
            if mapping is None or mapping.get("projected_graph_node_id") not in items:
                report.fail("stage3_inputs", record.get("node_id"), "perf node not mapped to a graph item")
    bindings = documents.get("bindings")
    if bindings is None:
        return
    bound = Counter(b.get("timeline_event_id") for b in bindings.get("bindings") or [])
    events = {e.get("event_id"): e for e in timeline.get("events") or []}
    for event_id in events:
        if bound.get(event_id, 0) != 1:
            report.fail(
                "stage3_inputs", event_id, f"bound to {bound.get(event_id, 0)} raw trace events, expected 1"
            )
    raw_indices = Counter(b.get("raw_source_event_index") for b in bindings.get("bindings") or [])
    for binding in bindings.get("bindings") or []:
        event = events.get(binding.get("timeline_event_id"))
        if event is None:
            report.fail(
                "stage3_inputs", binding.get("timeline_event_id"), "binding of an unknown timeline event"
            )
        elif binding.get("node_id") != event.get("owner_node_id"):
            report.fail(
                "stage3_inputs", binding.get("timeline_event_id"), "binding names another node than the owner"
            )
        if raw_indices[binding.get("raw_source_event_index")] > 1:
            report.fail(
                "stage3_inputs",
                binding.get("timeline_event_id"),
                f"raw event {binding.get('raw_source_event_index')} is bound more than once",
            )
