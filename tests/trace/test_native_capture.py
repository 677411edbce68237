"""End to end on the native stack: the collector preloaded before libmspti.so captures the decoder
example (examples/decoder_breakdown), and the capture exports, breaks down and validates.

Skipped, with the reason, where libmspti.so or the aclnn operator library is not built yet."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from mspti_trace import (
    ActivityKind,
    BreakdownOptions,
    build_breakdown,
    check_chrome_trace,
    emit_facts,
    export_chrome_trace,
    load_declarations,
    load_trace,
    validate_facts,
)
from mspti_trace.breakdown import INVARIANTS, validate_documents
from mspti_trace.breakdown.validate import OAM_TOOLS_CHECKS, load_facts
from mspti_trace.capture import capture as run_capture
from sim_runtime.trace_launcher import capture
from support.native import NativeTree, ProgramBuilder, python_subprocess_env
from support.sibling import load_sibling
from support.usage_errors import run_cli

BREAKERS = load_sibling(Path(__file__).resolve().parent, "facts_breakers").BREAKERS

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "decoder_breakdown"
LAYERS, STEPS = 2, 2
#: Operators per decoder layer: input_norm, 7 in attention, residual, post_norm, 5 in mlp, residual.
OPS_PER_LAYER = 16


@pytest.fixture(scope="module")
def decoder(tree: NativeTree, tmp_path_factory: pytest.TempPathFactory) -> Path:
    builder = ProgramBuilder(tree, tmp_path_factory.mktemp("decoder"))
    return builder.build([EXAMPLE / "main.cpp"], libs=["ascendcl", "nnopbase", "opapi", "hccl", "profapi"])


@pytest.fixture(scope="module")
def captured(tree: NativeTree, collector: Path, decoder: Path, tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("decoder-capture")
    env = tree.env(preload_mspti=True, NPU_SIM_CLOCK="wall", NPU_SIM_LOG_LEVEL="error")
    result = capture(
        [str(decoder), "--layers", str(LAYERS), "--steps", str(STEPS)],
        out,
        environ=env,
        collector=collector,
        timeout=120,
    )
    assert result.returncode == 0
    return out


def ops_per_step(trace_dir: Path) -> tuple[int, bool]:
    trace = load_trace(trace_dir)
    hccl = trace.capture().count(ActivityKind.COMMUNICATION) > 0
    return 1 + LAYERS * OPS_PER_LAYER + 1 + 1 + (1 if hccl else 0), hccl


def test_the_capture_holds_every_kind_the_program_produced(captured: Path) -> None:
    trace = load_trace(captured)
    assert len(trace.captures) == 1
    capture_ = trace.capture()
    meta = capture_.meta
    assert meta["complete"] is True and meta["write_errors"] == 0 and meta["unreadable_buffers"] == 0
    assert meta["kinds_enabled"] == [k.name.lower() for k in ActivityKind]
    assert sum(meta["dropped"].values()) == 0
    per_step, _ = ops_per_step(captured)
    kernels = capture_.count(ActivityKind.KERNEL) + capture_.count(ActivityKind.COMMUNICATION)
    assert kernels == STEPS * per_step
    for kind in (
        ActivityKind.MARKER,
        ActivityKind.MEMORY,
        ActivityKind.MEMCPY,
        ActivityKind.ACL_API,
        ActivityKind.NODE_API,
        ActivityKind.RUNTIME_API,
    ):
        assert capture_.count(kind) > 0, kind
    for kind in ActivityKind:
        assert capture_.count(kind) == meta["records"][kind.name.lower()]
    names = set(capture_.text(capture_.table(ActivityKind.KERNEL)["name"]).tolist())
    assert {re.match(r"[A-Za-z0-9]+", n).group(0) for n in names} >= {"MatMulV2", "RmsNorm", "Add"}


def test_the_export_has_the_documented_slices(captured: Path, tmp_path: Path) -> None:
    out = tmp_path / "trace.json"
    stats = export_chrome_trace(load_trace(captured), out)
    assert check_chrome_trace(out) == []
    events = json.loads(out.read_text())["traceEvents"]
    per_step, hccl = ops_per_step(captured)
    cats = Counter(e.get("cat") for e in events if e["ph"] == "X")
    assert cats["kernel"] + cats["communication"] == STEPS * per_step
    # Ranges per step: step, embedding, final_norm, lm_head, fetch_logits (+ logits_allreduce),
    # and per layer: layer, input_norm, attention + 7, attention_residual, post_norm, mlp + 5, mlp_residual.
    ranges_per_step = 5 + (1 if hccl else 0) + LAYERS * 19
    assert cats["mstx"] == STEPS * ranges_per_step
    assert stats.flows >= STEPS * per_step


def test_the_breakdown_of_the_decoder_is_complete_and_valid(captured: Path, tmp_path: Path) -> None:
    declarations = load_declarations(EXAMPLE / "declarations.json")
    breakdown = build_breakdown(load_trace(captured), BreakdownOptions(declarations=declarations))
    per_step, hccl = ops_per_step(captured)
    assert (
        breakdown.account
        == f"{STEPS * per_step} total = {per_step} attributed + {per_step} excluded + 0 unattributed"
    )
    emit_facts(breakdown, tmp_path / "facts")
    report = validate_facts(tmp_path / "facts")
    assert report.ok, report.summary()
    by_id = {n.node_id: n for n in breakdown.structure.nodes}
    q_proj = by_id["model/decoder-2l/decoder_layers/attention/q_proj"]
    assert sorted(q_proj.instance_indices) == list(range(LAYERS))
    kernels = [e for e in breakdown.timeline["events"] if e["owner_node_id"] == q_proj.node_id]
    assert len(kernels) == LAYERS and all(e["name"].startswith("MatMulV2") for e in kernels)
    assert ("model/decoder-2l/stages/logits_allreduce" in by_id) == hccl


@pytest.fixture(scope="module")
def decoder_facts(captured: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The decoder example's facts, with its declarations, as `npu-sim trace breakdown` writes them."""
    declarations = load_declarations(EXAMPLE / "declarations.json")
    breakdown = build_breakdown(load_trace(captured), BreakdownOptions(declarations=declarations))
    out = tmp_path_factory.mktemp("decoder-facts")
    emit_facts(breakdown, out)
    return out


@pytest.mark.parametrize("invariant", sorted(INVARIANTS))
def test_each_stage2_invariant_holds_on_the_decoder_example(decoder_facts: Path, invariant: str) -> None:
    """One test per invariant (OAM_TOOLS_CHECKS names the oam-tools checks each re-expresses): it
    holds on the decoder example's facts, and the same facts broken on purpose for it fail it."""
    report = validate_documents(load_facts(decoder_facts))
    assert invariant in report.checked and OAM_TOOLS_CHECKS[invariant]
    failures = [str(f) for f in report.failures if f.invariant == invariant]
    assert not failures, "\n".join(failures)
    case = next(b for b in BREAKERS if b.invariant == invariant)
    docs = load_facts(decoder_facts)
    subject = case.breaker(docs)
    broken = validate_documents(docs)
    assert any(f.invariant == invariant and f.subject == subject for f in broken.failures), case.cites


def test_the_decoder_facts_have_the_stage2_shape(decoder_facts: Path) -> None:
    docs = load_facts(decoder_facts)
    perf, timeline, handoff = docs["perf"], docs["timeline"], docs["handoff"]
    q_proj = next(m for m in perf["modules"] if m["node_id"].endswith("/attention/q_proj"))
    assert q_proj["counter_coverage"] == {"kernels_with_counters": 0, "kernels_total": LAYERS, "pct": 0.0}
    assert q_proj["aicore_time_us"] is None and set(q_proj["op_ratio"]) == {"KERNEL_AICORE"}
    assert timeline["schema_version"] == "1.4" and timeline["mapping_summary"]["unmapped_events"] == 0
    assert docs["graph"]["schema_version"] == "model_architecture_graph.v1"
    assert handoff["provenance"]["modelSource"] == "examples/decoder_breakdown/main.cpp"
    assert docs["bindings"]["summary"]["coverage_pct"] == 100.0
    assert docs["analysis"]["source_only_structure"][0]["structure_node_id"].endswith("/stages/weight_upload")
    # The example's declarations are complete: every item of the source architecture cites its source.
    source_root = docs["graph"]["roots"][0]
    stack, origins = list(source_root["children"]), set()
    while stack:
        item = stack.pop()
        stack.extend(item["children"])
        origins.add(item["origin"])
        assert item["sourceRefs"], item["id"]
    assert origins == {"hybrid", "source"}
    assert docs["attribution"]["summary"]["kernels_attributed"] == len(docs["attribution"]["rows"])


def test_kinds_can_be_restricted(tree: NativeTree, collector: Path, decoder: Path, tmp_path: Path) -> None:
    env = tree.env(preload_mspti=True, NPU_SIM_CLOCK="wall", NPU_SIM_LOG_LEVEL="error")
    result = capture(
        [str(decoder), "--layers", "1", "--steps", "1", "--no-hccl"],
        tmp_path,
        kinds=["kernel,marker"],
        environ=env,
        collector=collector,
        timeout=120,
    )
    assert result.returncode == 0 and len(result.pids) == 1
    capture_ = load_trace(tmp_path).capture()
    assert capture_.meta["kinds_enabled"] == ["marker", "kernel"]
    assert {kind for kind, array in capture_.records.items() if len(array)} == {
        ActivityKind.MARKER,
        ActivityKind.KERNEL,
    }


def test_each_process_writes_its_own_capture(
    tree: NativeTree, collector: Path, decoder: Path, tmp_path: Path
) -> None:
    env = tree.env(preload_mspti=True, NPU_SIM_CLOCK="virtual", NPU_SIM_LOG_LEVEL="error")
    script = f"{decoder} --layers 1 --steps 1 --no-hccl & {decoder} --layers 1 --steps 2 --no-hccl; wait"
    result = capture(["bash", "-c", script], tmp_path / "cap", environ=env, collector=collector, timeout=120)
    assert result.returncode == 0
    trace = load_trace(tmp_path / "cap")
    # The shell produced no records and left no capture; each decoder process left one.
    assert len(trace.captures) == 2 and len(set(result.pids)) == 2
    per_step = 3 + OPS_PER_LAYER
    assert sorted(c.count(ActivityKind.KERNEL) for c in trace.captures) == [per_step, 2 * per_step]
    assert all(c.meta["complete"] and c.meta["pid"] == c.pid for c in trace.captures)
    out = tmp_path / "trace.json"
    export_chrome_trace(trace, out)
    assert check_chrome_trace(out) == []
    names = [
        e["args"]["name"]
        for e in json.loads(out.read_text())["traceEvents"]
        if e.get("name") == "process_name"
    ]
    assert sum(name.startswith("Host ") for name in names) == 2 and "NPU 0" in names


def test_ranks_forked_as_processes_each_leave_a_capture(
    tree: NativeTree, collector: Path, tmp_path: Path
) -> None:
    # examples/hccl_allreduce --processes forks one child per rank before any runtime call; each rank
    # leaves through exit(), so its exit handlers flush its records into a capture of its own.
    # The parent already runs msPTI's threads when it forks: TSan cannot follow a multi-threaded fork.
    if "libtsan" in os.environ.get("NPU_SIM_SANITIZER_PRELOAD", ""):
        pytest.skip("TSan does not support threads created after a multi-threaded fork")
    example = REPO / "examples" / "hccl_allreduce" / "main.cpp"
    exe = ProgramBuilder(tree, tmp_path).build([example], libs=["ascendcl", "hccl"])
    env = tree.env(preload_mspti=True, NPU_SIM_CLOCK="virtual", NPU_SIM_LOG_LEVEL="error")
    result = capture(
        [str(exe), "--processes", "2", "1024"],
        tmp_path / "cap",
        environ=env,
        collector=collector,
        timeout=120,
    )
    assert result.returncode == 0
    trace = load_trace(tmp_path / "cap")
    assert len(trace.captures) == 2
    assert all(c.count(ActivityKind.COMMUNICATION) == 1 and c.meta["complete"] for c in trace.captures)


def test_the_npu_sim_trace_command_captures_and_breaks_down(
    tree: NativeTree, collector: Path, decoder: Path, tmp_path: Path
) -> None:
    # Lay the native tree out as installed prefixes, so the command builds its toolkit as usual.
    sim, mspti = tmp_path / "sim", tmp_path / "mspti"
    for root, lib64, include in (
        (sim, tree.sim_lib64, REPO / "csrc" / "sim" / "include"),
        (mspti, tree.mspti_lib64, REPO / "csrc" / "mspti" / "include"),
    ):
        root.mkdir()
        (root / "lib64").symlink_to(lib64)
        (root / "include").symlink_to(include)
    env = python_subprocess_env(tree.env())
    env.update(
        NPU_SIM_PREFIX=str(sim),
        NPU_SIM_MSPTI_PREFIX=str(mspti),
        NPU_SIM_TOOLKIT_DIR=str(tmp_path / "kit"),
        NPU_SIM_TRACE_COLLECTOR=str(collector),
        NPU_SIM_LOG_LEVEL="error",
    )
    env.pop("NPU_SIM_BUILD_DIR", None)
    out = tmp_path / "capture"
    command = [
        sys.executable,
        "-m",
        "sim_runtime",
        "trace",
        "-o",
        str(out),
        "--clock",
        "virtual",
        "--kinds",
        "kernel,marker,api,node_api,acl_api,runtime_api",
        "--",
        str(decoder),
        "--layers",
        "1",
        "--steps",
        "2",
        "--no-hccl",
    ]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "captured 1 process(es)" in result.stderr
    run = json.loads((out / "run.json").read_text())
    assert run["clock"] == "virtual" and run["kinds"] == "kernel,marker,api,node_api,acl_api,runtime_api"
    breakdown = subprocess.run(
        [sys.executable, "-m", "sim_runtime", "trace", "breakdown", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    per_step = 3 + OPS_PER_LAYER
    assert breakdown.returncode == 0, breakdown.stderr
    assert (
        f"{2 * per_step} total = {per_step} attributed + {per_step} excluded + 0 unattributed"
        in breakdown.stdout
    )
    assert "valid: " in breakdown.stdout
    # In the virtual clock too, each leaf owns the kernel its own operator launched.
    timeline = json.loads(next((out / "breakdown").glob("*_timeline.json")).read_text())
    owners = {e["submodule"]: e["name"] for e in timeline["events"] if e["event_class"] == "kernel"}
    assert owners["input_norm"].startswith("RmsNorm") and owners["q_proj"].startswith("MatMulV2")
    assert owners["softmax"].startswith("Softmax") and owners["act"].startswith("Silu")


# --- a program that subscribes to msPTI itself, under the collector that holds the only slot ---


def test_a_refused_subscription_is_diagnosed_and_counted(
    tree: NativeTree, programs: ProgramBuilder, collector: Path, tmp_path: Path, capfd
) -> None:
    program = programs.build(
        [Path(__file__).resolve().parent / "programs" / "second_subscriber.c"], ["mspti"]
    )
    env = tree.env(preload_mspti=True, NPU_SIM_LOG_LEVEL="error")
    result = run_capture(
        [str(program)], tmp_path / "cap", kinds=["api"], environ=env, collector=collector, timeout=60
    )
    out, err = capfd.readouterr()
    assert result.returncode == 1 and "msptiSubscribe: 2" in out  # MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
    assert "the program's msptiSubscribe failed (MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)" in err, err
    assert "NPU_SIM_TRACE_SUBSCRIBE=0" in err
    for meta in (tmp_path / "cap").glob("trace-*.json"):
        assert json.loads(meta.read_text())["refused_subscriptions"] == 1
    left = run_capture(
        [str(program)],
        tmp_path / "cap2",
        kinds=["api"],
        environ={**env, "NPU_SIM_TRACE_SUBSCRIBE": "0"},
        collector=collector,
        timeout=60,
    )
    assert left.returncode == 0  # the slot left to the program


def test_the_python_monitor_example_fails_cleanly_under_the_collector(
    tree: NativeTree, tmp_path: Path
) -> None:
    monitor = REPO / "examples" / "python_monitor" / "monitor.py"
    args = ["trace", "--timeout", "60", "--clock", "virtual", "-o", str(tmp_path / "cap")]
    result = run_cli("sim_runtime", [*args, "--", sys.executable, str(monitor), "--ranks", "1"], timeout=90)
    assert result.returncode == 1, result.stderr  # not 124: it did not hang
    assert "start failed: <MsptiResult.MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED" in result.stderr
    assert "NPU_SIM_TRACE_SUBSCRIBE=0" in result.stderr
