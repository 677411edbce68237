"""Client callbacks that throw C++ exceptions into msPTI (programs/throwing_callbacks.cpp): RequestFunc,
CompleteFunc and the Callback-API callback. On every path the exception is caught, the process goes
on, and every MEMORY record of the 10 the workload makes is delivered or counted as dropped
(docs/mspti-deviations.md §1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability_support import ReliabilityPrograms, run

MEMORY_RECORDS = 10


@pytest.fixture(scope="module")
def throwing(reliability_programs: ReliabilityPrograms) -> Path:
    return reliability_programs.build("throwing_callbacks.cpp", ["ascendcl", "mspti"])


def figures(programs: ReliabilityPrograms, exe: Path, mode: str, clock: str = "virtual") -> dict[str, int]:
    outcome = run(programs, exe, [mode], timeout=60, NPU_SIM_CLOCK=clock).check()
    got = {k: int(v) for k, v in outcome.figures().items()}
    print(f"\n{mode} ({clock} clock): {got}")
    return got


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_a_request_func_that_always_throws_loses_no_record_silently(
    reliability_programs: ReliabilityPrograms, throwing: Path, clock: str
) -> None:
    # Before: 9 of 10 counted (the thread stayed "inside RequestFunc") and the first one vanished.
    got = figures(reliability_programs, throwing, "request-throws", clock)
    assert got["memory_delivered"] == 0
    assert got["memory_dropped"] == got["no_buffer"] == MEMORY_RECORDS
    assert got["enter"] == got["exit"] == MEMORY_RECORDS


def test_a_request_func_that_throws_once_costs_one_record(
    reliability_programs: ReliabilityPrograms, throwing: Path
) -> None:
    got = figures(reliability_programs, throwing, "request-throws-once")
    assert got["memory_dropped"] == got["no_buffer"] == 1
    assert got["memory_delivered"] == MEMORY_RECORDS - 1


def test_a_complete_func_that_throws_does_not_end_the_process(
    reliability_programs: ReliabilityPrograms, throwing: Path
) -> None:
    # Before: std::terminate on msPTI's delivery thread. The client had every buffer in its hands
    # (it counts the records before it throws), so every record is delivered.
    got = figures(reliability_programs, throwing, "complete-throws")
    assert got["memory_delivered"] == MEMORY_RECORDS and got["memory_dropped"] == 0
    assert got["completes"] == MEMORY_RECORDS // 2


def test_a_callback_that_throws_keeps_its_call_recorded(
    reliability_programs: ReliabilityPrograms, throwing: Path
) -> None:
    got = figures(reliability_programs, throwing, "callback-throws")
    assert got["memory_delivered"] == MEMORY_RECORDS and got["memory_dropped"] == 0
    assert got["enter"] == got["exit"] == MEMORY_RECORDS
