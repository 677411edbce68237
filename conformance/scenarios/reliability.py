"""Reliability clauses (REL-*): records after Unsubscribe, bad mstx arguments, device halves lost on
the channel, a channel read that returns bytes it never wrote, device collection that cannot start,
a fork (C and Python), exit() while other threads launch.

The rule they share is produced = delivered + counted as dropped (docs/reliability.md, F-12 to F-19).
The scenarios that need a fault plan (``NPU_SIM_FAULTS``) run on the simulator only; the counts
come from ``msptiActivityGetDroppedRecords`` (mspti_ext.h), so a target without it is graded on
what it delivered alone. Every scenario is deterministic: the virtual clock, one stream per thread,
a synchronisation before the flush that is judged, and a fork or an exit at a point the script
fixes (after the parent's work is synchronised; after a given number of launches). A forked child
writes its own log (``fork`` command of the driver, ``Driver.forked`` in Python)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import Call, RunLog
from conformance.scenarios.common import (
    DEVICE_SETUP,
    KERNEL,
    MEMORY,
    SUBSCRIBE,
    device_markers,
    host_markers,
    lines,
)
from conformance.scenarios.python_common import PY_NEEDS, objects, py_invocation, require_import
from conformance.scenarios.registry import ScenarioEnv, scenario

ACL = ("mspti", "acl")
MSTX = ("mspti", "mstx")
DEVICE_WORK = ("mspti", "acl", "launch", "mstx")
ROUNDS = 10
LOST_PLANS = (("garble", "prof_channel_read:garble"), ("read_error", "prof_channel_read:error=-1"))


def _dropped(c: ClauseCheck, call: Call) -> int | None:
    """The drop count a ``dropped`` command read, None when the target has no mspti_ext.h."""
    if not call.get("available", False):
        c.note("the target has no msptiActivityGetDroppedRecords (mspti_ext.h): delivered records only")
        return None
    c.returns(call, "SUCCESS")
    return int(call["value"])


def _simulator_only(c: ClauseCheck, ctx: CheckContext) -> bool:
    """The fault-plan scenarios build no run off the simulator."""
    if not ctx.runs:
        c.skip("needs the simulator's fault injection (NPU_SIM_FAULTS)")
        return False
    return True


# ------------------------------------------------------------------ after Unsubscribe (F-15)


@scenario("rel_after_unsubscribe", "allocations before and after Unsubscribe, MEMORY on", needs=ACL)
def rel_after_unsubscribe(env: ScenarioEnv) -> list[Invocation]:
    script = lines(
        DEVICE_SETUP,
        SUBSCRIBE,
        "enable MEMORY @enable",
        "malloc a 256 @malloc_a",
        "free a @free_a",
        "unsubscribe @unsubscribe",
        "is_enabled MEMORY @still_on",
        "malloc b 256 @malloc_b",
        "free b @free_b",
        "flush 1",
    )
    return [Invocation(script=script)]


@rel_after_unsubscribe.checker
def check_rel_after_unsubscribe(ctx: CheckContext) -> None:
    with ctx.clause("REL-UNSUB-01") as c:
        log = ctx.log()
        c.returns(log.call("enable"), ["SUCCESS", "WITHOUT_LD_PRELOAD"])
        if log.call("enable").ret != 0:
            c.skip("MEMORY needs libmspti.so preloaded")
        c.returns(log.call("unsubscribe"), "SUCCESS")
        c.equal(log.call("still_on")["value"], True, "IsEnabled(MEMORY) after Unsubscribe")
        memory = len(log.records_of(MEMORY))
        if c.expect.get("after_unsubscribe") == "none":
            c.equal(memory, 2, "MEMORY records (2 made before Unsubscribe, none after)")
        else:
            c.check(memory in (2, 4), f"{memory} MEMORY records, expected 2 or 4")
            after = "records are still made after Unsubscribe" if memory == 4 else "none after Unsubscribe"
            c.note(f"{memory} MEMORY records: {after}")


# ------------------------------------------------------------------ bad mstx arguments (F-16)


@scenario("rel_bad_mstx", "mstx marks with NULL, 254-, 255- and 300-character messages", needs=MSTX)
def rel_bad_mstx(env: ScenarioEnv) -> list[Invocation]:
    script = lines(
        SUBSCRIBE,
        "enable MARKER",
        "mark <null> @null",
        "mark <long:255> @long255",
        "mark <long:300> @long300",
        "mark <long:254> @long254",
        "range_start r <null> @range_null",
        "flush 1",
        "dropped MARKER @dropped",
    )
    return [Invocation(script=script)]


@rel_bad_mstx.checker
def check_rel_bad_mstx(ctx: CheckContext) -> None:
    with ctx.clause("REL-MSTX-01") as c:
        log = ctx.log()
        names = [str(r.get("name", "")) for r in host_markers(log)]
        c.equal(len(names), 1, "MARKER records (only the 254-character message makes one)")
        c.check(
            all(len(name) == 254 for name in names),
            f"a message was truncated or a bad one recorded: lengths {[len(n) for n in names]}",
            "the 254-character message is delivered whole",
        )
        dropped = _dropped(c, log.call("dropped"))
        if dropped is not None:
            if c.expect.get("counted") == "exact":
                c.equal(dropped, 4, "MARKER records dropped (NULL, 255 and 300 characters, NULL range)")
            else:
                c.note(f"{dropped} MARKER records counted as dropped")


# ------------------------------------------------------------------ lost device halves (F-17)


def _device_rounds(rounds: int) -> list[str]:
    return [
        *(line for _ in range(rounds) for line in ("launch conformance_rel s", "mark rel-device s")),
        "sync s",
    ]


def _device_script(rounds: int) -> str:
    return lines(
        DEVICE_SETUP,
        SUBSCRIBE,
        "enable KERNEL",
        "enable MARKER",
        *_device_rounds(rounds),
        "flush 1",
        "dropped KERNEL @dropped_kernel",
        "dropped MARKER @dropped_marker",
    )


def _device_accounting(c: ClauseCheck, log: RunLog, rounds: int) -> tuple[int, int, int | None, int | None]:
    kernels = len(log.records_of(KERNEL))
    halves = len(device_markers(log))
    c.equal(len(host_markers(log)), rounds, "host MARKER records of the marks on the stream")
    return (
        kernels,
        halves,
        _dropped(c, log.call("dropped_kernel")),
        _dropped(c, log.call("dropped_marker")),
    )


@scenario("rel_lost_device_halves", "every channel read garbled, then FlushAll", needs=DEVICE_WORK)
def rel_lost_device_halves(env: ScenarioEnv) -> list[Invocation]:
    if not env.simulator:
        return []
    return [
        Invocation(
            name,
            script=_device_script(ROUNDS),
            env={"NPU_SIM_FAULTS": plan, "NPU_SIM_CLOCK": "virtual"},
        )
        for name, plan in LOST_PLANS
    ]


@rel_lost_device_halves.checker
def check_rel_lost_device_halves(ctx: CheckContext) -> None:
    with ctx.clause("REL-DEV-01") as c:
        if not _simulator_only(c, ctx):
            return
        for name in ("garble", "read_error"):
            kernels, halves, kernel_drops, marker_drops = _device_accounting(c, ctx.log(name), ROUNDS)
            c.note(f"{name}: KERNEL {kernels} + {kernel_drops} dropped, MARKER {halves} + {marker_drops}")
            if c.expect.get("lost_halves") != "counted" or kernel_drops is None or marker_drops is None:
                continue
            c.equal(kernels + kernel_drops, ROUNDS, f"{name}: KERNEL delivered + dropped at FlushAll")
            c.equal(halves + marker_drops, ROUNDS, f"{name}: device MARKER delivered + dropped at FlushAll")


# ------------------------------------------------------------------ a read of bytes never written (F-18)

BAD_READS = (1, 2, 3, 5)
BAD_READ_ROUNDS = 60


@scenario("rel_bad_read", "one channel read returns 5 bytes it never wrote", needs=DEVICE_WORK)
def rel_bad_read(env: ScenarioEnv) -> list[Invocation]:
    if not env.simulator:
        return []
    return [
        Invocation(
            f"read_{when}",
            script=_device_script(BAD_READ_ROUNDS),
            env={"NPU_SIM_FAULTS": f"prof_channel_read:error=5@{when}", "NPU_SIM_CLOCK": "virtual"},
        )
        for when in BAD_READS
    ]


@rel_bad_read.checker
def check_rel_bad_read(ctx: CheckContext) -> None:
    with ctx.clause("REL-DEV-02") as c:
        if not _simulator_only(c, ctx):
            return
        for when in BAD_READS:
            kernels, halves, _, _ = _device_accounting(c, ctx.log(f"read_{when}"), BAD_READ_ROUNDS)
            if c.expect.get("resynchronises", True):
                # The 5 bytes may split one record, which is then lost; every other one arrives.
                c.check(
                    kernels + halves >= 2 * BAD_READ_ROUNDS - 1,
                    f"read {when} of 5 unwritten bytes: {kernels} KERNEL and {halves} device MARKER records "
                    f"of {BAD_READ_ROUNDS} each",
                    f"read {when}: {kernels} KERNEL, {halves} device MARKER records",
                )
            else:
                c.note(f"read {when}: {kernels} KERNEL, {halves} device MARKER records of {BAD_READ_ROUNDS}")


# ------------------------------------------------------------------ collection that cannot start (F-19)

START_FAILURES = ("prof_drv_start", "prof_drv_get_channels", "halGetDeviceInfo", "drvGetDevNum")


@scenario("rel_start_failure", "collection that cannot start, the device open at Enable", needs=DEVICE_WORK)
def rel_start_failure(env: ScenarioEnv) -> list[Invocation]:
    if not env.simulator:
        return []
    script = lines(
        DEVICE_SETUP,
        SUBSCRIBE,
        "enable KERNEL @enable_kernel",
        "enable MARKER @enable_marker",
        *_device_rounds(ROUNDS),
        "flush 1",
        "dropped KERNEL @dropped_kernel",
        "dropped MARKER @dropped_marker",
    )
    return [
        Invocation(fn, script=script, env={"NPU_SIM_FAULTS": f"{fn}:error=-1", "NPU_SIM_CLOCK": "virtual"})
        for fn in START_FAILURES
    ]


@rel_start_failure.checker
def check_rel_start_failure(ctx: CheckContext) -> None:
    with ctx.clause("REL-DEV-03") as c:
        if not _simulator_only(c, ctx):
            return
        for fn in START_FAILURES:
            log = ctx.log(fn)
            c.returns(log.call("enable_kernel"), c.expect["enable"], f"{fn} failing: Enable(KERNEL)")
            c.returns(log.call("enable_marker"), c.expect["enable"], f"{fn} failing: Enable(MARKER)")
            kernels, halves, kernel_drops, marker_drops = _device_accounting(c, log, ROUNDS)
            c.equal(kernels, 0, f"{fn} failing: KERNEL records")
            c.equal(halves, 0, f"{fn} failing: device MARKER records")
            if c.expect.get("counted") == "exact" and kernel_drops is not None and marker_drops is not None:
                c.equal(kernel_drops, ROUNDS, f"{fn} failing: KERNEL records counted as dropped")
                c.equal(marker_drops, ROUNDS, f"{fn} failing: device MARKER halves counted as dropped")


# ------------------------------------------------------------------ fork (F-12, F-13)

FORK_CHILDREN = {
    # The child makes no msPTI or CANN call: the script ends, exit's handlers run.
    "silent": (),
    "exits": ("exit 0",),
    "flushes": (
        "dropped INVALID @child_at_fork",
        "flush 1 @child_flush",
        "dropped INVALID @child_after_flush",
        "unsubscribe @child_unsubscribe",
        "dropped INVALID @child_after_unsubscribe",
    ),
    "launches": (
        "dropped INVALID @child_at_fork",
        "repeat 5 launch conformance_rel_child s",
        "malloc c 256",
        "free c",
        "mark child_host",
        "mark child_device s",
        "sync s",
        "flush 1 @child_flush",
        "dropped INVALID @child_after_flush",
        "unsubscribe @child_unsubscribe",
        "dropped INVALID @child_after_unsubscribe",
    ),
}
FORK_KERNELS = 20
FORK_ALLOCATIONS = 5
FORK_MARKS = 5  # host marks, and as many on the stream
FORK_BAD_MARKS = 3  # NULL messages: counted as dropped (BAD_ARGUMENT) where the target counts them
#: What each child delivers of its own: KERNEL, host MARKER, device MARKER, MEMORY.
FORK_CHILD_OWN = {"launches": (5, 2, 1, 2)}


def _fork_script(child: str) -> str:
    return lines(
        DEVICE_SETUP,
        SUBSCRIBE,
        "enable KERNEL",
        "enable MARKER",
        "enable MEMORY",
        f"repeat {FORK_BAD_MARKS} mark <null>",
        f"repeat {FORK_KERNELS} launch conformance_rel s",
        f"repeat {FORK_ALLOCATIONS} {{",
        "malloc m 256",
        "free m",
        "}",
        f"repeat {FORK_MARKS} mark parent_host",
        f"repeat {FORK_MARKS} mark parent_device s",
        "sync s",
        "dropped INVALID @parent_before_fork",
        f"fork {child} @fork {{",
        *FORK_CHILDREN[child],
        "}",
        "flush 1 @parent_flush",
        "dropped INVALID @parent_after_fork",
    )


def child_log(ctx: CheckContext, run: str, child: str) -> RunLog:
    """The log a forked child wrote (the collector's ``$MSPTI_CONFORMANCE_LOG.CHILD``)."""
    return RunLog.from_file(ctx.run(run).log_path.with_name(f"{ctx.run(run).log_path.name}.{child}"))


def _delivered(log: RunLog) -> tuple[int, int, int, int]:
    return (
        len(log.records_of(KERNEL)),
        len(host_markers(log)),
        len(device_markers(log)),
        len(log.records_of(MEMORY)),
    )


def _child_finished(c: ClauseCheck, fork: Call | Mapping[str, Any], what: str) -> None:
    c.check(
        not fork.get("timed_out"),
        f"{what}: the child hung (killed after 20 s)",
        f"{what}: the child finished",
    )
    c.equal(
        (fork.get("exit_code"), fork.get("signal")), (0, None), f"{what}: the child's (exit code, signal)"
    )


@scenario(
    "rel_fork",
    "a fork after 20 kernels, markers and allocations: the child silent, exits, flushes, launches",
    needs=DEVICE_WORK,
)
def rel_fork(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            child, script=_fork_script(child), env={"NPU_SIM_CLOCK": "virtual"} if env.simulator else {}
        )
        for child in FORK_CHILDREN
    ]


@rel_fork.checker
def check_rel_fork(ctx: CheckContext) -> None:
    with ctx.clause("REL-FORK-01") as c:
        exact = c.expect.get("child_records") == "own"
        for child in FORK_CHILDREN:
            log = ctx.log(child)
            fork = log.call("fork")
            _child_finished(c, fork, child)
            own = FORK_CHILD_OWN.get(child, (0, 0, 0, 0))
            delivered = _delivered(child_log(ctx, child, child))
            if exact:
                c.equal(
                    delivered,
                    own,
                    f"{child}: the child's (KERNEL, host MARKER, device MARKER, MEMORY) records",
                )
            else:
                c.note(f"{child}: the child delivered {delivered} (its own: {own})")
            clog = child_log(ctx, child, child)
            for label in ("child_at_fork", "child_after_flush", "child_after_unsubscribe"):
                if not any(call.label == label for call in clog.calls):
                    continue
                count = _dropped(c, clog.call(label))
                if count is not None and exact:
                    c.equal(count, 0, f"{child}: the child's drop count ({label})")
            parent = _delivered(log)
            c.equal(
                parent,
                (FORK_KERNELS, 2 * FORK_MARKS, FORK_MARKS, 2 * FORK_ALLOCATIONS),
                f"{child}: the parent's (KERNEL, host MARKER, device MARKER, MEMORY) records after the fork",
            )
            before = _dropped(c, log.call("parent_before_fork"))
            after = _dropped(c, log.call("parent_after_fork"))
            if before is not None and after is not None:
                c.equal(after, before, f"{child}: the parent's drop count after the fork")
                if c.expect.get("bad_marks") == "counted":
                    c.equal(
                        before, FORK_BAD_MARKS, f"{child}: the parent's drops before the fork (NULL marks)"
                    )


PY_FORK_MODES = ("flush", "stop", "exit")


@scenario(
    "rel_py_fork",
    "a Python process forks while an MstxMonitor runs; the child flushes, stops or exits",
    needs=(*PY_NEEDS, "acl", "mstx"),
)
def rel_py_fork(env: ScenarioEnv) -> list[Invocation]:
    return [py_invocation(env, "fork_monitor", mode, name=mode, timeout=90) for mode in PY_FORK_MODES]


def _mark_names(log: RunLog) -> list[str]:
    return sorted(str((e.get("data") or {}).get("name")) for e in objects(log, "mark"))


@rel_py_fork.checker
def check_rel_py_fork(ctx: CheckContext) -> None:
    with ctx.clause("REL-FORK-02") as c:
        strict = c.expect.get("child") == "finishes"
        for mode in PY_FORK_MODES:
            log = ctx.log(mode)
            require_import(log)
            fork = log.first("fork")
            if fork is None:
                c.fail(f"{mode}: the driver logged no fork event")
                continue
            if strict:
                _child_finished(c, fork, mode)
            else:
                c.note(
                    f"{mode}: child exit code {fork.get('exit_code')}, signal {fork.get('signal')}, "
                    f"timed out {fork.get('timed_out')}"
                )
            c.equal(
                _mark_names(log),
                [f"parent_{i}" for i in range(5)],
                f"{mode}: the parent's monitor got its marks",
            )
            if not strict:
                continue
            names = _mark_names(child_log(ctx, mode, "child"))
            mine = [f"child_{i}" for i in range(3)]
            if mode == "exit":
                c.check(
                    set(names) <= set(mine), f"{mode}: the child's monitor got {names}", f"{mode}: {names}"
                )
            else:
                c.equal(names, mine, f"{mode}: the child's monitor got its own marks only")


# ------------------------------------------------------------------ exit while launching (F-14)

EXIT_AFTER_LAUNCHES = 200


@scenario("rel_exit_race", "exit() on one thread while two others launch kernels", needs=DEVICE_WORK)
def rel_exit_race(env: ScenarioEnv) -> list[Invocation]:
    launcher = ("set_device 0", "repeat 2000 {", "repeat 64 launch conformance_rel s{t}", "sync s{t}", "}")
    script = lines(
        "acl_init",
        "set_device 0",
        "create_stream s1",
        "create_stream s2",
        SUBSCRIBE,
        "enable KERNEL",
        "threads 3 {",
        "on_thread 0 {",
        f"wait_launches {EXIT_AFTER_LAUNCHES} @waited",
        "exit 0 @exit",
        "}",
        *(
            line
            for t in (1, 2)
            for line in (f"on_thread {t} {{", *(w.replace("{t}", str(t)) for w in launcher), "}")
        ),
        "}",
    )
    return [Invocation(script=script, env={"NPU_SIM_CLOCK": "virtual"} if env.simulator else {})]


@rel_exit_race.checker
def check_rel_exit_race(ctx: CheckContext) -> None:
    with ctx.clause("REL-EXIT-01") as c:
        run = ctx.run()
        log = run.log
        c.check(not run.timed_out, "the process did not end (timed out)", "the process ended")
        c.equal(run.exit_code, 0, "the exit code of exit(0) while two threads launch")
        exit_event = log.first("exit_called")
        if exit_event is None:
            c.fail("the exit command never ran")
            return
        before_exit = int(exit_event["seq"])
        launched = [
            call for call in log.calls_to("aclrtLaunchKernel") if call.ret == 0 and call.seq < before_exit
        ]
        c.check(
            len(launched) >= EXIT_AFTER_LAUNCHES,
            f"{len(launched)} launches before exit()",
            f"{len(launched)} launches logged before exit()",
        )
        kernels = len(log.records_of(KERNEL))
        if c.expect.get("accounted") == "delivered_at_exit":
            c.check(
                kernels >= len(launched),
                f"{kernels} KERNEL records delivered for the {len(launched)} "
                "launches that returned before exit()",
                f"{kernels} KERNEL records for {len(launched)} launches",
            )
        else:
            c.note(f"{kernels} KERNEL records delivered for {len(launched)} launches made before exit()")
