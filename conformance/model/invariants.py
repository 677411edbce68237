"""Invariants that hold for every log of a conforming implementation.

Each function returns the violations it finds; a violation names the clause it breaks, so a
failure anywhere in a run is reported against the right clause.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from conformance.abi import KIND_RECORD, RESULTS, record_size
from conformance.log import Call, Record, RunLog

__all__ = [
    "Violation",
    "accounting",
    "buffer_protocol",
    "callback_pairs",
    "causality",
    "correlation_membership",
    "leftover_buffers",
    "range_pairs",
    "result_codes",
    "stream_monotonic",
    "unique_ids",
]

MAX_LIMIT_REACHED = RESULTS["MAX_LIMIT_REACHED"]
START_FLAGS = frozenset({2, 16})
END_FLAGS = frozenset({4, 32})


@dataclass(frozen=True)
class Violation:
    clause: str
    message: str

    def __str__(self) -> str:
        return f"{self.clause}: {self.message}"


def buffer_protocol(log: RunLog, *, serialized_requests: bool = False) -> list[Violation]:
    """The request/complete protocol and the layout of delivered buffers.

    ACT-BUF-01 request arguments (and serialization when asked), ACT-BUF-02 complete arguments,
    ACT-BUF-03 nothing completed twice or unasked, ACT-BUF-04 iteration ends exactly at validSize,
    GEN-ABI-03 8-aligned record offsets, GEN-ABI-01 records sizeof(previous type) apart.
    """
    found: list[Violation] = []
    for request in log.requests:
        if not request.args_ok:
            found.append(Violation("ACT-BUF-01", f"request #{request.number} got a NULL out-pointer"))
        if serialized_requests and request.inflight > 1:
            found.append(
                Violation("ACT-BUF-01", f"request #{request.number} ran while another request was running")
            )
    outstanding: dict[int, int] = {}
    completed: set[int] = set()
    requests = iter(sorted(log.requests, key=lambda r: r.seq))
    pending = next(requests, None)
    for completion in sorted(log.completions, key=lambda c: c.seq):
        while pending is not None and pending.seq < completion.seq:
            if not pending.declined and pending.buf:
                outstanding[pending.buf] = pending.size
                completed.discard(pending.buf)
            pending = next(requests, None)
        where = f"completion #{completion.cid} (buffer 0x{completion.buf:x})"
        if completion.buf == 0:
            if completion.size != 0 or completion.valid != 0:
                found.append(
                    Violation(
                        "ACT-BUF-03",
                        f"{where}: a NULL buffer came with size {completion.size} and "
                        f"validSize {completion.valid}",
                    )
                )
            continue
        if completion.buf in outstanding:
            size = outstanding.pop(completion.buf)
            if completion.size != size:
                found.append(
                    Violation(
                        "ACT-BUF-02",
                        f"{where}: size {completion.size} differs from the {size} bytes handed out with it",
                    )
                )
            completed.add(completion.buf)
        elif completion.buf in completed:
            found.append(Violation("ACT-BUF-03", f"{where}: the buffer was completed twice"))
        else:
            found.append(Violation("ACT-BUF-03", f"{where}: the buffer was never handed out by a request"))
        if completion.valid > completion.size:
            found.append(
                Violation("ACT-BUF-02", f"{where}: validSize {completion.valid} > size {completion.size}")
            )
        if completion.status is not None:
            if completion.status != MAX_LIMIT_REACHED:
                found.append(
                    Violation(
                        "ACT-BUF-04",
                        f"{where}: iteration stopped with status {completion.status} "
                        f"after {completion.count} records, not MAX_LIMIT_REACHED",
                    )
                )
            elif completion.end_offset != completion.valid:
                found.append(
                    Violation(
                        "ACT-BUF-02",
                        f"{where}: the records end at byte {completion.end_offset}, "
                        f"validSize is {completion.valid}",
                    )
                )
        found.extend(_record_layout(completion.records, where))
    return found


def _record_layout(records: Sequence[Record], where: str) -> list[Violation]:
    found: list[Violation] = []
    expected_offset = 0
    for record in sorted(records, key=lambda r: r.offset):
        if record.offset % 8 != 0:
            found.append(
                Violation(
                    "GEN-ABI-03", f"{where}: a record starts at offset {record.offset}, not a multiple of 8"
                )
            )
        if record.kind not in KIND_RECORD:
            found.append(
                Violation(
                    "GEN-ABI-01",
                    f"{where}: a record at offset {record.offset} has kind "
                    f"{record.kind}, which has no record type",
                )
            )
            return found
        if record.offset != expected_offset:
            found.append(
                Violation(
                    "GEN-ABI-01",
                    f"{where}: a record at offset {record.offset}, expected "
                    f"{expected_offset} (sizeof of the previous record types)",
                )
            )
            return found
        expected_offset = record.offset + record_size(record.kind)
    return found


def leftover_buffers(log: RunLog) -> list[Violation]:
    """ACT-BUF-03: every buffer handed out was completed by the end of the run."""
    handed = {r.buf for r in log.requests if not r.declined and r.buf}
    completed = {c.buf for c in log.completions}
    missing = sorted(handed - completed)
    if not missing:
        return []
    return [
        Violation("ACT-BUF-03", f"{len(missing)} requested buffer(s) never completed, e.g. 0x{missing[0]:x}")
    ]


def result_codes(log: RunLog) -> list[Violation]:
    """GEN-RES-01: every status an msPTI function returned is a defined msptiResult."""
    valid = set(RESULTS.values())
    found = []
    for call in log.calls:
        if not call.fn.startswith("mspti") or call.fn == "msptiActivityIsEnabled" or call.ret is None:
            continue
        if call.ret not in valid:
            found.append(Violation("GEN-RES-01", f"{call.fn} returned {call.ret}, not a defined msptiResult"))
    return found


def accounting(produced: int, delivered: int, dropped: int | None, *, clause: str) -> list[Violation]:
    """produced = delivered + reported dropped; without a drop counter, nothing may be lost at all."""
    if dropped is None:
        if delivered != produced:
            return [
                Violation(
                    clause,
                    f"{produced} records produced, {delivered} delivered (and the target reports no drops)",
                )
            ]
        return []
    if produced != delivered + dropped:
        return [
            Violation(
                clause,
                f"{produced} records produced, {delivered} delivered + {dropped} reported "
                f"dropped = {delivered + dropped}",
            )
        ]
    return []


def unique_ids(values: Iterable[int], *, clause: str, what: str) -> list[Violation]:
    seen: set[int] = set()
    duplicates: set[int] = set()
    for value in values:
        if value in seen:
            duplicates.add(value)
        seen.add(value)
    if duplicates:
        sample = sorted(duplicates)[:5]
        return [Violation(clause, f"{len(duplicates)} duplicate {what}, e.g. {sample}")]
    return []


def callback_pairs(log: RunLog) -> list[Violation]:
    """CB-ORDER-01: per thread, every ENTER is closed by one EXIT of the same call, properly nested."""
    found: list[Violation] = []
    stacks: dict[int, list[tuple[int, int, str | None]]] = defaultdict(list)
    for callback in log.callbacks:
        key = (callback.domain, callback.cbid, callback.fn)
        stack = stacks[callback.tid]
        if callback.site == 0:
            stack.append(key)
        elif callback.site == 1:
            if not stack:
                found.append(
                    Violation(
                        "CB-ORDER-01", f"EXIT of {callback.fn} on thread {callback.tid} without an ENTER"
                    )
                )
            elif stack[-1] != key:
                found.append(
                    Violation(
                        "CB-ORDER-01",
                        f"EXIT of {callback.fn} on thread {callback.tid} closes ENTER of {stack[-1][2]}",
                    )
                )
                stack.pop()
            else:
                stack.pop()
        else:
            found.append(Violation("CB-ORDER-01", f"callback for {callback.fn} has site {callback.site}"))
    for tid, stack in stacks.items():
        for _domain, _cbid, fn in stack:
            found.append(Violation("CB-ORDER-01", f"ENTER of {fn} on thread {tid} has no EXIT"))
    return found


def range_pairs(records: Iterable[Record]) -> list[Violation]:
    """MSTX-03: per source kind, START ids are unique, every END closes one START, at most once."""
    found: list[Violation] = []
    starts: dict[tuple[int, int], Record] = {}
    ended: set[tuple[int, int]] = set()
    ordered = sorted(records, key=lambda r: r.seq)
    for record in ordered:
        if record.kind != 1:
            continue
        key = (int(record.get("source", 0)), int(record["id"]))
        if record["flag"] in START_FLAGS:
            if key in starts:
                found.append(Violation("MSTX-03", f"range id {key[1]} started twice"))
            starts[key] = record
    for record in ordered:
        if record.kind != 1 or record["flag"] not in END_FLAGS:
            continue
        key = (int(record.get("source", 0)), int(record["id"]))
        if key not in starts:
            found.append(Violation("MSTX-03", f"END record for range id {key[1]} without a START"))
        elif key in ended:
            found.append(Violation("MSTX-03", f"range id {key[1]} ended twice"))
        else:
            ended.add(key)
            start = starts[key]
            if int(record["timestamp"]) < int(start["timestamp"]):
                found.append(Violation("MSTX-03", f"range id {key[1]} ends before it starts"))
    return found


def stream_monotonic(kernels: Iterable[Record]) -> list[Violation]:
    """ACT-KERNEL-03: kernels of one (device, stream) do not overlap."""
    found: list[Violation] = []
    by_stream: dict[tuple[int, int], list[Record]] = defaultdict(list)
    for record in kernels:
        by_stream[(int(record["device"]), int(record["stream"]))].append(record)
    for (device, stream), records in by_stream.items():
        records.sort(key=lambda r: (int(r["start"]), int(r["end"])))
        for before, after in pairwise(records):
            if int(after["start"]) < int(before["end"]):
                found.append(
                    Violation(
                        "ACT-KERNEL-03",
                        f"kernels {before['name']!r} and {after['name']!r} overlap "
                        f"on device {device} stream {stream}",
                    )
                )
    return found


def causality(kernel: Record, launch: Call, sync: Call | None, tolerance_ns: int) -> list[Violation]:
    """ACT-KERNEL-03: launch begins <= device start <= device end <= synchronize returns."""
    found = []
    start, end = int(kernel["start"]), int(kernel["end"])
    if start + tolerance_ns < launch.t0:
        found.append(
            Violation(
                "ACT-KERNEL-03",
                f"kernel {kernel['name']!r} starts {launch.t0 - start} ns before its launch call began",
            )
        )
    if end < start:
        found.append(Violation("ACT-KERNEL-03", f"kernel {kernel['name']!r} ends before it starts"))
    if sync is not None and end > sync.t1 + tolerance_ns:
        found.append(
            Violation(
                "ACT-KERNEL-03",
                f"kernel {kernel['name']!r} ends {end - sync.t1} ns after the synchronize call returned",
            )
        )
    return found


def correlation_membership(
    records: Iterable[Record], anchors: Iterable[Record], *, clause: str, what: str
) -> list[Violation]:
    """Every record's correlationId is the correlationId of some anchor record."""
    ids = {int(anchor["corr"]) for anchor in anchors}
    orphans = [record for record in records if int(record["corr"]) not in ids]
    if not orphans:
        return []
    sample = sorted({int(r["corr"]) for r in orphans})[:5]
    return [
        Violation(
            clause, f"{len(orphans)} {what} record(s) with a correlationId no API record has, e.g. {sample}"
        )
    ]
