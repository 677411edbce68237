"""msptiActivityGetNextRecord over hand-built buffers."""

from __future__ import annotations

from conformance.abi import record_size
from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.log import RunLog
from conformance.scenarios.registry import ScenarioEnv, scenario


def _buffer(log: RunLog, name: str) -> tuple[list[int], list[int]]:
    for event in log.of_type("buffer"):
        if event.get("name") == name:
            offsets = [int(x) for x in str(event["offsets"]).split(",") if x]
            kinds = [int(x) for x in str(event["kinds"]).split(",") if x]
            return offsets, kinds
    raise LookupError(f"the log does not describe buffer {name!r}")


@scenario("iterate", "NULL and empty buffers, all 12 kinds, the end, an unknown kind")
def iterate(env: ScenarioEnv) -> list[Invocation]:
    return [Invocation(program="iterate", args=("basic",), preload=False)]


@iterate.checker
def check_iterate(ctx: CheckContext) -> None:
    with ctx.clause("ACT-ITER-01") as c:
        log = ctx.log()
        c.returns(log.call("null_buffer"), "INVALID_PARAMETER", "GetNextRecord(NULL, 64, &r)")
        c.returns(log.call("null_buffer_zero"), "INVALID_PARAMETER", "GetNextRecord(NULL, 0, &r)")
    calls = ctx.log().labelled("all_kinds") if "main" in ctx.runs and not ctx.runs["main"].failed else []
    with ctx.clause("ACT-ITER-02") as c:
        log = ctx.log()
        c.check(bool(calls), "no GetNextRecord call on the 12-kind buffer was logged")
        first = calls[0]
        c.returns(first, "SUCCESS", "the first call with *record == NULL")
        c.equal(first.get("offset"), 0, "offset of the first record returned")
    with ctx.clause("ACT-ITER-03") as c:
        log = ctx.log()
        offsets, kinds = _buffer(log, "all_kinds")
        returned = [call for call in calls if call.ret == 0]
        c.equal(len(returned), 12, "records returned from the 12-kind buffer")
        expected = 0
        for index, (call, kind) in enumerate(zip(returned, kinds, strict=False)):
            c.equal(call.get("kind"), kind, f"kind of record {index}")
            c.equal(call.get("offset"), expected, f"offset of record {index} (kind {kind})")
            expected += record_size(kind)
        c.equal(
            offsets[-1] + record_size(kinds[-1]) if offsets else 0,
            expected,
            "the buffer the probe built uses the reference record sizes",
        )
    with ctx.clause("ACT-ITER-04") as c:
        log = ctx.log()
        c.returns(
            calls[12] if len(calls) > 12 else log.call("missing_end"),
            "MAX_LIMIT_REACHED",
            "the call after the last of 12 records",
        )
        c.returns(
            log.call("empty_valid"), "MAX_LIMIT_REACHED", "the first call with validBufferSizeBytes == 0"
        )
    with ctx.clause("ACT-ITER-07") as c:
        log = ctx.log()
        first_pass = log.labelled("restart_first_pass")
        c.equal([call.ret for call in first_pass], [0, 0, 0, 3], "results of the first pass over 3 markers")
        after = log.call("after_end_last")
        c.returns(after, "SUCCESS", "the call after MAX_LIMIT_REACHED, given the last record")
        c.equal(
            after.get("offset"), 0, "offset returned after MAX_LIMIT_REACHED (restart at the first record)"
        )
    with ctx.clause("ACT-ITER-08") as c:
        log = ctx.log()
        c.returns(log.call("unknown_kind_1"), "SUCCESS", "the record before the unknown kind")
        c.returns(log.call("unknown_kind_2"), c.expect.get("status", ["INNER"]), "the record of kind 77")


@scenario("iterate_cursor", "the record pointer as the iteration cursor")
def iterate_cursor(env: ScenarioEnv) -> list[Invocation]:
    return [Invocation(program="iterate", args=("cursor",), preload=False)]


@iterate_cursor.checker
def check_iterate_cursor(ctx: CheckContext) -> None:
    with ctx.clause("ACT-ITER-06") as c:
        log = ctx.log()
        then_b = log.call("then_b_1")
        c.returns(then_b, "SUCCESS")
        c.equal(then_b.get("offset"), 0, "buffer B from NULL after abandoning buffer A half-way")
        restart = log.call("restart_a_null")
        c.returns(restart, "SUCCESS")
        c.equal(restart.get("offset"), 0, "buffer A restarted with NULL half-way")
        explicit = log.call("explicit_from_4")
        offsets, _kinds = _buffer(log, "a3")
        c.returns(explicit, "SUCCESS")
        c.equal(explicit.get("offset"), offsets[4], "the record after the fourth record, given the fourth")


@scenario("iterate_threads", "two threads iterate their own buffers 10 000 times each")
def iterate_threads(env: ScenarioEnv) -> list[Invocation]:
    return [Invocation(program="iterate", args=("threads",), preload=False, timeout=120)]


@iterate_threads.checker
def check_iterate_threads(ctx: CheckContext) -> None:
    for clause_id in ("ACT-ITER-05", "THR-06"):
        with ctx.clause(clause_id) as c:
            result = ctx.log().first("threads_result")
            c.check(result is not None, "the threads probe reported no result")
            if result is not None:
                c.equal(int(result["passes"]), 20000, "complete passes")
                c.equal(int(result["mismatches"]), 0, "passes that saw a wrong record or count")


@scenario("iterate_null_out", "GetNextRecord with a NULL out-pointer (may crash)")
def iterate_null_out(env: ScenarioEnv) -> list[Invocation]:
    return [Invocation(program="iterate", args=("null_out",), preload=False, crash_ok=True, timeout=30)]


@iterate_null_out.checker
def check_iterate_null_out(ctx: CheckContext) -> None:
    with ctx.clause("ACT-ITER-09") as c:
        run = ctx.run()
        c.check(not run.crashed, f"the process crashed: {run.failure()}")
        if not run.crashed:
            c.returns(run.log.call("null_out"), "INVALID_PARAMETER", "GetNextRecord(buffer, n, NULL)")
