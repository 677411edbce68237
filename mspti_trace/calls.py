"""The host calls of a capture and the clock each copy or fill record carries, shared by every
export format.

A call is the set of API records of one thread that share a correlation id and a span (a runtime
reports the ACL and runtime levels of one call with the same times): every format draws it as one
slice, named after its outermost kind (:data:`OUTER_TO_INNER`), with the other records listed.

MEMCPY and MEMSET records carry one of two clocks. msPTI times the copies it interposes on the
host, around the runtime's own call, so such a record starts no later than the earliest API record
of its correlation id (the runtime reports its API records from inside the call: tens of ns later
in the wall clock, at the same instant in the virtual clock). A record timed on the device starts
after the call that issued it began (a launch takes the SoC's launch latency). :func:`copy_clocks`
decides from those fields, per record, so that records of either kind are placed right: a
host-timed record is part of its call (the call's slice spans both and lists the copy), a
device-timed one goes on its device's stream track. A record that no API record shares a
correlation id with cannot be compared: it counts as device-timed when it names a stream and as
host-timed otherwise (:attr:`CopyClocks.undecided` counts them).

Everything is vectorised over numpy columns; nothing here builds a Python object per record.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mspti_trace.kinds import INVALID_STREAM, ActivityKind
from mspti_trace.reader import Capture

__all__ = [
    "CALL_DTYPE",
    "OUTER_TO_INNER",
    "CopyClocks",
    "HostCalls",
    "copy_clocks",
    "host_calls",
]

#: The API kinds from the outermost level of a call to the innermost: an operator (node launch),
#: a library API, the ACL call, the runtime call. A call's slice takes the name of its first kind.
OUTER_TO_INNER: tuple[ActivityKind, ...] = (
    ActivityKind.NODE_API,
    ActivityKind.API,
    ActivityKind.ACL_API,
    ActivityKind.RUNTIME_API,
)
#: Column of each kind's name in :data:`CALL_DTYPE`.
NAME_COLUMNS: dict[ActivityKind, str] = {
    ActivityKind.NODE_API: "node_api",
    ActivityKind.API: "api",
    ActivityKind.ACL_API: "acl_api",
    ActivityKind.RUNTIME_API: "runtime_api",
}

CALL_DTYPE = np.dtype(
    [
        ("thread_id", "<u4"),
        ("correlation_id", "<u8"),
        ("start", "<u8"),
        ("end", "<u8"),
        # The span of the API records alone (start/end also cover a host-timed copy or fill).
        ("api_start", "<u8"),
        ("api_end", "<u8"),
        # String ids of each kind's name (0: the call has no record of that kind).
        ("node_api", "<u8"),
        ("api", "<u8"),
        ("acl_api", "<u8"),
        ("runtime_api", "<u8"),
        # Index of the host-timed MEMCPY / MEMSET record that belongs to the call (-1: none).
        ("memcpy", "<i8"),
        ("memset", "<i8"),
    ]
)


@dataclass(frozen=True)
class HostCalls:
    """One row per call (:data:`CALL_DTYPE`), ordered by start, longer first, then thread and
    correlation id: a parent comes before the calls it contains."""

    records: np.ndarray
    #: MEMCPY and MEMSET clocks (index into the capture's tables).
    copies: CopyClocks
    fills: CopyClocks
    #: The call of each row of ``capture.apis()``.
    of_api: np.ndarray

    def __len__(self) -> int:
        return len(self.records)

    def outer_names(self) -> np.ndarray:
        """String id of each call's name: its outermost kind's."""
        names = np.zeros(len(self.records), dtype=np.uint64)
        for kind in reversed(OUTER_TO_INNER):
            column = self.records[NAME_COLUMNS[kind]]
            names = np.where(column != 0, column, names)
        return names

    def outer_kinds(self) -> np.ndarray:
        """Each call's outermost kind (as an int)."""
        kinds = np.zeros(len(self.records), dtype=np.int64)
        for kind in reversed(OUTER_TO_INNER):
            kinds = np.where(self.records[NAME_COLUMNS[kind]] != 0, int(kind), kinds)
        return kinds

    def by_correlation(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted correlation ids, call index of each): the earliest call of an id first."""
        order = np.lexsort((self.records["start"], self.records["correlation_id"]))
        return self.records["correlation_id"][order], order


@dataclass(frozen=True)
class CopyClocks:
    """Per MEMCPY or MEMSET record: whether it carries host time, and the call it belongs to."""

    host_timed: np.ndarray
    #: Index into :attr:`HostCalls.records` of the call a host-timed record belongs to (-1: no API
    #: record carries its correlation id).
    call: np.ndarray
    #: Records no API record shares a correlation id with (placed by their stream alone).
    undecided: int = 0

    @property
    def device_timed(self) -> np.ndarray:
        return ~self.host_timed


def _first_call(sorted_ids: np.ndarray, order: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Index of the earliest call carrying each id (-1: none, and for the invalid id 0)."""
    if len(sorted_ids) == 0:
        return np.full(len(ids), -1, dtype=np.int64)
    position = np.minimum(np.searchsorted(sorted_ids, ids), len(sorted_ids) - 1)
    found = (sorted_ids[position] == ids) & (ids != 0)
    return np.where(found, order[position], -1).astype(np.int64)


def copy_clocks(
    records: np.ndarray, calls: np.ndarray, sorted_ids: np.ndarray, order: np.ndarray
) -> CopyClocks:
    """The clock of each MEMCPY / MEMSET record (see the module docstring)."""
    ids = records["correlation_id"].astype(np.uint64)
    call = _first_call(sorted_ids, order, ids)
    known = call >= 0
    starts = records["start"].astype(np.uint64)
    call_start = (
        calls["api_start"][np.maximum(call, 0)] if len(calls) else np.zeros(len(ids), dtype=np.uint64)
    )
    host = np.where(known, starts <= call_start, records["stream_id"] == INVALID_STREAM)
    return CopyClocks(
        host_timed=host.astype(bool),
        call=np.where(known & host, call, -1).astype(np.int64),
        undecided=int((~known).sum()),
    )


def host_calls(capture: Capture) -> HostCalls:
    """The calls of ``capture`` with their host-timed copies and fills attached."""
    apis = capture.apis()
    order = np.lexsort((apis["end"], apis["start"], apis["correlation_id"], apis["thread_id"]))
    apis = apis[order]
    group = np.zeros(0, dtype=np.int64)
    if len(apis):
        new = np.zeros(len(apis), dtype=bool)
        new[0] = True
        for column in ("thread_id", "correlation_id", "start", "end"):
            new[1:] |= apis[column][1:] != apis[column][:-1]
        group = np.cumsum(new) - 1
        calls = np.zeros(int(group[-1]) + 1, dtype=CALL_DTYPE)
        first = np.flatnonzero(new)
        for column in ("thread_id", "correlation_id", "start", "end"):
            calls[column] = apis[column][first]
        kinds = apis["kind"]
        for kind, column in NAME_COLUMNS.items():
            mask = kinds == int(kind)
            # Reversed, so that the first record of a kind in a call names it.
            calls[column][group[mask][::-1]] = apis["name"][mask][::-1]
    else:
        calls = np.zeros(0, dtype=CALL_DTYPE)
    calls["api_start"], calls["api_end"] = calls["start"], calls["end"]
    calls["memcpy"], calls["memset"] = -1, -1
    by_id = np.lexsort((calls["start"], calls["correlation_id"]))
    sorted_ids = calls["correlation_id"][by_id]
    clocks: dict[ActivityKind, CopyClocks] = {}
    for kind, column in ((ActivityKind.MEMCPY, "memcpy"), (ActivityKind.MEMSET, "memset")):
        table = capture.table(kind)
        found = copy_clocks(table, calls, sorted_ids, by_id)
        clocks[kind] = found
        index = np.flatnonzero(found.call >= 0)
        rows = found.call[index]
        calls[column][rows] = index
        calls["start"][rows] = np.minimum(calls["start"][rows], table["start"][index])
        calls["end"][rows] = np.maximum(calls["end"][rows], table["end"][index])
    span = (calls["end"] - calls["start"]).astype(np.int64)
    final = np.lexsort((calls["correlation_id"], calls["thread_id"], -span, calls["start"]))
    position = np.empty(len(final), dtype=np.int64)
    position[final] = np.arange(len(final))
    for kind, found in clocks.items():
        clocks[kind] = CopyClocks(
            host_timed=found.host_timed,
            call=np.where(found.call >= 0, position[np.maximum(found.call, 0)], -1)
            if len(final)
            else found.call,
            undecided=found.undecided,
        )
    of_api = np.empty(len(order), dtype=np.int64)
    of_api[order] = position[group] if len(group) else group
    return HostCalls(
        records=calls[final],
        copies=clocks[ActivityKind.MEMCPY],
        fills=clocks[ActivityKind.MEMSET],
        of_api=of_api,
    )
