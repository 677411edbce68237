"""op_statistic.csv and api_statistic.csv rows, built once for both files that carry them: the
toolkit's msprof (``mindstudio_profiler_output/``, sim_runtime/msprof/summaries.py) and the
``--format ascend-pt`` export (``ASCEND_PROFILER_OUTPUT/``, ascend_pt_views.py), whose torch_npu
copies msprof's files; and msprof's communication_statistic.csv rows, which have op_statistic's
form per communication operation type.

Columns, units and order follow msprof's exporters (Ascend/msprof 024471c,
``analysis/csrc/application/summary/``: api_statistic_assembler.cpp, op_statistic) as CANN 8.x
writes them: times in us with three decimals, exactly; the average and the population variance
(us^2) rounded to three decimals; ``host`` as api_statistic's Device_id.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

__all__ = [
    "API_STATISTIC_HEADERS",
    "COMMUNICATION_STATISTIC_HEADERS",
    "OP_STATISTIC_HEADERS",
    "ApiTime",
    "KernelTime",
    "OperationTime",
    "api_statistic_rows",
    "communication_statistic_rows",
    "op_statistic_rows",
    "us",
]

OP_STATISTIC_HEADERS = [
    "Device_id",
    "OP Type",
    "Core Type",
    "Count",
    "Total Time(us)",
    "Min Time(us)",
    "Avg Time(us)",
    "Max Time(us)",
    "Ratio(%)",
]
# msprof's comm_statistic_assembler.cpp (Ascend/msprof 9ba1ac7): op_statistic's columns without Core Type.
COMMUNICATION_STATISTIC_HEADERS = [h for h in OP_STATISTIC_HEADERS if h != "Core Type"]
API_STATISTIC_HEADERS = [
    "Device_id",
    "Level",
    "API Name",
    "Time(us)",
    "Count",
    "Avg(us)",
    "Min(us)",
    "Max(us)",
    "Variance",
]


@dataclass(frozen=True)
class KernelTime:
    """One kernel as op_statistic counts it: its device, OP Type, Core Type and duration (ns)."""

    device: int
    op_type: str
    core: str
    ns: int


@dataclass(frozen=True)
class OperationTime:
    """One communication operation as communication_statistic counts it: its device, OP Type (the
    operation's name, e.g. hcom_allReduce_) and duration (ns)."""

    device: int
    op_type: str
    ns: int


@dataclass(frozen=True)
class ApiTime:
    """One host call as api_statistic counts it: its level (node, acl, runtime, ...), name and
    duration (ns)."""

    level: str
    name: str
    ns: int


def us(ns: int) -> str:
    """ns as us with three decimals, exactly (msprof's DivideByPowersOfTenWithPrecision)."""
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    return f"{sign}{ns // 1000}.{ns % 1000:03d}"


def _stats(durations_ns: list[int]) -> tuple[str, str, str, str, str]:
    """Total, average, minimum, maximum (us) and population variance (us^2)."""
    values = [d / 1000 for d in durations_ns]
    return (
        us(sum(durations_ns)),
        f"{statistics.fmean(values):.3f}",
        us(min(durations_ns)),
        us(max(durations_ns)),
        f"{statistics.pvariance(values):.3f}",
    )


def api_statistic_rows(calls: Iterable[ApiTime]) -> list[list[str]]:
    """One row per (level, name), by total time, longest first (ties in the order first seen)."""
    groups: dict[tuple[str, str], list[int]] = {}
    for call in calls:
        groups.setdefault((call.level, call.name), []).append(call.ns)
    rows = []
    for (level, name), durations in sorted(groups.items(), key=lambda g: -sum(g[1])):
        total, avg, low, high, variance = _stats(durations)
        rows.append(["host", level, name, total, str(len(durations)), avg, low, high, variance])
    return rows


#: Durations (ns) grouped by device and the names of a group (OP Type, Core Type, ...).
Groups = dict[tuple[int, tuple[str, ...]], list[int]]


def _per_device(groups: Groups) -> Iterator[tuple[tuple[int, tuple[str, ...]], list[int], float]]:
    """The groups by device, then by total time, longest first (ties in the order first seen), each
    with its ratio (%) of its device's total."""
    for device in sorted({key[0] for key in groups}):
        mine = {key: d for key, d in groups.items() if key[0] == device}
        device_total = sum(sum(d) for d in mine.values())
        for key, durations in sorted(mine.items(), key=lambda g: -sum(g[1])):
            yield key, durations, 100.0 * sum(durations) / device_total if device_total else 0.0


def op_statistic_rows(kernels: Iterable[KernelTime]) -> list[list[str]]:
    """One row per (device, OP Type, Core Type), by device, then by total time, longest first; the
    ratio is of the device's kernel time."""
    groups: Groups = {}
    for k in kernels:
        groups.setdefault((k.device, (k.op_type, k.core)), []).append(k.ns)
    rows = []
    for (device, (op_type, core)), durations, ratio in _per_device(groups):
        total, avg, low, high, _variance = _stats(durations)
        rows.append([str(device), op_type, core, str(len(durations)), total, low, avg, high, f"{ratio:.3f}"])
    return rows


def _trimmed(value: float) -> str:
    """A value rounded to three decimals without trailing zeros (msprof's DoubleToStr)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def communication_statistic_rows(ops: Iterable[OperationTime]) -> list[list[str]]:
    """One row per (device, OP Type) of communication operations, by device, then by total time,
    longest first; the ratio is of the device's communication time. As msprof computes them
    (hccl_calculator.cpp GetHcclStatisticsData, hccl_statistic_processor.cpp): times in us rounded to
    three decimals, written without trailing zeros."""
    groups: Groups = {}
    for op in ops:
        groups.setdefault((op.device, (op.op_type,)), []).append(op.ns)
    rows = []
    for (device, (op_type,)), durations, ratio in _per_device(groups):
        times = (sum(durations), min(durations), statistics.fmean(durations), max(durations))
        rows.append(
            [
                str(device),
                op_type,
                str(len(durations)),
                *(_trimmed(ns / 1000) for ns in times),
                _trimmed(ratio),
            ]
        )
    return rows
