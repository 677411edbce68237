"""CANN's newer Activity API: version, struct sizes, enabled kinds, attributes, the timestamp
callback, the dropped-record count, result strings and OVERHEAD records (programs/newer_api.c)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

OVERHEAD = 13
REQUEST, FLUSH, RESOURCE = 2, 3, 1
THREAD, DEVICE = 2, 3
INVALID_STREAM_ID = 0xFFFFFFFF
CLIENT_EPOCH = 4_000_000_000_000_000_000
LIBS = ("mspti", "ascendcl")


def test_every_function_with_valid_and_invalid_arguments(mspti_programs):
    run = mspti_programs.run("newer_api.c", libs=LIBS, args=["args"]).check()
    assert run.facts["done"] == "1"
    assert run.facts["version"] == "260200"


def test_buffer_request_and_flush_records(mspti_programs):
    run = mspti_programs.run("newer_api.c", libs=LIBS, args=["overhead", "20"]).check()
    pid = int(run.facts["pid"])
    overhead = run.of("OVERHEAD")
    requests = [r for r in overhead if r["overheadKind"] == REQUEST]
    flushes = [r for r in overhead if r["overheadKind"] == FLUSH]
    # Every buffer requested while OVERHEAD was on opens with its request's record.
    assert run.summary["requests"] >= 2
    assert len(requests) == run.summary["requests"]
    # The first flushes' records reach the client with later buffers.
    assert flushes, overhead
    for r in requests + flushes:
        assert r["objectKind"] == THREAD
        assert r["a"] == pid and r["b"] > 0
        assert 0 < r["start"] <= r["end"]
        assert r["correlationId"] == 0 and r["overheadData"] == 0
    marker_times = [m["timestamp"] for m in run.of("MARKER")]
    assert len(marker_times) == 40
    # Host timestamps of one time base: the first mark needed the first buffer, whose request ended
    # before the second mark was taken.
    first_request = min(requests, key=lambda r: r["start"])
    assert marker_times[0] <= first_request["start"] <= first_request["end"] <= marker_times[1]
    # No buffer of overhead records only is announced by its own FLUSH record: the count is bounded.
    assert len(flushes) <= run.summary["completes"]


def test_no_overhead_records_unless_enabled(mspti_programs):
    run = mspti_programs.run("newer_api.c", libs=LIBS, args=["timestamp", "5"]).check()
    assert run.of("OVERHEAD") == []
    assert len(run.of("MARKER")) == 10


def test_device_resource_records(mspti_programs):
    run = mspti_programs.run("newer_api.c", libs=LIBS, preload=True, args=["resource"]).check()
    resources = [r for r in run.of("OVERHEAD") if r["overheadKind"] == RESOURCE]
    # Starting and stopping device 0's collection channel(s): at least one of each.
    assert len(resources) >= 2, run.of("OVERHEAD")
    for r in resources:
        assert r["objectKind"] == DEVICE
        assert r["a"] == 0 and r["b"] == INVALID_STREAM_ID  # ds = {deviceId, streamId}
        assert 0 < r["start"] <= r["end"]


def test_timestamp_callback_gives_the_records_time_base(mspti_programs):
    run = mspti_programs.run("newer_api.c", libs=LIBS, args=["timestamp", "5"]).check()
    before, after = int(run.facts["before"]), int(run.facts["after"])
    assert int(run.facts["clock_calls"]) >= 1
    # msptiGetTimestamp and every record's time follow the client's clock, not CLOCK_REALTIME.
    assert CLIENT_EPOCH < before <= after < CLIENT_EPOCH + 10**18
    first = [m["timestamp"] for m in run.of("MARKER")][:5]
    assert len(first) == 5
    assert all(before <= t <= after for t in first), (before, first, after)


def test_dropped_record_count_restarts(mspti_programs):
    run = mspti_programs.run("newer_api.c", libs=LIBS, args=["dropped", "5"]).check()
    # The declined first buffer drops the first mark; the second call reports nothing new.
    assert int(run.facts["dropped_first"]) >= 1
    assert int(run.facts["dropped_second"]) == 0


def test_sample_style_program(native, tmp_path):
    """A program written the way CANN's samples are (helper header + activity sample) builds against
    the toolkit's include/mspti with `#include "mspti.h"` and runs."""
    from support.native import run_program

    src = os.path.join(os.path.dirname(__file__), "programs", "sample_newer_api.cpp")
    toolkit_include = native.mspti_lib64.parent / "include" / "mspti"
    repo = Path(__file__).resolve().parents[2]
    include = toolkit_include if (toolkit_include / "mspti.h").exists() else repo / "csrc/mspti/include/mspti"
    exe = tmp_path / "sample_newer_api"
    cmd = [
        "g++",
        "-std=c++17",
        "-Wall",
        "-Wextra",
        "-Werror",
        src,
        f"-I{include}",
        f"-I{repo / 'csrc/sim/include'}",
        f"-L{native.sim_lib64}",
        f"-L{native.mspti_lib64}",
        "-lmspti",
        "-lascendcl",
        "-lnnopbase",
        "-lopapi",
        "-lpthread",
        f"-Wl,-rpath,{native.sim_lib64}",
        "-o",
        str(exe),
    ]
    if os.environ.get("NPU_SIM_TEST_SANITIZE"):
        cmd.insert(1, f"-fsanitize={os.environ['NPU_SIM_TEST_SANITIZE']}")
    subprocess.run(cmd, check=True)
    proc = run_program(exe, native.env(preload_mspti=True), timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "sample: done" in proc.stdout
    assert "[OVERHEAD] overheadKind: ACTIVITY_BUFFER_REQUEST" in proc.stdout
    assert "[KERNEL]" in proc.stdout
