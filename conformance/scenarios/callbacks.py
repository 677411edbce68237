"""The Callback API: subscription, enabling, ENTER/EXIT order and callback data."""

from __future__ import annotations

from conformance.abi import RUNTIME_CBIDS
from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.log import Callback, RunLog
from conformance.model.invariants import callback_pairs
from conformance.scenarios.common import MEMORY, lines, report_violations
from conformance.scenarios.registry import ScenarioEnv, scenario

ACL = ("mspti", "acl")

#: Runtime function -> the callback id that reports it (reference 2.8).
RUNTIME_FUNCTION_CBIDS: dict[str, int] = {
    "aclrtSetDevice": RUNTIME_CBIDS["DEVICE_SET"],
    "aclrtResetDevice": RUNTIME_CBIDS["DEVICE_RESET"],
    "aclrtCreateContext": RUNTIME_CBIDS["CONTEXT_CREATED"],
    "aclrtDestroyContext": RUNTIME_CBIDS["CONTEXT_DESTROY"],
    "aclrtCreateStream": RUNTIME_CBIDS["STREAM_CREATED"],
    "aclrtDestroyStream": RUNTIME_CBIDS["STREAM_DESTROY"],
    "aclrtSynchronizeStream": RUNTIME_CBIDS["STREAM_SYNCHRONIZED"],
    "aclrtLaunchKernel": RUNTIME_CBIDS["LAUNCH"],
    "aclrtLaunchKernelV2": RUNTIME_CBIDS["LAUNCH"],
    "aclrtLaunchKernelWithConfig": RUNTIME_CBIDS["LAUNCH"],
    "aclrtLaunchKernelWithHostArgs": RUNTIME_CBIDS["LAUNCH"],
    "aclrtMalloc": RUNTIME_CBIDS["MALLOC"],
    "aclrtMallocWithCfg": RUNTIME_CBIDS["MALLOC"],
    "aclrtMallocForTaskScheduler": RUNTIME_CBIDS["MALLOC"],
    "aclrtMallocCached": RUNTIME_CBIDS["MALLOC"],
    "aclrtFree": RUNTIME_CBIDS["FREE"],
    "aclrtMallocHost": RUNTIME_CBIDS["MALLOC_HOST"],
    "aclrtFreeHost": RUNTIME_CBIDS["FREE_HOST"],
    "aclrtMemFlush": RUNTIME_CBIDS["FLUSH_CACHE"],
    "aclrtMemcpy": RUNTIME_CBIDS["MEMCPY"],
    "aclrtMemcpyAsync": RUNTIME_CBIDS["MEMCPY_ASYNC"],
    "aclrtMemcpy2d": RUNTIME_CBIDS["MEM_CPY2D"],
    "aclrtMemcpy2dAsync": RUNTIME_CBIDS["MEM_CPY2D_ASYNC"],
    "aclrtMemset": RUNTIME_CBIDS["MEM_SET"],
    "aclrtMemsetAsync": RUNTIME_CBIDS["MEM_SET_ASYNC"],
    "aclrtGetMemInfo": RUNTIME_CBIDS["MEM_GET_INFO"],
    "aclrtReserveMemAddress": RUNTIME_CBIDS["RESERVE_MEM_ADDRESS"],
    "aclrtReleaseMemAddress": RUNTIME_CBIDS["RELEASE_MEM_ADDRESS"],
}


def _between(log: RunLog, first: str, last: str) -> list[Callback]:
    start, end = log.note_seq(first), log.note_seq(last)
    return [cb for cb in log.callbacks if start < cb.seq < end]


@scenario("cb_subscribe", "Subscribe/Unsubscribe/EnableCallback/EnableDomain argument and state errors")
def cb_subscribe(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "unsubscribe null @unsub_none_null",
                "unsubscribe bogus @unsub_none_bogus",
                "cb_enable 1 RUNTIME 15 null @enable_before",
                "cb_domain 1 RUNTIME null @domain_before",
                "subscribe cb nullptr @sub_null",
                "subscribe @sub_first",
                "subscribe @sub_second",
                "subscribe nocb @sub_third",
                "unsubscribe bogus @unsub_bogus",
                "unsubscribe null @unsub_null",
                "cb_enable 1 INVALID 15 @domain_0",
                "cb_enable 1 SIZE 15 @domain_3",
                "cb_enable 1 77 15 @domain_77",
                "cb_enable 1 RUNTIME 64 @cbid_64",
                "cb_enable 1 RUNTIME 1024 @cbid_1024",
                "cb_enable 1 RUNTIME 0 @cbid_0",
                "cb_enable 1 RUNTIME 40 @cbid_40",
                "cb_enable 1 HCCL 20 @cbid_hccl_20",
                "cb_enable 1 RUNTIME 15 bogus @handle_bogus",
                "cb_enable 1 RUNTIME 15 null @handle_null",
                "cb_domain 1 INVALID @whole_domain_0",
                "cb_domain 1 SIZE @whole_domain_3",
                "cb_domain 1 RUNTIME bogus @whole_domain_bogus",
                "cb_enable 1 RUNTIME 15 @still_subscribed",
                "unsubscribe @unsub_ok",
                "subscribe nocb @sub_nocb",
                "subscribe @sub_after_nocb",
                "unsubscribe @unsub_last",
            )
        )
    ]


@cb_subscribe.checker
def check_cb_subscribe(ctx: CheckContext) -> None:
    with ctx.clause("CB-SUB-01") as c:
        c.returns(ctx.log().call("sub_null"), "INVALID_PARAMETER", "Subscribe(NULL, cb, ud)")
    with ctx.clause("CB-SUB-02") as c:
        log = ctx.log()
        c.returns(log.call("sub_first"), "SUCCESS")
        c.equal(log.call("sub_first")["handle_set"], True, "handle written by Subscribe")
        c.returns(log.call("sub_second"), "MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED")
        c.returns(log.call("sub_third"), "MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED")
        c.returns(log.call("still_subscribed"), "SUCCESS", "EnableCallback with the first handle afterwards")
    with ctx.clause("CB-SUB-03") as c:
        log = ctx.log()
        c.returns(log.call("sub_nocb"), "SUCCESS", "Subscribe with a NULL callback")
        c.returns(
            log.call("sub_after_nocb"),
            "MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED",
            "Subscribe while the NULL-callback subscriber exists",
        )
    with ctx.clause("CB-UNSUB-02") as c:
        log = ctx.log()
        c.returns(log.call("unsub_bogus"), "INVALID_PARAMETER", "Unsubscribe(other handle) while subscribed")
        c.returns(log.call("unsub_null"), "INVALID_PARAMETER", "Unsubscribe(NULL) while subscribed")
        c.returns(log.call("still_subscribed"), "SUCCESS", "the subscription still works afterwards")
        c.returns(log.call("unsub_ok"), "SUCCESS", "Unsubscribe(current handle)")
    with ctx.clause("CB-UNSUB-03") as c:
        log = ctx.log()
        for label in ("unsub_none_null", "unsub_none_bogus"):
            c.returns(log.call(label), c.expect["not_subscribed"], "Unsubscribe with nobody subscribed")
    with ctx.clause("CB-EN-02") as c:
        for label in ("domain_0", "domain_3", "domain_77"):
            c.returns(ctx.log().call(label), "INVALID_PARAMETER")
    with ctx.clause("CB-EN-03") as c:
        log = ctx.log()
        for label in ("cbid_64", "cbid_1024"):
            c.returns(log.call(label), "INVALID_PARAMETER")
        for label in ("cbid_0", "cbid_40", "cbid_hccl_20"):
            c.returns(log.call(label), c.expect["unassigned"], "EnableCallback of an unassigned cbid")
    with ctx.clause("CB-EN-04") as c:
        for label in ("handle_bogus", "handle_null"):
            c.returns(ctx.log().call(label), "INVALID_PARAMETER")
    with ctx.clause("CB-EN-05") as c:
        for label in ("enable_before", "domain_before"):
            c.returns(ctx.log().call(label), c.expect["before_subscribe"], "before any Subscribe")
    with ctx.clause("CB-DOM-03") as c:
        for label in ("whole_domain_0", "whole_domain_3", "whole_domain_bogus"):
            c.returns(ctx.log().call(label), "INVALID_PARAMETER")


@scenario("cb_lifecycle", "which callbacks fire across enable, disable and subscription cycles", needs=ACL)
def cb_lifecycle(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "acl_init",
                "set_device 0",
                "subscribe @sub1",
                "note subscribed",
                "malloc a 64",
                "free a",
                "note enable",
                "cb_enable 1 RUNTIME 15 @enable_malloc",
                "malloc b 64",
                "free b",
                "note disable",
                "cb_enable 0 RUNTIME 15 @disable_malloc",
                "malloc c 64",
                "free c",
                "note seven",
                "cb_enable 7 RUNTIME 16 @enable_free_7",
                "malloc d 64",
                "free d",
                "note unsubscribe",
                "unsubscribe @unsub1",
                "malloc e 64",
                "free e",
                "note resubscribe",
                "subscribe @sub2",
                "malloc f 64",
                "free f",
                "note again",
                "cb_enable 1 RUNTIME 15 @enable_again",
                "malloc g 64",
                "free g",
                "note cycles",
                "unsubscribe @unsub2",
                "subscribe @sub3",
                "unsubscribe @unsub3",
                "note end",
                "reset_device 0",
            )
        )
    ]


@cb_lifecycle.checker
def check_cb_lifecycle(ctx: CheckContext) -> None:
    def fired(log: RunLog, first: str, last: str) -> list[str]:
        return [f"{cb.fn}:{cb.site}" for cb in _between(log, first, last)]

    malloc_pair = ["aclrtMalloc:0", "aclrtMalloc:1"]
    with ctx.clause("CB-SUB-04") as c:
        log = ctx.log()
        c.returns(log.call("sub1"), "SUCCESS")
        c.equal(log.call("sub1")["handle_set"], True, "handle written by Subscribe")
        c.equal(fired(log, "subscribed", "enable"), [], "callbacks before any EnableCallback")
    with ctx.clause("CB-EN-01") as c:
        log = ctx.log()
        c.returns(log.call("enable_malloc"), "SUCCESS")
        c.equal(fired(log, "enable", "disable"), malloc_pair, "callbacks with only MALLOC enabled")
        c.equal(fired(log, "disable", "seven"), [], "callbacks after EnableCallback(0, MALLOC)")
        c.returns(log.call("enable_free_7"), "SUCCESS", "EnableCallback(7, FREE)")
        c.equal(
            fired(log, "seven", "unsubscribe"), ["aclrtFree:0", "aclrtFree:1"], "callbacks with enable = 7"
        )
    with ctx.clause("CB-UNSUB-01") as c:
        log = ctx.log()
        c.returns(log.call("unsub1"), "SUCCESS")
        c.equal(fired(log, "unsubscribe", "resubscribe"), [], "callbacks after Unsubscribe")
    with ctx.clause("CB-SUB-05") as c:
        log = ctx.log()
        for label in ("sub2", "sub3", "unsub2", "unsub3"):
            c.returns(log.call(label), "SUCCESS")
        c.equal(fired(log, "resubscribe", "again"), [], "callbacks after re-subscribing, before enabling")
        c.equal(fired(log, "again", "cycles"), malloc_pair, "callbacks after enabling MALLOC again")


@scenario("cb_order", "ENTER/EXIT order, names, cbids and threads over the whole runtime domain", needs=ACL)
def cb_order(env: ScenarioEnv) -> list[Invocation]:
    launch = ["launch callback_kernel s"] if "launch" in env.features else []
    return [
        Invocation(
            script=lines(
                "acl_init",
                "set_device 0",
                "create_stream s",
                "subscribe",
                "register A A",
                "enable MEMORY",
                "cb_domain 1 RUNTIME @domain",
                "note work",
                "malloc a 64",
                "malloc_host h 64",
                "memset a 1 64",
                "host hb 64",
                "memcpy a hb 64 h2d",
                "memcpy a hb 64 h2d s",
                *launch,
                "sync s",
                "mem_info",
                "free_host h",
                "free a",
                "threads 4 {",
                "set_device 0",
                "repeat 20 {",
                "malloc t%t_%i 64",
                "free t%t_%i",
                "}",
                "}",
                "note done",
                "flush 1",
                "destroy_stream s",
                "reset_device 0",
            )
        )
    ]


def _calls_with_callbacks(log: RunLog) -> list[tuple[str, int, list[Callback]]]:
    """For each instrumented call after "work": (function, tid, the callbacks on its thread during it)."""
    work = log.note_seq("work")
    previous: dict[int, int] = {}
    result = []
    for call in log.calls:
        if call.seq < work:
            continue
        start = previous.get(call.tid, work)
        previous[call.tid] = call.seq
        if call.fn not in RUNTIME_FUNCTION_CBIDS or call.missing:
            continue
        during = [cb for cb in log.callbacks if cb.tid == call.tid and start < cb.seq < call.seq]
        result.append((call.fn, call.tid, during))
    return result


@cb_order.checker
def check_cb_order(ctx: CheckContext) -> None:
    with ctx.clause("CB-ORDER-01") as c:
        log = ctx.log()
        c.returns(log.call("domain"), "SUCCESS")
        report_violations(c, callback_pairs(log), f"{len(log.callbacks)} callbacks")
        for fn, tid, during in _calls_with_callbacks(log):
            sites = [cb.site for cb in during if cb.fn == fn]
            c.check(sites == [0, 1], f"{fn} on thread {tid}: callback sites {sites}; expected [ENTER, EXIT]")
        c.note("every instrumented call had exactly one ENTER and one EXIT on its thread")
    with ctx.clause("CB-ORDER-02") as c:
        log = ctx.log()
        exits = [cb for cb in log.callbacks if cb.fn == "aclrtMalloc" and cb.site == 1]
        records = {int(r["address"]): r for r in log.records_of(MEMORY) if r["op"] == 0}
        malloc = next(call for call in log.calls_to("aclrtMalloc") if call.seq > log.note_seq("work"))
        pointer = int(malloc["ptr"])
        exit_cb = next((cb for cb in exits if cb.tid == malloc.tid and cb.seq < malloc.seq), None)
        record = records.get(pointer)
        c.check(
            exit_cb is not None and record is not None,
            "the EXIT callback or the MEMORY record of aclrtMalloc is missing",
        )
        if exit_cb is not None and record is not None:
            c.check(
                int(record["end"]) <= int(exit_cb.data["t"]),
                f"the MEMORY record ends at {record['end']}, "
                f"after the EXIT callback ran at {exit_cb.data['t']}",
                "the MEMORY record was complete before the EXIT callback",
            )
    with ctx.clause("CB-DATA-01") as c:
        log = ctx.log()
        for fn, _tid, during in _calls_with_callbacks(log):
            names = {cb.fn for cb in during}
            c.check(
                fn in names, f"no callback named {fn} during the call to {fn} (saw {sorted(map(str, names))})"
            )
        c.note("functionName carried the public API name of every instrumented call")
    with ctx.clause("CB-DATA-02") as c:
        log = ctx.log()
        c.check(bool(log.callbacks), "no callback fired")
        bad = [cb for cb in log.callbacks if not cb.userdata_ok]
        c.equal(len(bad), 0, "callbacks that received another userdata than the one given to Subscribe")
    with ctx.clause("CB-DATA-03") as c:
        log = ctx.log()
        for cb in log.callbacks:
            expected = RUNTIME_FUNCTION_CBIDS.get(str(cb.fn))
            if expected is not None and cb.domain == 1:
                c.check(cb.cbid == expected, f"{cb.fn} reported cbid {cb.cbid}; expected {expected}")
        c.note(f"{len(log.callbacks)} callbacks carried the cbid of their function")
    with ctx.clause("CB-THR-01") as c:
        log = ctx.log()
        workers = {int(e["tid"]) for e in log.of_type("thread_start")}
        seen = {cb.tid for cb in log.callbacks}
        c.check(
            workers <= seen,
            f"no callback on worker thread(s) {sorted(workers - seen)}",
            f"callbacks arrived on {len(seen)} threads, among them all {len(workers)} workers",
        )
        mismatched = [
            (fn, tid) for fn, tid, during in _calls_with_callbacks(log) if any(cb.tid != tid for cb in during)
        ]
        c.equal(mismatched, [], "calls whose callbacks ran on another thread")


@scenario("cb_domain_all", "EnableDomain on and off for the runtime domain; HCCL domain switch", needs=ACL)
def cb_domain_all(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "acl_init",
                "set_device 0",
                "subscribe",
                "cb_domain 1 RUNTIME @runtime_on",
                "note on",
                "malloc a 64",
                "free a",
                "malloc_host h 64",
                "free_host h",
                "mem_info",
                "note off",
                "cb_enable 1 RUNTIME 15",
                "cb_domain 0 RUNTIME @runtime_off",
                "malloc b 64",
                "free b",
                "note hccl",
                "cb_domain 1 HCCL @hccl_on",
                "cb_domain 0 HCCL @hccl_off",
                "note end",
                "reset_device 0",
            )
        )
    ]


@cb_domain_all.checker
def check_cb_domain_all(ctx: CheckContext) -> None:
    with ctx.clause("CB-DOM-01") as c:
        log = ctx.log()
        c.returns(log.call("runtime_on"), "SUCCESS")
        names = {str(cb.fn) for cb in _between(log, "on", "off")}
        for fn in ("aclrtMalloc", "aclrtFree", "aclrtMallocHost", "aclrtFreeHost", "aclrtGetMemInfo"):
            c.check(fn in names, f"no callback for {fn} with the runtime domain enabled")
        c.returns(log.call("hccl_on"), "SUCCESS", "EnableDomain(1, HCCL)")
        c.note("HCCL callbacks themselves need an HCCL workload (hccl scenarios)")
    with ctx.clause("CB-DOM-02") as c:
        log = ctx.log()
        c.returns(log.call("runtime_off"), "SUCCESS")
        c.equal(
            [cb.fn for cb in _between(log, "off", "hccl")], [], "callbacks after EnableDomain(0, RUNTIME)"
        )


@scenario("cb_data_strict", "correlationData, correlationId and parameters in callback data", needs=ACL)
def cb_data_strict(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "acl_init",
                "set_device 0",
                "subscribe",
                "register A A",
                "enable MEMORY",
                "cb_enable 1 RUNTIME 15",
                "cb_enable 1 RUNTIME 16",
                "malloc a 64 @malloc",
                "free a @free",
                "flush 1",
                "reset_device 0",
            ),
            cbdata="strict",
        )
    ]


@cb_data_strict.checker
def check_cb_data_strict(ctx: CheckContext) -> None:
    with ctx.clause("CB-DATA-04") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        for label, operation in (("malloc", 0), ("free", 1)):
            call = log.call(label)
            callbacks = [
                cb for cb in log.callbacks if cb.fn == call.fn and cb.tid == call.tid and cb.seq < call.seq
            ]
            enter = next((cb for cb in callbacks if cb.site == 0), None)
            leave = next((cb for cb in callbacks if cb.site == 1), None)
            if enter is None or leave is None:
                c.fail(f"{call.fn}: ENTER or EXIT callback missing")
                continue
            written = enter.data.get("cd_write")
            c.check(written is not None, f"{call.fn}: correlationData is NULL at ENTER")
            c.equal(leave.data.get("cd_read"), written, f"{call.fn}: value read from correlationData at EXIT")
            c.equal(enter.data.get("params"), True, f"{call.fn}: functionParams set at ENTER")
            c.equal(leave.data.get("retval"), True, f"{call.fn}: functionReturnValue set at EXIT")
            records = [r for r in memory if r["op"] == operation and r["address"] == call["ptr"]]
            if records:
                corr = int(records[0]["corr"])
                c.equal(
                    enter.data.get("corr"), corr, f"{call.fn}: correlationId at ENTER vs the MEMORY record"
                )
                c.equal(
                    leave.data.get("corr"), corr, f"{call.fn}: correlationId at EXIT vs the MEMORY record"
                )
            else:
                c.fail(f"{call.fn}: no MEMORY record to compare the correlationId with")
