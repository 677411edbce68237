"""Vectorised joins over a capture: the API record that launched each device operation (by
correlation id) and the pairing of marker records into ranges."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mspti_trace.kinds import ActivityKind, MarkerFlag
from mspti_trace.reader import Capture

__all__ = [
    "COMMUNICATION_LAUNCH_PREFERENCE",
    "KERNEL_LAUNCH_PREFERENCE",
    "Launchers",
    "MarkerSpans",
    "launchers",
    "marker_spans",
]

_HOST_START = int(MarkerFlag.START) | int(MarkerFlag.START_WITH_DEVICE)
_HOST_END = int(MarkerFlag.END) | int(MarkerFlag.END_WITH_DEVICE)
_INSTANT = int(MarkerFlag.INSTANTANEOUS) | int(MarkerFlag.INSTANTANEOUS_WITH_DEVICE)


#: Which API record launched a device operation when several carry its correlation id: for kernels,
#: copies and fills the runtime launch call first; for communication the HCCL API record first.
KERNEL_LAUNCH_PREFERENCE: tuple[ActivityKind, ...] = (
    ActivityKind.RUNTIME_API,
    ActivityKind.ACL_API,
    ActivityKind.NODE_API,
    ActivityKind.API,
)
COMMUNICATION_LAUNCH_PREFERENCE: tuple[ActivityKind, ...] = (
    ActivityKind.API,
    ActivityKind.NODE_API,
    ActivityKind.ACL_API,
    ActivityKind.RUNTIME_API,
)


@dataclass(frozen=True)
class Launchers:
    """One API record per correlation id, sorted by correlation id: of the records carrying an id,
    the one of the most preferred kind, and of those the innermost (shortest). ``rows``: the
    index of each in ``capture.apis()``."""

    records: np.ndarray
    rows: np.ndarray

    def find(self, correlation_ids: np.ndarray) -> np.ndarray:
        """Index into ``records`` of each id's launcher, -1 where no API record carries the id
        (and for the invalid id 0)."""
        keys = self.records["correlation_id"]
        ids = np.asarray(correlation_ids, dtype=np.uint64)
        if len(keys) == 0:
            return np.full(len(ids), -1, dtype=np.int64)
        index = np.searchsorted(keys, ids)
        index = np.minimum(index, len(keys) - 1)
        found = (keys[index] == ids) & (ids != 0)
        return np.where(found, index, -1).astype(np.int64)


def launchers(capture: Capture, preference: tuple[ActivityKind, ...] = KERNEL_LAUNCH_PREFERENCE) -> Launchers:
    apis = capture.apis()
    if len(apis) == 0:
        return Launchers(apis, np.zeros(0, dtype=np.int64))
    duration = apis["end"].astype(np.int64) - apis["start"].astype(np.int64)
    rank = np.full(32, len(preference), dtype=np.int64)
    rank[[int(kind) for kind in preference]] = np.arange(len(preference))
    order = np.lexsort((duration, rank[apis["kind"].astype(np.int64)], apis["correlation_id"]))
    ordered = apis[order]
    first = np.ones(len(ordered), dtype=bool)
    first[1:] = ordered["correlation_id"][1:] != ordered["correlation_id"][:-1]
    return Launchers(ordered[first], order[first])


@dataclass(frozen=True)
class MarkerSpans:
    """Marker records paired into ranges (by source and id), plus instants and unpaired records.

    ``ranges`` columns: id, source_kind, name, domain (string ids), object_a/object_b of the start
    record (pid/tid on the host, device/stream on the device), end_object_b, start, end.
    """

    ranges: np.ndarray
    instants: np.ndarray
    unpaired: np.ndarray


RANGE_DTYPE = np.dtype(
    [
        ("id", "<u8"),
        ("source_kind", "<u4"),
        ("name", "<u8"),
        ("domain", "<u8"),
        ("object_a", "<u4"),
        ("object_b", "<u4"),
        ("end_object_b", "<u4"),
        ("start", "<u8"),
        ("end", "<u8"),
    ]
)


def marker_spans(capture: Capture) -> MarkerSpans:
    markers = capture.table(ActivityKind.MARKER)
    flags = markers["flag"].astype(np.int64)
    instants = markers[(flags & _INSTANT) != 0]
    starts = markers[(flags & _HOST_START) != 0]
    ends = markers[(flags & _HOST_END) != 0]
    # Key: (source kind, id); a host range and its device counterpart share the id.
    start_key = starts["id"].astype(np.uint64) * np.uint64(2) + starts["source_kind"].astype(np.uint64)
    end_key = ends["id"].astype(np.uint64) * np.uint64(2) + ends["source_kind"].astype(np.uint64)
    end_order = np.argsort(end_key, kind="stable")
    sorted_end_keys = end_key[end_order]
    position = np.searchsorted(sorted_end_keys, start_key)
    position = np.minimum(position, max(len(sorted_end_keys) - 1, 0))
    matched = (
        (sorted_end_keys[position] == start_key)
        if len(sorted_end_keys)
        else np.zeros(len(starts), dtype=bool)
    )
    paired_starts = starts[matched]
    paired_ends = ends[end_order[position[matched]]] if len(sorted_end_keys) else ends[:0]
    ranges = np.zeros(len(paired_starts), dtype=RANGE_DTYPE)
    for name in ("id", "source_kind", "name", "domain", "object_a", "object_b"):
        ranges[name] = paired_starts[name]
    ranges["end_object_b"] = paired_ends["object_b"]
    ranges["start"] = paired_starts["timestamp"]
    ranges["end"] = np.maximum(paired_ends["timestamp"], paired_starts["timestamp"])
    used_end = np.zeros(len(ends), dtype=bool)
    if len(sorted_end_keys):
        used_end[end_order[position[matched]]] = True
    unpaired = np.concatenate([starts[~matched], ends[~used_end]])
    ranges = ranges[np.argsort(ranges["start"], kind="stable")]
    return MarkerSpans(ranges=ranges, instants=instants, unpaired=unpaired)
