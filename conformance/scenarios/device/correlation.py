"""Correlation ids: of sequential and concurrent memory calls, and of launches that bypass the interposer."""

from __future__ import annotations

from itertools import pairwise

from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.model.invariants import (
    unique_ids,
)
from conformance.scenarios.common import (
    DEVICE_SETUP,
    DEVICE_TEARDOWN,
    KERNEL,
    MEMORY,
    SUBSCRIBE,
    lines,
)
from conformance.scenarios.device.calls import (
    ACL,
    LAUNCH,
)
from conformance.scenarios.registry import ScenarioEnv, scenario


@scenario("corr_ids", "correlation ids of 20 sequential and 4000 concurrent memory calls", needs=ACL)
def corr_ids(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable MEMORY",
                "acl_init",
                "set_device 0",
                "repeat 10 malloc p%i 64 @malloc_%i",
                "repeat 10 free p%i @free_%i",
                "threads 8 {",
                "set_device 0",
                "quiet {",
                "repeat 250 {",
                "malloc t%t_%i 32",
                "free t%t_%i",
                "}",
                "}",
                "}",
                "flush 1",
                "reset_device 0",
            ),
            timeout=120,
        )
    ]


@corr_ids.checker
def check_corr_ids(ctx: CheckContext) -> None:
    with ctx.clause("ACT-CORR-01") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        c.equal(len(memory), 20 + 8 * 500, "MEMORY records")
        zero = [r for r in memory if int(r["corr"]) == 0]
        c.equal(len(zero), 0, "MEMORY records with correlationId 0")
    with ctx.clause("ACT-CORR-02") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        for violation in unique_ids(
            (int(r["corr"]) for r in memory), clause="ACT-CORR-02", what="correlation ids"
        ):
            c.fail(violation.message)
        sequence = []
        for label in [f"malloc_{i}" for i in range(10)] + [f"free_{i}" for i in range(10)]:
            call = log.call(label)
            operation = 0 if label.startswith("malloc") else 1
            found = [r for r in memory if r["address"] == call["ptr"] and r["op"] == operation]
            if found:
                sequence.append(int(min(found, key=lambda r: r.seq)["corr"]))
        c.equal(len(sequence), 20, "records found for the 20 sequential calls")
        c.check(
            all(a < b for a, b in pairwise(sequence)),
            f"ids of sequential calls are not increasing: {sequence}",
            f"sequential ids {sequence[:5]}...",
        )
        if c.expect.get("contiguous"):
            c.equal(sequence[-1] - sequence[0], 19, "id span of 20 sequential calls")
    with ctx.clause("ACT-CORR-03") as c:
        log = ctx.log()
        memory = log.records_of(MEMORY)
        for i in range(10):
            pointer = log.call(f"malloc_{i}")["ptr"]
            ids = {int(r["op"]): int(r["corr"]) for r in memory if r["address"] == pointer}
            c.check(
                len(ids) == 2 and ids.get(0) != ids.get(1),
                f"allocation and release of p{i} have ids {ids}; expected two different ids",
            )
        c.note("each allocation and its release carry different correlation ids")


#: Launches that bypass msPTI's interposer (libascendcl's own aclrtLaunchKernel, via dlsym).
DIRECT_LAUNCHES = 12


@scenario(
    "corr_direct",
    "KERNEL correlation of launches made through dlopen + dlsym of libascendcl, between interposed calls",
    needs=LAUNCH,
)
def corr_direct(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable KERNEL",
                "enable MEMORY",
                DEVICE_SETUP,
                "repeat 6 {",
                "launch corr_direct_a%i s direct 8 @direct_a_%i",
                "malloc m%i 64",
                "launch corr_direct_b%i s direct 8 @direct_b_%i",
                "free m%i",
                "sync s",
                "}",
                "disable KERNEL",
                "flush 1",
                DEVICE_TEARDOWN,
            )
        )
    ]


@corr_direct.checker
def check_corr_direct(ctx: CheckContext) -> None:
    with ctx.clause("ACT-CORR-08") as c:
        log = ctx.log()
        kernels = [r for r in log.records_of(KERNEL) if str(r.get("name") or "").startswith("corr_direct_")]
        c.equal(len(kernels), DIRECT_LAUNCHES, "KERNEL records of the direct launches")
        ids = [int(r["corr"]) for r in kernels]
        c.check(0 not in ids, f"a direct launch's KERNEL record has correlationId 0: {ids}")
        if c.expect.get("distinct", True):
            c.equal(len(set(ids)), len(ids), f"distinct correlation ids of {len(ids)} launches ({ids})")
        others = {int(r["corr"]) for r in log.records_of(MEMORY)}
        stale = sorted(set(ids) & others)
        c.check(not stale, f"KERNEL records carry ids of allocations or frees: {stale}")
        c.note(f"{len(set(ids))} distinct ids over {len(ids)} direct launches")
