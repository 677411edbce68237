"""HCCL operations are stream operations: a call enqueues and returns before its peers have
joined; the device task starts once every rank's stream has reached it; the output holds the
result once the stream has run it (after a synchronisation); later work on the stream runs after
it; a peer that never comes fails the stream's synchronisation (tests/sim/test_hccl_api.py and
test_hccl_collectives.py cover the timeouts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"
E_PARA, E_TIMEOUT = 1, 9
ACL_ERROR_RT_FFTS_PLUS_TIMEOUT = 507048  # a collective task whose peers did not come (CANN: EI0002)
ACL_ERROR_RT_FFTS_PLUS_EXCEPTION = 507049  # a collective task that failed otherwise
ACL_ERROR_RT_STREAM_SYNC_TIMEOUT = 507046
ACL_ERROR_RT_EVENT_NOT_COMPLETE = 507006


@pytest.fixture(scope="module")
def exe(programs: ProgramBuilder) -> Path:
    return programs.build(
        [PROGRAMS / "hccl_async.cpp"], libs=["hccl", "hcomm", "opapi", "nnopbase", "ascendcl"]
    )


def run(exe: Path, native: NativeTree, scenario: str, **env: str) -> dict[str, str]:
    # A call that waited for its peers would fail after HCCL_EXEC_TIMEOUT (the peer waits for it).
    settings = {"NPU_SIM_DEVICES": "8", "HCCL_CONNECT_TIMEOUT": "30", "HCCL_EXEC_TIMEOUT": "10", **env}
    result = run_program(exe, native.env(**settings), [scenario], timeout=120)
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    out = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    assert out["failures"] == "0", result.stdout
    return out


def check_rank(out: dict[str, str], who: str) -> None:
    assert out[f"{who}_call"] == "0"
    assert out[f"{who}_sync"] == "0"
    assert out[f"{who}_result"] == "1", "the result is visible after synchronising"


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_a_collective_returns_before_its_peer_has_called(exe: Path, native: NativeTree, clock: str) -> None:
    out = run(exe, native, "nonblocking", NPU_SIM_CLOCK=clock)
    assert out["peer_released"] == "1", "rank 0's call returned while rank 1 had not called"
    assert out["rank0_untouched"] == "1", "nothing is written before the peer has joined"
    assert int(out["timed_sync"]) == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "a bounded wait for the peer gives up"
    assert float(out["rank0_call_ms"]) < 1000
    check_rank(out, "rank0")
    check_rank(out, "rank1")


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_a_device_synchronisation_with_timeout_waits_for_a_held_collective(
    exe: Path, native: NativeTree, clock: str
) -> None:
    # torch.npu.synchronize() is aclrtSynchronizeDeviceWithTimeout: it must not return before a
    # collective on one of the device's streams has run (its device records are then with the driver).
    out = run(exe, native, "device_sync", NPU_SIM_CLOCK=clock)
    assert out["peer_released"] == "1" and out["call"] == "0"
    timed = int(out["timed_device_sync"])
    assert timed == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "a bounded wait for the peer gives up"
    assert out["device_sync"] == "0"
    assert out["result"] == "1", "the output holds the sum once the device synchronisation returned"


def test_a_collective_returns_before_a_peer_process_has_called(exe: Path, native: NativeTree) -> None:
    # Rank 1 calls only once rank 0's call has returned: a call that waited for it would time out.
    out = run(exe, native, "processes", NPU_SIM_CLOCK="virtual")
    assert float(out["rank0_call_ms"]) < 1000
    check_rank(out, "rank0")
    assert out["rank1_exit"] == "0", "rank 1 (forked) got the sum too"


def test_a_peer_that_ends_fails_the_synchronisation_without_a_hang(exe: Path, native: NativeTree) -> None:
    # The execution timeout is 10 s: the failure comes from the peer's end, not from the timeout.
    out = run(exe, native, "peer_exits", NPU_SIM_CLOCK="virtual")
    assert out["call"] == "0", "the call enqueues"
    assert out["rank1_exit"] == "0"
    assert int(out["sync"]) == ACL_ERROR_RT_FFTS_PLUS_TIMEOUT
    assert out["async"] == str(E_TIMEOUT), "the peer can never arrive"
    assert float(out["sync_ms"]) < 8000
    assert out["sync_again"] == "0"


def test_arguments_that_disagree_fail_both_synchronisations(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, "mismatch", NPU_SIM_CLOCK="virtual")
    assert (out["call0"], out["call1"]) == ("0", "0"), "no rank can tell at its call"
    assert int(out["sync0"]) == int(out["sync1"]) == ACL_ERROR_RT_FFTS_PLUS_EXCEPTION
    assert (out["async0"], out["async1"]) == (str(E_PARA), str(E_PARA))


def test_a_forked_child_gets_an_error_not_a_hang(exe: Path, native: NativeTree) -> None:
    # The child has none of the parent's progress threads: its operation runs on its own thread and
    # fails at the execution timeout, reported at synchronisation.
    out = run(exe, native, "fork_child", NPU_SIM_CLOCK="virtual", HCCL_EXEC_TIMEOUT="1")
    assert out["child_exit"] == "0"
    assert out["child_call"] == "0"
    assert int(out["child_sync"]) == ACL_ERROR_RT_FFTS_PLUS_TIMEOUT


def test_one_thread_drives_both_ranks(exe: Path, native: NativeTree) -> None:
    # Impossible if a call waited for its peers: rank 0's operations are all issued first.
    out = run(exe, native, "single_thread", NPU_SIM_CLOCK="virtual")
    assert out["calls"] == "0"
    assert (out["sync0"], out["sync1"]) == ("0", "0")
    assert (out["result0"], out["result1"]) == ("1", "1"), "operations on a stream run in order"


def test_later_work_on_the_stream_runs_after_the_collective(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, "ordering", NPU_SIM_CLOCK="virtual")
    t = {k: int(v) for k, v in out.items() if k[:2] in ("r0", "r1") and not k.endswith("_copy")}
    # Rank 1's stream is busy first: rank 0's collective starts only once rank 1's stream reaches it.
    assert t["r0_after_collective"] > t["r1_before"] > t["r0_before"]
    for r in ("r0", "r1"):
        assert t[f"{r}_before"] < t[f"{r}_after_collective"] < t[f"{r}_after_kernel"]
        assert out[f"{r}_copy"] == "1", "a copy issued after the collective reads its result"


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_work_behind_a_collective_returns_before_the_peer_has_called(
    exe: Path, native: NativeTree, clock: str
) -> None:
    out = run(exe, native, "behind", NPU_SIM_CLOCK=clock)
    # Rank 1 calls only once rank 0 has issued everything: work that waited for the collective would
    # have waited for the peer, which waits for it (HCCL_EXEC_TIMEOUT is 10 s).
    assert out["peer_released"] == "1"
    assert float(out["issue_ms"]) < 1000
    assert out["untouched"] == "1", "neither the collective nor the copy behind it has run at issue"
    assert out["not_ready"] == "1", "an event behind the collective is not complete"
    assert int(out["elapsed"]) == ACL_ERROR_RT_EVENT_NOT_COMPLETE
    assert (out["sync_event"], out["sync"]) == ("0", "0")
    assert (out["r0_result"], out["r1_result"]) == ("1", "1")
    assert out["r0_copy"] == "1", "the copy behind the collective reads its result"
    t = {k: int(out[k]) for k in ("span", "r0_mid", "r0_end", "r0_other", "r1_before")}
    # The collective starts once rank 1's busy stream reaches it; the kernel behind it runs after it
    # (its span lies between the event after the collective and the one after the kernel), and the
    # other stream's kernel after the event it waits for.
    assert t["r0_mid"] > t["r1_before"]
    assert t["r0_end"] - t["r0_mid"] >= t["span"] > 0
    assert t["r0_other"] - t["r0_end"] >= t["span"]


def test_an_operator_behind_a_collective_computes_its_result_behind_it(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, "behind_op", NPU_SIM_CLOCK="virtual")
    assert out["calls"] == "0", "the operator returns before the peer has issued its all-reduce"
    assert (out["sync0"], out["sync1"]) == ("0", "0")
    assert out["squared"] == "1", "the operator read the collective's result"
    # aclrtStreamQuery: (result, status); 1 = ACL_STREAM_STATUS_NOT_READY, 0 = COMPLETE.
    assert out["query_held"] == "0,1", "a stream held behind a collective is not ready"
    assert (out["query_synced0"], out["query_synced1"]) == ("0,0", "0,0")


def test_two_virtual_runs_are_identical(exe: Path, native: NativeTree) -> None:
    # One thread issues every call, so the virtual clock sees the same sequence in both runs; the
    # progress threads place the tasks at times fixed at issue (their order does not matter).
    runs = [run(exe, native, "single_thread", NPU_SIM_CLOCK="virtual", NPU_SIM_SEED="3") for _ in range(2)]
    assert runs[0] == runs[1]
    assert int(runs[0]["end0"]) > int(runs[0]["issued0"]) > 0
