"""The validator: valid facts pass, and every invariant broken on purpose is named, with the node."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sim_runtime.trace import INVARIANTS, validate_documents, validate_facts
from sim_runtime.trace.breakdown.validate import load_facts

Docs = dict[str, Any]


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
    return next(r for r in docs["perf"]["records"] if r["node_id"].endswith(suffix))


def q_proj_event(docs: Docs) -> dict:
    return next(e for e in docs["timeline"]["events"] if e["submodule"] == "q_proj")


# Each breaker damages the documents in one way and returns the subject the failure must name.
def break_identity(docs: Docs) -> str:
    docs["timeline"]["report_id"] = "another-report"
    return "report_id"


def break_node_sets(docs: Docs) -> str:
    removed = docs["perf"]["records"].pop()
    return removed["node_id"]


def break_node_sets_duplicate(docs: Docs) -> str:
    docs["perf"]["records"].append(copy.deepcopy(docs["perf"]["records"][0]))
    return docs["perf"]["records"][0]["node_id"]


def break_perf_keys(docs: Docs) -> str:
    target = record(docs, "/attention/softmax")
    del target["hbm_mb"]
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
    event["owner_node_id"] = "model/decoder_3l/decoder_layers/attention/k_proj"
    return event["event_id"]


def break_timeline_owner_missing(docs: Docs) -> str:
    event = q_proj_event(docs)
    event["owner_node_id"] = None
    return event["event_id"]


def break_kernel_conservation(docs: Docs) -> str:
    target = node(docs, "/mlp/act")
    target["mapped_kernels"] += 1
    return target["node_id"]


def break_kernel_accounting(docs: Docs) -> str:
    docs["perf"]["accounting"]["unattributed"] = 1
    docs["perf"]["accounting"]["total"] += 1
    return "perf data"


def break_source_only(docs: Docs) -> str:
    node_id = "model/decoder_3l/stages/position_ids"
    docs["analysis"]["source_only_structure"].append(
        {
            "node_id": node_id,
            "name": "position_ids",
            "data_state": "source_only",
            "reason": "outside the step",
        }
    )
    return node_id


def break_source_only_in_perf(docs: Docs) -> str:
    node_id = "model/decoder_3l/stages/position_ids"
    docs["analysis"]["source_only_structure"].append(
        {
            "structure_node_id": node_id,
            "name": "position_ids",
            "data_state": "source_only",
            "reason": "r",
            "time_us": 3.0,
        }
    )
    return node_id


def break_graph_backend_ids(docs: Docs) -> str:
    graph_node = next(n for n in docs["graph"]["nodes"] if n.get("backendNodeId", "").endswith("/mlp/act"))
    graph_node["backendNodeId"] += "_typo"
    return graph_node["id"]


def break_graph_backend_source_only(docs: Docs) -> str:
    docs["graph"]["nodes"].append(
        {
            "id": "source/stages/x",
            "kind": "op",
            "dataState": "source_only",
            "backendNodeId": "model/decoder_3l/stages/embedding",
            "parent": "section/source_architecture",
        }
    )
    return "source/stages/x"


def break_graph_edges(docs: Docs) -> str:
    edge = docs["graph"]["edges"][0]
    del edge["tensor"]
    return edge["id"]


def break_graph_edge_provenance(docs: Docs) -> str:
    edge = docs["graph"]["edges"][1]
    edge["provenance"] = {}
    return edge["id"]


def break_runtime_separation(docs: Docs) -> str:
    runtime = next(n for n in docs["graph"]["nodes"] if n.get("dataState") == "runtime")
    docs["graph"]["edges"].append(
        {
            "id": "edge/bad",
            "source": "node/stages/lm_head",
            "target": runtime["id"],
            "semanticEdgeType": "activation",
            "tensor": {"name": None, "shape": None, "dtype": None},
            "provenance": {"kind": "declared_nesting"},
        }
    )
    return "edge/bad"


def break_counter_consistency(docs: Docs) -> str:
    target = record(docs, "/attention/q_proj")
    target["aicore_cycle_time_us"] = 2 * target["aicore_time_us"]  # a core-count divisor gone wrong
    return target["node_id"]


def break_counter_cycles(docs: Docs) -> str:
    target = record(docs, "/attention/o_proj")
    target["aic_total_cycles"] = 1_000_000
    target["aic_cores"] = 24
    target["aicore_cycle_time_us"] = target["aicore_time_us"]
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
    docs["analysis"]["device_profile"]["cross_check"]["agreement"] = "mismatch"
    return "device_profile"


def break_clock_value(docs: Docs) -> str:
    docs["perf"]["aicore_freq_mhz"] = 1000
    return "device_profile"


BREAKERS: list[tuple[str, Callable[[Docs], str]]] = [
    ("identity", break_identity),
    ("node_sets", break_node_sets),
    ("node_sets", break_node_sets_duplicate),
    ("perf_keys", break_perf_keys),
    ("node_shape", break_node_shape),
    ("aggregate_sums", break_aggregate_sums),
    ("timeline_owners", break_timeline_owners),
    ("timeline_owners", break_timeline_owner_missing),
    ("kernel_conservation", break_kernel_conservation),
    ("kernel_conservation", break_kernel_accounting),
    ("source_only", break_source_only),
    ("source_only", break_source_only_in_perf),
    ("graph_backend_ids", break_graph_backend_ids),
    ("graph_backend_ids", break_graph_backend_source_only),
    ("graph_edges", break_graph_edges),
    ("graph_edges", break_graph_edge_provenance),
    ("runtime_separation", break_runtime_separation),
    ("counter_consistency", break_counter_consistency),
    ("counter_consistency", break_counter_cycles),
    ("duplicate_counters", break_duplicate_counters),
    ("sampled_window_time", break_sampled_window_time),
    ("clock_basis", break_clock_basis),
    ("clock_basis", break_clock_value),
]


def test_valid_facts_pass(facts_dir: Path) -> None:
    report = validate_facts(facts_dir)
    assert report.ok, report.summary()
    assert set(report.checked) == set(INVARIANTS)
    assert report.account is not None and report.account.endswith("+ 0 unattributed")


def test_every_invariant_has_a_breaking_test() -> None:
    assert {name for name, _ in BREAKERS} == set(INVARIANTS)


@pytest.mark.parametrize(("invariant", "breaker"), BREAKERS, ids=[b.__name__ for _, b in BREAKERS])
def test_a_broken_invariant_is_named_with_its_subject(
    facts_dir: Path, invariant: str, breaker: Callable[[Docs], str]
) -> None:
    docs = load_facts(facts_dir)
    subject = breaker(docs)
    report = validate_documents(docs)
    assert not report.ok
    assert invariant in report.invariants_failed(), report.summary()
    named = [f for f in report.failures if f.invariant == invariant]
    assert any(f.subject == subject for f in named), report.summary()
    assert f"{invariant} [{subject}]" in report.summary()


def test_the_validator_reads_files_from_disk(facts_dir: Path) -> None:
    path = next(facts_dir.glob("*_timeline.json"))
    timeline = json.loads(path.read_text())
    timeline["model_id"] = "other"
    path.write_text(json.dumps(timeline))
    report = validate_facts(facts_dir)
    assert report.invariants_failed() == {"identity"}
