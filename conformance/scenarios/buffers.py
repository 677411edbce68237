"""The buffer protocol: requests, completions, hand-off, declined and small buffers, string lifetime."""

from __future__ import annotations

from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.model.invariants import accounting, buffer_protocol, leftover_buffers
from conformance.scenarios.common import SUBSCRIBE, host_markers, lines, report_violations
from conformance.scenarios.registry import ScenarioEnv, scenario

MSTX = ("mspti", "mstx")


@scenario(
    "buffer_protocol", "1 KiB buffers under marks, ranges and 4 threads; canary after complete", needs=MSTX
)
def buffer_protocol_scenario(env: ScenarioEnv) -> list[Invocation]:
    script = lines(
        SUBSCRIBE,
        "enable MARKER",
        "repeat 300 mark seq-%i",
        "repeat 20 {",
        "range_start r%i range-%i",
        "range_end r%i",
        "}",
        "threads 4 {",
        "repeat 100 mark thread%t-%i",
        "}",
        "flush 1",
        "note flushed",
    )
    return [Invocation(script=script, buffer="size=1024,keep")]


@buffer_protocol_scenario.checker
def check_buffer_protocol(ctx: CheckContext) -> None:
    for clause_id in ("ACT-BUF-02", "ACT-BUF-03", "ACT-BUF-04", "GEN-ABI-03"):
        with ctx.clause(clause_id) as c:
            log = ctx.log()
            violations = buffer_protocol(log)
            if clause_id == "ACT-BUF-03":
                violations += leftover_buffers(log)
            report_violations(
                c, violations, f"{len(log.completions)} completions, {len(log.records)} records"
            )
            c.check(
                len(host_markers(log)) == 740,
                f"{len(host_markers(log))} markers delivered; expected 740",
                "all 740 markers delivered",
            )
    with ctx.clause("ACT-BUF-01") as c:
        log = ctx.log()
        violations = buffer_protocol(log, serialized_requests=bool(c.expect.get("serialized", False)))
        report_violations(c, violations, f"{len(log.requests)} requests")
        overlapping = [r for r in log.requests if r.inflight > 1]
        if overlapping:
            c.note(f"{len(overlapping)} request(s) overlapped another request")
    with ctx.clause("ACT-BUF-09") as c:
        log = ctx.log()
        canary = log.first("canary")
        c.check(canary is not None, "the collector did not report its canary check")
        if canary is not None:
            c.check(int(canary["buffers"]) > 0, "no completed buffer was kept for the canary check")
            c.equal(int(canary["damaged"]), 0, "completed buffers written to after complete returned")
    with ctx.clause("ACT-BUF-11") as c:
        log = ctx.log()
        unfinished = [x for x in log.completions if x.end_seq is None]
        c.equal(len(unfinished), 0, "complete calls the collector did not finish")
        threads = {x.tid for x in log.completions}
        concurrent = max((x.inflight for x in log.completions), default=0)
        c.note(f"buffers were completed on {len(threads)} thread(s); at most {concurrent} at once")
    with ctx.clause("ACT-BUF-13") as c:
        log = ctx.log()
        for completion in log.completions:
            ids = [
                int(r["id"])
                for r in sorted(completion.records, key=lambda r: r.offset)
                if str(r.get("name", "")).startswith("seq-")
            ]
            c.check(
                ids == sorted(ids),
                f"completion #{completion.cid}: marker ids out of production order: {ids[:8]}",
            )
        c.note("sequential markers of one thread appear in production order in every buffer")


@scenario("buffer_handoff", "80 % hand-off rule with 1 KiB buffers and 1000 markers", needs=MSTX)
def buffer_handoff(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(SUBSCRIBE, "enable MARKER", "quiet {", "repeat 1000 mark handoff", "}", "flush 1"),
            buffer="size=1024",
        )
    ]


@buffer_handoff.checker
def check_buffer_handoff(ctx: CheckContext) -> None:
    with ctx.clause("ACT-BUF-05") as c:
        log = ctx.log()
        per_buffer = c.expect.get("markers_per_full_buffer", 15)
        counts = [len(x.records) for x in log.completions if x.buf != 0]
        odd = [n for n in counts if n != per_buffer]
        c.check(
            len(odd) <= 1,
            f"{len(odd)} buffers do not hold {per_buffer} markers: {odd[:10]}",
            f"{len(counts) - len(odd)} buffers hold {per_buffer} markers",
        )
        c.equal(sum(counts), 1000, "markers delivered")


@scenario("buffer_max_records", "maxNumRecords = 5 with a large buffer", needs=MSTX)
def buffer_max_records(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(SUBSCRIBE, "enable MARKER", "repeat 20 mark capped-%i", "flush 1"),
            buffer="size=1M,max=5",
        )
    ]


@buffer_max_records.checker
def check_buffer_max_records(ctx: CheckContext) -> None:
    with ctx.clause("ACT-BUF-06") as c:
        log = ctx.log()
        counts = [len(x.records) for x in log.completions if x.buf != 0]
        c.equal(sum(counts), 20, "markers delivered")
        if c.expect["capped"]:
            c.check(
                all(n <= 5 for n in counts),
                f"records per buffer {counts}; maxNumRecords was 5",
                f"records per buffer {counts}",
            )
        else:
            c.check(
                any(n > 5 for n in counts),
                f"records per buffer {counts}: the cap was applied",
                f"records per buffer {counts} (cap ignored)",
            )


@scenario("buffer_decline", "the first 3 requests are declined", needs=MSTX)
def buffer_decline(env: ScenarioEnv) -> list[Invocation]:
    script = lines(
        SUBSCRIBE,
        "enable MARKER",
        "repeat 200 mark declined-%i",
        "flush 1",
        "dropped MARKER @dropped",
        "dropped @dropped_total",
    )
    return [Invocation(script=script, buffer="size=1024,decline=3")]


@buffer_decline.checker
def check_buffer_decline(ctx: CheckContext) -> None:
    with ctx.clause("ACT-BUF-07") as c:
        log = ctx.log()
        declined = [r for r in log.requests if r.declined]
        c.equal(len(declined), 3, "declined requests")
        later = [r for r in log.requests if not r.declined]
        c.check(
            bool(later),
            "msPTI did not request a buffer again after the declined ones",
            f"{len(later)} request(s) after the declined ones",
        )
        names = {str(r.get("name")) for r in host_markers(log)}
        c.check("declined-199" in names, "the last marker was not delivered", "later records are delivered")
        nulls = [x for x in log.completions if x.buf == 0]
        if c.expect.get("null_completions") == "none":
            c.equal(len(nulls), 0, "complete(NULL) calls")
        elif nulls:
            c.note(f"{len(nulls)} complete(NULL, 0, 0) call(s) tolerated")
        report_violations(c, buffer_protocol(log), "buffer protocol")
    with ctx.clause("EXT-DROP-01") as c:
        log = ctx.log()
        call = log.call("dropped")
        if not call.get("available", False):
            c.skip("the target has no msptiActivityGetDroppedRecords (mspti_ext.h)")
        c.returns(call, "SUCCESS")
        delivered = len(host_markers(log))
        for violation in accounting(200, delivered, int(call["value"]), clause="EXT-DROP-01"):
            c.fail(violation.message)
        c.note(f"200 markers produced, {delivered} delivered, {call['value']} reported dropped")
        total = log.call("dropped_total")
        c.check(
            int(total["value"]) >= int(call["value"]), "the total drop count is below the MARKER drop count"
        )


@scenario("buffer_small", "1 KiB and 16-byte buffers", needs=MSTX)
def buffer_small(env: ScenarioEnv) -> list[Invocation]:
    script = lines(SUBSCRIBE, "enable MARKER", "repeat 50 mark small-%i", "flush 1")
    return [
        Invocation("kib", script=script, buffer="size=1024"),
        Invocation("tiny", script=script, buffer="size=16"),
    ]


@buffer_small.checker
def check_buffer_small(ctx: CheckContext) -> None:
    with ctx.clause("ACT-BUF-08") as c:
        kib = ctx.log("kib")
        c.equal(len(host_markers(kib)), 50, "markers delivered with 1 KiB buffers")
        tiny = ctx.log("tiny")
        c.equal(len(tiny.records), 0, "records delivered with 16-byte buffers")
        c.note("a 16-byte buffer run completed without a crash")


@scenario("buffer_strings", "record strings outlive their buffers", needs=MSTX)
def buffer_strings(env: ScenarioEnv) -> list[Invocation]:
    script = lines(
        SUBSCRIBE,
        "enable MARKER",
        "repeat 50 mark string-%i",
        "flush 1",
        "repeat 50 mark more-%i",
        "range_start r after-range",
        "range_end r",
        "flush 1",
    )
    return [Invocation(script=script, buffer="strings")]


@buffer_strings.checker
def check_buffer_strings(ctx: CheckContext) -> None:
    with ctx.clause("ACT-BUF-10") as c:
        log = ctx.log()
        strings = log.first("strings")
        c.check(strings is not None, "the collector did not report its string check")
        if strings is not None:
            c.check(int(strings["checked"]) > 0, "no string was delivered to check")
            c.equal(int(strings["changed"]), 0, "record strings that changed after their buffer was freed")
            c.note(f"{strings['checked']} strings re-read at the end of the run")
