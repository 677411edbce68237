"""Asynchronous MEMCPY and MEMSET records carry the device times of their stream task.

programs/copies_device.c runs, on one stream and per round: a kernel, an asynchronous 1 MiB
host-to-device copy and a 4 KiB asynchronous fill (through msPTI's interposer, or through
libascendcl's own functions found with dlsym), then a synchronous copy. The device runs a
stream's tasks in order, so each asynchronous record starts no earlier than the end of the task
before it on the stream; a synchronous copy is no stream task and keeps start/end inside its call.
Correlation follows the kernels' rule (test_correlation_paths.py): the id of the call, one
distinct id per call however it was reached, never the id of another call.
"""

from __future__ import annotations

import pytest

ROUNDS = 6
COPY_BYTES = 1 << 20
FILL_BYTES = 4096
HTOD = 2  # MSPTI_ACTIVITY_MEMCPY_KIND_HTOD
DTOH = 3


def _run(mspti_programs, how: str, clock: str):
    return mspti_programs.run(
        "copies_device.c",
        libs=("mspti", "ascendcl"),
        preload=True,
        args=[str(ROUNDS), how],
        NPU_SIM_CLOCK=clock,
    ).check()


@pytest.fixture(scope="module", params=["linked", "dlsym"])
def how(request) -> str:
    return request.param


@pytest.fixture(scope="module", params=["virtual", "wall"])
def clock(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def run(mspti_programs, how: str, clock: str):
    return _run(mspti_programs, how, clock)


def _async_copies(run) -> list[dict]:
    return [r for r in run.of("MEMCPY") if r["isAsync"] == 1]


def test_async_records_follow_the_stream_order(run) -> None:
    kernels = sorted(run.of("KERNEL"), key=lambda r: r["start"])
    copies = sorted(_async_copies(run), key=lambda r: r["start"])
    fills = sorted(run.of("MEMSET"), key=lambda r: r["start"])
    assert len(kernels) == len(copies) == len(fills) == ROUNDS
    stream = kernels[0]["streamId"]
    for kernel, copy, fill in zip(kernels, copies, fills, strict=True):
        assert copy["streamId"] == fill["streamId"] == stream
        assert copy["deviceId"] == fill["deviceId"] == 0
        # After the kernel before it on the stream, not overlapping it; the fill after the copy.
        assert kernel["end"] <= copy["start"] < copy["end"], (kernel, copy)
        assert copy["end"] <= fill["start"] < fill["end"], (copy, fill)


def test_async_copy_lasts_its_modelled_transfer(run) -> None:
    # 1 MiB over the host link takes tens of microseconds on the modelled SoC (with the model's
    # seeded jitter); the call itself costs the SoC's host API time, a few microseconds.
    copies = _async_copies(run)
    fills = run.of("MEMSET")
    for copy in copies:
        assert copy["end"] - copy["start"] > 10_000, copy
    for copy, fill in zip(copies, fills, strict=True):
        assert copy["end"] - copy["start"] > fill["end"] - fill["start"], "1 MiB copy vs 4 KiB fill"


def test_sync_copy_keeps_its_call_window(run) -> None:
    syncs = [r for r in run.of("MEMCPY") if r["isAsync"] == 0]
    assert len(syncs) == ROUNDS
    for i, record in enumerate(sorted(syncs, key=lambda r: r["start"])):
        before, after = map(int, run.facts[f"sync{i}"].split(","))
        assert before <= record["start"] <= record["end"] <= after, (before, record, after)
        assert record["streamId"] == 0xFFFFFFFF and record["copyKind"] == DTOH and record["bytes"] == 2048


def test_record_fields(run, how: str) -> None:
    for copy in _async_copies(run):
        assert copy["bytes"] == COPY_BYTES and copy["copyKind"] == HTOD
    fills = sorted(run.of("MEMSET"), key=lambda r: r["start"])
    if how == "linked":
        assert [f["value"] for f in fills] == [300 + i for i in range(ROUNDS)]
        assert all(f["bytes"] == FILL_BYTES for f in fills)
    else:
        # No report of the runtime carries a fill's value or size: a fill reached without the
        # interposer has both 0 (documented).
        assert all(f["value"] == 0 and f["bytes"] == 0 for f in fills)


def test_correlation_ids_are_the_calls(run, how: str) -> None:
    copies = _async_copies(run)
    fills = run.of("MEMSET")
    ids = [r["correlationId"] for r in copies + fills]
    assert 0 not in ids
    assert len(set(ids)) == len(ids) == 2 * ROUNDS, f"one distinct id per call, got {ids}"
    enters = {c["name"]: [] for c in run.callbacks}
    for c in run.callbacks:
        if c["site"] == 0:
            enters[c["name"]].append(c["corr"])
    if how == "linked":
        assert sorted(r["correlationId"] for r in copies) == sorted(enters["aclrtMemcpyAsync"])
        assert sorted(r["correlationId"] for r in fills) == sorted(enters["aclrtMemsetAsync"])
    else:
        assert "aclrtMemcpyAsync" not in enters and "aclrtMemsetAsync" not in enters
        interposed = {corr for corrs in enters.values() for corr in corrs}
        stale = set(ids) & interposed
        assert not stale, f"copies carry ids of other calls: {sorted(stale)}"
        memory = {r["correlationId"] for r in run.of("MEMORY")}
        assert not set(ids) & memory


def test_no_record_is_dropped(run) -> None:
    assert run.summary.get("dropped", 0) == 0


def test_virtual_clock_runs_repeat(mspti_programs, how: str) -> None:
    # Records are anchored at real time, so compare them relative to the first kernel's start.
    def timeline(run) -> list[tuple[int, int, int]]:
        origin = min(r["start"] for r in run.of("KERNEL"))
        records = run.of("KERNEL") + run.of("MEMCPY") + run.of("MEMSET")
        return sorted((r["kind"], r["start"] - origin, r["end"] - origin) for r in records)

    first, second = (_run(mspti_programs, how, "virtual") for _ in range(2))
    assert timeline(first) == timeline(second)
