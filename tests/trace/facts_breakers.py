"""Breakers of the facts documents, shared by the validator tests (synthetic decoder) and the
decoder example's tests: each damages the documents in one way that one invariant must catch, and
cites the check of hicann/oam-tools (commit 5f42532) it breaks. ``VC`` =
skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/scripts/validate_conversion.py and ``SM`` =
skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/references/schema-mapping.md, each cited by
the label of the check in that file; ``AG`` = the stage-3 graph validator
skills/cann-perf-breakdown/3-generate-ui-json-report/scripts/validate-architecture-graph.mjs, cited by
its error message."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, NamedTuple

Docs = dict[str, Any]
VC = "skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/scripts/validate_conversion.py"
SM = "skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/references/schema-mapping.md"
AG = "skills/cann-perf-breakdown/3-generate-ui-json-report/scripts/validate-architecture-graph.mjs"


def ns(docs: Docs) -> str:
    return docs["analysis"]["id_namespace"]


def walk(analysis: dict) -> list[dict]:
    found, stack = (
        [],
        [*analysis["stages"].values(), *analysis["layer_structure"].values(), *analysis["runtime_auxiliary"]],
    )
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node["children"])
    return found


def node(docs: Docs, suffix: str) -> dict:
    return next(n for n in walk(docs["analysis"]) if n["node_id"].endswith(suffix))


def record(docs: Docs, suffix: str) -> dict:
    return next(r for r in docs["perf"]["modules"] if r["node_id"].endswith(suffix))


def q_proj_event(docs: Docs) -> dict:
    return next(e for e in docs["timeline"]["events"] if e["submodule"] == "q_proj")


def graph_item(docs: Docs, item_id: str) -> dict:
    stack = list(docs["graph"]["roots"])
    while stack:
        item = stack.pop()
        if item["id"] == item_id:
            return item
        stack.extend(item["children"])
    raise KeyError(item_id)


# Each breaker damages the documents in one way and returns the subject the failure must name.
def break_identity(docs: Docs) -> str:
    docs["timeline"]["report_id"] = "another-report"
    return "report_id"


def break_identity_graph(docs: Docs) -> str:
    docs["graph"]["metadata"]["modelId"] = "another-model"
    return "model_id"


def break_node_sets(docs: Docs) -> str:
    removed = docs["perf"]["modules"].pop()
    return removed["node_id"]


def break_node_sets_duplicate(docs: Docs) -> str:
    docs["perf"]["modules"].append(copy.deepcopy(docs["perf"]["modules"][0]))
    return docs["perf"]["modules"][0]["node_id"]


def break_node_sets_orphan(docs: Docs) -> str:
    orphan = dict(docs["perf"]["modules"][0], node_id=f"{ns(docs)}/stages/nowhere")
    docs["perf"]["modules"].append(orphan)
    return orphan["node_id"]


def break_perf_keys(docs: Docs) -> str:
    target = record(docs, "/attention/softmax")
    del target["hbm_mb"]
    return target["node_id"]


def break_perf_keys_counter(docs: Docs) -> str:
    target = record(docs, "/attention/softmax")
    del target["aic_total_cycles"]  # counter-aware facts (counter_coverage present) need every counter key
    return target["node_id"]


def break_node_shape(docs: Docs) -> str:
    target = node(docs, "/attention/q_proj")
    target["node_kind"] = "module"
    return target["node_id"]


def break_aggregate_sums(docs: Docs) -> str:
    target = record(docs, "/decoder_layers/attention")
    target["time_us"] += 100.0
    return target["node_id"]


def break_timeline_owners(docs: Docs) -> str:
    event = q_proj_event(docs)
    event["owner_node_id"] = f"{ns(docs)}/decoder_layers/attention/nowhere"
    return event["event_id"]


def break_timeline_owner_missing(docs: Docs) -> str:
    event = q_proj_event(docs)
    event["owner_node_id"] = None
    return event["event_id"]


def break_kernel_conservation(docs: Docs) -> str:
    target = node(docs, "/mlp/act")
    target["mapped_kernels"] += 1
    return target["node_id"]


def break_kernel_compute_events(docs: Docs) -> str:
    docs["timeline"]["events"].pop(0)  # one attributed kernel lost from the timeline
    return "perf data"


def break_kernel_accounting(docs: Docs) -> str:
    docs["perf"]["accounting"]["unattributed"] = [7]
    docs["perf"]["accounting"]["kernels_total"] += 1
    return "perf data"


def break_kernel_total(docs: Docs) -> str:
    docs["perf"]["accounting"]["kernels_total"] += 1
    return "perf data"


def break_kernels_accounted(docs: Docs) -> str:
    docs["perf"]["accounting"]["kernels_accounted"] -= 1
    return "perf data"


def break_kernel_coverage(docs: Docs) -> str:
    docs["perf"]["accounting"]["accounting_coverage_pct"] = 99.5
    return "perf data"


def break_kernel_attributed_twice(docs: Docs) -> str:
    rows = docs["attribution"]["rows"]
    twice = copy.deepcopy(rows[0])
    twice["owner_node_id"] = rows[-1]["owner_node_id"]  # the same kernel claimed by a second node
    rows.append(twice)
    return f"op_index {twice['op_index']}"


def break_kernel_lost(docs: Docs) -> str:
    summary = docs["attribution"]["summary"]
    lost = summary["excluded"].pop()  # neither attributed, excluded nor unattributed any more
    summary["kernels_excluded"] -= 1
    summary["kernels_total"] -= 1
    summary["kernels_accounted"] -= 1
    return f"op_index {lost}"


def _source_only_entry(**fields: Any) -> dict:
    return {"name": "position_ids", "code_ref": None, "data_state": "source_only", "reason": "r", **fields}


def break_source_only(docs: Docs) -> str:
    node_id = f"{ns(docs)}/stages/position_ids"
    docs["analysis"]["source_only_structure"].append(_source_only_entry(node_id=node_id))
    return node_id


def break_source_only_in_perf(docs: Docs) -> str:
    node_id = record(docs, "/stages/embedding")["node_id"]
    docs["analysis"]["source_only_structure"].append(_source_only_entry(structure_node_id=node_id))
    return node_id


def break_source_only_reason(docs: Docs) -> str:
    node_id = f"{ns(docs)}/stages/position_ids"
    docs["analysis"]["source_only_structure"].append(
        _source_only_entry(structure_node_id=node_id, reason=" ")
    )
    return node_id


def break_graph_backend_ids(docs: Docs) -> str:
    item = graph_item(docs, f"{ns(docs)}/decoder_layers/mlp/act")
    item["backendNodeId"] += "_typo"
    return item["id"]


def break_graph_backend_source_only(docs: Docs) -> str:
    docs["graph"]["roots"][0]["children"].append(
        {
            "id": f"{ns(docs)}/stages/x",
            "label": "x",
            "kind": "op",
            "origin": "source",
            "dataState": "source_only",
            "selectable": True,
            "sourceRefs": [],
            "backendNodeId": f"{ns(docs)}/stages/embedding",
            "children": [],
        }
    )
    return f"{ns(docs)}/stages/x"


def break_graph_schema_version(docs: Docs) -> str:
    docs["graph"]["schema"] = docs["graph"].pop("schema_version")  # the old key
    return "architecture graph"


def break_graph_roots(docs: Docs) -> str:
    docs["graph"]["roots"].pop()  # drop section/runtime_auxiliary
    return "section/runtime_auxiliary"


def break_graph_no_edges(docs: Docs) -> str:
    docs["graph"]["edges"] = []
    return "architecture graph"


def break_graph_edges(docs: Docs) -> str:
    edge = docs["graph"]["edges"][0]
    del edge["tensor"]
    return edge["id"]


def break_graph_edge_provenance(docs: Docs) -> str:
    edge = docs["graph"]["edges"][1]
    edge["provenance"] = []
    return edge["id"]


def break_graph_edge_type(docs: Docs) -> str:
    edge = docs["graph"]["edges"][0]
    edge["semanticEdgeType"] = "dataflow"  # not one of the stage-3 semantic edge types
    return edge["id"]


def break_graph_tensor_shape(docs: Docs) -> str:
    edge = next(e for e in docs["graph"]["edges"] if e["semanticEdgeType"] == "activation")
    edge["tensor"]["shape"] = ["tokens", "hidden"]  # a list where stage 3 reads a string
    return edge["id"]


def break_graph_residual_dashed(docs: Docs) -> str:
    edge = docs["graph"]["edges"][-1]
    edge["semanticEdgeType"] = "residual"
    edge["dashed"] = False
    return edge["id"]


def break_graph_source_refs(docs: Docs) -> str:
    item = graph_item(docs, f"{ns(docs)}/decoder_layers/attention/q_proj")
    item["origin"] = "hybrid"  # claims a source definition ...
    item["sourceRefs"] = []  # ... and cites none
    return item["id"]


def break_runtime_separation(docs: Docs) -> str:
    runtime = docs["graph"]["roots"][1]["children"][0]
    docs["graph"]["edges"].append(
        {
            "id": "edge/bad",
            "source": f"{ns(docs)}/stages/lm_head",
            "target": runtime["id"],
            "semanticEdgeType": "activation",
            "tensor": {"role": "activation"},
            "provenance": ["declared children order in nothing"],
        }
    )
    return "edge/bad"


def break_counter_consistency(docs: Docs) -> str:
    target = record(docs, "/attention/q_proj")
    # A counter time and a cycle-implied time off by the core count (the wrong-divisor case).
    target["counter_coverage"]["kernels_with_counters"] = target["nops"]
    target["aicore_time_us"] = 10.0
    target["aicore_cycle_time_us"] = 240.0
    return target["node_id"]


def break_counter_cycles_without_clock(docs: Docs) -> str:
    target = record(docs, "/attention/o_proj")
    target["counter_coverage"]["kernels_with_counters"] = target["nops"]
    target["aicore_cycle_time_us"] = 5.0
    docs["perf"]["aicore_freq_mhz"] = None
    docs["perf"]["device_profile"]["aicore_freq_mhz"] = None
    docs["perf"]["device_profile"]["aicore_freq_basis"] = "unavailable"
    return target["node_id"]


def break_pipe_ratio_range(docs: Docs) -> str:
    target = record(docs, "/mlp/gate_proj")
    target["counter_coverage"]["kernels_with_counters"] = target["nops"]
    target["mac_ratio"] = 1.7
    return target["node_id"]


def break_counter_fabrication(docs: Docs) -> str:
    target = record(docs, "/mlp/down_proj")
    target["aicore_time_us"] = target["time_us"]  # filled in from the kernel type: fabricated
    return target["node_id"]


def break_duplicate_counters(docs: Docs) -> str:
    events = [e for e in docs["timeline"]["events"] if e["event_class"] == "kernel"]
    events[1]["duplicate_of"] = events[0]["event_id"]
    events[0]["counters"] = {"aiv_vec_ratio": 0.5}
    events[1]["counters"] = {"aiv_vec_ratio": 0.5}
    return events[1]["event_id"]


def break_sampled_window_time(docs: Docs) -> str:
    target = record(docs, "/runtime_auxiliary/fetch_logits")
    target["metric_scope"] = "sampled_window_context"
    target["time_us"] = 39.88
    return target["node_id"]


def break_clock_basis(docs: Docs) -> str:
    docs["perf"]["device_profile"]["cross_check"]["agreement"] = "mismatch"
    return "device_profile"


def break_clock_value(docs: Docs) -> str:
    docs["perf"]["aicore_freq_mhz"] = 1000
    return "device_profile"


def break_clock_without_profile(docs: Docs) -> str:
    docs["perf"]["device_profile"] = None
    return "device_profile"


def break_clock_basis_unknown(docs: Docs) -> str:
    docs["perf"]["device_profile"]["aicore_freq_basis"] = "assumed"
    return "device_profile"


def break_schema_records(docs: Docs) -> str:
    docs["perf"]["records"] = docs["perf"].pop("modules")  # the old key
    return "perf"


def break_schema_op_ratio(docs: Docs) -> str:
    record(docs, "/attention/q_proj")["op_ratio"] = 0.25  # a float instead of a per-op-type dict
    return "perf"


def break_schema_timeline_version(docs: Docs) -> str:
    docs["timeline"]["schema_version"] = "2.1-ui"
    return "timeline"


def break_stage3_overlay(docs: Docs) -> str:
    removed = docs["overlay"]["mappings"].pop(0)
    return removed["backend_node_id"]


def break_stage3_bindings(docs: Docs) -> str:
    removed = docs["bindings"]["bindings"].pop(0)
    return removed["timeline_event_id"]


class Breaker(NamedTuple):
    invariant: str
    breaker: Callable[[Docs], str]
    cites: str


BREAKERS: list[Breaker] = [
    Breaker("identity", break_identity, f"{VC}: {{field}} identical across the three facts"),
    Breaker("identity", break_identity_graph, f"{SM}: Cross-file invariants (one identity scheme)"),
    Breaker("node_sets", break_node_sets, f"{SM}: Cross-file invariants (node_id sets match)"),
    Breaker("node_sets", break_node_sets_duplicate, f"{VC}: one performance record per node_id"),
    Breaker("node_sets", break_node_sets_orphan, f"{VC}: every performance node exists in analysis"),
    Breaker("perf_keys", break_perf_keys, f"{VC}: every performance record declares all metric keys"),
    Breaker(
        "perf_keys", break_perf_keys_counter, f"{VC}: ... (incl. AI Core counters), COUNTER_SHAPE_MARKER"
    ),
    Breaker("node_shape", break_node_shape, f"{SM}: Node shape (node_kind: module / op)"),
    Breaker("aggregate_sums", break_aggregate_sums, f"{SM}: Metric scope (aggregate sums descendants)"),
    Breaker("timeline_owners", break_timeline_owners, f"{VC}: every timeline owner resolves in analysis"),
    Breaker("timeline_owners", break_timeline_owner_missing, f"{VC}: every timeline event has an owner"),
    Breaker(
        "kernel_conservation", break_kernel_conservation, f"{SM}: Cross-file invariants (sum(mapped_kernels))"
    ),
    Breaker(
        "kernel_conservation",
        break_kernel_compute_events,
        f"{VC}: timeline compute events match attributed kernels",
    ),
    Breaker("kernel_conservation", break_kernel_accounting, f"{VC}: kernel accounting coverage is 100%"),
    Breaker(
        "kernel_conservation",
        break_kernel_total,
        f"{VC}: attributed + excluded + unattributed equals total kernels",
    ),
    Breaker(
        "kernel_conservation",
        break_kernels_accounted,
        f"{VC}: reported accounted kernel count is internally consistent",
    ),
    Breaker("kernel_conservation", break_kernel_coverage, f"{VC}: kernel accounting coverage is 100%"),
    Breaker(
        "kernel_conservation",
        break_kernel_attributed_twice,
        "skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json/scripts/attribute_kernels.py: "
        "kernel(s) claimed twice",
    ),
    Breaker(
        "kernel_conservation",
        break_kernel_lost,
        f"{VC}: attributed + excluded + unattributed equals total kernels (every kernel counted once)",
    ),
    Breaker(
        "source_only", break_source_only, f"{VC}: source-only entries use structure_node_id, not node_id"
    ),
    Breaker("source_only", break_source_only_in_perf, f"{VC}: no source-only node carries metrics"),
    Breaker("source_only", break_source_only_reason, f"{VC}: every source-only node records a reason"),
    Breaker(
        "graph_backend_ids", break_graph_backend_ids, f"{VC}: every graph backendNodeId resolves in analysis"
    ),
    Breaker(
        "graph_backend_ids",
        break_graph_backend_source_only,
        f"{VC}: source-only graph items carry no backendNodeId",
    ),
    Breaker("graph_edges", break_graph_schema_version, f"{VC}: graph declares the v1 contract"),
    Breaker("graph_edges", break_graph_roots, f"{VC}: graph declares section/runtime_auxiliary"),
    Breaker("graph_edges", break_graph_no_edges, f"{VC}: graph declares explicit edges"),
    Breaker("graph_edges", break_graph_edges, f"{VC}: every edge carries tensor metadata and provenance"),
    Breaker(
        "graph_edges", break_graph_edge_provenance, f"{VC}: every edge carries tensor metadata and provenance"
    ),
    Breaker("graph_edges", break_graph_edge_type, f"{AG}: has unsupported semanticEdgeType"),
    Breaker("graph_edges", break_graph_tensor_shape, f"{AG}: tensor.shape is missing (not a string)"),
    Breaker("graph_edges", break_graph_residual_dashed, f"{AG}: is a residual edge but dashed is not true"),
    Breaker("graph_source_refs", break_graph_source_refs, f"{AG}: has no sourceRefs"),
    Breaker(
        "runtime_separation", break_runtime_separation, f"{SM}: Graph (separate section/runtime_auxiliary)"
    ),
    Breaker(
        "counter_consistency",
        break_counter_consistency,
        f"{VC}: cycle-implied time reconciles with reported counter time",
    ),
    Breaker(
        "counter_consistency",
        break_counter_cycles_without_clock,
        f"{SM}: Device clock (never assume a clock)",
    ),
    Breaker("pipe_ratio_range", break_pipe_ratio_range, f"{VC}: every pipeline ratio lies in [0,1]"),
    Breaker(
        "counter_fabrication",
        break_counter_fabrication,
        f"{VC}: no counter metric without a counter-bearing kernel",
    ),
    Breaker(
        "duplicate_counters",
        break_duplicate_counters,
        f"{VC}: a duplicated collective reports counters on one row only",
    ),
    Breaker(
        "sampled_window_time", break_sampled_window_time, f"{VC}: sampled-window nodes report time_us as null"
    ),
    Breaker("clock_basis", break_clock_basis, f"{VC}: declared and derived clocks agree within tolerance"),
    Breaker("clock_basis", break_clock_value, f"{VC}: top-level aicore_freq_mhz matches device_profile"),
    Breaker("clock_basis", break_clock_without_profile, f"{VC}: no device_profile means no clock is claimed"),
    Breaker("clock_basis", break_clock_basis_unknown, f"{VC}: clock basis is a known provenance"),
    Breaker("schema", break_schema_records, f"{VC}: performance.get('modules')"),
    Breaker(
        "schema", break_schema_op_ratio, f"{SM}: Performance record; emit_ui_facts.py op_ratio per op type"
    ),
    Breaker("schema", break_schema_timeline_version, "emit_ui_facts.py: timeline schema_version 1.4"),
    Breaker(
        "stage3_inputs",
        break_stage3_overlay,
        "build_overlay_and_config.py: performance node absent from graph",
    ),
    Breaker(
        "stage3_inputs",
        break_stage3_bindings,
        "build_trace_bindings.py: Timeline event(s) could not be bound",
    ),
]
