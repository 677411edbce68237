"""Verdict rules of the checker context: never a pass without a check that ran."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance.catalogue import load_catalogue
from conformance.checks import CheckContext
from conformance.execute import Invocation, RunResult
from conformance.log import RunLog


def run(
    tmp_path: Path,
    log: RunLog,
    *,
    exit_code: int | None = 0,
    crash_ok: bool = False,
    timed_out: bool = False,
    build_error: str | None = None,
) -> RunResult:
    return RunResult(
        "s",
        Invocation(crash_ok=crash_ok),
        log,
        tmp_path,
        exit_code=exit_code,
        timed_out=timed_out,
        build_error=build_error,
    )


def context(runs: dict[str, RunResult], profile: str = "spec") -> CheckContext:
    catalogue = load_catalogue()
    clauses = {c.id: c for c in catalogue.select(["ACT-EXT-0*"])}
    return CheckContext("s", runs, clauses, profile)


def test_a_clause_passes_only_after_a_passing_check(tmp_path: Path, log_builder: Any) -> None:
    log_builder.call("msptiActivityPushExternalCorrelationId", "push", ret=0)
    ctx = context({"main": run(tmp_path, log_builder.build())})
    with ctx.clause("ACT-EXT-01") as c:
        c.returns(ctx.log().call("push"), "SUCCESS")
    with ctx.clause("ACT-EXT-02") as c:
        pass
    assert ctx.results["ACT-EXT-01"].verdict == "pass"
    assert ctx.results["ACT-EXT-01"].evidence == [
        "msptiActivityPushExternalCorrelationId() [push] -> SUCCESS (0)"
    ]
    assert ctx.results["ACT-EXT-02"].verdict == "fail"
    assert ctx.results["ACT-EXT-02"].reason == "no check ran for this clause"


def test_failures_and_exceptions_fail_the_clause(tmp_path: Path, log_builder: Any) -> None:
    log_builder.call("msptiActivityPopExternalCorrelationId", "pop", ret=1)
    ctx = context({"main": run(tmp_path, log_builder.build())})
    with ctx.clause("ACT-EXT-04") as c:
        c.returns(ctx.log().call("pop"), ["QUEUE_EMPTY"])
        c.equal(1, 1, "a passing check does not hide the failure")
    with ctx.clause("ACT-EXT-03") as c:
        ctx.log().call("absent")
    with ctx.clause("ACT-EXT-05") as c:
        raise ZeroDivisionError("bug")
    assert ctx.results["ACT-EXT-04"].verdict == "fail"
    assert "returned INVALID_PARAMETER (1); expected QUEUE_EMPTY" in ctx.results["ACT-EXT-04"].reason
    assert ctx.results["ACT-EXT-03"].reason.startswith(
        "missing evidence: the log has no call labelled 'absent'"
    )
    assert ctx.results["ACT-EXT-05"].reason == "checker error: ZeroDivisionError: bug"


def test_a_failed_run_fails_its_clauses_with_the_reason(tmp_path: Path) -> None:
    runs = {
        "crash": run(tmp_path, RunLog([]), exit_code=-11),
        "timeout": run(tmp_path, RunLog([]), exit_code=-9, timed_out=True),
        "build": run(
            tmp_path, RunLog([]), exit_code=None, build_error="building driver failed:\n$ g++ ...\nerror"
        ),
        "probe": run(tmp_path, RunLog([]), exit_code=-6, crash_ok=True),
    }
    ctx = context(runs)
    for clause_id, name in (("ACT-EXT-01", "crash"), ("ACT-EXT-02", "timeout"), ("ACT-EXT-03", "build")):
        with ctx.clause(clause_id) as c:
            ctx.log(name)
            c.check(True, "")
    with ctx.clause("ACT-EXT-04") as c:
        c.check(ctx.run("probe").crashed, "the probe did not crash", "the probe crashed as allowed")
    assert ctx.results["ACT-EXT-01"].reason == "run 'crash': the workload crashed (SIGSEGV)"
    assert ctx.results["ACT-EXT-02"].reason == "run 'timeout': timed out after 60 s (killed)"
    assert (
        ctx.results["ACT-EXT-03"].reason == "run 'build': the workload did not build: building driver failed:"
    )
    assert ctx.results["ACT-EXT-04"].verdict == "pass"


def test_skips_expectations_and_merged_blocks(tmp_path: Path) -> None:
    ctx = context({}, profile="upstream")
    with ctx.clause("ACT-EXT-01") as c:
        c.skip("the target lacks mstx")
    with ctx.clause("ACT-EXT-05") as c:
        assert c.expect["null_out"] == ["INVALID_PARAMETER"] and c.profile == "upstream"
        c.check(True, "")
    with ctx.clause("ACT-EXT-05") as c:
        c.check(False, "second block fails")
    assert (ctx.results["ACT-EXT-01"].verdict, ctx.results["ACT-EXT-01"].reason) == (
        "skip",
        "the target lacks mstx",
    )
    assert ctx.results["ACT-EXT-05"].verdict == "fail"
    assert ctx.results["ACT-EXT-05"].failures == ["second block fails"]


def test_execute_adds_runs_for_dynamic_scenarios(tmp_path: Path) -> None:
    made = []

    def executor(invocation: Invocation) -> RunResult:
        made.append(invocation.name)
        return run(tmp_path, RunLog([]))

    ctx = CheckContext("s", {}, {}, "spec", executor=executor)
    ctx.execute(Invocation("first"))
    assert made == ["first"] and set(ctx.runs) == {"first"}
    without = CheckContext("s", {}, {}, "spec")
    with without.clause("STATE-01") as c:
        without.execute(Invocation("x"))
        c.check(True, "")
    assert without.results["STATE-01"].reason == "this context cannot start processes"
