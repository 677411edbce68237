"""Cross-file invariants of the four facts files. Every failure names the invariant and the node
(or event, edge, file) it concerns."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim_runtime.trace.breakdown.schema import (
    FREQ_BASES,
    GRAPH_FILE,
    GRAPH_SCHEMA,
    METRIC_SCOPES,
    NODE_KINDS,
    PERF_KEYS,
)

__all__ = ["INVARIANTS", "Failure", "ValidationReport", "load_facts", "validate_documents", "validate_facts"]

#: Every invariant the validator enforces, by the name its failures carry.
INVARIANTS: dict[str, str] = {
    "identity": "model_id, report_id and representative_step are identical across the files",
    "node_sets": "analysis and perf data have the same node ids, one to one, without duplicates",
    "perf_keys": "every perf record carries every key (null for what was not measured)",
    "node_shape": "node kinds and metric scopes are valid; modules have children, ops have none",
    "aggregate_sums": "an aggregate node's time and kernel count are the sums over its children",
    "timeline_owners": "every timeline event has an owner node and the owner resolves",
    "kernel_conservation": "leaf mapped_kernels = attributed = timeline compute events, and "
    "attributed + excluded + unattributed = total with 0 unattributed",
    "source_only": "source-only entries are keyed by structure_node_id, carry a reason and never appear "
    "in perf data",
    "graph_backend_ids": "every graph backendNodeId resolves and source-only entries have none",
    "graph_edges": "the graph has roots, and every edge joins known nodes and carries tensor metadata "
    "and provenance",
    "runtime_separation": "runtime auxiliary graph nodes sit under the runtime root and no edge joins "
    "them to the model dataflow",
    "counter_consistency": "time from cycles / (clock x cores) is within 1 % of measured time",
    "duplicate_counters": "of a duplicate pair of timeline rows at most one carries counters",
    "sampled_window_time": "sampled-window nodes have time_us null",
    "clock_basis": "the clock basis is derived, declared or unavailable, agrees with the device profile "
    "and no cross-check reports a mismatch",
}

_TOLERANCE = 0.01


@dataclass(frozen=True)
class Failure:
    invariant: str
    subject: str | None
    message: str

    def __str__(self) -> str:
        where = f" [{self.subject}]" if self.subject else ""
        return f"{self.invariant}{where}: {self.message}"


@dataclass
class ValidationReport:
    failures: list[Failure] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    account: str | None = None

    @property
    def ok(self) -> bool:
        return not self.failures

    def invariants_failed(self) -> set[str]:
        return {failure.invariant for failure in self.failures}

    def fail(self, invariant: str, subject: str | None, message: str) -> None:
        self.failures.append(Failure(invariant, subject, message))

    def summary(self) -> str:
        if self.ok:
            return f"valid: {len(self.checked)} invariants hold" + (
                f"; {self.account}" if self.account else ""
            )
        lines = [f"invalid: {len(self.failures)} failure(s)"]
        lines.extend(f"  {failure}" for failure in self.failures)
        return "\n".join(lines)


def load_facts(directory: Path | str) -> dict[str, Any]:
    """The four documents of a facts directory (one ``*_analysis_config.json`` in it)."""
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
    documents = {}
    for key, path in paths.items():
        if not path.exists():
            raise FileNotFoundError(f"{path}: missing facts file")
        documents[key] = json.loads(path.read_text(encoding="utf-8"))
    return documents


def validate_facts(directory: Path | str) -> ValidationReport:
    """Validates the facts files in ``directory``."""
    return validate_documents(load_facts(directory))


def _walk(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(reversed(node.get("children") or []))
    return found


def _analysis_nodes(analysis: dict[str, Any]) -> list[dict[str, Any]]:
    tops = [
        *analysis.get("stages", {}).values(),
        *analysis.get("layer_structure", {}).values(),
        *analysis.get("runtime_auxiliary", []),
    ]
    return _walk(tops)


def validate_documents(documents: dict[str, Any]) -> ValidationReport:
    """Validates the four documents (keys ``analysis``, ``perf``, ``timeline``, ``graph``)."""
    report = ValidationReport(checked=list(INVARIANTS))
    analysis, perf, timeline, graph = (documents[k] for k in ("analysis", "perf", "timeline", "graph"))
    nodes = _analysis_nodes(analysis)
    by_id: dict[str, dict[str, Any]] = {str(node.get("node_id")): node for node in nodes}
    records = perf.get("records", [])
    report.account = perf.get("accounting", {}).get("account")
    _identity(report, analysis, perf, timeline, graph)
    _node_sets(report, nodes, records)
    _perf_keys(report, records)
    _node_shape(report, nodes)
    _aggregate_sums(report, nodes, records)
    _timeline_owners(report, timeline, by_id)
    _conservation(report, nodes, perf, timeline)
    _source_only(report, analysis, records)
    _graph_ids(report, graph, by_id)
    _graph_edges(report, graph)
    _runtime_separation(report, graph)
    _counters(report, records, perf, analysis)
    _duplicates(report, timeline)
    _sampled(report, records)
    _clock(report, analysis, perf)
    return report


def _identity(report: ValidationReport, analysis: dict, perf: dict, timeline: dict, graph: dict) -> None:
    files = {"analysis config": analysis, "perf data": perf, "timeline": timeline}
    for key in ("model_id", "report_id", "representative_step"):
        values = {name: doc.get(key, "<missing>") for name, doc in files.items()}
        if key != "representative_step":
            values["architecture graph"] = graph.get(key, "<missing>")
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
    return (
        event.get("event_class") in ("kernel", "communication")
        and event.get("mapping_status") == "attributed"
    )


def _conservation(report: ValidationReport, nodes: list[dict], perf: dict, timeline: dict) -> None:
    accounting = perf.get("accounting")
    if not isinstance(accounting, dict):
        report.fail("kernel_conservation", "perf data", "no accounting block")
        return
    leaves = sum(node.get("mapped_kernels", 0) for node in nodes if not node.get("children"))
    attributed = accounting.get("attributed")
    compute = sum(1 for event in timeline.get("events", []) if _is_compute(event))
    if not leaves == attributed == compute:
        report.fail(
            "kernel_conservation",
            "perf data",
            f"leaf mapped_kernels {leaves}, attributed {attributed} and timeline compute events "
            f"{compute} differ",
        )
    parts = [accounting.get(key) for key in ("attributed", "excluded", "unattributed")]
    counts = [part for part in parts if isinstance(part, int)]
    if len(counts) != len(parts) or sum(counts) != accounting.get("total"):
        report.fail(
            "kernel_conservation",
            "perf data",
            f"attributed + excluded + unattributed = {parts} does not add up to total "
            f"{accounting.get('total')}",
        )
    if accounting.get("unattributed"):
        report.fail(
            "kernel_conservation",
            "perf data",
            f"accounting below 100 %: {accounting.get('unattributed')} unattributed kernel(s)",
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
        if not entry.get("reason"):
            report.fail("source_only", key, "a source-only node without a concrete reason")


def _graph_ids(report: ValidationReport, graph: dict, by_id: dict[str, dict]) -> None:
    for node in graph.get("nodes", []):
        backend = node.get("backendNodeId")
        if node.get("dataState") == "source_only" and backend is not None:
            report.fail(
                "graph_backend_ids", node.get("id"), "a source-only graph node carries a backendNodeId"
            )
        elif backend is not None and backend not in by_id:
            report.fail("graph_backend_ids", node.get("id"), f"backendNodeId {backend!r} does not resolve")
        elif backend is None and node.get("dataState") in ("mapped", "runtime"):
            report.fail("graph_backend_ids", node.get("id"), "a mapped graph node without a backendNodeId")


def _graph_edges(report: ValidationReport, graph: dict) -> None:
    if graph.get("schema") != GRAPH_SCHEMA:
        report.fail(
            "graph_edges", "architecture graph", f"schema {graph.get('schema')!r}, expected {GRAPH_SCHEMA}"
        )
    if not graph.get("roots"):
        report.fail("graph_edges", "architecture graph", "no roots")
    ids = {node.get("id") for node in graph.get("nodes", [])}
    for root in graph.get("roots", []):
        if root not in ids:
            report.fail("graph_edges", root, "root is not a graph node")
    for edge in graph.get("edges", []):
        edge_id = edge.get("id")
        tensor = edge.get("tensor")
        if not isinstance(tensor, dict) or not {"name", "shape", "dtype"} <= set(tensor):
            report.fail("graph_edges", edge_id, "edge without tensor metadata (name, shape, dtype)")
        provenance = edge.get("provenance")
        if not isinstance(provenance, dict) or not provenance.get("kind"):
            report.fail("graph_edges", edge_id, "edge without provenance")
        for side in ("source", "target"):
            if edge.get(side) not in ids:
                report.fail("graph_edges", edge_id, f"{side} {edge.get(side)!r} is not a graph node")


def _runtime_separation(report: ValidationReport, graph: dict) -> None:
    nodes = {node.get("id"): node for node in graph.get("nodes", [])}
    runtime = {node_id for node_id, node in nodes.items() if node.get("dataState") == "runtime"}
    for node_id in runtime:
        parent = nodes[node_id].get("parent")
        while parent in nodes and nodes[parent].get("kind") != "section":
            parent = nodes[parent].get("parent")
        if parent != "section/runtime_auxiliary":
            report.fail("runtime_separation", node_id, f"runtime auxiliary node under {parent!r}")
    for edge in graph.get("edges", []):
        touched = {edge.get("source"), edge.get("target")} & runtime
        if touched:
            report.fail(
                "runtime_separation",
                edge.get("id"),
                f"edge joins runtime node(s) {sorted(touched)} to the dataflow",
            )


def _counters(report: ValidationReport, records: list[dict], perf: dict, analysis: dict) -> None:
    clock = perf.get("aicore_freq_mhz")
    for record in records:
        node_id = record.get("node_id")
        for cycles_key, cycle_time_key, time_key, cores_key in (
            ("aic_total_cycles", "aicore_cycle_time_us", "aicore_time_us", "aic_cores"),
            ("aiv_total_cycles", "aiv_cycle_time_us", "aiv_time_us", "aiv_cores"),
        ):
            cycles, cycle_time, measured = (
                record.get(cycles_key),
                record.get(cycle_time_key),
                record.get(time_key),
            )
            if cycles is not None and clock is None:
                report.fail(
                    "counter_consistency",
                    node_id,
                    f"{cycles_key} without a clock: cycle times cannot be derived",
                )
            cores = record.get(cores_key)
            if cycles is not None and clock and cores:
                derived = cycles / (clock * cores)
                if cycle_time is None or not math.isclose(derived, cycle_time, rel_tol=_TOLERANCE):
                    report.fail(
                        "counter_consistency",
                        node_id,
                        f"{cycle_time_key} {cycle_time} != {cycles_key} / (clock x cores) = {derived:.3f}",
                    )
            if (
                cycle_time is not None
                and measured is not None
                and not math.isclose(cycle_time, measured, rel_tol=_TOLERANCE)
            ):
                report.fail(
                    "counter_consistency",
                    node_id,
                    f"{cycle_time_key} {cycle_time} is not within 1 % of {time_key} {measured}",
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


def _clock(report: ValidationReport, analysis: dict, perf: dict) -> None:
    profile = analysis.get("device_profile") or {}
    basis = profile.get("aicore_freq_basis")
    if basis not in FREQ_BASES:
        report.fail(
            "clock_basis",
            "device_profile",
            f"aicore_freq_basis {basis!r} is not one of {', '.join(FREQ_BASES)}",
        )
    if profile.get("aicore_freq_mhz") != perf.get("aicore_freq_mhz"):
        report.fail(
            "clock_basis",
            "device_profile",
            f"aicore_freq_mhz {perf.get('aicore_freq_mhz')} in perf data, "
            f"{profile.get('aicore_freq_mhz')} in the profile",
        )
    if basis == "unavailable" and profile.get("aicore_freq_mhz") is not None:
        report.fail("clock_basis", "device_profile", "a clock value with basis unavailable")
    if (profile.get("cross_check") or {}).get("agreement") == "mismatch":
        report.fail(
            "clock_basis", "device_profile", "declared and derived clocks disagree (cross_check mismatch)"
        )
