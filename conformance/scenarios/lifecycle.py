"""Subscription lifecycle: what needs a subscriber, restart cycles, flushing after Unsubscribe."""

from __future__ import annotations

from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.scenarios.common import KERNEL, MEMORY, host_markers, lines
from conformance.scenarios.registry import ScenarioEnv, scenario


def _work(env: ScenarioEnv) -> list[str]:
    return [
        "register A A",
        "enable MARKER",
        "enable MEMORY",
        "acl_init",
        "set_device 0",
        "mark life",
        "malloc a 64 @malloc",
        "free a",
        "flush 1",
        "reset_device 0",
    ]


@scenario(
    "life_subscribe",
    "MARKER and MEMORY records with and without a subscriber",
    needs=("mspti", "mstx", "acl"),
)
def life_subscribe(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation("without", script=lines(*_work(env))),
        Invocation("with", script=lines("subscribe", *_work(env))),
    ]


@life_subscribe.checker
def check_life_subscribe(ctx: CheckContext) -> None:
    with ctx.clause("GEN-LIFE-01") as c:
        with_log = ctx.log("with")
        c.equal(
            len([r for r in host_markers(with_log) if r.get("name") == "life"]),
            1,
            "MARKER records with a subscriber",
        )
        c.check(bool(with_log.records_of(MEMORY)), "no MEMORY record with a subscriber")
        without = ctx.log("without")
        markers = [r for r in host_markers(without) if r.get("name") == "life"]
        if c.expect.get("markers_without_subscriber") == "none":
            c.equal(len(markers), 0, "MARKER records without a subscriber")
            c.check(
                bool(without.records_of(MEMORY)),
                "no MEMORY record without a subscriber",
                "MEMORY records do not need a subscriber",
            )
        else:
            c.note(f"{len(markers)} MARKER record(s) without a subscriber (either is allowed)")


@scenario(
    "life_restart",
    "subscribe ... unsubscribe, twice, with markers (and kernels)",
    needs=("mspti", "mstx", "acl"),
)
def life_restart(env: ScenarioEnv) -> list[Invocation]:
    kernel = "launch" in env.features

    def cycle(name: str) -> list[str]:
        return [
            *(["enable KERNEL"] if kernel else []),
            "enable MARKER",
            f"mark {name}",
            *([f"launch {name}_kernel s", "sync s"] if kernel else []),
            "disable MARKER",
            *(["disable KERNEL"] if kernel else []),
        ]

    return [
        Invocation(
            script=lines(
                "acl_init",
                "set_device 0",
                "create_stream s",
                "subscribe @sub1",
                "register A A",
                *cycle("cycle1"),
                "unsubscribe @unsub1",
                "flush 1",
                "note second",
                "subscribe @sub2",
                *cycle("cycle2"),
                "unsubscribe @unsub2",
                "flush 1",
                "destroy_stream s",
                "reset_device 0",
            )
        )
    ]


@life_restart.checker
def check_life_restart(ctx: CheckContext) -> None:
    with ctx.clause("GEN-LIFE-02") as c:
        log = ctx.log()
        for label in ("sub1", "unsub1", "sub2", "unsub2"):
            c.returns(log.call(label), "SUCCESS")
        names = [r.get("name") for r in host_markers(log)]
        c.equal(names.count("cycle1"), 1, "markers of the first cycle")
        c.equal(names.count("cycle2"), 1, "markers of the second cycle")
        if log.calls_to("aclrtLaunchKernel"):
            kernels = [str(r.get("name") or "") for r in log.records_of(KERNEL)]
            for name in ("cycle1_kernel", "cycle2_kernel"):
                c.equal(sum(name in k for k in kernels), 1, f"KERNEL records of {name}")


@scenario(
    "life_flush_after_unsubscribe",
    "FlushAll after Unsubscribe delivers buffered records",
    needs=("mspti", "mstx"),
)
def life_flush_after_unsubscribe(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                "subscribe",
                "register A A",
                "enable MARKER",
                "repeat 5 mark buffered-%i",
                "unsubscribe @unsub",
                "note unsubscribed",
                "flush 1 @flush",
            )
        )
    ]


@life_flush_after_unsubscribe.checker
def check_life_flush_after_unsubscribe(ctx: CheckContext) -> None:
    with ctx.clause("GEN-LIFE-03") as c:
        log = ctx.log()
        c.returns(log.call("unsub"), "SUCCESS")
        c.returns(log.call("flush"), "SUCCESS")
        flush = log.call("flush")
        delivered = [
            r
            for r in host_markers(log)
            if str(r.get("name", "")).startswith("buffered-") and r.seq < flush.seq
        ]
        c.equal(len(delivered), 5, "buffered markers delivered by the FlushAll after Unsubscribe")
