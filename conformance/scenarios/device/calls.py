"""What the device scenarios share: the features they need and checks of a runtime call and its window."""

from __future__ import annotations

from conformance.checks import ClauseCheck
from conformance.log import Call, Record, RunLog
from conformance.scenarios.common import MEMCPY

ACL = ("mspti", "acl")
LAUNCH = ("mspti", "acl", "launch")
HOST_TOLERANCE_NS = 2_000_000


def process_id(log: RunLog) -> int:
    features = log.first("features")
    return int(features["pid"]) if features else -1


def in_window(
    c: ClauseCheck, record: Record, call: Call, what: str, tolerance: int = HOST_TOLERANCE_NS
) -> None:
    start, end = int(record["start"]), int(record["end"])
    c.check(
        call.t0 - tolerance <= start <= end <= call.t1 + tolerance,
        f"{what}: [{start}, {end}] is not inside the call window [{call.t0}, {call.t1}] (+/- {tolerance} ns)",
    )


def runtime_ok(c: ClauseCheck, call: Call) -> bool:
    """The runtime call itself worked (a failing runtime cannot be used to grade msPTI)."""
    if call.missing:
        c.note(f"{call.fn} is not exported by the target runtime; not checked")
        return False
    return c.check(
        call.ret == 0,
        f"{call.fn} [{call.label}] failed on the target runtime with error {call.ret}; "
        "the clause cannot be graded on this runtime",
    )


def copies_of(log: RunLog, size: int, is_async: bool) -> list[Record]:
    """The MEMCPY records of copies of ``size`` bytes, asynchronous or not."""
    return [r for r in log.records_of(MEMCPY) if r["bytes"] == size and bool(r["async"]) == is_async]
