"""The breakdown: structure from declared nesting, attribution by correlation id and time
containment on the launching thread, accounting, and the four facts files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mspti_trace import (
    ActivityKind,
    BreakdownError,
    BreakdownOptions,
    ConversionRefused,
    build_breakdown,
    emit_facts,
    load_trace,
    validate_facts,
)

NS = "model/decoder_3l"


def breakdown(directory: Path, **options):
    return build_breakdown(load_trace(directory), BreakdownOptions(model_name="Decoder 3L", **options))


def nodes(analysis: dict) -> dict[str, dict]:
    found = {}
    stack = [
        *analysis["stages"].values(),
        *analysis["layer_structure"].values(),
        *analysis["runtime_auxiliary"],
    ]
    while stack:
        node = stack.pop()
        found[node["node_id"]] = node
        stack.extend(node["children"])
    return found


def test_node_ids_follow_the_namespace_and_the_nesting(decoder_dir: Path) -> None:
    result = breakdown(decoder_dir)
    by_id = nodes(result.analysis)
    assert result.analysis["id_namespace"] == NS
    assert set(result.analysis["stages"]) == {"embedding", "lm_head", "logits_allreduce"}
    layers = result.analysis["layer_structure"]["decoder_layers"]
    assert layers["node_id"] == f"{NS}/decoder_layers" and layers["node_kind"] == "module"
    assert [c["name"] for c in layers["children"]] == ["input_norm", "attention", "mlp"]
    attention = by_id[f"{NS}/decoder_layers/attention"]
    assert [c["name"] for c in attention["children"]] == ["q_proj", "softmax", "o_proj"]
    q_proj = by_id[f"{NS}/decoder_layers/attention/q_proj"]
    assert q_proj["node_kind"] == "op" and q_proj["metric_scope"] == "all_observed_instances"
    assert q_proj["instance_indices"] == [0, 1, 2] and q_proj["mapped_kernels"] == 3
    assert by_id[f"{NS}/stages/embedding"]["instance_indices"] == []
    assert by_id[f"{NS}/stages/embedding"]["metric_scope"] == "single_instance"
    runtime = result.analysis["runtime_auxiliary"][0]
    assert (
        runtime["node_id"] == f"{NS}/runtime_auxiliary/fetch_logits"
        and runtime["node_kind"] == "runtime_auxiliary"
    )


def test_accounting_is_complete_with_the_other_step_and_setup_excluded(decoder_dir: Path, fakes) -> None:
    result = breakdown(decoder_dir)
    per_step = fakes.kernels_per_step(3, allreduce=True)
    assert (
        result.account
        == f"{2 * per_step + 1} total = {per_step} attributed + {per_step + 1} excluded + 0 unattributed"
    )
    reasons = result.perf["accounting"]["excluded_reasons"]
    assert reasons == {
        "launched in step 0, not the representative step": per_step,
        "launched outside every 'step' range": 1,
    }
    assert result.structure.representative_step == 1


def test_the_representative_step_can_be_chosen(decoder_dir: Path, fakes) -> None:
    result = breakdown(decoder_dir, representative_step=0)
    assert result.analysis["representative_step"] == 0 and result.complete
    with pytest.raises(BreakdownError, match="representative step 5 does not exist"):
        breakdown(decoder_dir, representative_step=5)


def test_attribution_follows_correlation_and_containment_never_names(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    with process.range("step"):
        with process.range("mlp"):
            # A kernel whose name says "attention" launched inside the mlp range belongs to mlp.
            process.launch("aclnnMatmul", "attention_q_proj_MatMulV2")
        with process.range("attention"):
            process.launch("aclnnMatmul", "MatMulV2")
    process.write(tmp_path)
    result = build_breakdown(load_trace(tmp_path))
    owners = [e["owner_node_id"] for e in result.timeline["events"] if e["event_class"] == "kernel"]
    assert owners == ["model/model/stages/mlp", "model/model/stages/attention"]


def test_a_kernel_is_joined_through_its_api_even_when_it_runs_later(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    with process.range("step"):
        with process.range("first"):
            process.launch("aclnnMatmul", "MatMulV2", duration=50_000)  # runs long after the range closed
        with process.range("second"):
            process.launch("aclnnAdd", "Add")
    process.write(tmp_path)
    result = build_breakdown(load_trace(tmp_path))
    events = [e for e in result.timeline["events"] if e["event_class"] == "kernel"]
    assert [e["submodule"] for e in events] == ["first", "second"]
    assert events[1]["wait_time_us"] is not None and events[0]["wait_time_us"] is None


def test_unattributed_kernels_make_the_conversion_refuse(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    with process.range("step"):
        with process.range("attention"):
            with process.range("q_proj"):
                process.launch("aclnnMatmul", "MatMulV2")
            process.launch("aclnnAdd", "Add_in_module")  # in a module, outside its children
        process.launch("aclnnAdd", "Add_in_step")  # in the step, outside any structure range
        process.orphan_kernel("Orphan")  # no API record carries its correlation id
    process.write(tmp_path)
    result = build_breakdown(load_trace(tmp_path))
    assert result.account == "4 total = 1 attributed + 0 excluded + 3 unattributed"
    with pytest.raises(ConversionRefused) as refused:
        emit_facts(result, tmp_path / "facts")
    assert refused.value.account == "4 total = 1 attributed + 0 excluded + 3 unattributed"
    text = str(refused.value)
    assert "module model/model/stages/attention outside its declared children" in text
    assert "no API record carries its correlation id" in text
    assert "representative 'step' range itself" in text
    assert not (tmp_path / "facts").exists()


def test_kernels_of_another_thread_without_ranges_are_unattributed(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    with process.range("step"), process.range("work"):
        process.launch("aclnnAdd", "Add")
        process.launch("aclnnAdd", "Add_worker", tid=7777)
    process.write(tmp_path)
    result = build_breakdown(load_trace(tmp_path))
    assert result.perf["accounting"]["unattributed_reasons"] == {
        "launched in the representative step on thread 7777 outside any declared range": 1
    }


def test_without_step_ranges_the_whole_capture_is_the_step(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    with process.range("prefill"):
        process.launch("aclnnAdd", "Add")
    with process.range("decode"):
        process.launch("aclnnAdd", "Add")
    process.write(tmp_path)
    result = build_breakdown(load_trace(tmp_path))
    assert result.analysis["trace_scope"]["kind"] == "whole_capture"
    assert set(result.analysis["stages"]) == {"prefill", "decode"} and result.complete


def test_ranges_that_cross_are_rejected(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    process.markers += [
        (2, 0, 100, 1, 1, 1, "a", "default"),
        (2, 0, 200, 2, 1, 1, "b", "default"),
        (4, 0, 300, 1, 1, 1, "", ""),
        (4, 0, 400, 2, 1, 1, "", ""),
    ]
    process.write(tmp_path)
    with pytest.raises(BreakdownError, match=r"'b' .* starts inside 'a' .* ranges must nest"):
        build_breakdown(load_trace(tmp_path))


def test_colliding_node_ids_are_rejected(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    with process.range("step"):
        with process.range("a/b"):
            process.launch("x", "k")
        with process.range("a b"):
            process.launch("x", "k")
    process.write(tmp_path)
    with pytest.raises(BreakdownError, match="both map to node id"):
        build_breakdown(load_trace(tmp_path))


def test_sampled_windows_have_no_time(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    with process.range("step"), process.range("npu_sampler", "sampler"):
        with process.range("work"):
            process.launch("aclnnAdd", "Add")
        with process.range("more_work"):
            process.launch("aclnnMul", "Mul")
    process.write(tmp_path)
    result = build_breakdown(load_trace(tmp_path))
    record = next(r for r in result.perf["modules"] if r["metric_scope"] == "sampled_window_context")
    assert record["time_us"] is None and record["sampled_window_span_us"] > 0
    assert any(e["event_class"] == "sampled_window" for e in result.timeline["events"])
    emit_facts(result, tmp_path / "facts")
    assert validate_facts(tmp_path / "facts").ok


def test_perf_records_carry_every_key_and_no_guessed_values(facts_dir: Path) -> None:
    perf = json.loads(next(facts_dir.glob("*_perf_data.json")).read_text())
    from mspti_trace.breakdown.schema import COUNTER_KEYS, PERF_KEYS

    assert "records" not in perf
    for record in perf["modules"]:
        assert set(PERF_KEYS) <= set(record)
        assert record["hbm_mb"] is None and record["mfu_bf16_pct"] is None and record["mac_ratio"] is None
        # No kernel carries counters, so no counter metric is filled in (not even from the kernel type).
        assert all(record[key] is None for key in COUNTER_KEYS)
        assert record["counter_coverage"]["kernels_with_counters"] == 0
        assert record["counter_coverage"]["kernels_total"] == record["nops"]
    layers = next(r for r in perf["modules"] if r["node_id"].endswith("/decoder_layers"))
    assert layers["metric_scope"] == "aggregate" and layers["nops"] == 21
    assert layers["counter_coverage"] == {"kernels_with_counters": 0, "kernels_total": 21, "pct": 0.0}
    assert "3 observed instance(s) [0, 1, 2]" in layers["kernel_scope_note"]
    assert perf["device_profile"]["aicore_freq_basis"] == "declared"
    assert perf["aicore_freq_mhz"] == perf["device_profile"]["aicore_freq_mhz"] is not None
    times = [r["time_us"] or 0.0 for r in perf["modules"]]
    assert times == sorted(times, reverse=True)


def test_op_ratio_is_the_time_share_of_each_op_type(facts_dir: Path) -> None:
    perf = json.loads(next(facts_dir.glob("*_perf_data.json")).read_text())
    timeline = json.loads(next(facts_dir.glob("*_timeline.json")).read_text())
    step = next(r for r in perf["modules"] if r["node_id"].endswith("/decoder_layers"))
    owned = [
        e
        for e in timeline["events"]
        if "/decoder_layers/" in e["owner_node_id"] and e["op_index"] is not None
    ]
    by_type: dict[str, float] = {}
    for event in owned:
        by_type[event["op_type"]] = by_type.get(event["op_type"], 0.0) + event["duration_us"]
    total = sum(by_type.values())
    assert isinstance(step["op_ratio"], dict) and set(step["op_ratio"]) == set(by_type)
    for op_type, share in step["op_ratio"].items():
        assert share == pytest.approx(100.0 * by_type[op_type] / total, abs=0.01)
    assert list(step["op_ratio"].values()) == sorted(step["op_ratio"].values(), reverse=True)


def test_the_timeline_names_instances(facts_dir: Path) -> None:
    timeline = json.loads(next(facts_dir.glob("*_timeline.json")).read_text())
    q = [e for e in timeline["events"] if e["submodule"] == "q_proj"]
    assert [e["instance_index"] for e in q] == [0, 1, 2]
    assert q[2]["structure_instance_node_id"] == f"{NS}/decoder_layers[2]/attention/q_proj"
    comm = [e for e in timeline["events"] if e["event_class"] == "communication"]
    assert len(comm) == 1 and comm[0]["accelerator_core"] == "COMMUNICATION"
    windows = [e for e in timeline["events"] if e["event_class"] == "runtime_window"]
    assert [w["owner_node_id"] for w in windows] == [f"{NS}/runtime_auxiliary/fetch_logits"]


def test_declarations_give_edges_semantics_and_source_only_structure(
    decoder_dir: Path, tmp_path: Path
) -> None:
    declarations = {
        "nodes": {
            "decoder_layers/attention/q_proj": {"semantic": "query projection", "code_ref": "model.cpp:10"}
        },
        "branches": {
            "decoder_layers": [
                {
                    "name": "attention_residual",
                    "inputs": ["block_input", "attention"],
                    "output": "mlp",
                    "source_ref": "model.cpp:20",
                }
            ]
        },
        "dataflow": [
            {
                "name": "hidden",
                "source": {"structure": "stages/embedding"},
                "target": {"structure": "decoder_layers"},
                "tensor": {"name": "hidden", "dtype": "float32"},
            }
        ],
        "source_only": [
            {
                "path": "stages/position_ids",
                "code_ref": "model.cpp:5",
                "reason": "positions are computed once before the first step, outside the capture window",
            }
        ],
    }
    result = breakdown(decoder_dir, declarations=declarations)
    q = nodes(result.analysis)[f"{NS}/decoder_layers/attention/q_proj"]
    assert q["semantic"] == "query projection" and q["code_ref"] == "model.cpp:10"
    edges = result.graph["edges"]
    residual = [e for e in edges if e["semanticEdgeType"] == "residual"]
    assert [(e["source"], e["target"]) for e in residual] == [
        (f"{NS}/decoder_layers", f"{NS}/decoder_layers/mlp"),
        (f"{NS}/decoder_layers/attention", f"{NS}/decoder_layers/mlp"),
    ]
    declared = [e for e in edges if e["provenance"][0] == "declared dataflow hidden"]
    assert [(e["semanticEdgeType"], e["source"], e["target"]) for e in declared] == [
        ("activation", f"{NS}/stages/embedding", f"{NS}/decoder_layers")
    ]
    # The declared edge replaces the edge of the observed order between the same two nodes.
    assert [(e["source"], e["target"]) for e in edges].count(
        (f"{NS}/stages/embedding", f"{NS}/decoder_layers")
    ) == 1
    assert {e["semanticEdgeType"] for e in edges} <= {"activation", "residual"}
    only = result.analysis["source_only_structure"][0]
    assert only["structure_node_id"] == f"{NS}/stages/position_ids" and "node_id" not in only
    emit_facts(result, tmp_path / "facts")
    assert validate_facts(tmp_path / "facts").ok


def _flow(kind: str | None = None, **fields) -> dict:
    flow = {
        "name": "kv",
        "source": {"structure": "stages/embedding", "port": "hidden_out"},
        "target": {"structure": "decoder_layers"},
        **fields,
    }
    if kind is not None:
        flow["kind"] = kind
    return flow


@pytest.mark.parametrize(
    ("kind", "edge_type", "extra"),
    [
        (None, "activation", {}),
        ("cache", "state", {}),
        ("index", "control", {}),
        ("parameter", "parameter", {}),
        ("residual", "residual", {"dashed": True}),
        ("runtime_carry", "state", {"crossInvocation": True, "crossStep": 1}),
    ],
)
def test_declared_dataflow_kinds_map_onto_the_stage3_edge_types(
    decoder_dir: Path, kind: str | None, edge_type: str, extra: dict
) -> None:
    fields = {"invocation_offset": 1} if kind == "runtime_carry" else {}
    result = breakdown(decoder_dir, declarations={"dataflow": [_flow(kind, **fields)]})
    edge = next(e for e in result.graph["edges"] if e["id"].startswith("dataflow::0::"))
    assert edge["semanticEdgeType"] == edge_type and edge["tensor"]["role"] == edge_type
    assert edge["tensor"]["from"] == "hidden_out" and edge["tensor"]["to"] == "decoder_layers"
    assert {key: edge.get(key) for key in extra} == extra


def test_declared_tensors_are_written_as_text_and_items_cite_their_source(
    decoder_dir: Path, tmp_path: Path
) -> None:
    tensor = {"name": "hidden_states", "shape": ["tokens", 64], "dtype": "float32"}
    declarations = {
        "nodes": {"stages/embedding": {"code_ref": "model.cpp:3", "tensor": tensor}},
        "dataflow": [_flow(tensor=tensor)],
    }
    result = breakdown(decoder_dir, declarations=declarations)
    edges = {e["id"]: e for e in result.graph["edges"]}
    assert edges[next(i for i in edges if i.startswith("dataflow::0::"))]["tensor"]["shape"] == "[tokens, 64]"
    # An edge of the observed order carries the declared output tensor of its source.
    after_embedding = [e for e in edges.values() if e["source"] == f"{NS}/stages/embedding"]
    assert all(e["tensor"]["shape"] == "[tokens, 64]" for e in after_embedding) and after_embedding
    items = {i["id"]: i for i in result.graph["nodes"] + result.graph["clusters"]}
    assert items[f"{NS}/stages/embedding"]["origin"] == "hybrid"
    assert items[f"{NS}/stages/lm_head"]["origin"] == "backend_trace_extension"
    emit_facts(result, tmp_path / "facts")
    assert validate_facts(tmp_path / "facts").ok


@pytest.mark.parametrize(
    ("flow", "message"),
    [
        (_flow("dataflow"), "kind 'dataflow' is not one of activation, residual"),
        (_flow("runtime_carry"), "runtime_carry edge needs a positive integer invocation_offset"),
        (_flow(tensor={"shape": {"tokens": 8}}), "tensor shape {'tokens': 8} must be a string or a list"),
    ],
)
def test_declared_dataflow_the_stage3_contract_cannot_express_is_reported(
    decoder_dir: Path, flow: dict, message: str
) -> None:
    with pytest.raises(BreakdownError, match=message):
        breakdown(decoder_dir, declarations={"dataflow": [flow]})


def test_a_node_declared_optional_may_be_absent_from_the_capture(decoder_dir: Path) -> None:
    described = {"semantic": "runs only with HCCL", "code_ref": "model.cpp:9"}
    with pytest.raises(BreakdownError, match="declared node 'stages/allgather' is not in the capture"):
        breakdown(decoder_dir, declarations={"nodes": {"stages/allgather": described}})
    result = breakdown(
        decoder_dir, declarations={"nodes": {"stages/allgather": {**described, "optional": True}}}
    )
    assert f"{NS}/stages/allgather" not in nodes(result.analysis)


def test_kernel_attribution_counts_every_kernel_once(facts_dir: Path) -> None:
    attribution = json.loads((facts_dir / "kernel_attribution.json").read_text())
    summary, rows = attribution["summary"], attribution["rows"]
    indices = [r["op_index"] for r in rows] + summary["excluded"] + summary["unattributed"]
    assert sorted(indices) == list(range(summary["kernels_total"]))
    assert summary["kernels_attributed"] == len(rows) and summary["kernels_excluded"] == len(
        summary["excluded"]
    )
    timeline = json.loads(next(facts_dir.glob("*_timeline.json")).read_text())
    owners = {e["op_index"]: e["owner_node_id"] for e in timeline["events"] if e["op_index"] is not None}
    assert owners == {r["op_index"]: r["owner_node_id"] for r in rows}


@pytest.mark.parametrize(
    ("declarations", "message"),
    [
        (
            {"branches": {"decoder_layers": [{"name": "r", "inputs": ["nowhere"], "output": "mlp"}]}},
            "references undefined input 'nowhere'",
        ),
        (
            {
                "dataflow": [
                    {
                        "name": "d",
                        "source": {"structure": "stages/x"},
                        "target": {"structure": "decoder_layers"},
                    }
                ]
            },
            "source 'stages/x' is not in the capture",
        ),
        (
            {"source_only": [{"path": "stages/embedding", "reason": "r"}]},
            "declared source-only but the capture observed",
        ),
    ],
)
def test_declarations_that_do_not_match_the_capture_are_reported(
    decoder_dir: Path, declarations, message
) -> None:
    with pytest.raises(BreakdownError, match=message):
        breakdown(decoder_dir, declarations=declarations)


def test_activation_edges_come_from_children_order_only(facts_dir: Path) -> None:
    graph = json.loads((facts_dir / "outputs" / "model_architecture_graph.json").read_text())
    assert graph["schema_version"] == "model_architecture_graph.v1" and "schema" not in graph
    activation = [(e["source"], e["target"]) for e in graph["edges"] if e["semanticEdgeType"] == "activation"]
    assert (f"{NS}/decoder_layers/attention/q_proj", f"{NS}/decoder_layers/attention/softmax") in activation
    assert (f"{NS}/stages/embedding", f"{NS}/decoder_layers") in activation
    assert not any("runtime_auxiliary" in s or "runtime_auxiliary" in t for s, t in activation)
    assert all(e["provenance"][0].startswith("declared children order in ") for e in graph["edges"])
    assert [root["id"] for root in graph["roots"]] == [
        "section/source_architecture",
        "section/runtime_auxiliary",
    ]
    runtime = graph["roots"][1]["children"]
    assert [item["id"] for item in runtime] == [f"{NS}/runtime_auxiliary/fetch_logits"]
    layers = next(i for i in graph["roots"][0]["children"] if i["id"] == f"{NS}/decoder_layers")
    assert layers["repeatCount"] == 3 and layers["instanceIndices"] == [0, 1, 2]
    flat = {n["id"]: n for n in graph["nodes"] + graph["clusters"]}
    assert set(flat) == {"section/source_architecture", "section/runtime_auxiliary"} | {
        r["node_id"] for r in json.loads(next(facts_dir.glob("*_perf_data.json")).read_text())["modules"]
    }
    # Children stack top to bottom in declaration order.
    q, softmax = flat[f"{NS}/decoder_layers/attention/q_proj"], flat[f"{NS}/decoder_layers/attention/softmax"]
    assert q["y"] + q["height"] < softmax["y"] and q["parent"] == f"{NS}/decoder_layers/attention"


def test_the_timeline_follows_the_1_4_layout(facts_dir: Path, fakes) -> None:
    timeline = json.loads(next(facts_dir.glob("*_timeline.json")).read_text())
    assert timeline["schema_version"] == "1.4" and timeline["time_unit"] == "us"
    events = timeline["events"]
    assert timeline["event_count"] == len(events)
    assert timeline["time_origin_us"] == min(e["ts_us"] for e in events)
    for event in events:
        # The text keeps every nanosecond; a double of microseconds since the epoch cannot.
        _whole, frac = event["start_time_us_raw"].split(".")
        assert len(frac) == 3 and float(event["start_time_us_raw"]) == pytest.approx(event["ts_us"], abs=0.5)
    compute = [e for e in events if e["mapping_status"] != "sample_window_phase_owner"]
    assert timeline["mapping_summary"]["mapped_events"] == len(compute) == fakes.kernels_per_step(3, True)
    assert timeline["mapping_summary"]["unmapped_events"] == 0


def test_the_stage3_inputs_are_written_and_consistent(facts_dir: Path) -> None:
    handoff = json.loads((facts_dir / "ui-report-handoff.json").read_text())
    assert handoff["schema_version"] == "ui_report_handoff.v1" and handoff["skill3_adapter"] == "generic"
    assert set(handoff["inputs"]) == {
        "analysis",
        "performance",
        "timeline",
        "trace",
        "bindings",
        "architecture",
        "overlay",
    }
    for path in handoff["inputs"].values():
        assert (facts_dir / path).is_file(), path
    assert handoff["capabilities"] == {
        "repeatedLayers": True,
        "expertInventory": False,
        "aicoreFrequency": False,
    }
    overlay = json.loads((facts_dir / "outputs" / "architecture_overlay_map.json").read_text())
    perf = json.loads(next(facts_dir.glob("*_perf_data.json")).read_text())
    assert [m["backend_node_id"] for m in overlay["mappings"]] == [r["node_id"] for r in perf["modules"]]
    assert overlay["validation"]["all_backend_nodes_classified"] is True
    bindings = json.loads((facts_dir / "outputs" / "trace_bindings.json").read_text())
    raw = json.loads((facts_dir / "trace_view.json").read_text())["traceEvents"]
    timeline = json.loads(next(facts_dir.glob("*_timeline.json")).read_text())
    assert bindings["summary"]["coverage_pct"] == 100.0 and not bindings["unbound"]
    assert bindings["summary"]["bound_events"] == len(timeline["events"])
    events = {e["event_id"]: e for e in timeline["events"]}
    for binding in bindings["bindings"]:
        event, bound = events[binding["timeline_event_id"]], raw[binding["raw_source_event_index"]]
        assert bound["ph"] == "X" and bound["name"] == event["name"]
        if binding["relation"] == "direct_kernel_owner":
            assert bound["args"]["correlation_id"] == event["correlation_id"]


def test_the_runtime_launch_call_is_preferred_among_records_sharing_an_id(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    with process.range("step"):
        with process.range("first"):
            corr = process.launch("aclrtLaunchKernel", "RmsNorm", kind=ActivityKind.RUNTIME_API)
        with process.range("second"):
            # A node record carrying the same id in the next range (as a late node report would).
            process.apis.append(
                (
                    int(ActivityKind.NODE_API),
                    process.now,
                    process.now + 50,
                    process.pid,
                    process.tid,
                    corr,
                    "aclnnRmsNorm",
                )
            )
            process.advance(100)
            comm = process.allreduce()
            # A runtime record carrying the communication's id elsewhere does not take it over.
            process.apis.append(
                (
                    int(ActivityKind.RUNTIME_API),
                    fakes.BASE_NS,
                    fakes.BASE_NS + 10,
                    process.pid,
                    process.tid,
                    comm,
                    "KernelLaunch",
                )
            )
    process.write(tmp_path)
    result = build_breakdown(load_trace(tmp_path))
    owners = {
        e["name"]: e["submodule"] for e in result.timeline["events"] if e["event_class"] != "runtime_window"
    }
    assert owners == {"RmsNorm": "first", "hcom_allReduce_": "second"}


def test_facts_that_break_their_schema_are_not_written(decoder_dir: Path, tmp_path: Path) -> None:
    result = breakdown(decoder_dir)
    result.perf["modules"][0]["op_ratio"] = 0.5  # the old float instead of a per-op-type dict
    with pytest.raises(BreakdownError, match=r"_perf_data.json breaks its schema: \$.modules\[0\].op_ratio"):
        emit_facts(result, tmp_path / "facts")
    assert not (tmp_path / "facts").exists()
