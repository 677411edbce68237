"""KERNEL records of every launch function, and launches around Disable(KERNEL)."""

from __future__ import annotations

from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.log import Call, Record, RunLog
from conformance.model.invariants import (
    causality,
    stream_monotonic,
)
from conformance.scenarios.common import (
    DEVICE_SETUP,
    DEVICE_TEARDOWN,
    KERNEL,
    MEMORY,
    SUBSCRIBE,
    lines,
    report_violations,
)
from conformance.scenarios.device.calls import (
    HOST_TOLERANCE_NS,
    LAUNCH,
    in_window,
    runtime_ok,
)
from conformance.scenarios.registry import ScenarioEnv, scenario

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
            if runtime_ok(c, call):
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
            in_window(c, record, call, f"MEMORY {'alloc' if record['op'] == 0 else 'free'}", host_tolerance)
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
            if not runtime_ok(c, log.call("launch")):
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
        if not (runtime_ok(c, log.call("before")) and runtime_ok(c, log.call("after"))):
            return
        names = [str(r.get("name") or "") for r in log.records_of(KERNEL)]
        c.equal(sum("window_before" in n for n in names), 0, "records of the launch made while disabled")
        c.equal(sum("window_after" in n for n in names), 1, "records of the launch made while enabled")
