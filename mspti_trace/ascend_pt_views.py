"""The files torch_npu writes beside trace_view.json, computed from msPTI records.

Names, columns, units and JSON fields are those of torch_npu 2.13.0's profiler analysis
(``torch_npu/profiler/analysis``: ``prof_view/_kernel_view_parser.py``, ``_operator_view_parser.py``,
``_trace_step_time_parser.py``, ``_communication_parser.py``, ``_integrate_parser.py``,
``prof_common_func/_csv_headers.py``, ``profiler_interface.py``) and of the CANN summaries it copies
(op_summary, op_statistic, api_statistic). Per rank folder ``<name>_ascend_pt/``:

- ``profiler_info_<rank>.json``, ``profiler_metadata.json`` (root), ``PROF_<n>_<time>_<tag>/
  device_<d>/info.json.<d>`` (the device facts msprof-analyze reads: AI Core count and frequency);
- ``ASCEND_PROFILER_OUTPUT/``: ``kernel_details.csv``, ``op_statistic.csv``, ``operator_details.csv``,
  ``step_trace_time.csv``, ``api_statistic.csv``, ``task_time.csv``, ``analyse.done`` and, with
  communication ops, ``communication.json``, ``communication_matrix.json``.

A field msPTI records do not carry is written as torch_npu writes it when it was not collected:
``N/A`` for block counts, an empty string for shapes, data types, formats and call stacks, 0 for
HCCL wait, synchronisation and transit detail, null for the profiler's start counters. docs/trace.md
lists each file's fields as from records or absent.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mspti_trace.communication_analysis import (
    TORCH_NPU_TOTAL,
    CommunicationOp,
    is_p2p,
    op_info,
    op_keys,
    torch_npu_total,
)
from mspti_trace.summary_statistics import (
    API_STATISTIC_HEADERS,
    OP_STATISTIC_HEADERS,
    ApiTime,
    KernelTime,
    api_statistic_rows,
    op_statistic_rows,
    us,
)

__all__ = [
    "ASCEND_PT_FILES",
    "RankViews",
    "write_rank_views",
]

#: The empty file torch_npu writes into ASCEND_PROFILER_OUTPUT once its analysis finished.
ANALYSE_DONE = "analyse.done"
#: Files written per rank into ASCEND_PROFILER_OUTPUT (besides trace_view.json; the two
#: communication files only for a rank with communication ops).
ASCEND_PT_FILES = (
    "kernel_details.csv",
    "op_statistic.csv",
    "operator_details.csv",
    "step_trace_time.csv",
    "api_statistic.csv",
    "task_time.csv",
    "communication.json",
    "communication_matrix.json",
    ANALYSE_DONE,
)
NOT_COLLECTED = "N/A"
KERNEL_HEADERS = [
    "Device_id",
    "Model ID",
    "Task ID",
    "Stream ID",
    "Name",
    "Type",
    "OP State",
    "Accelerator Core",
    "Start Time(us)",
    "Duration(us)",
    "Wait Time(us)",
    "Block Num",
    "Mix Block Num",
    "HF32 Eligible",
    "Input Shapes",
    "Input Data Types",
    "Input Formats",
    "Output Shapes",
    "Output Data Types",
    "Output Formats",
    "Context ID",
]
#: Model ID of a single-operator launch, as CANN's op_summary writes it (no graph model).
SINGLE_OP_MODEL_ID = 4294967295
TASK_TIME_HEADERS = [
    "Device_id",
    "kernel_name",
    "kernel_type",
    "stream_id",
    "task_id",
    "task_time(us)",
    "task_start(us)",
    "task_stop(us)",
]
OPERATOR_HEADERS = [
    "Name",
    "Input Shapes",
    "Call Stack",
    "Host Self Duration(us)",
    "Host Total Duration(us)",
    "Device Self Duration(us)",
    "Device Total Duration(us)",
    "Device Self Duration With AICore(us)",
    "Device Total Duration With AICore(us)",
]
STEP_TRACE_HEADERS = [
    "Device_id",
    "Step",
    "Computing",
    "Communication(Not Overlapped)",
    "Overlapped",
    "Communication",
    "Free",
    "Stage",
    "Bubble",
    "Communication(Not Overlapped and Exclude Receive)",
    "Preparing",
]
_LEVELS = (("node_api", "node"), ("api", "acl"), ("acl_api", "acl"), ("runtime_api", "runtime"))


@dataclass
class RankViews:
    """What one rank's files are computed from (all times in ns)."""

    device: int
    rank: int
    pid: int
    strings: np.ndarray
    #: KERNEL records of the rank's device, the Accelerator Core of each, and the index of the
    #: launching call in ``calls`` (-1: none).
    kernels: np.ndarray
    cores: list[str]
    kernel_callers: np.ndarray
    #: COMMUNICATION records of the rank's device.
    communications: np.ndarray
    #: Host calls (calls.CALL_DTYPE) and which of them are the rank's operator-level calls.
    calls: np.ndarray
    is_op: np.ndarray
    selected: np.ndarray
    #: (step id, start, end) of the rank's step ranges, in time order.
    steps: list[tuple[int, int, int]]
    #: Overlap Analysis track name -> intervals.
    overlap: dict[str, list[tuple[int, int]]]
    first_ns: int
    last_ns: int
    #: Whether the capture holds mstx markers.
    mstx: bool
    properties: dict[str, Any]
    #: communication group name -> global ranks of the trace that record it.
    groups: dict[str, list[int]]


def op_type(kernel_name: str) -> str:
    """A kernel's OP Type, read from its name: CANN names an operator's kernel binary
    ``<Type>_<digest>_high_performance_<tiling key>`` (docs/architecture.md), so the type is the name
    up to its first underscore; a name without one is its own type."""
    return kernel_name.split("_", 1)[0]


def _csv(path: Path, headers: list[str], rows: Iterable[list[object]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(headers)
        writer.writerows(rows)


def _json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")


def _steps_at(steps: list[tuple[int, int, int]], ts: np.ndarray, closed: bool) -> np.ndarray:
    """Index into ``steps`` (in time order) of the step holding each of ``ts``: the latest one to
    start at or before it, if it has not ended (``closed``: its end included); -1 for none."""
    ts = np.asarray(ts, dtype=np.int64)
    if not steps:
        return np.full(len(ts), -1, dtype=np.int64)
    starts = np.array([s[1] for s in steps], dtype=np.int64)
    ends = np.array([s[2] for s in steps], dtype=np.int64)
    index = np.searchsorted(starts, ts, side="right") - 1
    safe = np.maximum(index, 0)
    inside = (index >= 0) & ((ts <= ends[safe]) if closed else (ts < ends[safe]))
    return np.where(inside, index, -1)


def _kernel_types(v: RankViews) -> list[str]:
    """The OP Type of each kernel (computed once per distinct name)."""
    names, inverse = np.unique(v.kernels["name"], return_inverse=True)
    types = [op_type(str(v.strings[n])) for n in names.tolist()]
    return [types[i] for i in inverse.tolist()]


def _kernel_rows(v: RankViews) -> Iterator[list[object]]:
    k = v.kernels
    starts, ends = k["start"].astype(np.int64), k["end"].astype(np.int64)
    # Wait Time: from the end of the previous task on the same stream; -1 for a stream's first,
    # written 0 as msprof writes a task with no previous one (the others with three decimals).
    wait = np.full(len(k), -1, dtype=np.int64)
    streams = k["stream_id"].astype(np.int64)
    by_stream = np.lexsort((starts, streams))
    same = streams[by_stream][1:] == streams[by_stream][:-1]
    gaps = np.maximum(starts[by_stream][1:] - ends[by_stream][:-1], 0)
    wait[by_stream[1:]] = np.where(same, gaps, -1)
    order = np.argsort(starts, kind="stable")
    names = v.strings[k["name"][order]].tolist()
    types = _kernel_types(v)
    cores = v.cores
    step_of = _steps_at(v.steps, starts[order], closed=True)
    step_ids = [v.steps[i][0] if i >= 0 else None for i in step_of.tolist()]
    streams_ordered = streams[order].tolist()
    na = NOT_COLLECTED
    for i, name, step, stream, start, duration, waited in zip(
        order.tolist(),
        names,
        step_ids,
        streams_ordered,
        starts[order].tolist(),
        (ends - starts)[order].tolist(),
        wait[order].tolist(),
        strict=True,
    ):
        # Task ID, OP State, block dims, HF32, shapes, types, formats and Context ID are not in
        # msPTI's KERNEL record: N/A, as torch_npu copies them from an op_summary without them.
        row: list[object] = [
            v.device, SINGLE_OP_MODEL_ID, na, stream, name, types[i], na, cores[i],
            us(start) + "\t", us(duration), "0" if waited < 0 else us(waited),
            na, na, na, na, na, na, na, na, na, na,
        ]  # fmt: skip
        yield [step, *row] if v.steps else row


def _task_time_rows(v: RankViews) -> Iterator[list[object]]:
    """A row per KERNEL record by start, as msprof's task_time (task_id not recorded: N/A)."""
    k = v.kernels
    starts, ends = k["start"].astype(np.int64), k["end"].astype(np.int64)
    order = np.argsort(starts, kind="stable")
    names = v.strings[k["name"][order]].tolist()
    for i, name, stream, start, end in zip(
        order.tolist(), names, k["stream_id"][order].tolist(), starts[order].tolist(),
        ends[order].tolist(), strict=True,
    ):  # fmt: skip
        yield [v.device, name, v.cores[i], stream, NOT_COLLECTED, us(end - start),
               us(start) + "\t", us(end) + "\t"]  # fmt: skip


def _op_statistic_rows(v: RankViews) -> list[list[str]]:
    durations = (v.kernels["end"].astype(np.int64) - v.kernels["start"].astype(np.int64)).tolist()
    return op_statistic_rows(
        KernelTime(v.device, kind, core, ns)
        for kind, core, ns in zip(_kernel_types(v), v.cores, durations, strict=True)
    )


def _api_statistic_rows(v: RankViews) -> list[list[str]]:
    calls = v.calls[v.selected]
    durations = (calls["api_end"].astype(np.int64) - calls["api_start"].astype(np.int64)).tolist()
    return api_statistic_rows(
        ApiTime(level, str(v.strings[name]), ns)
        for column, level in _LEVELS
        for name, ns in zip(calls[column].tolist(), durations, strict=True)
        if name
    )


def _operator_rows(v: RankViews) -> Iterator[list[object]]:
    """One row per operator-level call; self time subtracts the operator calls it contains (same
    thread); device time sums the kernels it launched."""
    rows = np.flatnonzero(v.is_op)
    calls = v.calls
    k = v.kernels
    launched = v.kernel_callers >= 0
    durations = (k["end"].astype(np.int64) - k["start"].astype(np.int64)) / 1000.0
    ai_core = np.array([c == "AI_CORE" for c in v.cores], dtype=bool)
    device = np.bincount(v.kernel_callers[launched], durations[launched], minlength=len(calls))
    device_ai_core = np.bincount(
        v.kernel_callers[launched], np.where(ai_core, durations, 0.0)[launched], minlength=len(calls)
    )
    starts = calls["start"][rows].astype(np.int64)
    ends = calls["end"][rows].astype(np.int64)
    threads = calls["thread_id"][rows].astype(np.int64)
    children = np.zeros(len(rows), dtype=np.int64)
    open_by_thread: dict[int, list[int]] = defaultdict(list)
    start_list, end_list, thread_list = starts.tolist(), ends.tolist(), threads.tolist()
    for r in np.lexsort((-ends, starts)).tolist():
        stack = open_by_thread[thread_list[r]]
        while stack and end_list[stack[-1]] <= start_list[r]:
            stack.pop()
        if stack:
            children[stack[-1]] += end_list[r] - start_list[r]
        stack.append(r)
    names = v.strings[np.where(calls["node_api"][rows] != 0, calls["node_api"][rows], calls["api"][rows])]
    totals = ends - starts
    # Device self == total: msPTI records attribute a kernel to the one call that launched it.
    for name, total, own, on_device, with_ai_core in zip(
        names.tolist(),
        (totals / 1000.0).tolist(),
        ((totals - children) / 1000.0).tolist(),
        device[rows].tolist(),
        device_ai_core[rows].tolist(),
        strict=True,
    ):
        yield [name, "", "", own, total, on_device, on_device, with_ai_core, with_ai_core]


def _step_trace_rows(v: RankViews) -> list[list[object]]:
    """torch_npu's step_trace_time: Overlap Analysis slices summed per step (a slice belongs to the
    step its start falls in), microseconds."""
    steps = v.steps or [(-1, v.first_ns, v.last_ns + 1)]
    count = len(steps)
    totals: dict[str, np.ndarray] = {}
    low = np.full(count, np.iinfo(np.int64).max, dtype=np.int64)
    high = np.full(count, np.iinfo(np.int64).min, dtype=np.int64)
    first_task = np.full(count, np.iinfo(np.int64).max, dtype=np.int64)
    for track in ("Computing", "Communication(Not Overlapped)", "Communication", "Free"):
        intervals = np.array(v.overlap.get(track, []), dtype=np.int64).reshape(-1, 2)
        index = _steps_at(steps, intervals[:, 0], closed=False)
        inside = index >= 0
        index, intervals = index[inside], intervals[inside]
        totals[track] = np.bincount(index, (intervals[:, 1] - intervals[:, 0]) / 1000.0, minlength=count)
        np.minimum.at(low, index, intervals[:, 0])
        np.maximum.at(high, index, intervals[:, 1])
        if track in ("Computing", "Communication"):
            np.minimum.at(first_task, index, intervals[:, 0])
    c = v.communications
    receive = np.array([str(n).startswith("hcom_receive") for n in v.strings[c["name"]].tolist()], dtype=bool)
    index = _steps_at(steps, c["start"][receive].astype(np.int64), closed=False)
    spans = (c["end"][receive].astype(np.int64) - c["start"][receive].astype(np.int64)) / 1000.0
    bubble = np.bincount(index[index >= 0], spans[index >= 0], minlength=count)
    rows: list[list[object]] = []
    for i, (step, start, _) in enumerate(steps):
        if low[i] > high[i]:
            continue
        not_overlapped = float(totals["Communication(Not Overlapped)"][i])
        communication = float(totals["Communication"][i])
        rows.append(
            [
                v.device,
                step if v.steps else "",
                float(totals["Computing"][i]),
                not_overlapped,
                communication - not_overlapped,
                communication,
                float(totals["Free"][i]),
                (int(high[i]) - int(low[i])) / 1000.0 - float(bubble[i]),
                float(bubble[i]),
                max(not_overlapped - float(bubble[i]), 0.0),
                (int(first_task[i]) - start) / 1000.0 if first_task[i] != np.iinfo(np.int64).max else 0.0,
            ]
        )
    return rows


def _communication(v: RankViews) -> tuple[dict, dict]:
    """communication.json and communication_matrix.json by step, as torch_npu splits msprof's
    analysis: each operation's entry (communication_analysis.op_info) under the step its start falls
    in and under ``collective`` or ``p2p``, and each group's ``Total Op Info``; the matrix has no
    links (no HCCL task is recorded)."""
    c = v.communications
    ops = [
        CommunicationOp(start, end, str(v.strings[name]), str(v.strings[group]), correlation)
        for start, end, name, group, correlation in zip(
            c["start"].tolist(), c["end"].tolist(), c["name"].tolist(), c["comm_name"].tolist(),
            c["correlation_id"].tolist(), strict=True,
        )
    ]  # fmt: skip
    keyed = op_keys(ops)
    step_index = _steps_at(v.steps, np.array([op.start for _, op in keyed], dtype=np.int64), closed=True)
    by_step: dict[str, dict[str, dict]] = {}
    matrix: dict[str, dict[str, dict]] = {}
    for (key, op), step in zip(keyed, step_index.tolist(), strict=True):
        label = f"step{v.steps[step][0]}" if step >= 0 else "step"
        kind = "p2p" if is_p2p(op.name) else "collective"
        by_step.setdefault(label, {"collective": {}, "p2p": {}})[kind][key] = op_info(op)
        matrix.setdefault(label, {"collective": {}, "p2p": {}})
    for groups in by_step.values():
        for members in groups.values():
            if members:
                members[TORCH_NPU_TOTAL] = torch_npu_total(list(members.values()))
    return by_step, matrix


def _device_info(v: RankViews) -> dict:
    """info.json's DeviceInfo: only the facts the capture records (run.json's device_properties)."""
    p = v.properties
    device: dict[str, object] = {"id": v.device}
    for ours, theirs in (("aicCores", "ai_core_num"), ("aivCores", "aiv_num")):
        if ours in p:
            device[theirs] = p[ours]
    if "clockRateMHz" in p:
        device["aic_frequency"] = str(p["clockRateMHz"])
    info: dict[str, object] = {"DeviceInfo": [device]}
    if "name" in p:
        info["platform_version"] = p["name"]
    return info


def write_rank_views(root: Path, output: Path, v: RankViews) -> None:
    """Writes one rank's files: ``root`` is its ``<name>_ascend_pt`` folder, ``output`` its
    ASCEND_PROFILER_OUTPUT."""
    kernel_headers = (["Step Id"] if v.steps else []) + KERNEL_HEADERS
    _csv(output / "kernel_details.csv", kernel_headers, _kernel_rows(v))
    _csv(output / "task_time.csv", TASK_TIME_HEADERS, _task_time_rows(v))
    _csv(output / "op_statistic.csv", OP_STATISTIC_HEADERS, _op_statistic_rows(v))
    _csv(output / "operator_details.csv", OPERATOR_HEADERS, _operator_rows(v))
    _csv(output / "step_trace_time.csv", STEP_TRACE_HEADERS, _step_trace_rows(v))
    _csv(output / "api_statistic.csv", API_STATISTIC_HEADERS, _api_statistic_rows(v))
    if len(v.communications):  # torch_npu writes the two only for a run with communication ops
        communication, matrix = _communication(v)
        _json(output / "communication.json", communication)
        _json(output / "communication_matrix.json", matrix)
    _json(
        root / f"profiler_info_{v.rank}.json",
        {
            "config": {
                "common_config": {
                    "activities": ["ProfilerActivity.CPU", "ProfilerActivity.NPU"],
                    "schedule": None,
                    "record_shapes": False,
                    "profile_memory": False,
                    "with_stack": False,
                    "with_flops": False,
                    "with_modules": False,
                },
                # The configuration the records correspond to, in _ExperimentalConfig's fields:
                # Level0 (operators, kernels and communication ops; no HCCL task detail), no AI Core
                # PMU metrics, mstx when the capture holds markers.
                "experimental_config": {
                    "_profiler_level": "Level0",
                    "_aic_metrics": "ACL_AICORE_NONE",
                    "_l2_cache": False,
                    "_msprof_tx": False,
                    "_mstx": v.mstx,
                    "_data_simplification": True,
                    "record_op_args": False,
                    "_export_type": ["text"],
                    "_host_sys": [],
                    "_op_attr": False,
                    "_gc_detect_threshold": None,
                    "_mstx_domain_include": [],
                    "_mstx_domain_exclude": [],
                    "_sys_io": False,
                    "_sys_interconnection": False,
                },
            },
            "start_info": {"syscnt_enable": False, "freq": None, "start_cnt": None, "start_monotonic": None},
            "end_info": {"collectionTimeEnd": v.last_ns, "MonotonicTimeEnd": None},
            "torch_npu_version": "",
            "cann_version": "",
            "rank_id": v.rank,
        },
    )
    # parallel_group_info as torch_npu collects it: keyed by HCCL communicator name; the group's
    # user-given name is not recorded ("" as torch_npu writes it when not set); the ranks are those
    # of this export whose records name the communicator.
    groups = {
        name: {"group_name": "", "group_rank": ranks.index(v.rank), "global_ranks": ranks}
        for name, ranks in v.groups.items()
        if v.rank in ranks
    }
    _json(root / "profiler_metadata.json", {"parallel_group_info": groups} if groups else {})
    if v.device >= 0:  # a rank without a device (host records only) has no device info
        # The folder's name ends <time>_ascend_pt (ascend_pt.rank_folder).
        stamp = root.name.split("_")[-3]
        device = root / f"PROF_{v.rank + 1:06d}_{stamp}_{v.pid:X}" / f"device_{v.device}"
        device.mkdir(parents=True, exist_ok=True)
        _json(device / f"info.json.{v.device}", _device_info(v))
    # torch_npu's mark of a finished analysis, written after its other files (empty)
    (output / ANALYSE_DONE).touch()
