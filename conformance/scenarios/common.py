"""Script fragments and checker helpers shared by the scenario modules."""

from __future__ import annotations

from collections.abc import Iterable

from conformance.abi import ACTIVITY_KINDS
from conformance.checks import ClauseCheck
from conformance.log import Record, RunLog
from conformance.model.invariants import Violation

__all__ = [
    "DEVICE_SETUP",
    "DEVICE_TEARDOWN",
    "MARKER",
    "SUBSCRIBE",
    "device_markers",
    "host_markers",
    "lines",
    "report_violations",
]

MARKER = ACTIVITY_KINDS["MARKER"]
KERNEL = ACTIVITY_KINDS["KERNEL"]
MEMORY = ACTIVITY_KINDS["MEMORY"]
MEMSET = ACTIVITY_KINDS["MEMSET"]
MEMCPY = ACTIVITY_KINDS["MEMCPY"]
EXTERNAL = ACTIVITY_KINDS["EXTERNAL_CORRELATION"]
API = ACTIVITY_KINDS["API"]

#: Subscriber first (harness rule 2), then buffer callbacks (pair A).
SUBSCRIBE = "subscribe\nregister A A\n"
#: A device, a context made current by SetDevice, and one stream "s".
DEVICE_SETUP = "acl_init\nset_device 0\ncreate_stream s\n"
DEVICE_TEARDOWN = "destroy_stream s\nreset_device 0\n"


def lines(*parts: str) -> str:
    """Joins script fragments, one command per line."""
    text = "\n".join(part.strip("\n") for part in parts if part)
    return text + "\n"


def host_markers(log: RunLog) -> list[Record]:
    return [r for r in log.records_of(MARKER) if int(r.get("source", 0)) == 0]


def device_markers(log: RunLog) -> list[Record]:
    return [r for r in log.records_of(MARKER) if int(r.get("source", 0)) == 1]


def report_violations(check: ClauseCheck, violations: Iterable[Violation], what: str) -> None:
    """One check per clause: the violations of this clause (others are ignored here)."""
    mine = [v for v in violations if v.clause == check.clause_id]
    if mine:
        for violation in mine[:10]:
            check.check(False, violation.message)
        if len(mine) > 10:
            check.note(f"{len(mine) - 10} more violations")
    else:
        check.check(True, "", f"{what}: no violation")


def string_matches(value: object, allowed: Iterable[str]) -> bool:
    """``value`` (a record string, None for NULL) is one of ``allowed`` ("<null>" stands for NULL)."""
    for option in allowed:
        if option == "<null>" and value is None:
            return True
        if value == option:
            return True
    return False
