"""The checkers of py_hccl_monitors and of the THR-07 re-entrancy probe on hand-made logs."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.conformance_pylogs import find, grade, hccl_events, reentrancy_events

CASES = ("flush_in_complete", "calls_in_callbacks")


def test_a_conforming_hccl_run_passes(tmp_path: Path) -> None:
    result = grade("py_hccl_monitors", {"main": hccl_events()}, tmp_path)["PY-DATA-02"]
    assert result.verdict == "pass", result.failures


@pytest.mark.parametrize(
    ("mutation", "field", "value"),
    [
        ("comm name", "comm_name", "other"),
        ("data type as a plain int", "data_type", 4),
        ("element count", "count", 1),
        ("stream", "stream_id", 0),
        ("bandwidth", "bandwidth", 0.0),
    ],
)
def test_hccl_field_mutations_fail(tmp_path: Path, mutation: str, field: str, value: object) -> None:
    events = hccl_events()
    cb = "hccl" if field == "bandwidth" else "comm"
    index = find(events, cb=cb)
    events[index] = {**events[index], "data": {**events[index]["data"], field: value}}
    assert grade("py_hccl_monitors", {"main": events}, tmp_path)["PY-DATA-02"].verdict == "fail", mutation


def test_a_missing_rank_fails_and_a_failed_runtime_skips(tmp_path: Path) -> None:
    events = hccl_events()
    del events[find(events, cb="comm", cls="CommunicationData")]
    assert grade("py_hccl_monitors", {"main": events}, tmp_path)["PY-DATA-02"].verdict == "fail"
    events = hccl_events()
    events[find(events, label="init")]["ret"] = 7
    assert grade("py_hccl_monitors", {"main": events}, tmp_path)["PY-DATA-02"].verdict == "skip"


def _runs(**changes: dict) -> dict:
    return {name: reentrancy_events(name, **changes.get(name, {})) for name in CASES}


@pytest.mark.parametrize("profile", ["spec", "upstream"])
def test_a_completed_probe_passes(tmp_path: Path, profile: str) -> None:
    result = grade("reentrancy_probe", _runs(), tmp_path, profile)["THR-07"]
    assert result.verdict == "pass", result.failures


@pytest.mark.parametrize(
    "changes",
    [
        {"flush_in_complete": {"reentries": 0}},
        {"calls_in_callbacks": {"reentries": 0}},
        {"flush_in_complete": {"flush_ret": 999}},
        {"calls_in_callbacks": {"records": 3}},
    ],
    ids=["never re-entered (flush)", "never re-entered (calls)", "FlushAll inner error", "records lost"],
)
def test_probe_failures(tmp_path: Path, changes: dict) -> None:
    assert grade("reentrancy_probe", _runs(**changes), tmp_path)["THR-07"].verdict == "fail"


@pytest.mark.parametrize(
    ("outcome", "profile", "verdict"),
    [
        ((None, True), "spec", "fail"),
        ((-6, False), "spec", "fail"),
        ((None, True), "upstream", "skip"),
        ((-6, False), "upstream", "skip"),
    ],
    ids=["hang/spec", "abort/spec", "hang/upstream", "abort/upstream"],
)
def test_hang_and_crash_get_the_catalogue_verdict(
    tmp_path: Path, outcome: tuple[int | None, bool], profile: str, verdict: str
) -> None:
    def result_of(name: str) -> tuple[int | None, bool]:
        return outcome if name == "flush_in_complete" else (0, False)

    result = grade("reentrancy_probe", _runs(), tmp_path, profile, outcome=result_of)["THR-07"]
    assert result.verdict == verdict, result
