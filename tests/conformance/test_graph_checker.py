"""The graph_replay checker (ACT-KERNEL-04) on hand-made logs: a conforming run passes, each breach fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.scenarios.common import KERNEL
from conformance.scenarios.graph import EXECUTIONS, GRAPH_KERNELS
from support.conformance_pylogs import call, grade

CLAUSE = "ACT-KERNEL-04"


def graph_events() -> list[dict[str, Any]]:
    """A conforming run: each captured kernel has one record per execution, with its launch's id."""
    events: list[dict[str, Any]] = [
        {"ev": "features", "pid": 4242},
        {"ev": "stream", "var": "s", "stream_id": 3},
        {"ev": "stream", "var": "x", "stream_id": 4},
        call("capture_begin", "aclmdlRICaptureBegin"),
    ]
    events += [call(f"launch_{i}", "aclrtLaunchKernel", kernel=name) for i, name in enumerate(GRAPH_KERNELS)]
    events.append(call("capture_end", "aclmdlRICaptureEnd"))
    events += [call(f"execute_{i}", "aclmdlRIExecuteAsync") for i in range(EXECUTIONS)]
    events.append({"ev": "complete", "cid": 1})
    start = 1000
    for _execution in range(EXECUTIONS):
        for index, name in enumerate(GRAPH_KERNELS):
            events.append(
                {
                    "ev": "record",
                    "cid": 1,
                    "kind": KERNEL,
                    "corr": 7 + index,
                    "name": name,
                    "type": "KERNEL_AIVEC",
                    "device": 0,
                    "stream": 9,
                    "start": start,
                    "end": start + 50,
                }
            )
            start += 100
    return events


def verdict(events: list[dict[str, Any]], tmp_path: Path) -> str:
    return grade("graph_replay", {"main": events}, tmp_path)[CLAUSE].verdict


def records(events: list[dict[str, Any]], name: str) -> list[int]:
    return [i for i, e in enumerate(events) if e.get("ev") == "record" and e["name"] == name]


def test_a_conforming_run_passes(tmp_path: Path) -> None:
    result = grade("graph_replay", {"main": graph_events()}, tmp_path)[CLAUSE]
    assert result.verdict == "pass", result.failures


@pytest.mark.parametrize(
    ("mutation", "field", "value"),
    [("correlation id", "corr", 99), ("correlation id 0", "corr", 0), ("type", "type", "KERNEL_AICORE")],
)
def test_an_execution_that_differs_fails(tmp_path: Path, mutation: str, field: str, value: object) -> None:
    events = graph_events()
    index = records(events, GRAPH_KERNELS[1])[-1]
    events[index] = {**events[index], field: value}
    assert verdict(events, tmp_path) == "fail", mutation


def test_a_missing_or_an_extra_execution_record_fails(tmp_path: Path) -> None:
    events = graph_events()
    del events[records(events, GRAPH_KERNELS[0])[2]]
    assert verdict(events, tmp_path) == "fail"
    events = graph_events()
    extra = events[records(events, GRAPH_KERNELS[0])[0]]
    events.append(dict(extra))
    assert verdict(events, tmp_path) == "fail"


def test_records_only_at_capture_fail(tmp_path: Path) -> None:
    """A profiler that reports a captured kernel once (not per execution) breaks the clause."""
    events = graph_events()
    for name in GRAPH_KERNELS:
        for index in reversed(records(events, name)[1:]):
            del events[index]
    assert verdict(events, tmp_path) == "fail"


def test_kernels_sharing_one_id_fail(tmp_path: Path) -> None:
    events = graph_events()
    for index in records(events, GRAPH_KERNELS[1]):
        events[index] = {**events[index], "corr": 7}
    assert verdict(events, tmp_path) == "fail"


def test_a_runtime_without_capture_skips_and_a_failing_one_fails(tmp_path: Path) -> None:
    events = graph_events()
    begin = next(i for i, e in enumerate(events) if e.get("label") == "capture_begin")
    events[begin] = {**events[begin], "missing": True, "ret": None}
    assert verdict(events, tmp_path) == "skip"
    events = graph_events()
    events[begin] = {**events[begin], "ret": 207000}
    assert verdict(events, tmp_path) == "fail"
