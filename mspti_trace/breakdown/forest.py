"""The host ranges of one process as a forest per thread (by time containment), and point lookup
of the innermost range that contains a time on a thread."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mspti_trace.breakdown.options import BreakdownError
from mspti_trace.joins import marker_spans
from mspti_trace.reader import Capture

__all__ = ["RangeForest", "build_forest"]


@dataclass
class RangeForest:
    """Host ranges (``ranges``: joins.RANGE_DTYPE rows, sorted by start) with their nesting.

    ``parent[i]`` is the enclosing range on the same thread (-1 for a root), ``children[i]`` the
    directly nested ranges in time order. ``segments[tid]`` = (starts, owners): from each start on,
    until the next, the innermost open range is ``owners`` (-1: none).
    """

    ranges: np.ndarray
    names: list[str]
    domains: list[str]
    parent: np.ndarray
    children: list[list[int]]
    segments: dict[int, tuple[np.ndarray, np.ndarray]]

    def innermost(self, tids: np.ndarray, times: np.ndarray) -> np.ndarray:
        """For each (thread, time), the innermost range containing it (half-open), or -1."""
        result = np.full(len(times), -1, dtype=np.int64)
        tids = np.asarray(tids)
        for tid in np.unique(tids).tolist():
            found = self.segments.get(int(tid))
            if found is None:
                continue
            starts, owners = found
            mask = tids == tid
            position = np.searchsorted(starts, times[mask], side="right") - 1
            result[mask] = np.where(position >= 0, owners[np.maximum(position, 0)], -1)
        return result

    def root(self, index: int) -> int:
        while self.parent[index] >= 0:
            index = int(self.parent[index])
        return index


def build_forest(capture: Capture, exclude_domains: tuple[str, ...] = ()) -> tuple[RangeForest, np.ndarray]:
    """The forest of the host ranges of ``capture`` except those of ``exclude_domains``, and the
    excluded ranges (same dtype). Raises BreakdownError for two ranges that overlap without nesting."""
    spans = marker_spans(capture)
    host = spans.ranges[spans.ranges["source_kind"] == 0]
    domains_all = capture.text(host["domain"])
    excluded_mask = (
        np.isin(domains_all, list(exclude_domains)) if exclude_domains else np.zeros(len(host), bool)
    )
    excluded = host[excluded_mask]
    ranges = host[~excluded_mask]
    order = np.lexsort((-ranges["end"].astype(np.int64), ranges["start"]))
    ranges = ranges[order]
    names = capture.text(ranges["name"]).tolist()
    domains = capture.text(ranges["domain"]).tolist()
    count = len(ranges)
    parent = np.full(count, -1, dtype=np.int64)
    children: list[list[int]] = [[] for _ in range(count)]
    segments: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    tids = ranges["object_b"]
    starts = ranges["start"].astype(np.int64)
    ends = ranges["end"].astype(np.int64)
    for tid in np.unique(tids).tolist():
        members = np.flatnonzero(tids == tid).tolist()
        seg_starts: list[int] = []
        seg_owners: list[int] = []
        stack: list[int] = []
        for index in members:
            start, end = int(starts[index]), int(ends[index])
            while stack and ends[stack[-1]] <= start:
                closed = stack.pop()
                seg_starts.append(int(ends[closed]))
                seg_owners.append(stack[-1] if stack else -1)
            if stack and end > ends[stack[-1]]:
                other = stack[-1]
                raise BreakdownError(
                    f"range {names[index]!r} ({domains[index]}) on thread {tid} starts inside "
                    f"{names[other]!r} ({domains[other]}) but ends after it: ranges must nest"
                )
            if stack:
                parent[index] = stack[-1]
                children[stack[-1]].append(index)
            seg_starts.append(start)
            seg_owners.append(index)
            stack.append(index)
        while stack:
            closed = stack.pop()
            seg_starts.append(int(ends[closed]))
            seg_owners.append(stack[-1] if stack else -1)
        segments[int(tid)] = (np.array(seg_starts, dtype=np.int64), np.array(seg_owners, dtype=np.int64))
    forest = RangeForest(
        ranges=ranges, names=names, domains=domains, parent=parent, children=children, segments=segments
    )
    return forest, excluded
