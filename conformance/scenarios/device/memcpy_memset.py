"""MEMCPY and MEMSET records of synchronous, asynchronous and 2-D copies and fills."""

from __future__ import annotations

from conformance.abi import INVALID_ID
from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.model.invariants import (
    unique_ids,
)
from conformance.scenarios.common import (
    DEVICE_SETUP,
    MEMCPY,
    MEMSET,
    SUBSCRIBE,
    lines,
)
from conformance.scenarios.device.calls import (
    ACL,
    copies_of,
    in_window,
    runtime_ok,
)
from conformance.scenarios.registry import ScenarioEnv, scenario

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


@memcpy_records.checker
def check_memcpy_records(ctx: CheckContext) -> None:
    with ctx.clause("ACT-MEMCPY-01") as c:
        log = ctx.log()
        expected = 0
        for name, _line, size, _kind, is_async in COPIES:
            call = log.call(f"copy_{name}")
            if runtime_ok(c, call):
                expected += 1
                c.equal(len(copies_of(log, size, is_async)), 1, f"MEMCPY records for {call.fn} [{name}]")
        c.equal(len(log.records_of(MEMCPY)), expected, "MEMCPY records in total")
    with ctx.clause("ACT-MEMCPY-02") as c:
        log = ctx.log()
        stream_id = log.stream_ids().get("s")
        for name, _line, size, kind, is_async in COPIES:
            call = log.call(f"copy_{name}")
            if call.missing or call.ret != 0:
                continue
            for record in copies_of(log, size, is_async):
                what = f"{call.fn} [{name}]"
                c.equal(record["copy"], kind, f"copyKind of {what}")
                c.equal(record["async"], int(is_async), f"isAsync of {what}")
                c.equal(record["stream"], stream_id if is_async else INVALID_ID, f"streamId of {what}")
                c.equal(record["device"], 0, f"deviceId of {what}")
                c.check(int(record["corr"]) != 0, f"correlationId of {what} is 0")
                if not is_async or c.expect.get("async_timing", "device") == "host":
                    in_window(c, record, call, what)  # asynchronous device times: ACT-MEMCPY-03
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
            if not runtime_ok(c, call):
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
                in_window(c, record, call, call.fn)  # asynchronous device times: ACT-MEMCPY-03
        c.equal(len(records), graded, "MEMSET records in total")
