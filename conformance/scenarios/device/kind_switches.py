"""Kind switches: one kind enabled at a time, and KERNEL enabled before or after aclrtSetDevice."""

from __future__ import annotations

from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.scenarios.common import (
    DEVICE_SETUP,
    DEVICE_TEARDOWN,
    KERNEL,
    SUBSCRIBE,
    device_markers,
    lines,
)
from conformance.scenarios.device.calls import (
    LAUNCH,
    runtime_ok,
)
from conformance.scenarios.registry import ScenarioEnv, scenario

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
            if not runtime_ok(c, log.call("launch")):
                continue
            kernels = [r for r in log.records_of(KERNEL) if "device_order" in str(r.get("name") or "")]
            c.equal(len(kernels), 1, f"KERNEL records ({name.replace('_', ' ')})")
            if log.calls_to("mstxMarkA"):
                c.equal(len(device_markers(log)), 1, f"device MARKER records ({name.replace('_', ' ')})")
