"""Calls and the clock of copy records (mspti_trace/calls.py), and how every export format
draws them: one slice per call, host-timed copies inside their call, device-timed copies on their
stream."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from mspti_trace import check_chrome_trace, export_chrome_trace, load_trace
from mspti_trace.ascend_pt import export_ascend_pt
from mspti_trace.calls import host_calls
from mspti_trace.chrome import DEVICE_PID_BASE, SYNC_LANE
from mspti_trace.kinds import ActivityKind
from mspti_trace.kineto import export_kineto_traces


@pytest.fixture()
def copies_dir(fakes, tmp_path: Path) -> Path:
    """Kernels and asynchronous copies on stream 2, then synchronous copies timed on the host and
    one timed on the device."""
    process = fakes.FakeProcess(pid=77, tid=77)
    for _ in range(3):
        process.launch("aclnnAdd", "Add", kind=ActivityKind.ACL_API)
        process.async_copy()
    process.copy(host_timed=True)
    process.copy(host_timed=True)
    process.copy()
    process.write(tmp_path / "cap", {"soc": "Ascend910B3"})
    return tmp_path / "cap"


def test_records_of_one_call_are_one_call(copies_dir: Path) -> None:
    capture = load_trace(copies_dir).capture()
    calls = host_calls(capture)
    # 3 launches, 3 async copies (ACL + runtime record each), 3 copies (two with two records).
    assert len(capture.apis()) == 3 + 6 + 5
    assert len(calls) == 9
    names = capture.text(calls.outer_names()).tolist()
    assert Counter(names) == Counter({"aclnnAdd": 3, "aclrtMemcpyAsync": 3, "aclrtMemcpy": 3})
    # every API record maps to the call with its correlation id
    assert (calls.records["correlation_id"][calls.of_api] == capture.apis()["correlation_id"]).all()


def test_the_clock_of_a_copy_comes_from_its_times(copies_dir: Path) -> None:
    capture = load_trace(copies_dir).capture()
    calls = host_calls(capture)
    copies = capture.table(ActivityKind.MEMCPY)
    # Host-timed: starts before the call's API records (msPTI times it around the runtime call).
    assert calls.copies.host_timed.tolist() == [False, False, False, True, True, False]
    assert calls.copies.undecided == 0
    attached = calls.records[calls.records["memcpy"] >= 0]
    assert len(attached) == 2
    for call in attached:
        record = copies[call["memcpy"]]
        # the call's slice spans the copy record and its API records
        assert call["start"] == record["start"] < call["api_start"]
        assert call["end"] == record["end"] > call["api_end"]


def test_a_copy_without_an_api_record_is_placed_by_its_stream(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess(pid=78, tid=78)
    process.copy(host_timed=True)
    process.async_copy()
    process.apis.clear()
    process.write(tmp_path / "cap")
    clocks = host_calls(load_trace(tmp_path / "cap").capture()).copies
    assert clocks.undecided == 2
    assert clocks.host_timed.tolist() == [True, False]
    events = json.loads(_chrome(tmp_path / "cap", tmp_path).read_text())["traceEvents"]
    host_copies = [e for e in events if e.get("cat") == "memcpy" and e["pid"] == 78]
    assert len(host_copies) == 1 and host_copies[0]["args"]["host_timed"] is True


def _chrome(capture_dir: Path, tmp_path: Path) -> Path:
    out = tmp_path / "trace.json"
    export_chrome_trace(load_trace(capture_dir), out)
    return out


def test_chrome_draws_each_record_on_the_track_of_its_clock(copies_dir: Path, tmp_path: Path) -> None:
    out = _chrome(copies_dir, tmp_path)
    assert check_chrome_trace(out) == []
    events = json.loads(out.read_text())["traceEvents"]
    host = [e for e in events if e["ph"] == "X" and e["pid"] == 77]
    assert len(host) == 9  # one slice per call
    merged = [e for e in host if "memcpy" in e["args"]]
    assert len(merged) == 2 and all(e["args"]["records"].keys() == {"acl_api", "runtime_api"} for e in merged)
    device_copies = [e for e in events if e.get("cat") == "memcpy"]
    # the three asynchronous copies on stream 2, the device-timed synchronous one on its own track
    assert sorted(e["tid"] for e in device_copies) == [2, 2, 2, SYNC_LANE]
    assert all(e["pid"] == DEVICE_PID_BASE for e in device_copies)


def test_kineto_draws_each_record_on_the_track_of_its_clock(copies_dir: Path, tmp_path: Path) -> None:
    (rank,) = export_kineto_traces(load_trace(copies_dir), tmp_path / "k").files
    assert check_chrome_trace(rank.path) == []
    events = json.loads(rank.path.read_text())["traceEvents"]
    copies = [e for e in events if e.get("cat") == "gpu_memcpy"]
    assert len(copies) == 4 and all(e["pid"] == 0 for e in copies)
    runtime = [e for e in events if e.get("cat") == "privateuse1_runtime"]
    merged = [e for e in runtime if "memcpy" in e["args"]]
    assert len(merged) == 2 and all(e["name"] == "cudaMemcpy" for e in merged)
    assert all(
        e["args"]["npu api"] == {"acl_api": "aclrtMemcpy", "runtime_api": "MemCopySync"} for e in merged
    )


def test_ascend_pt_draws_each_record_on_the_track_of_its_clock(copies_dir: Path, tmp_path: Path) -> None:
    (rank,) = export_ascend_pt(load_trace(copies_dir), tmp_path / "a").files
    assert check_chrome_trace(rank.path) == []
    events = json.loads(rank.path.read_text())
    names = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
    hardware = [e for e in events if e["ph"] == "X" and names[e["pid"]] == "Ascend Hardware"]
    assert Counter(e["name"] for e in hardware) == Counter({"Add": 3, "MEMCPY_ASYNC": 4})
    cann = [e for e in events if e["ph"] == "X" and names[e["pid"]] == "CANN"]
    assert Counter(e["name"] for e in cann) == Counter(
        {"AscendCL@aclnnAdd": 3, "AscendCL@aclrtMemcpyAsync": 3, "AscendCL@aclrtMemcpy": 3}
    )


def test_a_plain_workload_passes_the_check_in_every_format(fakes, tmp_path: Path) -> None:
    """Kernels and asynchronous copies on one stream whose records are all timed on the host
    around the call, as msPTI's interposed copies are: none of them may land on the stream."""
    process = fakes.FakeProcess(pid=79, tid=79)
    for _ in range(4):
        process.launch("aclrtLaunchKernel", "vector_add", kind=ActivityKind.ACL_API, duration=3000)
        process.copy(stream=2, host_timed=True)
    process.write(tmp_path / "cap", {"soc": "Ascend910B3"})
    trace = load_trace(tmp_path / "cap")
    assert np.all(host_calls(trace.capture()).copies.host_timed)
    assert check_chrome_trace(_chrome(tmp_path / "cap", tmp_path)) == []
    for rank in export_kineto_traces(trace, tmp_path / "k").files:
        assert check_chrome_trace(rank.path) == []
    for rank in export_ascend_pt(trace, tmp_path / "a").files:
        assert check_chrome_trace(rank.path) == []
