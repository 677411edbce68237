"""THR-07: the isolated re-entrancy probe (instrumented calls and FlushAll inside buffer callbacks).

Harness rule 5 keeps every other scenario out of msPTI from inside its buffer callbacks; only this
probe goes there, each case in its own process with a short timeout. The collector policies
``reenter_flush`` and ``reenter_call`` do the re-entering (conformance/collector/collector.h). A
probe that hangs or dies gets the verdict the catalogue gives the profile (``on_hang``,
``on_crash``): the documents are silent, the vendor may deadlock or abort.
"""

from __future__ import annotations

from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation, RunResult
from conformance.log import RunLog
from conformance.scenarios.common import MEMORY, lines
from conformance.scenarios.registry import ScenarioEnv, scenario

ALLOCATIONS = 40
TIMEOUT = 30.0
WORKLOAD = lines(
    "acl_init",
    "set_device 0",
    f"repeat {ALLOCATIONS} {{",
    "malloc b 4096 @alloc%i",
    "free b @free%i",
    "}",
)
#: case -> (buffer policy, script around the workload)
CASES: dict[str, tuple[str, str]] = {
    # FlushAll from complete callbacks, some of them on the periodic-flush thread.
    "flush_in_complete": (
        "size=4k,reenter_flush=4",
        lines(
            "subscribe",
            "register A A",
            "enable MEMORY",
            "flush_period 5 @period",
            WORKLOAD,
            "sleep 40",
            "flush 1 @flush",
            "disable MEMORY",
            "flush 1 @last_flush",
        ),
    ),
    # aclrtSetDevice/aclrtMalloc/aclrtFree (MEMORY records) from request and complete callbacks.
    "calls_in_callbacks": (
        "size=4k,reenter_call=4",
        lines(
            "subscribe",
            "register A A",
            "enable MEMORY",
            WORKLOAD,
            "flush 1 @flush",
            "disable MEMORY",
            "flush 1 @last_flush",
        ),
    ),
}


@scenario(
    "reentrancy_probe", "FlushAll and instrumented calls inside buffer callbacks", needs=("mspti", "acl")
)
def reentrancy_probe(_env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(name=name, script=script, buffer=policy, timeout=TIMEOUT, crash_ok=True)
        for name, (policy, script) in CASES.items()
    ]


def _outcome(run: RunResult) -> str:
    """ "hang", "crash" (a signal or a non-zero exit) or "completed"."""
    if run.build_error is not None:
        raise RuntimeError(f"the probe did not build: {run.build_error.splitlines()[0]}")
    if run.timed_out:
        return "hang"
    return "completed" if run.exit_code == 0 else "crash"


def _grade_completed(c: ClauseCheck, name: str, log: RunLog) -> None:
    reentries = log.of_type("reenter")
    c.check(bool(reentries), f"[{name}] the probe never re-entered msPTI from a buffer callback")
    for event in reentries:
        what = f"[{name}] {event.get('fn')} inside the {event.get('site')} callback"
        if event.get("fn") == "msptiActivityFlushAll":
            c.check(
                event.get("ret") in c.expect["flush_results"],
                f"{what} returned {event.get('ret')}; expected one of {c.expect['flush_results']}",
            )
        else:
            c.equal(event.get("ret"), 0, f"{what}: aclrtMalloc's result")
    outside = sum(1 for call in log.labelled("alloc") if call.ret == 0)
    outside += sum(1 for call in log.labelled("free") if call.ret == 0)
    delivered = len(log.records_of(MEMORY))
    c.check(
        delivered >= outside,
        f"[{name}] {delivered} MEMORY records delivered for {outside} allocations and frees made outside the "
        "callbacks",
        f"[{name}] {delivered} MEMORY records for {outside} operations outside the callbacks "
        f"({len(reentries)} re-entries)",
    )


@reentrancy_probe.checker
def check_reentrancy_probe(ctx: CheckContext) -> None:
    with ctx.clause("THR-07") as c:
        outcomes = {name: _outcome(ctx.runs[name]) for name in CASES}
        failed = {name: outcome for name, outcome in outcomes.items() if outcome != "completed"}
        for name, outcome in failed.items():
            run = ctx.runs[name]
            verdict = c.expect["on_hang" if outcome == "hang" else "on_crash"]
            message = f"[{name}] the probe {'hung' if outcome == 'hang' else 'died'}: {run.failure()}"
            if verdict == "fail":
                c.fail(message)
            else:
                c.note(message)
        for name, outcome in outcomes.items():
            if outcome == "completed":
                _grade_completed(c, name, ctx.runs[name].log)
        if (
            failed
            and not c.failures
            and all(c.expect["on_hang" if o == "hang" else "on_crash"] == "skip" for o in failed.values())
        ):
            c.skip(
                "re-entrancy is unsupported by the vendor (catalogue); the probe "
                + "; ".join(f"{n}: {o}" for n, o in failed.items())
            )
