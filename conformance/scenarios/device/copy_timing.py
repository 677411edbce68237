"""Asynchronous copies and fills on the device: their timing, and copies made around msPTI's interposer."""

from __future__ import annotations

from pathlib import Path

from conformance.abi import INVALID_ID
from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import Record, RunLog
from conformance.scenarios.common import (
    DEVICE_SETUP,
    DEVICE_TEARDOWN,
    KERNEL,
    MEMCPY,
    MEMORY,
    MEMSET,
    SUBSCRIBE,
    lines,
)
from conformance.scenarios.device.calls import (
    ACL,
    HOST_TOLERANCE_NS,
    LAUNCH,
    copies_of,
    in_window,
)
from conformance.scenarios.registry import ScenarioEnv, scenario

#: Rounds of copy_device_timing and copy_direct.
COPY_ROUNDS = 3
DIRECT_COPIES = 6
DIRECT_SYNC_BYTES = 256  # aclrtMemcpy through dlsym
DIRECT_SYNC_2D = (32, 4)  # aclrtMemcpy2d through dlsym: 128 bytes
TIMING_COPY_BYTES = 1 << 20
TIMING_FILL_BYTES = 4096
#: The simulator's cost of the kernels before the copies: 2 ms each (see the file).
TIMING_KERNEL_COSTS = Path(__file__).resolve().parents[2] / "workloads" / "copy_timing_costs.toml"


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
        copies = _by_start([r for r in copies_of(log, TIMING_COPY_BYTES, True)])
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
                in_window(c, copy, log.call(f"async_{i}"), f"asynchronous copy {i}", tolerance)
                in_window(c, fill, log.call(f"fill_{i}"), f"asynchronous fill {i}", tolerance)
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
        syncs = copies_of(log, 2048, False)
        c.equal(len(syncs), COPY_ROUNDS, "MEMCPY records of the synchronous copies")
        for i, record in enumerate(_by_start(syncs)):
            c.equal(record["stream"], INVALID_ID, f"streamId of synchronous copy {i}")
            in_window(c, record, log.call(f"sync_{i}"), f"synchronous copy {i}")


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
            ("direct_sync_copy_", [r for r in copies_of(log, DIRECT_SYNC_BYTES, False)], "aclrtMemcpy"),
            (
                "direct_sync_copy2d_",
                [r for r in copies_of(log, DIRECT_SYNC_2D[0] * DIRECT_SYNC_2D[1], False)],
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
                in_window(c, record, call, f"direct {api} {i}")
                c.equal(record["stream"], INVALID_ID, f"streamId of direct {api} {i} (no stream task)")
                if api == "aclrtMemset":
                    # No report of the runtime carries a fill's size or value.
                    fields = (record["bytes"], record["value"])
                    c.equal(fields, (0, 0), f"bytes and value of direct {api} {i}")
            ids += [int(r["corr"]) for r in records]
        c.check(0 not in ids, f"a synchronous direct call has correlationId 0: {ids}")
        c.equal(len(set(ids)), len(ids), f"distinct correlation ids of {len(ids)} synchronous calls")
        c.note(f"{len(ids)} synchronous direct copies and fills, each inside its call")
