"""msprof's "Overlap Analysis" rows of the timeline: per device, when it computed, communicated
(and communicated while not computing) and was free, between its first and last task.

torch_npu's step_trace_time.csv is built from these events (names "Computing", "Communication",
"Communication(Not Overlapped)", "Free"; the process labelled "NPU <device>" by a "process_labels"
event; prof_view/_trace_step_time_parser.py). They are derived from the KERNEL and COMMUNICATION
records, so they hold what those records hold.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

Interval = tuple[int, int]


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """The union of half-open intervals, as sorted disjoint intervals."""
    out: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def subtract(intervals: list[Interval], removed: list[Interval]) -> list[Interval]:
    """``intervals`` minus ``removed`` (both sorted and disjoint)."""
    out: list[Interval] = []
    j = 0
    for start, end in intervals:
        while j < len(removed) and removed[j][1] <= start:
            j += 1
        k, cursor = j, start
        while k < len(removed) and removed[k][0] < end:
            if removed[k][0] > cursor:
                out.append((cursor, removed[k][0]))
            cursor = max(cursor, removed[k][1])
            k += 1
        if cursor < end:
            out.append((cursor, end))
    return out


def gaps(intervals: list[Interval]) -> list[Interval]:
    """The gaps between consecutive sorted disjoint intervals."""
    return [(a[1], b[0]) for a, b in itertools.pairwise(intervals) if b[0] > a[1]]


def analysis(computing: Iterable[Interval], communication: Iterable[Interval]) -> dict[str, list[Interval]]:
    compute = merge(computing)
    comm = merge(communication)
    return {
        "Computing": compute,
        "Communication": comm,
        "Communication(Not Overlapped)": subtract(comm, compute),
        "Free": gaps(merge([*compute, *comm])),
    }
