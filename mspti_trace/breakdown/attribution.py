"""Kernel attribution: each device operation (KERNEL and COMMUNICATION records) is joined to the
API call that launched it by correlation id (of several records carrying the id: the runtime launch
call for a kernel, the HCCL API record for a communication operation, then the innermost), and that
call to the innermost range that contains its start on the launching thread. Names play no part.

Every operation ends up attributed (to a leaf node), excluded (with a stated reason: another
step, outside every step) or unattributed (with the reason no node could own it)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mspti_trace.breakdown.forest import RangeForest
from mspti_trace.breakdown.structure import Structure
from mspti_trace.joins import COMMUNICATION_LAUNCH_PREFERENCE, KERNEL_LAUNCH_PREFERENCE, launchers
from mspti_trace.kinds import ActivityKind
from mspti_trace.reader import Capture

__all__ = ["ATTRIBUTED", "EXCLUDED", "OP_DTYPE", "UNATTRIBUTED", "Attribution", "attribute", "device_ops"]

ATTRIBUTED, EXCLUDED, UNATTRIBUTED = 0, 1, 2

OP_DTYPE = np.dtype(
    [
        ("source_kind", "<u4"),
        ("row", "<i8"),
        ("start", "<i8"),
        ("end", "<i8"),
        ("device_id", "<u4"),
        ("stream_id", "<u4"),
        ("correlation_id", "<u8"),
        ("name", "<u8"),
        ("type", "<u8"),
    ]
)

# Reason codes; the text is completed with the step, thread or node concerned.
_NO_LAUNCHER = 0
_OTHER_STEP = 1
_OUTSIDE_STEPS = 2
_STEP_NO_RANGE = 3
_IN_MODULE = 4
_NO_RANGE = 5
_IN_STEP_RANGE = 6


def device_ops(capture: Capture, communication_type: int) -> np.ndarray:
    """KERNEL and COMMUNICATION records as one table (``type`` of a communication row is
    ``communication_type``, a string id)."""
    kernels = capture.table(ActivityKind.KERNEL)
    comms = capture.table(ActivityKind.COMMUNICATION)
    ops = np.zeros(len(kernels) + len(comms), dtype=OP_DTYPE)
    for part, records, kind in (
        (slice(0, len(kernels)), kernels, ActivityKind.KERNEL),
        (slice(len(kernels), None), comms, ActivityKind.COMMUNICATION),
    ):
        view = ops[part]
        view["source_kind"] = int(kind)
        view["row"] = np.arange(len(records))
        for name in ("start", "end", "device_id", "stream_id", "correlation_id", "name"):
            view[name] = records[name]
        view["type"] = records["type"] if kind == ActivityKind.KERNEL else communication_type
    return ops


@dataclass
class Attribution:
    ops: np.ndarray
    status: np.ndarray
    node: np.ndarray
    instance: np.ndarray
    thread: np.ndarray
    reason_code: np.ndarray
    reason_arg: np.ndarray

    @property
    def total(self) -> int:
        return len(self.ops)

    def op_index(self) -> np.ndarray:
        """Each operation's index among all the capture's device operations ordered by start (ties
        in table order): the ``op_index`` of the timeline events and of kernel_attribution.json."""
        order = np.argsort(self.ops["start"], kind="stable")
        index = np.empty(len(order), dtype=np.int64)
        index[order] = np.arange(len(order), dtype=np.int64)
        return index

    def count(self, status: int) -> int:
        return int(np.count_nonzero(self.status == status))

    def account(self) -> str:
        return (
            f"{self.total} total = {self.count(ATTRIBUTED)} attributed + {self.count(EXCLUDED)} excluded + "
            f"{self.count(UNATTRIBUTED)} unattributed"
        )

    def reasons(
        self, status: int, structure: Structure, forest: RangeForest, step_label: str
    ) -> dict[str, int]:
        """How many operations of ``status`` fall under each reason."""
        mask = self.status == status
        if not mask.any():
            return {}
        pairs, counts = np.unique(
            np.stack([self.reason_code[mask], self.reason_arg[mask]], axis=1), axis=0, return_counts=True
        )
        return {
            _reason_text(int(code), int(arg), structure, forest, step_label): int(count)
            for (code, arg), count in zip(pairs.tolist(), counts.tolist(), strict=True)
        }


def _reason_text(code: int, arg: int, structure: Structure, forest: RangeForest, step_label: str) -> str:
    if code == _NO_LAUNCHER:
        return "no API record carries its correlation id, so no launching thread is known"
    if code == _OTHER_STEP:
        return f"launched in {step_label} {arg}, not the representative step"
    if code == _OUTSIDE_STEPS:
        return f"launched outside every {step_label!r} range"
    if code == _STEP_NO_RANGE:
        return f"launched in the representative step on thread {arg} outside any declared range"
    if code == _IN_MODULE:
        return f"launched in module {structure.nodes[arg].node_id} outside its declared children"
    if code == _NO_RANGE:
        return f"launched on thread {arg} outside any declared range"
    if code == _IN_STEP_RANGE:
        return f"launched in the representative {step_label!r} range itself, outside any structure range"
    return "unknown"


def attribute(capture: Capture, forest: RangeForest, structure: Structure, ops: np.ndarray) -> Attribution:
    count = len(ops)
    status = np.full(count, UNATTRIBUTED, dtype=np.int8)
    node = np.full(count, -1, dtype=np.int64)
    instance = np.full(count, -1, dtype=np.int64)
    code = np.full(count, _NO_LAUNCHER, dtype=np.int64)
    arg = np.zeros(count, dtype=np.int64)

    # The launching API record: by correlation id, preferring the runtime launch call for kernels and
    # the HCCL API record for communication operations.
    kernel_launchers = launchers(capture, KERNEL_LAUNCH_PREFERENCE)
    comm_launchers = launchers(capture, COMMUNICATION_LAUNCH_PREFERENCE)
    is_comm = ops["source_kind"] == int(ActivityKind.COMMUNICATION)
    kernel_index = kernel_launchers.find(ops["correlation_id"])
    comm_index = comm_launchers.find(ops["correlation_id"])
    launched = np.where(is_comm, comm_index, kernel_index) >= 0
    api = np.concatenate(
        [
            kernel_launchers.records[:0],
            kernel_launchers.records[kernel_index[launched & ~is_comm]],
            comm_launchers.records[comm_index[launched & is_comm]],
        ]
    )
    order = np.concatenate([np.flatnonzero(launched & ~is_comm), np.flatnonzero(launched & is_comm)])
    api = api[np.argsort(order, kind="stable")]
    thread = np.full(count, -1, dtype=np.int64)
    thread[launched] = api["thread_id"]
    times = api["start"].astype(np.int64)
    ranges = forest.innermost(api["thread_id"], times)

    # Per range: its node, whether that node is a module, its instance and the step of its root.
    range_node = structure.range_node
    is_module = np.array([n.is_module for n in structure.nodes] + [False], dtype=bool)
    step_of_root = np.full(len(forest.ranges), -1, dtype=np.int64)
    for position, step in enumerate(structure.step_ranges):
        step_of_root[step] = position
    roots = np.arange(len(forest.ranges))
    for _ in range(64):  # climb to the roots (nesting depth is small)
        up = forest.parent[roots]
        if (up < 0).all():
            break
        roots = np.where(up >= 0, up, roots)
    range_step = step_of_root[roots] if len(roots) else roots

    sub_status = np.full(len(api), UNATTRIBUTED, dtype=np.int8)
    sub_code = np.zeros(len(api), dtype=np.int64)
    sub_arg = np.zeros(len(api), dtype=np.int64)
    sub_node = np.full(len(api), -1, dtype=np.int64)
    sub_instance = np.full(len(api), -1, dtype=np.int64)
    inside = ranges >= 0
    owner = np.where(inside, range_node[np.maximum(ranges, 0)] if len(range_node) else -1, -1)
    owner_module = is_module[np.where(owner >= 0, owner, len(structure.nodes))]
    leaf = inside & (owner >= 0) & ~owner_module
    module = inside & (owner >= 0) & owner_module
    if structure.step_ranges:
        step_index = np.where(inside, range_step[np.maximum(ranges, 0)] if len(range_step) else -1, -1)
        rep = structure.representative_step
        other_step = inside & (step_index >= 0) & (step_index != rep)
        window = structure.step_window
        assert window is not None
        in_window = (times >= window[0]) & (times < window[1])
        step_bounds = forest.ranges[structure.step_ranges]
        in_any_step = np.zeros(len(api), dtype=bool)
        which_step = np.full(len(api), -1, dtype=np.int64)
        for position, (start, end) in enumerate(
            zip(step_bounds["start"].tolist(), step_bounds["end"].tolist(), strict=True)
        ):
            hit = (times >= start) & (times < end)
            which_step = np.where(hit & (which_step < 0), position, which_step)
            in_any_step |= hit
        rep_step = inside & (step_index == rep)
        is_step_range = np.isin(ranges, structure.step_ranges)
        # Attributed: in a leaf of the representative step.
        sub_status[rep_step & leaf] = 0
        sub_code[rep_step & module] = _IN_MODULE
        sub_arg[rep_step & module] = owner[rep_step & module]
        sub_code[rep_step & is_step_range] = _IN_STEP_RANGE
        # Excluded: another step, or outside every step.
        excluded_other = other_step | (~inside & ~in_window & in_any_step)
        sub_status[excluded_other] = EXCLUDED
        sub_code[excluded_other] = _OTHER_STEP
        sub_arg[excluded_other] = np.where(other_step, step_index, which_step)[excluded_other]
        outside = (~inside & ~in_any_step) | (inside & (step_index < 0) & ~in_window)
        sub_status[outside] = EXCLUDED
        sub_code[outside] = _OUTSIDE_STEPS
        # Unattributed: in the representative step's time on a thread with no range there.
        lost = (~inside & in_window) | (inside & (step_index < 0) & in_window)
        sub_code[lost] = _STEP_NO_RANGE
        sub_arg[lost] = api["thread_id"][lost]
        attributed = rep_step & leaf
    else:
        attributed = leaf
        sub_code[module] = _IN_MODULE
        sub_arg[module] = owner[module]
        sub_code[~inside] = _NO_RANGE
        sub_arg[~inside] = api["thread_id"][~inside]
    sub_status[attributed] = ATTRIBUTED
    sub_node[attributed] = owner[attributed]
    sub_instance[attributed] = structure.range_instance[ranges[attributed]]

    status[launched] = sub_status
    code[launched] = sub_code
    arg[launched] = sub_arg
    node[launched] = sub_node
    instance[launched] = sub_instance
    return Attribution(
        ops=ops, status=status, node=node, instance=instance, thread=thread, reason_code=code, reason_arg=arg
    )
