"""MEMORY records of every allocation and release function (mem_records)."""

from __future__ import annotations

from conformance.abi import INVALID_ID
from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import Call, Record
from conformance.model.invariants import (
    unique_ids,
)
from conformance.scenarios.common import (
    MEMORY,
    SUBSCRIBE,
    lines,
)
from conformance.scenarios.device.calls import (
    ACL,
    in_window,
    process_id,
    runtime_ok,
)
from conformance.scenarios.registry import ScenarioEnv, scenario

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
            if runtime_ok(c, call):
                found = [r for r in memory if r["op"] == 0 and r["address"] == call["ptr"]]
                c.equal(len(found), 1, f"ALLOCATION records for {call.fn}")
        for name, _line in RELEASES:
            call = log.call(f"free_{name}")
            if runtime_ok(c, call):
                found = [r for r in memory if r["op"] == 1 and r["address"] == call["ptr"]]
                c.equal(len(found), 1, f"RELEASE records for {call.fn}")
        host = log.call("alloc_host")
        if runtime_ok(c, host):
            c.equal(
                len([r for r in memory if r["address"] == host["ptr"]]),
                0,
                "MEMORY records for aclrtMallocHost/aclrtFreeHost",
            )
    with ctx.clause("ACT-MEM-02") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        pid = process_id(log)
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
    in_window(c, record, call, what)
