"""mstx markers and ranges, on the host and on streams, and marker domains."""

from __future__ import annotations

from itertools import pairwise

from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import Record, RunLog
from conformance.model.invariants import range_pairs, unique_ids
from conformance.scenarios.common import (
    DEVICE_SETUP,
    DEVICE_TEARDOWN,
    SUBSCRIBE,
    device_markers,
    host_markers,
    lines,
    report_violations,
    string_matches,
)
from conformance.scenarios.registry import ScenarioEnv, scenario

MSTX = ("mspti", "mstx")
MSTX_DEVICE = ("mspti", "mstx", "acl")
TOLERANCE_NS = 2_000_000
INSTANT, START, END = 1, 2, 4
INSTANT_DEVICE, START_DEVICE, END_DEVICE = 8, 16, 32


def _named(log: RunLog, name: str) -> list[Record]:
    return [r for r in host_markers(log) if r.get("name") == name]


def _one(log: RunLog, name: str) -> Record:
    found = _named(log, name)
    if len(found) != 1:
        raise AssertionError(f"{len(found)} host MARKER records named {name!r}; expected 1")
    return found[0]


@scenario("markers_host", "marks and ranges without a stream; invalid messages and range ends", needs=MSTX)
def markers_host(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MARKER",
                "mark hello @mark",
                "range_start r1 work @range_start",
                "range_end r1 @range_end",
                "mark <null> @mark_null",
                "range_start rn <null> @range_null",
                "mark <long:255> @mark_255",
                "mark <long:254> @mark_254",
                "mark <long:300> @mark_300",
                "mark <mutable:mutable-message> @mark_mutable",
                "range_end id:0 @end_zero",
                "range_end id:987654321 @end_unknown",
                "range_end r1 @end_again",
                "repeat 5 {",
                "mark seq-mark-%i @seq_mark_%i",
                "range_start rr%i seq-range-%i @seq_range_%i",
                "range_end rr%i",
                "}",
                "flush 1",
            )
        )
    ]


@markers_host.checker
def check_markers_host(ctx: CheckContext) -> None:
    with ctx.clause("MSTX-01") as c:
        log = ctx.log()
        call = log.call("mark")
        record = _one(log, "hello")
        features = log.first("features") or {}
        c.equal(record["flag"], INSTANT, "flag of mstxMarkA(msg, NULL)")
        c.equal(record["source"], 0, "sourceKind")
        c.check(int(record["id"]) > 0, "marker id is 0")
        c.equal(record["obj0"], features.get("pid"), "objectId.pt.processId")
        c.equal(record["obj1"], call.tid, "objectId.pt.threadId (Linux tid of the caller)")
        c.check(
            string_matches(record.get("domain"), c.expect["default_domain"]),
            f"domain is {record.get('domain')!r}; expected one of {c.expect['default_domain']}",
            f"domain {record.get('domain')!r}",
        )
        c.check(
            call.t0 - TOLERANCE_NS <= int(record["timestamp"]) <= call.t1 + TOLERANCE_NS,
            f"timestamp {record['timestamp']} outside the call window [{call.t0}, {call.t1}]",
        )
    with ctx.clause("MSTX-03") as c:
        log = ctx.log()
        start_call = log.call("range_start")
        range_id = int(start_call["id"])
        c.check(range_id != 0, "mstxRangeStartA returned 0")
        starts = [r for r in host_markers(log) if r["flag"] == START and int(r["id"]) == range_id]
        ends = [r for r in host_markers(log) if r["flag"] == END and int(r["id"]) == range_id]
        c.equal(len(starts), 1, "START records of the range")
        c.equal(len(ends), 1, "END records of the range")
        if starts and ends:
            c.equal(starts[0].get("name"), "work", "name of the START record")
            for field in ("name", "domain"):
                c.check(
                    string_matches(ends[0].get(field), c.expect["end_strings"]),
                    f"END record {field} is {ends[0].get(field)!r}; "
                    f"expected one of {c.expect['end_strings']}",
                )
            c.check(
                int(ends[0]["timestamp"]) >= int(starts[0]["timestamp"]), "the range ends before it starts"
            )
        report_violations(c, range_pairs(log.records_of(1)), "range pairing")
    with ctx.clause("MSTX-05") as c:
        log = ctx.log()
        markers = host_markers(log)
        firsts = [r for r in markers if r["flag"] in (INSTANT, START)]
        for violation in unique_ids((int(r["id"]) for r in firsts), clause="MSTX-05", what="marker ids"):
            c.fail(violation.message)
        ordered = []
        for i in range(5):
            ordered.append(int(_one(log, f"seq-mark-{i}")["id"]))
            ordered.append(int(log.call(f"seq_range_{i}")["id"]))
        c.check(
            all(a < b for a, b in pairwise(ordered)),
            f"ids of alternating marks and ranges are not increasing: {ordered}",
            f"ids {ordered}",
        )
        if c.expect.get("from_one"):
            c.equal(int(_one(log, "hello")["id"]), 1, "id of the first marker of the process")
    with ctx.clause("MSTX-06") as c:
        log = ctx.log()
        ends = [r for r in host_markers(log) if r["flag"] == END]
        c.equal(
            len(ends),
            6,
            "END records (1 range + 5 ranges; the ends of id 0, an unknown id and an ended id must add none)",
        )
    with ctx.clause("MSTX-08") as c:
        log = ctx.log()
        starts_or_marks = [r for r in host_markers(log) if r["flag"] in (INSTANT, START)]
        lengths = sorted(len(str(r.get("name") or "")) for r in starts_or_marks)
        c.check(
            0 not in lengths, "a record for the NULL message was delivered", "no record for NULL messages"
        )
        c.check(
            not any(n >= 255 for n in lengths),
            f"a record with a {max(lengths, default=0)}-character name was delivered",
            "no record for messages of 255 or more characters",
        )
        c.equal(len(_named(log, "x" * 254)), 1, "records for the 254-character message")
        c.equal(int(log.call("range_null")["id"]), 0, "mstxRangeStartA(NULL) id")
    with ctx.clause("MSTX-09") as c:
        log = ctx.log()
        c.equal(
            len(_named(log, "mutable-message")), 1, "records named like the message at the time of the call"
        )


@scenario("markers_device", "a mark and a range on a stream", needs=MSTX_DEVICE)
def markers_device(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                DEVICE_SETUP,
                SUBSCRIBE,
                "enable MARKER",
                "mark on-stream s @mark",
                "range_start r device-range s @range",
                "range_end r @range_end",
                "sync s @sync",
                "disable MARKER",
                "flush 1",
                DEVICE_TEARDOWN,
            )
        )
    ]


@markers_device.checker
def check_markers_device(ctx: CheckContext) -> None:
    with ctx.clause("MSTX-02") as c:
        log = ctx.log()
        stream_id = log.stream_ids().get("s")
        host = _one(log, "on-stream")
        c.equal(host["flag"], INSTANT_DEVICE, "flag of the host record of mstxMarkA(msg, stream)")
        device = [r for r in device_markers(log) if int(r["id"]) == int(host["id"])]
        if c.equal(len(device), 1, "device records with the mark's id"):
            record = device[0]
            c.equal(record["flag"], INSTANT_DEVICE, "flag of the device record")
            c.equal(record["obj0"], 0, "objectId.ds.deviceId")
            c.equal(record["obj1"], stream_id, "objectId.ds.streamId")
            for field in ("name", "domain"):
                c.check(
                    string_matches(record.get(field), c.expect["device_strings"]),
                    f"device record {field} is {record.get(field)!r}; expected {c.expect['device_strings']}",
                )
            tolerance = int(c.expect.get("causality_tolerance_ns", 5_000_000))
            c.check(
                int(record["timestamp"]) + tolerance >= int(host["timestamp"]),
                f"the device timestamp {record['timestamp']} precedes the host timestamp {host['timestamp']}",
            )
    with ctx.clause("MSTX-04") as c:
        log = ctx.log()
        range_id = int(log.call("range")["id"])
        c.check(range_id != 0, "mstxRangeStartA(msg, stream) returned 0")
        host = {int(r["flag"]) for r in host_markers(log) if int(r["id"]) == range_id}
        device = {int(r["flag"]) for r in device_markers(log) if int(r["id"]) == range_id}
        c.equal(sorted(host), [START_DEVICE, END_DEVICE], "flags of the host records of the range")
        c.equal(sorted(device), [START_DEVICE, END_DEVICE], "flags of the device records of the range")
        c.equal(
            len([r for r in log.records_of(1) if int(r["id"]) == range_id]), 4, "records with the range's id"
        )


@scenario("markers_disabled", "markers while MARKER is off", needs=MSTX)
def markers_disabled(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "mark before-enable",
                "range_start r0 disabled-range @range_disabled",
                "enable MARKER",
                "range_end r0",
                "mark enabled @mark_enabled",
                "disable MARKER",
                "mark after-disable",
                "range_start r1 after-disable-range @range_after",
                "flush 1",
            )
        )
    ]


@markers_disabled.checker
def check_markers_disabled(ctx: CheckContext) -> None:
    with ctx.clause("MSTX-07") as c:
        log = ctx.log()
        names = [r.get("name") for r in host_markers(log)]
        c.equal(names.count("enabled"), 1, "records of the mark made while enabled")
        for name in ("before-enable", "disabled-range", "after-disable", "after-disable-range"):
            c.equal(names.count(name), 0, f"records of {name!r} (MARKER off)")
        disabled_id = int(log.call("range_disabled")["id"])
        ends = [r for r in host_markers(log) if r["flag"] == END]
        c.equal(len(ends), 0, "END records of the range started while MARKER was off")
        if c.expect.get("range_id_zero"):
            c.equal(disabled_id, 0, "id returned by mstxRangeStartA while MARKER is off")
            c.equal(int(log.call("range_after")["id"]), 0, "id returned by mstxRangeStartA after Disable")


@scenario("markers_cross_thread", "a range ended on another thread", needs=MSTX)
def markers_cross_thread(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MARKER",
                "range_start r crossing @start",
                "threads 1 {",
                "range_end r @end",
                "}",
                "flush 1",
            )
        )
    ]


@markers_cross_thread.checker
def check_markers_cross_thread(ctx: CheckContext) -> None:
    with ctx.clause("MSTX-10") as c:
        log = ctx.log()
        start, end = log.call("start"), log.call("end")
        range_id = int(start["id"])
        ends = [r for r in host_markers(log) if r["flag"] == END and int(r["id"]) == range_id]
        if c.equal(len(ends), 1, "END records of the range"):
            c.equal(ends[0]["obj1"], end.tid, "threadId of the END record (the ending thread)")
        starts = [r for r in host_markers(log) if r["flag"] == START and int(r["id"]) == range_id]
        if starts:
            c.equal(starts[0]["obj1"], start.tid, "threadId of the START record")


@scenario("mstx_domains", "domain handles, domain names in records, destroyed domains", needs=MSTX)
def mstx_domains(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MARKER",
                "domain_create d1 alpha @create",
                "domain_create d1b alpha @create_again",
                "domain_create dd default @create_default",
                "domain_create dn <null> @create_null",
                "domain_create dl <long:255> @create_long",
                "domain_create d2 bravo @create_bravo",
                "domain_mark d1 alpha-mark",
                "domain_range_start dr1 d1 alpha-range @range",
                "domain_range_end d1 dr1",
                "domain_destroy d2",
                "domain_mark d2 bravo-mark",
                "domain_range_start dr2 d2 bravo-range",
                "flush 1",
            )
        )
    ]


@mstx_domains.checker
def check_mstx_domains(ctx: CheckContext) -> None:
    with ctx.clause("MSTX-DOM-01") as c:
        log = ctx.log()
        handle = int(log.call("create")["handle"])
        c.check(handle != 0, 'mstxDomainCreateA("alpha") returned NULL')
        c.equal(
            int(log.call("create_again")["handle"]), handle, "handle of a second create with the same name"
        )
        for label in ("create_default", "create_null", "create_long"):
            c.equal(int(log.call(label)["handle"]), 0, f"handle of {label.replace('create_', '')} name")
    with ctx.clause("MSTX-DOM-02") as c:
        log = ctx.log()
        c.equal(_one(log, "alpha-mark").get("domain"), "alpha", "domain of a domain mark")
        c.equal(_one(log, "alpha-range").get("domain"), "alpha", "domain of a domain range start")
    with ctx.clause("MSTX-DOM-03") as c:
        log = ctx.log()
        names = [r.get("name") for r in host_markers(log)]
        c.equal(names.count("bravo-mark") + names.count("bravo-range"), 0, "records of a destroyed domain")


@scenario(
    "marker_domain_filter", "marker domains switched off and on, before creation and for default", needs=MSTX
)
def marker_domain_filter(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MARKER",
                "domain_disable later @pre_disable",
                "domain_create dx xray",
                "domain_create dl later",
                "domain_create dy yank",
                "mark default-1",
                "domain_mark dx x-1",
                "domain_mark dl later-1",
                "domain_disable xray @disable_x",
                "domain_mark dx x-2",
                "domain_range_start rx dx x-range-2 @range_x_disabled",
                "domain_mark dy y-2",
                "mark default-2",
                "domain_enable xray @enable_x",
                "domain_mark dx x-3",
                "domain_enable later",
                "domain_mark dl later-3",
                "domain_disable default @disable_default",
                "mark default-4",
                "range_start rd default-range-4",
                "domain_mark dx x-4",
                "domain_enable default",
                "mark default-5",
                "disable MARKER",
                "domain_mark dx x-6",
                "enable MARKER",
                "domain_disable xray",
                "domain_mark dx x-7",
                "domain_enable xray",
                "flush 1",
            )
        )
    ]


@marker_domain_filter.checker
def check_marker_domain_filter(ctx: CheckContext) -> None:
    def expect(check: ClauseCheck, log: RunLog, present: tuple[str, ...], absent: tuple[str, ...]) -> None:
        names = [r.get("name") for r in host_markers(log)]
        for name in present:
            check.equal(names.count(name), 1, f"records named {name!r}")
        for name in absent:
            check.equal(names.count(name), 0, f"records named {name!r}")

    with ctx.clause("MARK-DOM-05") as c:
        expect(c, ctx.log(), ("default-1", "x-1"), ())
    with ctx.clause("MARK-DOM-06") as c:
        log = ctx.log()
        c.returns(log.call("disable_x"), "SUCCESS")
        c.returns(log.call("enable_x"), "SUCCESS")
        expect(c, log, ("y-2", "default-2", "x-3"), ("x-2", "x-range-2"))
    with ctx.clause("MARK-DOM-07") as c:
        expect(c, ctx.log(), ("later-3",), ("later-1",))
    with ctx.clause("MARK-DOM-08") as c:
        expect(c, ctx.log(), ("x-4", "default-5"), ("default-4", "default-range-4"))
    with ctx.clause("MARK-DOM-10") as c:
        expect(c, ctx.log(), (), ("x-6", "x-7"))


@scenario("marker_domain_inside_range", "a domain disabled between range start and end", needs=MSTX)
def marker_domain_inside_range(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MARKER",
                "domain_create dz zulu",
                "domain_range_start rz dz inside @start",
                "domain_disable zulu",
                "domain_range_end dz rz",
                "domain_enable zulu",
                "flush 1",
            )
        )
    ]


@marker_domain_inside_range.checker
def check_marker_domain_inside_range(ctx: CheckContext) -> None:
    with ctx.clause("MARK-DOM-09") as c:
        log = ctx.log()
        range_id = int(log.call("start")["id"])
        flags = sorted(int(r["flag"]) for r in host_markers(log) if int(r["id"]) == range_id)
        c.equal(flags, [START], "records of the range (START only)")
