"""The JSON-level checks of flagos-ai/Torch-FL's cross-backend profiler contract
(``tests/integration/test_profiler_contract.py`` at commit 2399f66), re-expressed on our
``--format kineto`` export of the known-count workload. Each test names the contract test it
re-expresses; the contract's ``key_averages`` checks need a PyTorch profiler object and have no
JSON-level counterpart beyond the linkage checked here. Needs no third-party consumer."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mspti_trace.kineto import KinetoExportStats


@pytest.fixture(scope="module", params=["single_rank", "two_ranks"])
def traces(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    _directory, stats = request.getfixturevalue(request.param)
    assert isinstance(stats, KinetoExportStats)
    return [json.loads(Path(f.path).read_text()) for f in stats.files]


def _events(trace: dict[str, Any], category: str) -> list[dict[str, Any]]:
    return [e for e in trace["traceEvents"] if e.get("cat") == category and e.get("ph") == "X"]


def _arg_keys(trace: dict[str, Any], category: str) -> set[str]:
    return {key for event in _events(trace, category) for key in (event.get("args") or {})}


def test_cpu_api_and_trace_export(traces: list[dict[str, Any]]) -> None:
    """test_profiler_cpu_api_and_trace_export: traceEvents, cpu_op events, a capture span."""
    for trace in traces:
        assert isinstance(trace["traceEvents"], list) and trace["traceEvents"]
        assert _events(trace, "cpu_op")
        assert "Trace" in {e.get("cat") for e in trace["traceEvents"] if e.get("ph") == "X"}


def test_kernel_events(traces: list[dict[str, Any]]) -> None:
    """test_profiler_kernel_events: named kernels with positive durations."""
    for trace in traces:
        kernels = _events(trace, "kernel")
        assert kernels and all(e.get("name") for e in kernels)
        assert all(e["dur"] > 0 for e in kernels)


def test_runtime_events(traces: list[dict[str, Any]]) -> None:
    """test_profiler_runtime_events: privateuse1_runtime events, named, positive, with cbid."""
    for trace in traces:
        runtimes = _events(trace, "privateuse1_runtime")
        assert runtimes and all(e.get("name") for e in runtimes)
        assert all(e["dur"] > 0 for e in runtimes)
        assert "cbid" in _arg_keys(trace, "privateuse1_runtime")


def test_kernel_device_metadata(traces: list[dict[str, Any]]) -> None:
    """test_profiler_kernel_device_metadata: every kernel has device and stream args."""
    for trace in traces:
        kernels = _events(trace, "kernel")
        assert kernels
        assert all(
            e["args"].get("device") is not None and e["args"].get("stream") is not None for e in kernels
        )


def test_flow_events_are_paired(traces: list[dict[str, Any]]) -> None:
    """test_profiler_flow_events_are_paired: ac2g flows whose s and f ids are the same set."""
    for trace in traces:
        flows = [e for e in trace["traceEvents"] if e.get("cat") == "ac2g" and e.get("ph") in {"s", "f"}]
        starts = {e["id"] for e in flows if e["ph"] == "s"}
        finishes = {e["id"] for e in flows if e["ph"] == "f"}
        assert starts and starts == finishes


def test_device_time_linkage(traces: list[dict[str, Any]], workloads: Any) -> None:
    """test_profiler_device_time_linkage, JSON part: device events link to their operator by
    External id, and the linked device time of each operator is the known kernel time."""
    for trace in traces:
        operators = {
            e["args"]["External id"]: e["name"]
            for e in _events(trace, "cpu_op")
            if "External id" in e["args"]
        }
        linked: Counter[str] = Counter()
        for category in ("kernel", "gpu_memcpy", "gpu_memset"):
            for event in _events(trace, category):
                name = operators.get(event["args"].get("External id"))
                if name is not None:
                    linked[name] += event["dur"]
        for i in range(workloads.KERNELS):
            assert linked[f"aclnnMatmul_{i}"] == pytest.approx(workloads.STEPS * workloads.KERNEL_NS / 1000)


def test_memcpy_events(traces: list[dict[str, Any]]) -> None:
    """test_profiler_memcpy_events: gpu_memcpy events with positive duration and bytes."""
    for trace in traces:
        copies = _events(trace, "gpu_memcpy")
        assert copies and all(e["dur"] > 0 and e["args"]["bytes"] > 0 for e in copies)


def test_device_arg_keys(traces: list[dict[str, Any]]) -> None:
    """test_profiler_device_arg_keys: kernel and privateuse1_runtime events exist, and the runtime
    events carry External id."""
    for trace in traces:
        assert _events(trace, "kernel") and _events(trace, "privateuse1_runtime")
        assert "External id" in _arg_keys(trace, "privateuse1_runtime")


def test_capture_window_contains_device_events(traces: list[dict[str, Any]]) -> None:
    """test_profiler_capture_window_contains_device_events: every runtime, kernel, copy and fill
    slice lies inside the longest Trace span."""
    tracked = {"privateuse1_runtime", "kernel", "gpu_memcpy", "gpu_memset"}
    for trace in traces:
        span = max(_events(trace, "Trace"), key=lambda e: e["dur"])
        low, high = span["ts"], span["ts"] + span["dur"]
        inside = [e for e in trace["traceEvents"] if e.get("cat") in tracked and e.get("ph") == "X"]
        assert inside and all(low <= e["ts"] and e["ts"] + e["dur"] <= high + 1e-6 for e in inside)


def test_kernel_names_are_demangled(traces: list[dict[str, Any]]) -> None:
    """test_profiler_kernel_names_are_demangled: no kernel name is a raw Itanium symbol."""
    for trace in traces:
        kernels = _events(trace, "kernel")
        assert kernels and not [e for e in kernels if e["name"].startswith("_ZN")]


def test_runtime_names_are_not_all_fallback(traces: list[dict[str, Any]]) -> None:
    """test_profiler_runtime_names_are_not_all_fallback: more than one runtime name, or cbid."""
    for trace in traces:
        names = Counter(e["name"] for e in _events(trace, "privateuse1_runtime"))
        assert len(names) > 1 or "cbid" in _arg_keys(trace, "privateuse1_runtime")
