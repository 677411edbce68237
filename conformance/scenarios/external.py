"""External correlation: the push/pop stacks and the EXTERNAL_CORRELATION records."""

from __future__ import annotations

from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import Record, RunLog
from conformance.scenarios.common import EXTERNAL, MEMORY, SUBSCRIBE, lines
from conformance.scenarios.registry import ScenarioEnv, scenario

CUSTOM0, CUSTOM1 = 2, 3
MAX_ID = 0xFFFFFFFFFFFFFFFF


@scenario("ext_stack", "push/pop per kind, empty stacks, invalid kinds, NULL out-pointer")
def ext_stack(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "push UNKNOWN 1 @push_unknown",
                "push CUSTOM0 10 @push_c0_a",
                "push CUSTOM1 20 @push_c1",
                "push CUSTOM0 11 @push_c0_b",
                f"push CUSTOM2 {MAX_ID} @push_c2",
                "pop CUSTOM0 @pop_1",
                "pop CUSTOM1 @pop_2",
                "pop CUSTOM0 @pop_3",
                "pop CUSTOM0 @pop_empty",
                "pop CUSTOM2 @pop_c2",
                "pop UNKNOWN @pop_unknown",
                "pop CUSTOM2 @pop_c2_empty",
                "push 0 5 @push_bad_0",
                "push 5 6 @push_bad_5",
                "push FORCE_INT 7 @push_bad_max",
                "push CUSTOM0 77 @push_for_null",
                "pop CUSTOM0 null @pop_null",
                "pop CUSTOM0 @pop_after_null",
            )
        )
    ]


@ext_stack.checker
def check_ext_stack(ctx: CheckContext) -> None:
    with ctx.clause("ACT-EXT-01") as c:
        log = ctx.log()
        for label in ("push_unknown", "push_c0_a", "push_c1", "push_c0_b", "push_c2"):
            c.returns(log.call(label), "SUCCESS")
    with ctx.clause("ACT-EXT-02") as c:
        log = ctx.log()
        for label in ("push_bad_0", "push_bad_5", "push_bad_max"):
            c.returns(log.call(label), c.expect["invalid_kind"])
    with ctx.clause("ACT-EXT-03") as c:
        log = ctx.log()
        for label, value in (
            ("pop_1", 11),
            ("pop_2", 20),
            ("pop_3", 10),
            ("pop_c2", MAX_ID),
            ("pop_unknown", 1),
        ):
            call = log.call(label)
            c.returns(call, "SUCCESS")
            c.equal(call.get("value"), value, f"id popped by {label}")
    with ctx.clause("ACT-EXT-04") as c:
        log = ctx.log()
        for label in ("pop_empty", "pop_c2_empty"):
            call = log.call(label)
            c.returns(call, "QUEUE_EMPTY")
            c.equal(call.get("written"), False, f"*lastId written by {label}")
    with ctx.clause("ACT-EXT-05") as c:
        log = ctx.log()
        c.returns(log.call("pop_null"), c.expect["null_out"], "Pop(CUSTOM0, NULL)")
        after = log.call("pop_after_null")
        if c.expect["pops"]:
            c.returns(after, "QUEUE_EMPTY", "Pop after Pop(NULL) (the NULL pop removed the id)")
        else:
            c.returns(after, "SUCCESS", "Pop after Pop(NULL) (the id is still there)")
            c.equal(after.get("value"), 77, "id still on the stack after Pop(NULL)")


def _memory(log: RunLog, label: str, operation: int = 0) -> list[Record]:
    address = int(log.call(label)["ptr"])
    return [r for r in log.records_of(MEMORY) if r["address"] == address and r["op"] == operation]


def _externals_for(log: RunLog, record: Record) -> list[Record]:
    return [r for r in log.records_of(EXTERNAL) if r["corr"] == record["corr"]]


def _tagged(c: ClauseCheck, log: RunLog, label: str, expected: list[tuple[int, int]]) -> None:
    """The MEMORY allocation of ``label`` has exactly the external records (kind, id) in ``expected``."""
    memory = _memory(log, label)
    if len(memory) != 1:
        c.fail(f"{len(memory)} MEMORY allocation records for {label}; expected 1")
        return
    found = sorted((int(r["ekind"]), int(r["eid"])) for r in _externals_for(log, memory[0]))
    c.equal(found, sorted(expected), f"external (kind, id) records for the correlation id of {label}")


@scenario("ext_emit", "EXTERNAL_CORRELATION records for allocations under pushed ids", needs=("mspti", "acl"))
def ext_emit(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MEMORY",
                "acl_init",
                "set_device 0",
                "push CUSTOM0 1",
                "malloc p0 64 @disabled",
                "free p0",
                "pop CUSTOM0",
                "enable EXTERNAL_CORRELATION",
                "malloc p1 64 @empty",
                "free p1",
                "push CUSTOM0 42",
                "malloc a0 64 @tag42_0",
                "malloc a1 64 @tag42_1",
                "malloc a2 64 @tag42_2",
                "push CUSTOM0 43",
                "malloc b 32 @inner",
                "pop CUSTOM0 @pop_inner",
                "malloc c 32 @outer_again",
                "push CUSTOM1 7",
                "malloc d 16 @two_kinds",
                "pop CUSTOM1",
                "pop CUSTOM0",
                "free a0",
                "free a1",
                "free a2",
                "free b",
                "free c",
                "free d @untagged_free",
                "flush 1",
                "reset_device 0",
            )
        )
    ]


@ext_emit.checker
def check_ext_emit(ctx: CheckContext) -> None:
    with ctx.clause("ACT-EXT-06") as c:
        log = ctx.log()
        for index in range(3):
            _tagged(c, log, f"tag42_{index}", [(CUSTOM0, 42)])
    with ctx.clause("ACT-EXT-07") as c:
        log = ctx.log()
        _tagged(c, log, "disabled", [])
        _tagged(c, log, "empty", [])
        stale = [r for r in log.records_of(EXTERNAL) if r["eid"] == 1]
        c.equal(len(stale), 0, "external records for the id pushed while the kind was disabled")
        free = _memory(log, "untagged_free", operation=1)
        if free:
            c.equal(len(_externals_for(log, free[0])), 0, "external records of a free after every pop")
    with ctx.clause("ACT-EXT-08") as c:
        log = ctx.log()
        _tagged(c, log, "inner", [(CUSTOM0, 43)])
        _tagged(c, log, "outer_again", [(CUSTOM0, 42)])
    with ctx.clause("ACT-EXT-09") as c:
        log = ctx.log()
        _tagged(c, log, "two_kinds", [(CUSTOM0, 42), (CUSTOM1, 7)])
        memory = _memory(log, "two_kinds")
        if c.expect.get("ordered") and memory:
            kinds = [int(r["ekind"]) for r in sorted(_externals_for(log, memory[0]), key=lambda r: r.seq)]
            c.equal(kinds, sorted(kinds), "external kinds in delivery order")
    with ctx.clause("ACT-EXT-11") as c:
        log = ctx.log()
        externals = log.records_of(EXTERNAL)
        c.check(bool(externals), "no external-correlation record was delivered")
        memory_by_corr = {int(r["corr"]): r for r in log.records_of(MEMORY)}
        for record in externals:
            target = memory_by_corr.get(int(record["corr"]))
            if target is not None:
                c.check(
                    record.seq < target.seq,
                    f"the external record for correlation id {record['corr']} follows its MEMORY record",
                )
        c.note(f"{len(externals)} external records precede their MEMORY records")


@scenario("ext_threads", "a push on one thread and an allocation on another", needs=("mspti", "acl"))
def ext_threads(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MEMORY",
                "enable EXTERNAL_CORRELATION",
                "acl_init",
                "set_device 0",
                "push CUSTOM0 99",
                "threads 1 {",
                "set_device 0",
                "malloc other 64 @other_thread",
                "free other",
                "}",
                "malloc mine 64 @same_thread",
                "free mine",
                "pop CUSTOM0",
                "flush 1",
                "reset_device 0",
            )
        )
    ]


@ext_threads.checker
def check_ext_threads(ctx: CheckContext) -> None:
    with ctx.clause("ACT-EXT-10") as c:
        log = ctx.log()
        _tagged(c, log, "same_thread", [(CUSTOM0, 99)])
        expected = [(CUSTOM0, 99)] if c.expect["other_thread_tagged"] else []
        _tagged(c, log, "other_thread", expected)


@scenario("ext_all_calls", "external records for calls without records of their own", needs=("mspti", "acl"))
def ext_all_calls(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable EXTERNAL_CORRELATION",
                "acl_init",
                "set_device 0",
                "push CUSTOM0 5",
                "malloc_host h 64 @malloc_host",
                "free_host h @free_host",
                "mem_info @mem_info",
                "pop CUSTOM0",
                "flush 1",
                "reset_device 0",
            )
        )
    ]


@ext_all_calls.checker
def check_ext_all_calls(ctx: CheckContext) -> None:
    with ctx.clause("ACT-EXT-12") as c:
        log = ctx.log()
        for label in ("malloc_host", "free_host", "mem_info"):
            c.returns(log.call(label), 0, f"{label} on the runtime")
        tagged = [r for r in log.records_of(EXTERNAL) if r["eid"] == 5]
        c.equal(len(tagged), 3, "external records for MallocHost, FreeHost and GetMemInfo")
        c.equal(len({int(r["corr"]) for r in tagged}), len(tagged), "distinct correlation ids among them")
