"""A collective that fails on the device (arguments that disagree between the ranks, a peer that
never comes) still accounts for every record it produced: its HCCL record (the hidden markers around
it run on the stream) is delivered or counted, and its COMMUNICATION record, whose device half never
comes, is counted as dropped (DEVICE_HALF_LOST) at the first flush after the synchronisation that
returned the failure. The simulated HCCL (ranks as devices of one process, HcclCommInitAll)."""

from __future__ import annotations

import json

import pytest

ACL_ERROR_RT_FFTS_PLUS_TIMEOUT = 507048
ACL_ERROR_RT_FFTS_PLUS_EXCEPTION = 507049
DEVICE_HALF_LOST = 3
HCCL, COMMUNICATION = 4, 9


def records_before_failed_flush(stdout: str) -> list[dict]:
    """The records delivered by the flush that followed the failed operations."""
    out = []
    for line in stdout.splitlines():
        if line.startswith("P failed_flushed="):
            return out
        if line.startswith("R "):
            out.append(json.loads(line[2:]))
    raise AssertionError("the program did not reach its first flush")


def dropped(facts: dict[str, str], kind: str) -> dict[int, int]:
    return {r: int(facts[f"dropped_{kind}_{r}"]) for r in range(1, 7)}


@pytest.mark.parametrize(
    ("mode", "callers", "error"),
    [("mismatch", 2, ACL_ERROR_RT_FFTS_PLUS_EXCEPTION), ("timeout", 1, ACL_ERROR_RT_FFTS_PLUS_TIMEOUT)],
)
def test_failed_collectives_are_delivered_or_counted(
    mspti_programs, mode: str, callers: int, error: int
) -> None:
    # libhccl and libhcomm first, so that the program links them (msPTI, preloaded, interposes).
    run = mspti_programs.run(
        "hccl_failed.c",
        libs=("hccl", "hcomm", "mspti", "ascendcl"),
        preload=True,
        args=[mode],
        HCCL_EXEC_TIMEOUT="1",
        NPU_SIM_DEVICES="2",
    ).check()
    for r in range(callers):
        assert int(run.facts[f"sync{r}"]) == error
    first = records_before_failed_flush(run.stdout)
    hccl_drops, comm_drops = dropped(run.facts, "hccl"), dropped(run.facts, "communication")
    # produced = delivered + dropped, for each kind, one record per call.
    assert sum(r["kind"] == HCCL for r in first) + sum(hccl_drops.values()) == callers
    delivered_comm = sum(r["kind"] == COMMUNICATION for r in first)
    assert delivered_comm == 0, "a failed collective has no device task to time"
    assert comm_drops == {r: callers if r == DEVICE_HALF_LOST else 0 for r in range(1, 7)}
    if mode == "mismatch":
        # The communicator goes on: the next pair is recorded in full.
        later = run.records[len(first) :]
        assert sum(r["kind"] == COMMUNICATION for r in later) == 2
        assert sum(r["kind"] == HCCL for r in later) == 2
    assert run.summary["dropped"] == sum(hccl_drops.values()) + sum(comm_drops.values())
