"""op_statistic.csv and api_statistic.csv rows, built once for both files that carry them: the
toolkit's msprof (``mindstudio_profiler_output/``, sim_runtime/msprof/summaries.py) and the
``--format ascend-pt`` export (``ASCEND_PROFILER_OUTPUT/``, ascend_pt_views.py), whose torch_npu
copies msprof's files.

Columns, units and order follow msprof's exporters (Ascend/msprof 024471c,
``analysis/csrc/application/summary/``: api_statistic_assembler.cpp, op_statistic) as CANN 8.x
writes them: times in us with three decimals, exactly; the average and the population variance
(us^2) rounded to three decimals; ``host`` as api_statistic's Device_id.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "API_STATISTIC_HEADERS",
    "OP_STATISTIC_HEADERS",
    "ApiTime",
    "KernelTime",
    "api_statistic_rows",
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


def op_statistic_rows(kernels: Iterable[KernelTime]) -> list[list[str]]:
    """One row per (device, OP Type, Core Type), by device, then by total time, longest first; the
    ratio is of the device's kernel time."""
    groups: dict[tuple[int, str, str], list[int]] = {}
    for k in kernels:
        groups.setdefault((k.device, k.op_type, k.core), []).append(k.ns)
    rows = []
    for device in sorted({key[0] for key in groups}):
        mine = {key: d for key, d in groups.items() if key[0] == device}
        device_total = sum(sum(d) for d in mine.values())
        for (_, op_type, core), durations in sorted(mine.items(), key=lambda g: -sum(g[1])):
            total, avg, low, high, _variance = _stats(durations)
            ratio = 100.0 * sum(durations) / device_total if device_total else 0.0
            rows.append(
                [str(device), op_type, core, str(len(durations)), total, low, avg, high, f"{ratio:.3f}"]
            )
    return rows
