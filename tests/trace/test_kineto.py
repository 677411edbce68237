"""``--format kineto``: one Kineto trace per rank, its vocabulary, its structure and determinism."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

from mspti_trace import check_chrome_trace, load_trace
from mspti_trace.cli import main
from mspti_trace.kineto import KinetoOptions, export_kineto_traces


def test_one_file_per_rank_with_rank_and_world_size(fakes, tmp_path: Path) -> None:
    for pid, device in ((11, 0), (22, 1)):
        process = fakes.FakeProcess(pid=pid, tid=pid, device=device)
        with process.range("step"):
            process.launch("aclnnMatmul", "MatMulV2")
        process.write(tmp_path / "cap", {"soc": "Ascend910B3"})
    stats = export_kineto_traces(load_trace(tmp_path / "cap"), tmp_path / "kineto")
    assert stats.world_size == 2 and [f.rank for f in stats.files] == [0, 1]
    assert sorted(p.name for p in (tmp_path / "kineto").iterdir()) == [
        "rank0_pid11_npu0.pt.trace.json",
        "rank1_pid22_npu1.pt.trace.json",
    ]
    for rank in stats.files:
        text = rank.path.read_text()
        # HTA reads the rank with a line search for '"rank": N' before parsing the file.
        assert f'"distributedInfo": {{"backend": "hccl", "rank": {rank.rank}, "world_size": 2}}' in text
        trace = json.loads(text)
        assert trace["schemaVersion"] == 1
        assert trace["deviceProperties"][0]["id"] == rank.device
        assert trace["deviceProperties"][0]["name"] == "Ascend910B3"
        assert trace["deviceProperties"][0]["totalGlobalMem"] == 64 << 30
        assert check_chrome_trace(rank.path) == []


def test_vocabulary_of_the_decoder_capture(decoder_dir: Path, tmp_path: Path) -> None:
    stats = export_kineto_traces(load_trace(decoder_dir), tmp_path / "kineto")
    (only,) = stats.files
    trace = json.loads(only.path.read_text())
    events = trace["traceEvents"]
    cats = Counter(e["cat"] for e in events if e["ph"] == "X")
    capture = load_trace(decoder_dir).capture()
    records = capture.meta["records"]
    assert cats["kernel"] == records["kernel"] + records["communication"]
    assert cats["gpu_memcpy"] == records["memcpy"]
    assert cats["cpu_op"] == records["node_api"] + records["api"]
    # The synthetic capture's launches are NODE_API records only: operators, no runtime calls.
    assert cats["privateuse1_runtime"] == records["acl_api"]
    steps = sorted(e["name"] for e in events if e["name"].startswith("ProfilerStep#"))
    assert steps == ["ProfilerStep#0", "ProfilerStep#1"]
    kernels = [e for e in events if e.get("cat") == "kernel" and e["ph"] == "X"]
    assert all({"device", "stream", "correlation", "External id"} <= e["args"].keys() for e in kernels)
    assert {e["name"] for e in kernels if e["name"].startswith("ncclKernel_")} == {
        "ncclKernel_hcom_allReduce_"
    }
    flows = [e for e in events if e["ph"] in ("s", "f")]
    assert {e["cat"] for e in flows} == {"ac2g"} and len(flows) == 2 * only.flows
    # Microseconds after baseTimeNanoseconds, which is a whole second.
    assert trace["baseTimeNanoseconds"] % 1_000_000_000 == 0
    first = min(e["ts"] for e in kernels)
    assert trace["baseTimeNanoseconds"] + round(first * 1000) == int(capture.table(2)["start"].min())
    assert check_chrome_trace(only.path) == []


def test_native_names_keep_the_cann_names(decoder_dir: Path, tmp_path: Path) -> None:
    stats = export_kineto_traces(load_trace(decoder_dir), tmp_path / "k", KinetoOptions(native_names=True))
    events = json.loads(stats.files[0].path.read_text())["traceEvents"]
    names = {e["name"] for e in events if e.get("cat") == "kernel"}
    assert "hcom_allReduce_" in names and not any(n.startswith("nccl") for n in names)


def test_the_export_is_deterministic(decoder_dir: Path, tmp_path: Path) -> None:
    first = export_kineto_traces(load_trace(decoder_dir), tmp_path / "a").files[0].path.read_bytes()
    second = export_kineto_traces(load_trace(decoder_dir), tmp_path / "b").files[0].path.read_bytes()
    assert first == second


def test_the_command_exports_kineto_and_checks_it(decoder_dir: Path, capsys) -> None:
    assert main(["export", str(decoder_dir), "--format", "kineto", "--check"]) == 0
    out = capsys.readouterr().out
    assert "rank 0 of 1" in out and "structure check: ok" in out
    assert len(list((decoder_dir / "kineto").glob("*.pt.trace.json"))) == 1
    # chrome stays the default format
    assert main(["export", str(decoder_dir)]) == 0
    assert (decoder_dir / "trace.json").exists()


def test_calls_move_onto_a_whole_microsecond_where_their_thread_leaves_room(
    decoder_dir: Path, tmp_path: Path
) -> None:
    # HTA's default: start rounded up, end (start + duration, in float) rounded down; a call holding
    # no whole microsecond comes out -1. The decoder's calls last 50 to 400 ns, four or five per
    # microsecond: a call is moved only when no other slice of its thread has an edge between it and
    # the whole microsecond, so nesting holds, and calls with neighbours on both sides stay.
    stats = export_kineto_traces(load_trace(decoder_dir), tmp_path / "kineto")
    (only,) = stats.files
    events = json.loads(only.path.read_text())["traceEvents"]
    assert check_chrome_trace(only.path) == []
    host = [e for e in events if e["ph"] == "X" and e.get("cat") in _HOST_SLICES]
    calls = [e for e in host if e["cat"] != "user_annotation"]
    negative = [e for e in calls if math.floor(e["ts"] + e["dur"]) < math.ceil(e["ts"])]
    assert len(negative) < len([e for e in calls if e["dur"] < 1])
    for call in negative:
        start, end = call["ts"], call["ts"] + call["dur"]
        others = [
            edge
            for e in host
            if e["tid"] == call["tid"] and (e["ts"], e["dur"]) != (call["ts"], call["dur"])
            for edge in (e["ts"], e["ts"] + e["dur"])
        ]
        assert any(math.floor(start) < x <= start for x in others), call
        assert any(end <= x < math.ceil(end) for x in others), call


_HOST_SLICES = ("cpu_op", "privateuse1_runtime", "user_annotation")
