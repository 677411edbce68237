"""Stream capture and model execution (aclmdlRI*): replays move data and take device time; error codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"

INVALID_PARAM = 100000
INVALID_HANDLE = 200005
STREAM_CAPTURED = 107027
MODEL_CAPTURED = 107026
NOT_CAPTURED = 107029
MODE_NOT_SUPPORT = 107030
WRONG_THREAD = 107038
CAPTURE_INVALIDATED = 507903
STATUS_NONE, STATUS_ACTIVE, STATUS_INVALIDATED = 0, 1, 2


@pytest.fixture(scope="module")
def graph_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "acl_graph.c"], libs=["ascendcl"], extra_flags=["-pthread"])


def run(exe: Path, native: NativeTree, *args: str) -> dict[str, int]:
    result = run_program(exe, native.env(NPU_SIM_CLOCK="virtual"), list(args))
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return {k: int(v) for k, v in (line.split("=", 1) for line in result.stdout.splitlines())}


def test_each_execution_runs_the_captured_copy_fill_and_host_function(
    graph_exe: Path, native: NativeTree
) -> None:
    n = 4
    out = run(graph_exe, native, "data", str(n))
    # Capture records: neither the copy, the fill nor the host function has happened yet.
    assert (out["b_after_capture"], out["a_after_capture"], out["host_calls_after_capture"]) == (0, 0x11, 0)
    for i in range(1, n + 1):
        # Each execution copies what the source holds at that moment, fills the source and calls the
        # host function once, which may call the runtime (the stream is no longer capturing).
        assert out[f"host_status_{i}"] == STATUS_NONE
        assert (out[f"b_{i}"], out[f"b_{i}_uniform"], out[f"a_{i}"], out[f"host_calls_{i}"]) == (
            i,
            1,
            0x5A,
            i,
        )


def test_executions_take_device_time_and_capture_none(graph_exe: Path, native: NativeTree) -> None:
    kernels = 3
    one = run(graph_exe, native, "timing", "1", str(kernels))
    three = run(graph_exe, native, "timing", "3", str(kernels))
    per_kernel = one["execute_span"] / kernels
    # Capturing ran nothing on the stream: far less than one kernel passed between its events.
    assert one["capture_span"] < per_kernel / 4
    # Three executions run the model three times, one after another.
    assert 2.8 * one["execute_span"] <= three["execute_span"] <= 3.2 * one["execute_span"]


def test_error_paths(graph_exe: Path, native: NativeTree) -> None:
    out = run(graph_exe, native, "errors")
    expected = {
        "begin_default_stream": INVALID_PARAM,
        "begin_bad_mode": INVALID_PARAM,
        "end_not_capturing": NOT_CAPTURED,
        "info_null_status": INVALID_PARAM,
        "info_idle": 0,
        "status_idle": STATUS_NONE,
        "model_idle_null": 1,
        "begin": 0,
        "begin_twice": STREAM_CAPTURED,
        "launch_captured": 0,
        "info_active": 0,
        "status_active": STATUS_ACTIVE,
        "model_active_set": 1,
        "execute_while_capturing": MODEL_CAPTURED,
        "destroy_while_capturing": MODEL_CAPTURED,
        "destroy_capturing_stream": STREAM_CAPTURED,
        "sync_copy_global": MODE_NOT_SUPPORT,
        "memset_global": MODE_NOT_SUPPORT,
        "async_copy_pageable_global": MODE_NOT_SUPPORT,
        "async_copy_pinned_global": 0,
        "other_thread_copy_global": MODE_NOT_SUPPORT,
        "other_thread_copy_thread_local": 0,
        "exchange": 0,
        "previous_mode": 0,
        "sync_copy_relaxed": 0,
        "exchange_back": 0,
        "exchange_null": INVALID_PARAM,
        "launch_other_stream": 0,
        "end_null_model": INVALID_PARAM,
        "end_other_thread": WRONG_THREAD,
        "end": 0,
        "info_after_end": 0,
        "status_after_end": STATUS_NONE,
        "sync_copy_after_end": 0,
        "execute_timeout_zero": INVALID_PARAM,
        "execute_timeout_bad": INVALID_PARAM,
        "execute": 0,
        "execute_async_null": INVALID_PARAM,
        "destroy": 0,
        "destroy_again": INVALID_HANDLE,
        "execute_destroyed": INVALID_HANDLE,
        "destroy_null": INVALID_PARAM,
        "begin2": 0,
        "sync_capturing": STREAM_CAPTURED,
        "info_invalidated": 0,
        "status_invalidated": STATUS_INVALIDATED,
        "launch_invalidated": CAPTURE_INVALIDATED,
        "end_invalidated": CAPTURE_INVALIDATED,
        "model_invalidated_null": 1,
        "begin3": 0,
        "record_capturing": 0,
        "info_after_record": 0,
        "status_after_record": STATUS_INVALIDATED,
        "end_after_record": CAPTURE_INVALIDATED,
    }
    assert out == expected
