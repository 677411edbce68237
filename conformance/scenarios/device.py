"""Records of runtime work: MEMORY, MEMCPY, MEMSET, KERNEL, correlation ids, kind switches and timing."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from conformance.abi import INVALID_ID
from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import Call, Record, RunLog
from conformance.model.invariants import (
    Violation,
    buffer_protocol,
    causality,
    correlation_membership,
    stream_monotonic,
    unique_ids,
)
from conformance.scenarios.common import (
    API,
    DEVICE_SETUP,
    DEVICE_TEARDOWN,
    KERNEL,
    MEMCPY,
    MEMORY,
    MEMSET,
    SUBSCRIBE,
    device_markers,
    lines,
    report_violations,
)
from conformance.scenarios.registry import ScenarioEnv, scenario

ACL = ("mspti", "acl")
LAUNCH = ("mspti", "acl", "launch")
HOST_TOLERANCE_NS = 2_000_000


def _pid(log: RunLog) -> int:
    features = log.first("features")
    return int(features["pid"]) if features else -1


def _in_window(
    c: ClauseCheck, record: Record, call: Call, what: str, tolerance: int = HOST_TOLERANCE_NS
) -> None:
    start, end = int(record["start"]), int(record["end"])
    c.check(
        call.t0 - tolerance <= start <= end <= call.t1 + tolerance,
        f"{what}: [{start}, {end}] is not inside the call window [{call.t0}, {call.t1}] (+/- {tolerance} ns)",
    )


def _runtime_ok(c: ClauseCheck, call: Call) -> bool:
    """The runtime call itself worked (a failing runtime cannot be used to grade msPTI)."""
    if call.missing:
        c.note(f"{call.fn} is not exported by the target runtime; not checked")
        return False
    return c.check(
        call.ret == 0,
        f"{call.fn} [{call.label}] failed on the target runtime with error {call.ret}; "
        "the clause cannot be graded on this runtime",
    )


# ------------------------------------------------------------------ MEMORY

ALLOCATIONS = (
    ("plain", "malloc m1 100 @alloc_plain", 100),
    ("cfg", "malloc m2 200 cfg @alloc_cfg", 200),
    ("cached", "malloc m3 300 cached @alloc_cached", 300),
    ("task", "malloc m4 400 task @alloc_task", 400),
    ("reserve", "reserve m5 2097152 @alloc_reserve", 2097152),
)
RELEASES = (
    ("plain", "free m1 @free_plain"),
    ("cfg", "free m2 @free_cfg"),
    ("cached", "free m3 @free_cached"),
    ("task", "free m4 @free_task"),
    ("reserve", "release m5 @free_reserve"),
)


@scenario("mem_records", "MEMORY records of every allocation and release function", needs=ACL)
def mem_records(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MEMORY",
                "acl_init",
                "set_device 0",
                *(line for _name, line, _size in ALLOCATIONS),
                "malloc_host h 64 @alloc_host",
                *(line for _name, line in RELEASES),
                "free_host h @free_host",
                "flush 1",
                "reset_device 0",
            )
        )
    ]


@mem_records.checker
def check_mem_records(ctx: CheckContext) -> None:
    with ctx.clause("ACT-MEM-01") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        for name, _line, _size in ALLOCATIONS:
            call = log.call(f"alloc_{name}")
            if _runtime_ok(c, call):
                found = [r for r in memory if r["op"] == 0 and r["address"] == call["ptr"]]
                c.equal(len(found), 1, f"ALLOCATION records for {call.fn}")
        for name, _line in RELEASES:
            call = log.call(f"free_{name}")
            if _runtime_ok(c, call):
                found = [r for r in memory if r["op"] == 1 and r["address"] == call["ptr"]]
                c.equal(len(found), 1, f"RELEASE records for {call.fn}")
        host = log.call("alloc_host")
        if _runtime_ok(c, host):
            c.equal(
                len([r for r in memory if r["address"] == host["ptr"]]),
                0,
                "MEMORY records for aclrtMallocHost/aclrtFreeHost",
            )
    with ctx.clause("ACT-MEM-02") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        pid = _pid(log)
        sizes: dict[int, int] = {}
        for name, _line, size in ALLOCATIONS:
            call = log.call(f"alloc_{name}")
            if call.missing or call.ret != 0:
                continue
            sizes[int(call["ptr"])] = size
            for record in (r for r in memory if r["op"] == 0 and r["address"] == call["ptr"]):
                c.equal(record["bytes"], size, f"bytes of the {call.fn} record")
                _check_memory_fields(c, record, call, pid)
        for name, _line in RELEASES:
            call = log.call(f"free_{name}")
            if call.missing or call.ret != 0:
                continue
            for record in (r for r in memory if r["op"] == 1 and r["address"] == call["ptr"]):
                if ctx.profile == "upstream":
                    c.equal(record["bytes"], sizes.get(int(call["ptr"])), f"bytes of the {call.fn} record")
                _check_memory_fields(c, record, call, pid)
        for violation in unique_ids(
            (int(r["corr"]) for r in memory), clause="ACT-MEM-02", what="correlation ids"
        ):
            c.fail(violation.message)


def _check_memory_fields(c: ClauseCheck, record: Record, call: Call, pid: int) -> None:
    what = f"{call.fn} [{call.label}]"
    c.equal(record["mkind"], 1, f"memoryKind of {what}")
    c.equal(record["pid"], pid, f"processId of {what}")
    c.equal(record["device"], 0, f"deviceId of {what}")
    c.equal(record["stream"], INVALID_ID, f"streamId of {what}")
    c.check(int(record["corr"]) != 0, f"correlationId of {what} is 0")
    _in_window(c, record, call, what)


# ------------------------------------------------------------------ MEMCPY / MEMSET

COPIES = (
    ("h2d", "memcpy d1 h1 1024 h2d @copy_h2d", 1024, 2, False),
    ("d2h", "memcpy h1 d1 512 d2h @copy_d2h", 512, 3, False),
    ("d2d", "memcpy d2 d1 256 d2d @copy_d2d", 256, 4, False),
    ("h2h", "memcpy h2 h1 128 h2h @copy_h2h", 128, 1, False),
    ("default", "memcpy d2 h1 64 default @copy_default", 64, 5, False),
    ("async", "memcpy d1 h1 1000 h2d s @copy_async", 1000, 2, True),
    ("2d", "memcpy2d d1 h1 32 3 h2d @copy_2d", 96, 2, False),
    ("2d_async", "memcpy2d d2 h1 16 5 h2d s @copy_2d_async", 80, 2, True),
)


@scenario("memcpy_records", "MEMCPY records of sync, async and 2-D copies of every kind", needs=ACL)
def memcpy_records(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MEMCPY",
                DEVICE_SETUP,
                "host h1 4096",
                "host h2 4096",
                "malloc d1 4096",
                "malloc d2 4096",
                *(line for _n, line, *_rest in COPIES),
                "sync s",
                "free d1",
                "free d2",
                "flush 1",
            )
        )
    ]


def _copy_record(log: RunLog, size: int, is_async: bool) -> list[Record]:
    return [r for r in log.records_of(MEMCPY) if r["bytes"] == size and bool(r["async"]) == is_async]


@memcpy_records.checker
def check_memcpy_records(ctx: CheckContext) -> None:
    with ctx.clause("ACT-MEMCPY-01") as c:
        log = ctx.log()
        expected = 0
        for name, _line, size, _kind, is_async in COPIES:
            call = log.call(f"copy_{name}")
            if _runtime_ok(c, call):
                expected += 1
                c.equal(len(_copy_record(log, size, is_async)), 1, f"MEMCPY records for {call.fn} [{name}]")
        c.equal(len(log.records_of(MEMCPY)), expected, "MEMCPY records in total")
    with ctx.clause("ACT-MEMCPY-02") as c:
        log = ctx.log()
        stream_id = log.stream_ids().get("s")
        for name, _line, size, kind, is_async in COPIES:
            call = log.call(f"copy_{name}")
            if call.missing or call.ret != 0:
                continue
            for record in _copy_record(log, size, is_async):
                what = f"{call.fn} [{name}]"
                c.equal(record["copy"], kind, f"copyKind of {what}")
                c.equal(record["async"], int(is_async), f"isAsync of {what}")
                c.equal(record["stream"], stream_id if is_async else INVALID_ID, f"streamId of {what}")
                c.equal(record["device"], 0, f"deviceId of {what}")
                c.check(int(record["corr"]) != 0, f"correlationId of {what} is 0")
                if not is_async or c.expect.get("async_timing", "device") == "host":
                    _in_window(c, record, call, what)  # asynchronous device times: ACT-MEMCPY-03
        for violation in unique_ids(
            (int(r["corr"]) for r in log.records_of(MEMCPY)), clause="ACT-MEMCPY-02", what="correlation ids"
        ):
            c.fail(violation.message)


@scenario("memset_records", "MEMSET records of aclrtMemset and aclrtMemsetAsync", needs=ACL)
def memset_records(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MEMSET",
                DEVICE_SETUP,
                "malloc d 4096",
                "memset d 7 1024 @set_sync",
                "memset d 300 512 s @set_async",
                "sync s",
                "free d",
                "flush 1",
            )
        )
    ]


@memset_records.checker
def check_memset_records(ctx: CheckContext) -> None:
    with ctx.clause("ACT-MEMSET-01") as c:
        log = ctx.log()
        stream_id = log.stream_ids().get("s")
        records = log.records_of(MEMSET)
        graded = 0
        for label, value, size, is_async in (("set_sync", 7, 1024, False), ("set_async", 300, 512, True)):
            call = log.call(label)
            if not _runtime_ok(c, call):
                continue
            graded += 1
            found = [r for r in records if r["bytes"] == size]
            if not c.equal(len(found), 1, f"MEMSET records for {call.fn}"):
                continue
            record = found[0]
            c.equal(record["value"], value, f"value of {call.fn}")
            c.equal(record["async"], int(is_async), f"isAsync of {call.fn}")
            c.equal(record["stream"], stream_id if is_async else INVALID_ID, f"streamId of {call.fn}")
            c.equal(record["device"], 0, f"deviceId of {call.fn}")
            c.check(int(record["corr"]) != 0, f"correlationId of {call.fn} is 0")
            if not is_async or c.expect.get("async_timing", "device") == "host":
                _in_window(c, record, call, call.fn)  # asynchronous device times: ACT-MEMCPY-03
        c.equal(len(records), graded, "MEMSET records in total")


# ------------------------------------------------------------------ asynchronous copies on the device

#: Rounds of copy_device_timing and copy_direct.
COPY_ROUNDS = 3
DIRECT_COPIES = 6
DIRECT_SYNC_BYTES = 256  # aclrtMemcpy through dlsym
DIRECT_SYNC_2D = (32, 4)  # aclrtMemcpy2d through dlsym: 128 bytes
TIMING_COPY_BYTES = 1 << 20
TIMING_FILL_BYTES = 4096
#: The simulator's cost of the kernels before the copies: 2 ms each (see the file).
TIMING_KERNEL_COSTS = Path(__file__).resolve().parents[1] / "workloads" / "copy_timing_costs.toml"


@scenario(
    "copy_device_timing",
    "asynchronous copies and fills on a stream after a kernel, and a synchronous copy, with their timing",
    needs=LAUNCH,
)
def copy_device_timing(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable KERNEL",
                "enable MEMCPY",
                "enable MEMSET",
                DEVICE_SETUP,
                f"host h {TIMING_COPY_BYTES}",
                f"malloc d {TIMING_COPY_BYTES}",
                f"repeat {COPY_ROUNDS} {{",
                "launch copy_timing_%i s plain 8 @kernel_%i",
                f"memcpy d h {TIMING_COPY_BYTES} h2d s @async_%i",
                f"memset d 5 {TIMING_FILL_BYTES} s @fill_%i",
                "memcpy h d 2048 d2h @sync_%i",
                "sync s",
                "}",
                "flush 1",
                "free d",
                DEVICE_TEARDOWN,
            ),
            env={"NPU_SIM_KERNEL_COSTS": str(TIMING_KERNEL_COSTS)},
        )
    ]


def _by_start(records: list[Record]) -> list[Record]:
    return sorted(records, key=lambda r: int(r["start"]))


@copy_device_timing.checker
def check_copy_device_timing(ctx: CheckContext) -> None:
    with ctx.clause("ACT-MEMCPY-03") as c:
        log = ctx.log()
        stream_id = log.stream_ids().get("s")
        kernels = _by_start([r for r in log.records_of(KERNEL) if "copy_timing_" in str(r.get("name") or "")])
        copies = _by_start([r for r in _copy_record(log, TIMING_COPY_BYTES, True)])
        fills = _by_start([r for r in log.records_of(MEMSET) if r["bytes"] == TIMING_FILL_BYTES])
        c.equal(len(copies), COPY_ROUNDS, "MEMCPY records of the asynchronous copies")
        c.equal(len(fills), COPY_ROUNDS, "MEMSET records of the asynchronous fills")
        device = c.expect.get("timing", "device") == "device"
        # The vendor stamps its own records around the call with the clock of the call window: a
        # tight bound tells host times from device times (a copy of 1 MiB runs for tens of us).
        tolerance = int(c.expect.get("host_tolerance_ns", HOST_TOLERANCE_NS))
        if device:
            c.equal(len(kernels), COPY_ROUNDS, "KERNEL records of the kernels before the copies")
        for i, (copy, fill) in enumerate(zip(copies, fills, strict=False)):
            c.equal(copy["stream"], stream_id, f"streamId of asynchronous copy {i}")
            c.equal(fill["stream"], stream_id, f"streamId of asynchronous fill {i}")
            if not device:
                _in_window(c, copy, log.call(f"async_{i}"), f"asynchronous copy {i}", tolerance)
                _in_window(c, fill, log.call(f"fill_{i}"), f"asynchronous fill {i}", tolerance)
                continue
            if i >= len(kernels):
                break
            kernel = kernels[i]
            start, end = int(copy["start"]), int(copy["end"])
            c.check(
                int(kernel["end"]) <= start < end,
                f"copy {i} [{start}, {end}] does not run after kernel {i} (ended {kernel['end']})",
            )
            c.check(
                end <= int(fill["start"]) < int(fill["end"]),
                f"fill {i} [{fill['start']}, {fill['end']}] does not run after copy {i} (ended {end})",
            )
        c.note("device times" if device else "host times around the call")
    with ctx.clause("ACT-MEMCPY-04") as c:
        log = ctx.log()
        syncs = _copy_record(log, 2048, False)
        c.equal(len(syncs), COPY_ROUNDS, "MEMCPY records of the synchronous copies")
        for i, record in enumerate(_by_start(syncs)):
            c.equal(record["stream"], INVALID_ID, f"streamId of synchronous copy {i}")
            _in_window(c, record, log.call(f"sync_{i}"), f"synchronous copy {i}")


@scenario(
    "copy_direct",
    "asynchronous and synchronous copies and fills through dlopen + dlsym of libascendcl, "
    "between interposed calls",
    needs=ACL,
)
def copy_direct(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MEMCPY",
                "enable MEMSET",
                "enable MEMORY",
                DEVICE_SETUP,
                "host h 4096",
                "malloc d 4096",
                f"repeat {DIRECT_COPIES} {{",
                "memcpy d h 1024 h2d s direct @direct_copy_%i",
                "malloc m%i 64",
                "memset d 9 512 s direct @direct_fill_%i",
                "free m%i",
                "sync s",
                f"memcpy h d {DIRECT_SYNC_BYTES} d2h direct @direct_sync_copy_%i",
                f"memcpy2d d h {DIRECT_SYNC_2D[0]} {DIRECT_SYNC_2D[1]} h2d direct @direct_sync_copy2d_%i",
                "memset d 7 128 direct @direct_sync_fill_%i",
                "}",
                "flush 1",
                "free d",
                DEVICE_TEARDOWN,
            )
        )
    ]


def check_direct_copies(c: ClauseCheck, log: RunLog, copies: int, fills: int, what: str) -> None:
    """Records of copies (1024 B) and fills (512 B) made without the interposer: per profile."""
    copy_records = [r for r in log.records_of(MEMCPY) if r["bytes"] == 1024 and r["async"] == 1]
    fill_records = [r for r in log.records_of(MEMSET) if r["async"] == 1]
    if not c.expect.get("records", True):
        # The vendor makes MEMCPY/MEMSET records in its interposed functions only.
        c.equal(len(copy_records) + len(fill_records), 0, f"records of {what} copies and fills")
        return
    c.equal(len(copy_records), copies, f"MEMCPY records of the {what} copies")
    c.equal(len(fill_records), fills, f"MEMSET records of the {what} fills")
    for record in copy_records:
        c.equal(record["copy"], 2, f"copyKind of a {what} copy (from the runtime's memcpy info)")
    ids = [int(r["corr"]) for r in copy_records + fill_records]
    c.check(0 not in ids, f"a {what} copy or fill has correlationId 0: {ids}")
    c.equal(len(set(ids)), len(ids), f"distinct correlation ids of {len(ids)} copies and fills ({ids})")
    others = {int(r["corr"]) for r in log.records_of(MEMORY)}
    stale = sorted(set(ids) & others)
    c.check(not stale, f"copies or fills carry ids of allocations or frees: {stale}")
    c.note(f"{len(set(ids))} distinct ids over {len(ids)} {what} copies and fills")


@copy_direct.checker
def check_copy_direct(ctx: CheckContext) -> None:
    with ctx.clause("ACT-MEMCPY-05") as c:
        log = ctx.log()
        copies = sum(1 for call in log.labelled("direct_copy_") if call.ret == 0)
        fills = sum(1 for call in log.labelled("direct_fill_") if call.ret == 0)
        c.equal(copies, DIRECT_COPIES, "copies the runtime accepted")
        c.equal(fills, DIRECT_COPIES, "fills the runtime accepted")
        check_direct_copies(c, log, copies, fills, "direct")
    with ctx.clause("ACT-MEMCPY-07") as c:
        log = ctx.log()
        groups = [
            ("direct_sync_copy_", [r for r in _copy_record(log, DIRECT_SYNC_BYTES, False)], "aclrtMemcpy"),
            (
                "direct_sync_copy2d_",
                [r for r in _copy_record(log, DIRECT_SYNC_2D[0] * DIRECT_SYNC_2D[1], False)],
                "aclrtMemcpy2d",
            ),
            ("direct_sync_fill_", [r for r in log.records_of(MEMSET) if not r["async"]], "aclrtMemset"),
        ]
        if not c.expect.get("records", True):
            # The vendor makes MEMCPY/MEMSET records in its interposed functions only.
            c.equal(sum(len(records) for _, records, _ in groups), 0, "records of synchronous direct calls")
            return
        ids: list[int] = []
        for label, records, api in groups:
            calls = [call for call in log.labelled(label) if call.ret == 0]
            c.equal(len(calls), DIRECT_COPIES, f"{api} calls the runtime accepted")
            c.equal(len(records), len(calls), f"records of the direct {api} calls")
            for i, (record, call) in enumerate(zip(_by_start(records), calls, strict=False)):
                _in_window(c, record, call, f"direct {api} {i}")
                c.equal(record["stream"], INVALID_ID, f"streamId of direct {api} {i} (no stream task)")
                if api == "aclrtMemset":
                    # No report of the runtime carries a fill's size or value.
                    fields = (record["bytes"], record["value"])
                    c.equal(fields, (0, 0), f"bytes and value of direct {api} {i}")
            ids += [int(r["corr"]) for r in records]
        c.check(0 not in ids, f"a synchronous direct call has correlationId 0: {ids}")
        c.equal(len(set(ids)), len(ids), f"distinct correlation ids of {len(ids)} synchronous calls")
        c.note(f"{len(ids)} synchronous direct copies and fills, each inside its call")


# ------------------------------------------------------------------ correlation ids


@scenario("corr_ids", "correlation ids of 20 sequential and 4000 concurrent memory calls", needs=ACL)
def corr_ids(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MEMORY",
                "acl_init",
                "set_device 0",
                "repeat 10 malloc p%i 64 @malloc_%i",
                "repeat 10 free p%i @free_%i",
                "threads 8 {",
                "set_device 0",
                "quiet {",
                "repeat 250 {",
                "malloc t%t_%i 32",
                "free t%t_%i",
                "}",
                "}",
                "}",
                "flush 1",
                "reset_device 0",
            ),
            timeout=120,
        )
    ]


@corr_ids.checker
def check_corr_ids(ctx: CheckContext) -> None:
    with ctx.clause("ACT-CORR-01") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        c.equal(len(memory), 20 + 8 * 500, "MEMORY records")
        zero = [r for r in memory if int(r["corr"]) == 0]
        c.equal(len(zero), 0, "MEMORY records with correlationId 0")
    with ctx.clause("ACT-CORR-02") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        for violation in unique_ids(
            (int(r["corr"]) for r in memory), clause="ACT-CORR-02", what="correlation ids"
        ):
            c.fail(violation.message)
        sequence = []
        for label in [f"malloc_{i}" for i in range(10)] + [f"free_{i}" for i in range(10)]:
            call = log.call(label)
            operation = 0 if label.startswith("malloc") else 1
            found = [r for r in memory if r["address"] == call["ptr"] and r["op"] == operation]
            if found:
                sequence.append(int(min(found, key=lambda r: r.seq)["corr"]))
        c.equal(len(sequence), 20, "records found for the 20 sequential calls")
        c.check(
            all(a < b for a, b in pairwise(sequence)),
            f"ids of sequential calls are not increasing: {sequence}",
            f"sequential ids {sequence[:5]}...",
        )
        if c.expect.get("contiguous"):
            c.equal(sequence[-1] - sequence[0], 19, "id span of 20 sequential calls")
    with ctx.clause("ACT-CORR-03") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        for i in range(10):
            pointer = log.call(f"malloc_{i}")["ptr"]
            ids = {int(r["op"]): int(r["corr"]) for r in memory if r["address"] == pointer}
            c.check(
                len(ids) == 2 and ids.get(0) != ids.get(1),
                f"allocation and release of p{i} have ids {ids}; expected two different ids",
            )
        c.note("each allocation and its release carry different correlation ids")


#: Launches that bypass msPTI's interposer (libascendcl's own aclrtLaunchKernel, via dlsym).
DIRECT_LAUNCHES = 12


@scenario(
    "corr_direct",
    "KERNEL correlation of launches made through dlopen + dlsym of libascendcl, between interposed calls",
    needs=LAUNCH,
)
def corr_direct(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable KERNEL",
                "enable MEMORY",
                DEVICE_SETUP,
                "repeat 6 {",
                "launch corr_direct_a%i s direct 8 @direct_a_%i",
                "malloc m%i 64",
                "launch corr_direct_b%i s direct 8 @direct_b_%i",
                "free m%i",
                "sync s",
                "}",
                "disable KERNEL",
                "flush 1",
                DEVICE_TEARDOWN,
            )
        )
    ]


@corr_direct.checker
def check_corr_direct(ctx: CheckContext) -> None:
    with ctx.clause("ACT-CORR-08") as c:
        log = ctx.log()
        kernels = [r for r in log.records_of(KERNEL) if str(r.get("name") or "").startswith("corr_direct_")]
        c.equal(len(kernels), DIRECT_LAUNCHES, "KERNEL records of the direct launches")
        ids = [int(r["corr"]) for r in kernels]
        c.check(0 not in ids, f"a direct launch's KERNEL record has correlationId 0: {ids}")
        if c.expect.get("distinct", True):
            c.equal(len(set(ids)), len(ids), f"distinct correlation ids of {len(ids)} launches ({ids})")
        others = {int(r["corr"]) for r in log.records_of(MEMORY)}
        stale = sorted(set(ids) & others)
        c.check(not stale, f"KERNEL records carry ids of allocations or frees: {stale}")
        c.note(f"{len(set(ids))} distinct ids over {len(ids)} direct launches")


# ------------------------------------------------------------------ KERNEL

KERNEL_LAUNCHES = (("plain", "s"), ("v2", "s"), ("config", "s"), ("hostargs", "s"), ("plain", "s2"))


@scenario(
    "kernel_records", "KERNEL records of every launch variant on two streams, with timing", needs=LAUNCH
)
def kernel_records(env: ScenarioEnv) -> list[Invocation]:
    launches = [
        f"launch conformance_{variant}_{stream} {stream} {variant} 8 @launch_{index}"
        for index, (variant, stream) in enumerate(KERNEL_LAUNCHES)
    ]
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable KERNEL",
                "enable MEMORY",
                DEVICE_SETUP,
                "create_stream s2",
                "malloc m 256 @malloc",
                "free m @free",
                *launches,
                "sync s @sync_s",
                "sync s2 @sync_s2",
                "disable KERNEL",
                "flush 1",
                "destroy_stream s2",
                "destroy_stream s",
                "reset_device 0",
            )
        )
    ]


def named_kernels(kernels: list[Record], name: str) -> list[Record]:
    """KERNEL records of the kernel ``name``: exact name matches, else names that contain it."""
    exact = [r for r in kernels if r.get("name") == name]
    return exact or [r for r in kernels if name in str(r.get("name") or "")]


def _kernel_pairs(log: RunLog) -> tuple[list[tuple[Call, Record | None]], list[Record]]:
    """(launch call, its KERNEL record) in launch order, matched by kernel name; and all KERNEL records."""
    kernels = log.records_of(KERNEL)
    pairs = []
    for index in range(len(KERNEL_LAUNCHES)):
        call = log.call(f"launch_{index}")
        named = named_kernels(kernels, str(call["kernel"]))
        pairs.append((call, named[0] if len(named) == 1 else None))
    return pairs, kernels


@kernel_records.checker
def check_kernel_records(ctx: CheckContext) -> None:
    with ctx.clause("ACT-KERNEL-01") as c:
        log = ctx.log()
        pairs, kernels = _kernel_pairs(log)
        launched = 0
        for call, _record in pairs:
            if _runtime_ok(c, call):
                launched += 1
                count = len(named_kernels(kernels, str(call["kernel"])))
                c.equal(count, 1, f"KERNEL records for {call['kernel']}")
        c.equal(len(kernels), launched, "KERNEL records in total")
    with ctx.clause("ACT-KERNEL-02") as c:
        log = ctx.log()
        pairs, _kernels = _kernel_pairs(log)
        streams = log.stream_ids()
        for call, record in pairs:
            if call.missing or call.ret != 0:
                continue
            if record is None:
                c.fail(f"no single KERNEL record names {call['kernel']!r}")
                continue
            what = f"KERNEL {call['kernel']}"
            c.check(
                str(record.get("type") or "").startswith("KERNEL_"),
                f"type of {what} is {record.get('type')!r}; expected KERNEL_*",
                f"type {record.get('type')}",
            )
            c.equal(record["device"], 0, f"deviceId of {what}")
            c.equal(record["stream"], streams.get(str(call["stream"])), f"streamId of {what}")
            c.check(int(record["corr"]) != 0, f"correlationId of {what} is 0")
            c.check(
                int(record["start"]) < int(record["end"]),
                f"{what}: start {record['start']} >= end {record['end']}",
            )
    with ctx.clause("ACT-KERNEL-03") as c:
        log = ctx.log()
        tolerance = int(c.expect.get("tolerance_ns", 5_000_000))
        pairs, kernels = _kernel_pairs(log)
        syncs = {"s": log.call("sync_s"), "s2": log.call("sync_s2")}
        for call, record in pairs:
            if record is not None:
                for violation in causality(record, call, syncs[str(call["stream"])], tolerance):
                    c.fail(violation.message)
        report_violations(c, stream_monotonic(kernels), "per-stream kernel order")
    with ctx.clause("GEN-TIME-01") as c:
        log = ctx.log()
        host_tolerance = int(c.expect.get("host_tolerance_ns", HOST_TOLERANCE_NS))
        device_tolerance = int(c.expect.get("device_tolerance_ns", 5_000_000))
        memory = log.records_of(MEMORY)
        c.check(bool(memory), "no MEMORY record to check host timestamps with")
        for record in memory:
            call = log.call("malloc" if record["op"] == 0 else "free")
            _in_window(c, record, call, f"MEMORY {'alloc' if record['op'] == 0 else 'free'}", host_tolerance)
        first = log.calls[0].t0 if log.calls else 0
        last = max((call.t1 for call in log.calls), default=0)
        for record in log.records_of(KERNEL):
            start, end = int(record["start"]), int(record["end"])
            c.check(
                first - device_tolerance <= start and end <= last + device_tolerance,
                f"KERNEL {record.get('name')!r} [{start}, {end}] lies outside the run "
                f"[{first}, {last}]: not CLOCK_REALTIME nanoseconds",
            )
        for record in [*memory, *log.records_of(KERNEL)]:
            c.check(
                10**18 <= int(record["start"]) < 10**19,
                f"timestamp {record['start']} does not have 19 digits",
            )
    with ctx.clause("GEN-TIME-02") as c:
        log = ctx.log()
        strict = bool(c.expect.get("strict", False))
        for record in [*log.records_of(MEMORY), *log.records_of(KERNEL)]:
            start, end = int(record["start"]), int(record["end"])
            ok = start < end if strict else start <= end
            c.check(
                ok,
                f"kind {record.kind} record with start {start} and end {end}"
                f" ({'start < end' if strict else 'start <= end'} expected)",
            )
        c.note(f"{len(log.records_of(MEMORY)) + len(log.records_of(KERNEL))} interval records checked")


@scenario("disable_drains", "Disable(KERNEL) then FlushAll delivers the executed kernel", needs=LAUNCH)
def disable_drains(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable KERNEL",
                DEVICE_SETUP,
                "launch drained_kernel s @launch",
                "sync s",
                "disable KERNEL @disable",
                "flush 1 @flush",
                DEVICE_TEARDOWN,
            )
        )
    ]


@disable_drains.checker
def check_disable_drains(ctx: CheckContext) -> None:
    for clause_id in ("ACT-ENABLE-10", "ACT-FLUSH-07"):
        with ctx.clause(clause_id) as c:
            log = ctx.log()
            if not _runtime_ok(c, log.call("launch")):
                continue
            c.returns(log.call("disable"), "SUCCESS")
            flush = log.call("flush")
            kernels = [r for r in log.records_of(KERNEL) if "drained_kernel" in str(r.get("name") or "")]
            c.equal(len(kernels), 1, "KERNEL records of the executed kernel")
            c.check(
                all(r.seq < flush.seq for r in kernels),
                "the KERNEL record arrived after FlushAll returned",
                "delivered by the FlushAll that followed Disable",
            )


@scenario("kernel_enable_window", "a launch made while KERNEL was disabled", needs=LAUNCH)
def kernel_enable_window(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                DEVICE_SETUP,
                "launch window_before s plain 64 @before",
                "enable KERNEL",
                "sync s",
                "launch window_after s @after",
                "sync s",
                "disable KERNEL",
                "flush 1",
                DEVICE_TEARDOWN,
            )
        )
    ]


@kernel_enable_window.checker
def check_kernel_enable_window(ctx: CheckContext) -> None:
    with ctx.clause("ACT-ENABLE-11") as c:
        log = ctx.log()
        if not (_runtime_ok(c, log.call("before")) and _runtime_ok(c, log.call("after"))):
            return
        names = [str(r.get("name") or "") for r in log.records_of(KERNEL)]
        c.equal(sum("window_before" in n for n in names), 0, "records of the launch made while disabled")
        c.equal(sum("window_after" in n for n in names), 1, "records of the launch made while enabled")


# ------------------------------------------------------------------ kind switches

WORKLOAD = (
    "malloc a 64",
    "host h 64",
    "memcpy a h 64 h2d",
    "memset a 1 64",
    "launch independence s",
    "sync s",
    "free a",
)
PHASE_KINDS = ("KERNEL", "MEMORY", "MEMCPY", "MEMSET", "API", "ACL_API", "NODE_API", "RUNTIME_API", "MARKER")


@scenario("kinds_independent", "one kind enabled at a time over the same workload", needs=LAUNCH)
def kinds_independent(env: ScenarioEnv) -> list[Invocation]:
    script = [SUBSCRIBE, DEVICE_SETUP]
    for kind in PHASE_KINDS:
        script += [f"note phase {kind}", f"enable {kind}", *WORKLOAD]
        if "mstx" in env.features:
            script += ["mark independence", "mark independence-device s", "sync s"]
        script += [f"disable {kind}", "flush 1", f"note end {kind}"]
    return [Invocation(script=lines(*script, DEVICE_TEARDOWN))]


@kinds_independent.checker
def check_kinds_independent(ctx: CheckContext) -> None:
    from conformance.abi import kind_name, kind_value

    with ctx.clause("ACT-ENABLE-06") as c:
        log = ctx.log()
        for kind in PHASE_KINDS:
            start, end = log.note_seq(f"phase {kind}"), log.note_seq(f"end {kind}")
            records = log.records_between(start, end)
            other = sorted({kind_name(r.kind) for r in records if r.kind != kind_value(kind)})
            c.check(
                not other,
                f"with only {kind} enabled, records of {other} were delivered",
                f"{kind}: {len(records)} record(s), all {kind}",
            )
        for kind in ("KERNEL", "MEMORY"):
            start, end = log.note_seq(f"phase {kind}"), log.note_seq(f"end {kind}")
            c.check(bool(log.records_between(start, end)), f"the {kind} phase produced no record at all")


@scenario(
    "enable_device_order", "KERNEL (and device markers) enabled before and after aclrtSetDevice", needs=LAUNCH
)
def enable_device_order(env: ScenarioEnv) -> list[Invocation]:
    mstx = "mstx" in env.features
    enable = ["enable KERNEL", *(["enable MARKER"] if mstx else [])]
    work = [
        "launch device_order s @launch",
        *(["mark device-order s"] if mstx else []),
        "sync s",
        "disable KERNEL",
        *(["disable MARKER"] if mstx else []),
        "flush 1",
    ]
    return [
        Invocation("enable_first", script=lines(SUBSCRIBE, *enable, DEVICE_SETUP, *work, DEVICE_TEARDOWN)),
        Invocation("device_first", script=lines(DEVICE_SETUP, SUBSCRIBE, *enable, *work, DEVICE_TEARDOWN)),
    ]


@enable_device_order.checker
def check_enable_device_order(ctx: CheckContext) -> None:
    with ctx.clause("ACT-ENABLE-08") as c:
        for name in ("enable_first", "device_first"):
            log = ctx.log(name)
            if not _runtime_ok(c, log.call("launch")):
                continue
            kernels = [r for r in log.records_of(KERNEL) if "device_order" in str(r.get("name") or "")]
            c.equal(len(kernels), 1, f"KERNEL records ({name.replace('_', ' ')})")
            if log.calls_to("mstxMarkA"):
                c.equal(len(device_markers(log)), 1, f"device MARKER records ({name.replace('_', ' ')})")


# ------------------------------------------------------------------ aclnn: API family and API <-> KERNEL

API_FAMILY = ("API", "ACL_API", "NODE_API", "RUNTIME_API")


@scenario(
    "aclnn_records",
    "two aclnnAdd calls with KERNEL and the API-family kinds enabled",
    needs=("mspti", "acl", "aclnn"),
)
def aclnn_records(env: ScenarioEnv) -> list[Invocation]:
    kinds = ("KERNEL", *API_FAMILY)
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                *(f"enable {kind}" for kind in kinds),
                DEVICE_SETUP,
                "aclnn_add s @add_1",
                "aclnn_add s @add_2",
                "sync s @sync",
                *(f"disable {kind}" for kind in kinds),
                "flush 1",
                DEVICE_TEARDOWN,
            )
        )
    ]


@aclnn_records.checker
def check_aclnn_records(ctx: CheckContext) -> None:
    from conformance.abi import API_FAMILY_KINDS

    def workload_ok(c: ClauseCheck, log: RunLog) -> bool:
        calls = [log.call("add_1"), log.call("add_2")]
        for call in calls:
            if not _runtime_ok(c, call):
                return False
            c.check(bool(call.get("result_ok")), "aclnnAdd computed a wrong result on the target runtime")
        return True

    with ctx.clause("ACT-API-01") as c:
        log = ctx.log()
        if workload_ok(c, log):
            family = [r for r in log.records if r.kind in API_FAMILY_KINDS]
            c.check(any(r.kind == API for r in family), "no API record was delivered")
            layout = [v for v in buffer_protocol(log) if v.clause in ("GEN-ABI-01", "GEN-ABI-03")]
            report_violations(
                c, [Violation("ACT-API-01", v.message) for v in layout], "48-byte API-family records"
            )
            c.note("kinds delivered: " + ", ".join(sorted({str(r.kind) for r in family})))
    with ctx.clause("ACT-API-02") as c:
        log = ctx.log()
        if workload_ok(c, log):
            pid = _pid(log)
            main_tid = log.call("add_1").tid
            first, last = log.calls[0].t0, max(call.t1 for call in log.calls)
            family = [r for r in log.records if r.kind in API_FAMILY_KINDS]
            c.check(bool(family), "no API-family record was delivered")
            for record in family:
                what = f"kind {record.kind} record {record.get('name')!r}"
                c.equal(record["pid"], pid, f"processId of {what}")
                c.equal(record["tid"], main_tid, f"threadId of {what} (the calling thread)")
                c.check(bool(record.get("name")), f"{what} has no name")
                start, end = int(record["start"]), int(record["end"])
                c.check(
                    first - HOST_TOLERANCE_NS <= start <= end <= last + HOST_TOLERANCE_NS,
                    f"{what}: [{start}, {end}] outside the run [{first}, {last}] or start > end",
                )
    with ctx.clause("ACT-API-03") as c:
        log = ctx.log()
        if workload_ok(c, log):
            api = [str(r.get("name")) for r in log.records_of(API)]
            node = [str(r.get("name")) for r in log.records_of(11)]
            c.equal(len([n for n in api if "aclnnAdd" in n]), 2, "API records named after the aclnnAdd node")
            c.equal(sorted(node), sorted(api), "NODE_API records (the same node-level reports as API)")
            c.check(
                bool(log.records_of(10)), "no ACL_API record", f"{len(log.records_of(10))} ACL_API records"
            )
            c.check(
                bool(log.records_of(12)),
                "no RUNTIME_API record",
                f"{len(log.records_of(12))} RUNTIME_API records",
            )
    with ctx.clause("ACT-CORR-04") as c:
        log = ctx.log()
        if workload_ok(c, log):
            kernels = log.records_of(KERNEL)
            c.equal(len(kernels) >= 2, True, "at least one KERNEL record per aclnnAdd")
            report_violations(
                c,
                correlation_membership(kernels, log.records_of(API), clause="ACT-CORR-04", what="KERNEL"),
                "KERNEL -> API join",
            )
    with ctx.clause("ACT-CORR-05") as c:
        log = ctx.log()
        if workload_ok(c, log):
            kernel_ids = {int(r["corr"]) for r in log.records_of(KERNEL)}
            apis = [r for r in log.records_of(API) if not str(r.get("name", "")).startswith("hcom_")]
            c.check(bool(apis), "no API record was delivered")
            for record in apis:
                c.check(
                    int(record["corr"]) in kernel_ids,
                    f"API record {record.get('name')!r} (correlationId {record['corr']}) "
                    "has no KERNEL record",
                )
            c.note(f"{len(apis)} API record(s), each joined by a KERNEL record")
    with ctx.clause("ACT-CORR-07") as c:
        log = ctx.log()
        if workload_ok(c, log):
            kernel_ids = {int(r["corr"]) for r in log.records_of(KERNEL)}
            api_ids = {int(r["corr"]) for r in log.records_of(API)}
            if c.expect.get("shared") is True:
                c.equal(len(kernel_ids), len(api_ids), "distinct kernel correlation ids (one per API call)")
                c.check(
                    kernel_ids <= api_ids,
                    f"kernel ids {sorted(kernel_ids)} not all API ids {sorted(api_ids)}",
                )
            else:
                c.check(
                    True, "", f"kernel ids {sorted(kernel_ids)}, API ids {sorted(api_ids)} (either allowed)"
                )
