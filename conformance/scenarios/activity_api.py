"""Activity API basics: enable switches, registration, flushing and marker-domain arguments."""

from __future__ import annotations

from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.scenarios.common import SUBSCRIBE, host_markers, lines
from conformance.scenarios.registry import ScenarioEnv, scenario

KINDS = range(1, 13)
BAD_KINDS = ("0", "14", "100", "0x7fffffff", "-1")  # 13 is OVERHEAD in the newer API
PRELOAD_KINDS = (4, 5, 6, 7)


# ------------------------------------------------------------------ enable / disable / is_enabled


@scenario("enable_switches", "IsEnabled defaults, Enable/Disable of every kind, invalid kinds, idempotence")
def enable_switches(env: ScenarioEnv) -> list[Invocation]:
    script = [
        "is_enabled 0 @default_0",
        *(f"is_enabled {k} @default_{k}" for k in KINDS),
        "subscribe",
        "disable 5 @disable_never",
    ]
    for bad in BAD_KINDS:
        script += [f"enable {bad} @bad_enable_{bad}", f"disable {bad} @bad_disable_{bad}"]
    script += ["is_enabled 0 @after_bad_0", *(f"is_enabled {k} @after_bad_{k}" for k in KINDS)]
    for k in KINDS:
        script += [f"enable {k} @enable_{k}", f"is_enabled {k} @on_{k}", f"enable {k} @enable_again_{k}"]
    script += [
        "disable 14 @bad_disable_while_on",
        *(f"is_enabled {k} @still_on_{k}" for k in KINDS),
        "is_enabled 0 @on_0",
    ]
    for k in KINDS:
        script += [f"disable {k} @disable_{k}", f"is_enabled {k} @off_{k}", f"disable {k} @disable_again_{k}"]
    return [Invocation(script=lines(*script))]


@enable_switches.checker
def check_enable_switches(ctx: CheckContext) -> None:
    with ctx.clause("ACT-ENABLE-01") as c:
        log = ctx.log()
        for k in KINDS:
            c.equal(log.call(f"default_{k}")["value"], False, f"IsEnabled({k}) in a fresh process")
    with ctx.clause("ACT-ENABLE-02") as c:
        log = ctx.log()
        for k in KINDS:
            c.returns(log.call(f"enable_{k}"), "SUCCESS")
            c.equal(log.call(f"on_{k}")["value"], True, f"IsEnabled({k}) after Enable")
    with ctx.clause("ACT-ENABLE-03") as c:
        log = ctx.log()
        for bad in BAD_KINDS:
            c.returns(log.call(f"bad_enable_{bad}"), "INVALID_PARAMETER")
            c.returns(log.call(f"bad_disable_{bad}"), "INVALID_PARAMETER")
        for k in (0, *KINDS):
            c.equal(
                log.call(f"after_bad_{k}")["value"], False, f"IsEnabled({k}) after invalid Enable/Disable"
            )
        c.returns(log.call("bad_disable_while_on"), "INVALID_PARAMETER")
        for k in KINDS:
            c.equal(log.call(f"still_on_{k}")["value"], True, f"IsEnabled({k}) after Disable(14)")
    with ctx.clause("ACT-ENABLE-04") as c:
        log = ctx.log()
        c.returns(log.call("disable_never"), "SUCCESS", "Disable(MEMORY) of a never enabled kind")
        for k in KINDS:
            c.returns(log.call(f"enable_again_{k}"), "SUCCESS")
            c.returns(log.call(f"disable_again_{k}"), "SUCCESS")
            c.equal(log.call(f"off_{k}")["value"], False, f"IsEnabled({k}) after Disable")
    with ctx.clause("ACT-ENABLE-07") as c:
        log = ctx.log()
        for label in ("default_0", "after_bad_0", "on_0"):
            c.equal(log.call(label)["value"], False, f"IsEnabled(INVALID) [{label}]")


@scenario("enable_unsubscribe", "IsEnabled after Unsubscribe")
def enable_unsubscribe(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "enable KERNEL @enable", "subscribe", "unsubscribe @unsubscribe", "is_enabled KERNEL @after"
            )
        )
    ]


@enable_unsubscribe.checker
def check_enable_unsubscribe(ctx: CheckContext) -> None:
    with ctx.clause("ACT-ENABLE-09") as c:
        log = ctx.log()
        c.returns(log.call("enable"), "SUCCESS")
        c.returns(log.call("unsubscribe"), "SUCCESS")
        c.equal(log.call("after")["value"], True, "IsEnabled(KERNEL) after Unsubscribe")


# ------------------------------------------------------------------ LD_PRELOAD gate


def _preload_script() -> str:
    script = ["subscribe"]
    for k in KINDS:
        script += [f"enable {k} @enable_{k}", f"is_enabled {k} @state_{k}"]
    script += ["cb_enable 1 RUNTIME 15 @cb_enable", "cb_domain 1 RUNTIME @cb_domain"]
    return lines(*script)


@scenario("no_preload", "Enable and callback enabling with and without libmspti.so in LD_PRELOAD")
def no_preload(env: ScenarioEnv) -> list[Invocation]:
    script = _preload_script()
    return [
        Invocation("without", script=script, preload=False),
        Invocation("with", script=script, preload=True),
    ]


@no_preload.checker
def check_no_preload(ctx: CheckContext) -> None:
    with ctx.clause("GEN-ENV-01") as c:
        without, with_preload = ctx.log("without"), ctx.log("with")
        allowed = c.expect["preload_kinds_without_preload"]
        for k in KINDS:
            call = without.call(f"enable_{k}")
            state = without.call(f"state_{k}")["value"]
            if k in PRELOAD_KINDS:
                c.returns(call, allowed, f"Enable({k}) without the preload")
            else:
                c.returns(call, "SUCCESS", f"Enable({k}) without the preload")
            if c.expect.get("consistent_state", True):
                c.equal(
                    state, call.ret == 0, f"IsEnabled({k}) agrees with Enable's result without the preload"
                )
            c.returns(with_preload.call(f"enable_{k}"), "SUCCESS", f"Enable({k}) with the preload")
        for label in ("cb_enable", "cb_domain"):
            c.returns(
                without.call(label), c.expect["callbacks_without_preload"], f"{label} without the preload"
            )
            c.returns(with_preload.call(label), "SUCCESS", f"{label} with the preload")
    with ctx.clause("ACT-MEM-03") as c:
        c.returns(
            ctx.log("without").call("enable_5"), "WITHOUT_LD_PRELOAD", "Enable(MEMORY) without the preload"
        )
        c.equal(ctx.log("without").call("state_5")["value"], False, "IsEnabled(MEMORY) without the preload")
    with ctx.clause("CB-LDP-01") as c:
        for label in ("cb_enable", "cb_domain"):
            c.returns(ctx.log("without").call(label), "WITHOUT_LD_PRELOAD", f"{label} without the preload")


# ------------------------------------------------------------------ registration


@scenario("register_errors", "RegisterCallbacks with NULL functions keeps the good pair")
def register_errors(env: ScenarioEnv) -> list[Invocation]:
    script = [
        "subscribe",
        "register A A @good",
        "register null A @null_request",
        "register A null @null_complete",
        "register null null @null_both",
    ]
    if "mstx" in env.features:
        script += ["enable MARKER", "mark registered-pair", "flush 1 @flush"]
    return [Invocation(script=lines(*script))]


@register_errors.checker
def check_register_errors(ctx: CheckContext) -> None:
    with ctx.clause("ACT-REG-01") as c:
        log = ctx.log()
        c.returns(log.call("good"), "SUCCESS")
        for label in ("null_request", "null_complete", "null_both"):
            c.returns(log.call(label), "INVALID_PARAMETER")
        if log.calls_to("mstxMarkA"):
            delivered = [r for r in host_markers(log) if r.get("name") == "registered-pair"]
            pairs = {log.completion(r.cid).pair for r in delivered if log.completion(r.cid)}
            c.check(
                len(delivered) == 1 and pairs == {"A"},
                f"the marker after the failed registrations arrived {len(delivered)} time(s) through "
                f"pair(s) {sorted(pairs)}; expected once through the good pair A",
                "the good pair still receives records",
            )
        else:
            c.note("no mstx in the target: delivery through the kept pair not checked")


@scenario("register_replace", "a second registration replaces both functions", needs=("mspti", "mstx"))
def register_replace(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "subscribe",
                "register A A @register_a",
                "enable MARKER",
                "repeat 3 mark first-%i",
                "flush 1",
                "note switch",
                "register B B @register_b",
                "repeat 2 mark second-%i",
                "flush 1",
            )
        )
    ]


@register_replace.checker
def check_register_replace(ctx: CheckContext) -> None:
    with ctx.clause("ACT-REG-02") as c:
        log = ctx.log()
        c.returns(log.call("register_a"), "SUCCESS")
        c.returns(log.call("register_b"), "SUCCESS")
        by_pair: dict[str, list[str]] = {"A": [], "B": []}
        for record in host_markers(log):
            completion = log.completion(record.cid)
            if completion is not None:
                by_pair.setdefault(completion.pair, []).append(str(record.get("name")))
        c.equal(sorted(by_pair["A"]), ["first-0", "first-1", "first-2"], "markers delivered through pair A")
        c.equal(sorted(by_pair["B"]), ["second-0", "second-1"], "markers delivered through pair B")
        switch = log.note_seq("switch")
        late_a = [r for r in log.requests if r.seq > switch and r.pair == "A"]
        c.check(
            not late_a,
            f"{len(late_a)} buffer request(s) went to pair A after registering pair B",
            "no request reached the old pair after re-registration",
        )


@scenario("register_lazy", "registration does not request a buffer", needs=("mspti", "mstx"))
def register_lazy(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "subscribe",
                "register A A",
                "enable MARKER",
                "note before",
                "mark lazy",
                "note after",
                "flush 1",
            )
        )
    ]


@register_lazy.checker
def check_register_lazy(ctx: CheckContext) -> None:
    with ctx.clause("ACT-REG-03") as c:
        log = ctx.log()
        before, after = log.note_seq("before"), log.note_seq("after")
        c.equal(
            len([r for r in log.requests if r.seq < before]),
            0,
            "requests after register + enable, before work",
        )
        c.equal(len([r for r in log.requests if before < r.seq < after]), 1, "requests for the first record")


@scenario("register_late", "records produced before registration are not delivered", needs=("mspti", "acl"))
def register_late(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "subscribe",
                "enable MEMORY",
                "acl_init",
                "set_device 0",
                "malloc early 64 @early_malloc",
                "free early @early_free",
                "note registering",
                "register A A @register",
                "flush 1",
                "malloc late 32 @late_malloc",
                "free late",
                "flush 1",
                "reset_device 0",
            )
        )
    ]


@register_late.checker
def check_register_late(ctx: CheckContext) -> None:
    with ctx.clause("ACT-REG-04") as c:
        log = ctx.log()
        c.returns(log.call("register"), "SUCCESS")
        early = int(log.call("early_malloc")["ptr"])
        late = int(log.call("late_malloc")["ptr"])
        memory = log.records_of(5)
        early_records = [r for r in memory if r["address"] == early and r.seq < log.call("late_malloc").seq]
        c.equal(
            len(early_records), 0, "MEMORY records of the calls made before registration that were delivered"
        )
        c.check(
            any(r["address"] == late for r in memory),
            "no MEMORY record for the allocation made after registration: nothing to compare with",
            "records produced after registration are delivered",
        )
        nulls = [x for x in log.completions if x.buf == 0]
        if nulls:
            c.note(f"{len(nulls)} complete(NULL, 0, 0) call(s) observed")


# ------------------------------------------------------------------ disable stops production


@scenario(
    "enable_disable_markers",
    "Disable(MARKER) stops new records, keeps buffered ones",
    needs=("mspti", "mstx"),
)
def enable_disable_markers(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MARKER",
                "repeat 10 mark on-%i",
                "disable MARKER @disable",
                "is_enabled MARKER @state",
                "repeat 10 mark off-%i",
                "flush 1",
            )
        )
    ]


@enable_disable_markers.checker
def check_enable_disable(ctx: CheckContext) -> None:
    with ctx.clause("ACT-ENABLE-05") as c:
        log = ctx.log()
        c.returns(log.call("disable"), "SUCCESS")
        c.equal(log.call("state")["value"], False, "IsEnabled(MARKER) after Disable")
        names = [str(r.get("name")) for r in host_markers(log)]
        c.equal(sum(1 for n in names if n.startswith("on-")), 10, "markers made while enabled, delivered")
        c.equal(sum(1 for n in names if n.startswith("off-")), 0, "markers made after Disable, delivered")


# ------------------------------------------------------------------ flushing

FLUSH_FLAGS = (0, 1, 99)
PERIODS = ("0", "1", "10", "1000", "0xffffffff", "0")


@scenario("flush_api", "FlushAll flags, FlushAll with nothing pending, FlushPeriod values")
def flush_api(env: ScenarioEnv) -> list[Invocation]:
    script = [f"flush {flag} @unregistered_{flag}" for flag in FLUSH_FLAGS]
    script += ["subscribe", "register A A", "note empty"]
    script += [f"flush {flag} @empty_{flag}" for flag in FLUSH_FLAGS]
    script += ["note empty_done"]
    if "mstx" in env.features:
        script += ["enable MARKER", "mark pending", "flush 99 @pending_99"]
    script += [f"flush_period {period} @period_{index}" for index, period in enumerate(PERIODS)]
    return [Invocation(script=lines(*script))]


@flush_api.checker
def check_flush_api(ctx: CheckContext) -> None:
    with ctx.clause("ACT-FLUSH-01") as c:
        log = ctx.log()
        for flag in FLUSH_FLAGS:
            c.returns(log.call(f"unregistered_{flag}"), "SUCCESS", f"FlushAll({flag}) before registration")
            c.returns(log.call(f"empty_{flag}"), "SUCCESS", f"FlushAll({flag}) with nothing pending")
        if log.has_call("pending_99"):
            c.returns(log.call("pending_99"), "SUCCESS", "FlushAll(99) with a pending record")
            c.check(
                any(r.get("name") == "pending" for r in host_markers(log)),
                "FlushAll(99) did not deliver the pending marker",
                "FlushAll(99) delivered the pending marker",
            )
    with ctx.clause("ACT-FLUSH-04") as c:
        log = ctx.log()
        first, last = log.note_seq("empty"), log.note_seq("empty_done")
        empty = [x for x in log.completions if first < x.seq < last]
        if c.expect.get("empty_completions") == "none":
            c.equal(len(empty), 0, "complete calls made by FlushAll with nothing pending")
        else:
            c.check(
                all(x.valid == 0 for x in empty),
                "FlushAll with nothing pending delivered records",
                f"{len(empty)} empty complete call(s)",
            )
    with ctx.clause("ACT-PERIOD-01") as c:
        log = ctx.log()
        for index, period in enumerate(PERIODS):
            c.returns(log.call(f"period_{index}"), "SUCCESS", f"FlushPeriod({period})")


@scenario("flush_sync", "FlushAll is synchronous and delivers a partial buffer", needs=("mspti", "mstx"))
def flush_sync(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MARKER",
                "repeat 3 mark sync-%i",
                "flush 1 @first_flush",
                "note between",
                "mark sync-after",
                "flush 1 @second_flush",
            )
        )
    ]


@flush_sync.checker
def check_flush_sync(ctx: CheckContext) -> None:
    with ctx.clause("ACT-FLUSH-02") as c:
        log = ctx.log()
        flush = log.call("first_flush")
        c.returns(flush, "SUCCESS")
        early = [
            r
            for r in host_markers(log)
            if str(r.get("name", "")).startswith("sync-") and r.get("name") != "sync-after"
        ]
        c.equal(len(early), 3, "markers made before the first FlushAll, delivered")
        for record in early:
            completion = log.completion(record.cid)
            done = (
                completion is not None and completion.end_seq is not None and completion.end_seq < flush.seq
            )
            c.check(done, f"marker {record.get('name')!r} was delivered after FlushAll returned", None)
        c.note("every marker made before FlushAll was delivered before it returned")
    with ctx.clause("ACT-FLUSH-03") as c:
        log = ctx.log()
        flush = log.call("first_flush")
        before = [x for x in log.completions if x.seq < flush.seq and x.buf != 0]
        c.equal(len(before), 1, "complete calls before the first FlushAll returned")
        if before:
            c.equal(before[0].valid, 3 * 56, "validSize of the partly filled buffer (3 markers)")
    with ctx.clause("ACT-FLUSH-05") as c:
        log = ctx.log()
        first, between, second = (
            log.call("first_flush").seq,
            log.note_seq("between"),
            log.call("second_flush").seq,
        )
        c.equal(len([r for r in log.requests if r.seq < first]), 1, "requests before the first FlushAll")
        c.equal(len([r for r in log.requests if between < r.seq < second]), 1, "requests for the next record")


@scenario("period_partial", "what FlushPeriod delivers of a partly filled buffer", needs=("mspti", "mstx"))
def period_partial(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MARKER",
                "flush_period 10 @period",
                "repeat 3 mark period-%i",
                "sleep 300",
                "note slept",
                "flush 1",
            )
        )
    ]


@period_partial.checker
def check_period_partial(ctx: CheckContext) -> None:
    with ctx.clause("ACT-PERIOD-02") as c:
        log = ctx.log()
        c.returns(log.call("period"), "SUCCESS")
        slept = log.note_seq("slept")
        early = [r for r in host_markers(log) if r.seq < slept]
        if c.expect["partial_delivered"]:
            c.equal(len(early), 3, "markers delivered by the 10 ms period within 300 ms (no FlushAll)")
        else:
            c.equal(len(early), 0, "markers delivered by the period alone from a partly filled buffer")
        c.equal(len(host_markers(log)), 3, "markers delivered in total")


@scenario("period_full", "full buffers arrive without FlushAll", needs=("mspti", "mstx"))
def period_full(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE, "enable MARKER", "repeat 100 mark full-%i", "sleep 200", "note slept", "flush 1"
            ),
            buffer="size=1024",
        )
    ]


@period_full.checker
def check_period_full(ctx: CheckContext) -> None:
    with ctx.clause("ACT-PERIOD-03") as c:
        log = ctx.log()
        slept = log.note_seq("slept")
        early = [x for x in log.completions if x.seq < slept and x.valid > 0]
        c.check(
            len(early) >= 1,
            "no buffer was delivered within 200 ms of filling, without FlushAll",
            f"{len(early)} full buffer(s) delivered before any FlushAll",
        )
        c.equal(len(host_markers(log)), 100, "markers delivered in total")


# ------------------------------------------------------------------ marker-domain arguments


@scenario("marker_domain_args", "Enable/DisableMarkerDomain argument checks")
def marker_domain_args(env: ScenarioEnv) -> list[Invocation]:
    script = []
    for verb in ("enable", "disable"):
        script += [
            f"domain_{verb} <null> @{verb}_null",
            f"domain_{verb} <long:255> @{verb}_255",
            f"domain_{verb} <long:300> @{verb}_300",
            f"domain_{verb} <long:254> @{verb}_254",
            f"domain_{verb} <empty> @{verb}_empty",
            f"domain_{verb} never-created @{verb}_other",
            f"domain_{verb} never-created @{verb}_other_again",
            f"domain_{verb} default @{verb}_default",
        ]
    return [Invocation(script=lines(*script))]


@marker_domain_args.checker
def check_marker_domain_args(ctx: CheckContext) -> None:
    verbs = ("enable", "disable")
    with ctx.clause("MARK-DOM-01") as c:
        for verb in verbs:
            c.returns(ctx.log().call(f"{verb}_null"), "INVALID_PARAMETER")
    with ctx.clause("MARK-DOM-02") as c:
        for verb in verbs:
            c.returns(ctx.log().call(f"{verb}_255"), "INVALID_PARAMETER", f"{verb} a 255-character name")
            c.returns(ctx.log().call(f"{verb}_300"), "INVALID_PARAMETER", f"{verb} a 300-character name")
            c.returns(ctx.log().call(f"{verb}_254"), "SUCCESS", f"{verb} a 254-character name")
    with ctx.clause("MARK-DOM-03") as c:
        for verb in verbs:
            c.returns(ctx.log().call(f"{verb}_empty"), c.expect["empty_name"], f"{verb} the empty name")
    with ctx.clause("MARK-DOM-04") as c:
        for verb in verbs:
            for label in (f"{verb}_other", f"{verb}_other_again", f"{verb}_default"):
                c.returns(ctx.log().call(label), "SUCCESS")
