"""Chrome/Perfetto trace export of a synthetic capture."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from mspti_trace import TRACE_EVENT_SCHEMA, check_chrome_trace, export_chrome_trace, load_trace
from mspti_trace.chrome import COMM_LANE, DEVICE_PID_BASE, SYNC_LANE


@pytest.fixture()
def exported(decoder_dir: Path, tmp_path: Path) -> dict:
    out = tmp_path / "trace.json"
    export_chrome_trace(load_trace(decoder_dir), out)
    return json.loads(out.read_text())


def test_the_export_is_well_formed(exported: dict) -> None:
    assert check_chrome_trace(exported) == []


def test_the_export_matches_the_trace_event_schema(exported: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    jsonschema.validate(exported, TRACE_EVENT_SCHEMA)


def test_processes_and_tracks_are_named(exported: dict, fakes) -> None:
    meta = [e for e in exported["traceEvents"] if e["ph"] == "M"]
    processes = {e["pid"]: e["args"]["name"] for e in meta if e["name"] == "process_name"}
    assert processes[4242].startswith("Host 4242") and processes[DEVICE_PID_BASE] == "NPU 0"
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in meta if e["name"] == "thread_name"}
    assert threads[(4242, 4242)] == "Main thread 4242"
    assert threads[(DEVICE_PID_BASE, 2)] == "Stream 2"
    assert threads[(DEVICE_PID_BASE, COMM_LANE + 2)] == "Stream 2 communication"
    assert threads[(DEVICE_PID_BASE, SYNC_LANE)] == "Synchronous copies"


def test_every_record_becomes_an_event(exported: dict, decoder_dir: Path) -> None:
    capture = load_trace(decoder_dir).capture()
    cats = Counter(e.get("cat") for e in exported["traceEvents"] if e["ph"] == "X")
    records = capture.meta["records"]
    assert cats["kernel"] == records["kernel"]
    assert cats["communication"] == records["communication"] == 2
    assert cats["memcpy"] == records["memcpy"]
    assert cats["node_api"] + cats["acl_api"] + cats["api"] == len(capture.apis())
    assert cats["mstx"] == records["marker"] // 2  # every range paired


def test_flows_join_each_api_to_what_it_launched(exported: dict, decoder_dir: Path) -> None:
    events = exported["traceEvents"]
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    finishes = {e["id"]: e for e in events if e["ph"] == "f"}
    assert starts.keys() == finishes.keys()
    capture = load_trace(decoder_dir).capture()
    launched = capture.meta["records"]["kernel"] + capture.meta["records"]["communication"]
    launched += capture.meta["records"]["memcpy"]
    assert len(starts) == launched
    assert all(f["bp"] == "e" and f["pid"] == DEVICE_PID_BASE for f in finishes.values())
    assert all(s["pid"] == 4242 for s in starts.values())


def test_memory_counter_is_the_running_allocation(exported: dict) -> None:
    counters = [e for e in exported["traceEvents"] if e["ph"] == "C"]
    assert [c["args"]["bytes"] for c in counters] == [1 << 20, (1 << 20) + (1 << 16), 1 << 20]
    assert all(c["pid"] == DEVICE_PID_BASE for c in counters)


def test_timestamps_are_microseconds_after_the_time_base(exported: dict, fakes) -> None:
    assert exported["otherData"]["time_base_ns"] == fakes.BASE_NS
    kernels = [e for e in exported["traceEvents"] if e.get("cat") == "kernel"]
    assert kernels[0]["dur"] == pytest.approx(1.0)  # 1000 ns


def test_the_checker_finds_broken_traces() -> None:
    broken = {
        "traceEvents": [
            {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0.0, "dur": 10.0},
            {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5.0, "dur": 10.0},
            {"ph": "s", "name": "f", "id": 1, "pid": 1, "tid": 1, "ts": 1.0},
            {"ph": "C", "name": "c", "pid": 1, "ts": 1.0, "args": {"v": "x"}},
        ]
    }
    problems = check_chrome_trace(broken)
    assert any("without nesting" in p for p in problems)
    assert any("flow 1" in p for p in problems)
    assert any("counter" in p for p in problems)


def _trace_processor_shell() -> str | None:
    found = os.environ.get("PERFETTO_TRACE_PROCESSOR_SHELL") or shutil.which("trace_processor_shell")
    return found if found and Path(found).exists() else None


def test_perfetto_trace_processor_loads_the_export(decoder_dir: Path, tmp_path: Path) -> None:
    shell = _trace_processor_shell()
    if shell is None:
        pytest.skip(
            "trace_processor_shell is not available here (the perfetto package downloads it at run "
            "time, which this machine cannot); set PERFETTO_TRACE_PROCESSOR_SHELL to run this check"
        )
    perfetto = pytest.importorskip("perfetto.trace_processor")
    out = tmp_path / "trace.json"
    export_chrome_trace(load_trace(decoder_dir), out)
    config = perfetto.TraceProcessorConfig(bin_path=shell)
    with perfetto.TraceProcessor(trace=str(out), config=config) as tp:
        kernels = tp.query("select count(*) as n from slice where category = 'kernel'").as_pandas_dataframe()
        flows = tp.query("select count(*) as n from flow").as_pandas_dataframe()
    capture = load_trace(decoder_dir).capture()
    assert int(kernels["n"][0]) == capture.meta["records"]["kernel"]
    assert int(flows["n"][0]) > 0


def test_processes_sharing_a_device_get_their_own_tracks(fakes, tmp_path: Path) -> None:
    for pid in (11, 22):  # the same timeline twice: their kernels overlap on device 0, stream 2
        process = fakes.FakeProcess(pid=pid, tid=pid)
        with process.range("step"):
            process.launch("aclnnMatmul", "MatMulV2", duration=5000)
        process.write(tmp_path / "cap")
    out = tmp_path / "trace.json"
    export_chrome_trace(load_trace(tmp_path / "cap"), out)
    assert check_chrome_trace(out) == []
    events = json.loads(out.read_text())["traceEvents"]
    tracks = {
        e["args"]["name"] for e in events if e.get("name") == "thread_name" and e["pid"] == DEVICE_PID_BASE
    }
    assert tracks == {"Stream 2 (pid 11)", "Stream 2 (pid 22)"}
