"""End to end on the native stack: a plain runtime program (tests/trace/programs/plain_workload.cpp:
kernels and asynchronous copies and fills on one stream, then synchronous copies and fills, no
ranges, no operators) captured in both clocks, exported in every format, each passing --check.

msPTI times the copies and fills it interposes on the host, around the runtime's call: every such
record must land inside its call's slice, none on a device stream track."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mspti_trace import load_trace
from mspti_trace.calls import host_calls
from mspti_trace.cli import main
from mspti_trace.kinds import INVALID_STREAM, ActivityKind
from sim_runtime.trace_launcher import capture
from support.native import NativeTree, ProgramBuilder

PROGRAM = Path(__file__).resolve().parent / "programs" / "plain_workload.cpp"
ITERATIONS = 6


@pytest.fixture(scope="module")
def program(tree: NativeTree, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ProgramBuilder(tree, tmp_path_factory.mktemp("plain")).build([PROGRAM], libs=["ascendcl"])


@pytest.fixture(scope="module", params=["wall", "virtual"])
def captured(request, tree: NativeTree, collector: Path, program: Path, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp(f"plain-{request.param}")
    env = tree.env(preload_mspti=True, NPU_SIM_CLOCK=request.param, NPU_SIM_LOG_LEVEL="error")
    result = capture([str(program), str(ITERATIONS)], out, environ=env, collector=collector, timeout=120)
    assert result.returncode == 0
    return out


def test_every_copy_and_fill_record_has_a_clock(captured: Path) -> None:
    trace = load_trace(captured)
    capture_ = trace.capture()
    calls = host_calls(capture_)
    copies = capture_.table(ActivityKind.MEMCPY)
    fills = capture_.table(ActivityKind.MEMSET)
    # Per iteration: two asynchronous copies and one fill, then two synchronous copies and a fill.
    assert len(copies) == 4 * ITERATIONS and len(fills) == 2 * ITERATIONS
    assert calls.copies.undecided == calls.fills.undecided == 0
    # Synchronous copies have no stream; they are timed on the host wherever they are timed.
    sync = copies["stream_id"] == INVALID_STREAM
    assert sync.sum() == 2 * ITERATIONS and calls.copies.host_timed[sync].all()
    # A host-timed record belongs to its call, whose slice spans it.
    for clocks, table, column in ((calls.copies, copies, "memcpy"), (calls.fills, fills, "memset")):
        attached = calls.records[calls.records[column] >= 0]
        assert len(attached) == int(clocks.host_timed.sum())
        assert (attached["start"] <= table["start"][attached[column]]).all()
        assert (attached["end"] >= table["end"][attached[column]]).all()


@pytest.mark.parametrize("form", ["chrome", "kineto", "ascend-pt"])
def test_every_format_passes_the_check(captured: Path, form: str, tmp_path: Path, capsys) -> None:
    out = tmp_path / form
    assert main(["export", str(captured), "--format", form, "-o", str(out), "--check"]) == 0
    assert "structure check: ok" in capsys.readouterr().out


def test_no_host_timed_copy_is_on_a_stream_track(captured: Path, tmp_path: Path) -> None:
    trace = load_trace(captured)
    calls = host_calls(trace.capture())
    device_timed = int(calls.copies.device_timed.sum())
    out = tmp_path / "trace.json"
    assert main(["export", str(captured), "-o", str(out)]) == 0
    events = json.loads(out.read_text())["traceEvents"]
    assert sum(1 for e in events if e.get("cat") == "memcpy") == device_timed
    merged = [e for e in events if e["ph"] == "X" and "memcpy" in e.get("args", {})]
    assert len(merged) == int(calls.copies.host_timed.sum())
