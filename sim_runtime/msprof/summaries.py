"""CANN's summary files (mindstudio_profiler_output/*.csv) from one collection.

Names, columns and units follow msprof's exporters in Ascend/msprof 024471c
(analysis/csrc/application/summary/: op_summary_assembler.cpp, task_time_assembler.cpp,
api_statistic_assembler.cpp, op_statistic), as CANN 8.x writes them. Times are in us with three
decimals; a start time ends in a tab, as msprof writes it (readers strip it). A field the simulator
does not model is written as msprof writes it when not collected ("N/A"); docs/msprof.md lists them.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mspti_trace import summary_statistics, task_types
from mspti_trace.ascend_pt_views import SINGLE_OP_MODEL_ID
from mspti_trace.summary_statistics import ApiTime, KernelTime, OperationTime, us
from sim_runtime.msprof import aicore_metrics
from sim_runtime.msprof.block_num import block_dims
from sim_runtime.msprof.raw import Api, Collection, Kernel, record_key

NA = "N/A"
MODEL_ID_NONE = str(SINGLE_OP_MODEL_ID)

OP_SUMMARY_HEADERS = [
    "Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State", "Task Type",
    "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Num", "Mix Block Num",
    "HF32 Eligible", "Input Shapes", "Input Data Types", "Input Formats", "Output Shapes",
    "Output Data Types", "Output Formats", "Context ID",
]  # fmt: skip


def task_type(kernel: Kernel) -> str:
    return task_types.task_type(kernel.type)


def op_types(collection: Collection) -> dict[int, str]:
    """Each kernel's OP Type by correlation id: the last part of its node launch's name, which is
    CANN's op name `<aclnn API>_<L0 op>_<kernel type>` (e.g. aclnnAddmm_MatMulCommon_MatMulV2 ->
    MatMulV2); a kernel launched without a node launch (aclrtLaunchKernel) has its own name."""
    types = {a.correlation: a.name.rsplit("_", 1)[-1] for a in collection.apis if a.level == "node"}
    return {k.correlation: types.get(k.correlation, k.name) for k in collection.kernels}


@dataclass(frozen=True)
class DeviceTask:
    """One device task as every export writes it (text summaries, timeline, database): a kernel, an
    asynchronous copy or fill, or a communication operation, from its msPTI record."""

    kind: str  # kernel, memcpy, memset, communication
    device: int
    stream: int
    start: int  # ns, msPTI's clock
    end: int
    correlation: int
    name: str  # op_summary's Op Name, task_time's kernel_name
    task_type: str  # msprof's Task Type: AI_CORE, ..., MEMCPY_ASYNC, COMMUNICATION
    op_type: str  # op_summary's OP Type (N/A for a communication operation), the copy's type for a copy
    bytes: int = 0  # a copy's size
    copy_kind: int = 0  # a memcpy's msptiActivityMemcpyKind


LAUNCH_LEVELS = ("node", "acl", "runtime")  # the call a device task's flow starts from, in order


def launching_apis(collection: Collection) -> dict[int, Api]:
    """The call each correlation id's device tasks were launched by: its node launch, else its
    AscendCL call, else its runtime call (the timeline's HostToDevice flows start there, and the
    database gives that call the task's connectionId)."""
    launches: dict[int, Api] = {}
    for api in collection.apis:
        if api.level not in LAUNCH_LEVELS:
            continue
        known = launches.get(api.correlation)
        if known is None or LAUNCH_LEVELS.index(api.level) < LAUNCH_LEVELS.index(known.level):
            launches[api.correlation] = api
    return launches


def device_tasks(collection: Collection) -> list[DeviceTask]:
    """Every device task of the collection, ordered by device and start (then correlation id)."""
    types = op_types(collection)
    tasks = [
        DeviceTask(
            "kernel",
            k.device,
            k.stream,
            k.start,
            k.end,
            k.correlation,
            k.name,
            task_type(k),
            types[k.correlation],
        )
        for k in collection.kernels
    ]
    for c in collection.copies:
        name = c.kind.upper() + "_ASYNC"  # MEMCPY_ASYNC, MEMSET_ASYNC: CANN's task type names
        tasks.append(
            DeviceTask(
                c.kind,
                c.device,
                c.stream,
                c.start,
                c.end,
                c.correlation,
                name,
                name,
                name,
                c.bytes,
                c.copy_kind,
            )
        )
    tasks += [
        DeviceTask(
            "communication", c.device, c.stream, c.start, c.end, c.correlation, c.name, "COMMUNICATION", NA
        )
        for c in collection.communications
    ]
    tasks.sort(key=lambda t: (t.device, t.start, t.correlation))
    return tasks


def publish(path: Path, text: str) -> None:
    """Writes ``path`` whole: written under a hidden name, then renamed, so that a reader that sees the
    name sees all of the file. torch_npu's analysis reads the export while msprof is still writing it
    (its CANNTimelineParser goes on at the first CSV, and its RelationParser then reads the timeline)."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text, encoding="utf-8", newline="")
    os.replace(partial, path)


def write_csv(path: Path, headers: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(headers)
    writer.writerows(rows)
    publish(path, out.getvalue())


def op_summary_headers(collection: Collection) -> list[str]:
    """op_summary's columns: msprof's base columns, then the AI Core metric columns of a collection
    with AI Core metrics (aicore_metrics.kernel_metrics; none without)."""
    return OP_SUMMARY_HEADERS + aicore_metrics.kernel_metrics(collection).headers


def op_summary_rows(collection: Collection) -> list[list[str]]:
    """One row per kernel and per communication operation, ordered by device and start time. Task ID
    is the kernel's task when it was collected (``kernel_task``), N/A otherwise."""
    metrics = aicore_metrics.kernel_metrics(collection)
    blocks = block_dims(collection)
    rows = []
    previous: DeviceTask | None = None  # the row before, for the wait time on its device
    for t in device_tasks(collection):
        if t.kind not in ("kernel", "communication"):
            continue
        kernel = t.kind == "kernel"
        wait = "0" if previous is None or previous.device != t.device else us(max(0, t.start - previous.end))
        key = (t.device, t.stream, t.start, t.end, t.correlation) if kernel else None
        task = metrics.tasks.get(key) if key is not None else None
        row = [
            str(t.device),
            MODEL_ID_NONE,
            str(task.task) if task is not None else NA,
            str(t.stream) if kernel else NA,
            t.name,
            t.op_type,
            NA,
            t.task_type,
        ]
        duration = us(t.end - t.start)
        row += [us(t.start) + "\t", duration, wait]
        # Block Num is 0 for a communication operation, as msprof writes it; a kernel's is its launch's
        # blockDim (block_dims), N/A without one.
        block = blocks.get(record_key(t)) if kernel else 0
        row += [str(block) if block is not None else NA] + [NA] * 9
        if metrics.headers:
            row += metrics.row(key, float(duration))
        rows.append(row)
        previous = t
    return rows


def task_time_rows(collection: Collection) -> list[list[str]]:
    """One row per kernel, copy and fill task, ordered by device and start time."""
    return [
        [
            str(t.device),
            t.name,
            t.task_type,
            str(t.stream),
            NA,
            us(t.end - t.start),
            us(t.start) + "\t",
            us(t.end) + "\t",
        ]
        for t in device_tasks(collection)
        if t.kind != "communication"
    ]


def api_statistic_rows(collection: Collection) -> list[list[str]]:
    return summary_statistics.api_statistic_rows(
        ApiTime(a.level, a.name, a.end - a.start) for a in collection.apis
    )


def op_statistic_rows(collection: Collection) -> list[list[str]]:
    types = op_types(collection)
    return summary_statistics.op_statistic_rows(
        KernelTime(k.device, types[k.correlation], task_type(k), k.end - k.start) for k in collection.kernels
    )


def communication_statistic_rows(collection: Collection) -> list[list[str]]:
    """msprof's communication_statistic rows: per device and operation type (the COMMUNICATION
    record's name), the operations' count and times. None at Level0, where msprof writes no
    communication statistic (comm_statistic_assembler.cpp)."""
    if collection.is_level0:
        return []
    return summary_statistics.communication_statistic_rows(
        OperationTime(c.device, c.name, c.end - c.start) for c in collection.communications
    )
