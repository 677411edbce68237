"""CANN's summary files (mindstudio_profiler_output/*.csv) from one collection.

Names, columns and units follow msprof's exporters in Ascend/msprof 024471c
(analysis/csrc/application/summary/: op_summary_assembler.cpp, task_time_assembler.cpp,
api_statistic_assembler.cpp, op_statistic), as CANN 8.x writes them. Times are in us with three
decimals; a start time ends in a tab, as msprof writes it (readers strip it). A field the simulator
does not model is written as msprof writes it when not collected ("N/A"); docs/msprof.md lists them.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path

from mspti_trace import summary_statistics, task_types
from mspti_trace.ascend_pt_views import SINGLE_OP_MODEL_ID
from mspti_trace.summary_statistics import ApiTime, KernelTime, us
from sim_runtime.msprof.raw import Collection, Kernel

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


def write_csv(path: Path, headers: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(headers)
        writer.writerows(rows)


def op_summary_rows(collection: Collection) -> list[list[str]]:
    """One row per kernel and per communication operation, ordered by device and start time."""
    tasks: list[tuple[int, int, int, list[str]]] = []
    types = op_types(collection)
    for k in collection.kernels:
        row = [
            str(k.device),
            MODEL_ID_NONE,
            NA,
            str(k.stream),
            k.name,
            types[k.correlation],
            NA,
            task_type(k),
        ]
        row += ["", us(k.end - k.start), "0"]
        tasks.append((k.device, k.start, k.end, row + [NA] * 9 + [NA]))
    for c in collection.communications:
        row = [
            str(c.device),
            MODEL_ID_NONE,
            NA,
            NA,
            c.name,
            NA,
            NA,
            "COMMUNICATION",
            "",
            us(c.end - c.start),
            "0",
        ]
        tasks.append((c.device, c.start, c.end, row + ["0"] + [NA] * 9))
    tasks.sort(key=lambda t: (t[0], t[1]))
    rows = []
    previous: tuple[int, int] | None = None  # (device, end) of the row before
    for device, start, end, row in tasks:
        row[8] = us(start) + "\t"
        if previous is not None and previous[0] == device:
            row[10] = us(max(0, start - previous[1]))
        previous = (device, end)
        rows.append(row)
    return rows


def task_time_rows(collection: Collection) -> list[list[str]]:
    rows = []
    for k in sorted(collection.kernels, key=lambda k: (k.device, k.start)):
        rows.append(
            [
                str(k.device),
                k.name,
                task_type(k),
                str(k.stream),
                NA,
                us(k.end - k.start),
                us(k.start) + "\t",
                us(k.end) + "\t",
            ]
        )
    for c in sorted(collection.copies, key=lambda c: (c.device, c.start)):
        name = "MEMCPY_ASYNC" if c.kind == "memcpy" else "MEMSET_ASYNC"
        rows.append(
            [
                str(c.device),
                name,
                name,
                str(c.stream),
                NA,
                us(c.end - c.start),
                us(c.start) + "\t",
                us(c.end) + "\t",
            ]
        )
    rows.sort(key=lambda r: (int(r[0]), r[6]))
    return rows


def api_statistic_rows(collection: Collection) -> list[list[str]]:
    return summary_statistics.api_statistic_rows(
        ApiTime(a.level, a.name, a.end - a.start) for a in collection.apis
    )


def op_statistic_rows(collection: Collection) -> list[list[str]]:
    types = op_types(collection)
    return summary_statistics.op_statistic_rows(
        KernelTime(k.device, types[k.correlation], task_type(k), k.end - k.start) for k in collection.kernels
    )
