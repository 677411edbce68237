"""Thread safety: concurrent producers and flushes, concurrent subscription and kind switching."""

from __future__ import annotations

from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.model.invariants import Violation, accounting, buffer_protocol, unique_ids
from conformance.scenarios.common import SUBSCRIBE, host_markers, lines, report_violations
from conformance.scenarios.registry import ScenarioEnv, scenario

THREADS = 8
ROUNDS = 500
PER_ROUND = 20
PRODUCED = THREADS * ROUNDS * PER_ROUND


@scenario(
    "stress_markers",
    "8 threads x 10 000 marks, 1 KiB buffers, FlushAll every 20 marks per thread",
    needs=("mspti", "mstx"),
)
def stress_markers(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MARKER",
                f"threads {THREADS} {{",
                "quiet {",
                f"repeat {ROUNDS} {{",
                f"repeat {PER_ROUND} mark stress-%t",
                "flush 0",
                "}",
                "}",
                "}",
                "flush 1",
                "dropped MARKER @dropped",
            ),
            buffer="size=1024",
            timeout=300,
        )
    ]


@stress_markers.checker
def check_stress_markers(ctx: CheckContext) -> None:
    for clause_id in ("ACT-BUF-12", "THR-01", "ACT-FLUSH-06", "THR-02"):
        with ctx.clause(clause_id) as c:
            log = ctx.log()
            marks, _failed = log.quiet_total("mstxMarkA")
            c.equal(marks, PRODUCED, "marks made")
            markers = host_markers(log)
            dropped_call = log.call("dropped")
            dropped = (
                int(dropped_call["value"])
                if dropped_call.get("available") and dropped_call.ret == 0
                else None
            )
            for violation in accounting(PRODUCED, len(markers), dropped, clause=clause_id):
                c.fail(violation.message)
            for violation in unique_ids((int(r["id"]) for r in markers), clause=clause_id, what="marker ids"):
                c.fail(violation.message)
            per_thread = {f"stress-{t}": 0 for t in range(THREADS)}
            for record in markers:
                name = str(record.get("name"))
                per_thread[name] = per_thread.get(name, 0) + 1
            c.check(
                all(n == ROUNDS * PER_ROUND for n in per_thread.values()),
                f"markers per thread {sorted(per_thread.values())}; expected {ROUNDS * PER_ROUND} each",
                f"{len(markers)} markers, {ROUNDS * PER_ROUND} from each thread",
            )
            if clause_id in ("ACT-FLUSH-06", "THR-02"):
                flushes, failed = log.quiet_total("msptiActivityFlushAll")
                c.equal(flushes, THREADS * ROUNDS, "concurrent FlushAll calls")
                c.equal(failed, 0, "concurrent FlushAll calls that did not return SUCCESS")
                protocol = [
                    Violation(clause_id, v.message)
                    for v in buffer_protocol(log)
                    if v.clause in ("ACT-BUF-02", "ACT-BUF-03")
                ]
                report_violations(c, protocol, "every buffer completed once")
    with ctx.clause("THR-05") as c:
        log = ctx.log()
        overlapping = [r for r in log.requests if r.inflight > 1]
        c.equal(
            len(overlapping), 0, f"buffer requests (of {len(log.requests)}) that overlapped another request"
        )
        concurrent = max((x.inflight for x in log.completions), default=0)
        c.note(f"up to {concurrent} complete callbacks ran at once")


@scenario("subscribe_race", "8 threads subscribe at the same time")
def subscribe_race(env: ScenarioEnv) -> list[Invocation]:
    return [Invocation(script=lines("threads 8 {", "subscribe @race%t", "}"))]


@subscribe_race.checker
def check_subscribe_race(ctx: CheckContext) -> None:
    with ctx.clause("THR-03") as c:
        log = ctx.log()
        results = [log.call(f"race{t}").ret for t in range(8)]
        c.equal(results.count(0), 1, "successful concurrent Subscribe calls")
        c.equal(
            results.count(2), 7, "concurrent Subscribe calls refused with MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"
        )


@scenario("enable_race", "12 threads toggle their own kind, then leave it on, then off")
def enable_race(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "subscribe",
                "threads 12 {",
                "quiet {",
                "repeat 300 {",
                "enable %T",
                "disable %T",
                "}",
                "}",
                "enable %T @final_on_%T",
                "}",
                *(f"is_enabled {k} @on_{k}" for k in range(1, 13)),
                "threads 12 {",
                "quiet {",
                "repeat 300 {",
                "disable %T",
                "enable %T",
                "}",
                "}",
                "disable %T @final_off_%T",
                "}",
                *(f"is_enabled {k} @off_{k}" for k in range(1, 13)),
            )
        )
    ]


@enable_race.checker
def check_enable_race(ctx: CheckContext) -> None:
    with ctx.clause("THR-04") as c:
        log = ctx.log()
        for k in range(1, 13):
            c.returns(log.call(f"final_on_{k}"), "SUCCESS")
            c.equal(log.call(f"on_{k}")["value"], True, f"IsEnabled({k}) after its thread's last Enable")
            c.equal(log.call(f"off_{k}")["value"], False, f"IsEnabled({k}) after its thread's last Disable")
        enables, failed = log.quiet_total("msptiActivityEnable")
        c.equal(failed, 0, f"failed Enable calls among {enables} concurrent ones")
