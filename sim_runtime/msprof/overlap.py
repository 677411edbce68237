"""msprof's "Overlap Analysis" rows of the timeline: per device, when it computed, communicated
(and communicated while not computing) and was free, between its first and last task.

torch_npu's step_trace_time.csv is built from these events (names "Computing", "Communication",
"Communication(Not Overlapped)", "Free"; the process labelled "NPU <device>" by a "process_labels"
event; prof_view/_trace_step_time_parser.py). They are derived from the KERNEL and COMMUNICATION
records, so they hold what those records hold. The interval arithmetic is the ascend_pt export's
(mspti_trace.ascend_pt.overlap_intervals), which writes the same tracks from a capture.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from mspti_trace.ascend_pt import overlap_intervals

Interval = tuple[int, int]

#: The tracks in the order the timeline numbers their threads.
TRACKS = ("Computing", "Communication", "Communication(Not Overlapped)", "Free")


def _parts(intervals: Iterable[Interval]) -> list[tuple[np.ndarray, np.ndarray]]:
    kept = [(start, end) for start, end in intervals if end > start]  # an empty task covers no time
    if not kept:
        return []
    starts, ends = zip(*kept, strict=True)
    return [(np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64))]


def analysis(computing: Iterable[Interval], communication: Iterable[Interval]) -> dict[str, list[Interval]]:
    tracks = overlap_intervals(_parts(computing), _parts(communication))
    return {name: tracks.get(name, []) for name in TRACKS}
