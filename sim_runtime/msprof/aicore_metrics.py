"""AI Core metrics: CANN's per-task PMU record and msprof's PipeUtilization calculation.

On the device, each task's PMU counters reach the host on driver channel 53 (the FFTS profile
channel; msprof's collector writes it as ``ffts_profile.data.<n>.slice_<m>``) as one 128-byte
ContextPmu record per task: the stream and task id, the task's total cycles, eight PMU counters (the
events the metric set programs, in that order) and two time stamps. The layout and the formulas
follow Ascend/msprof 9ba1ac7 (analysis/csrc/domain/services/: parser/parser_item/
chip4_pmu_parser_item.h; association/calculator/metric/metric_calculator.cpp,
metric_calculator_group/pipeut_calculator.h and pipeutext_calculator.h; and
analysis/csrc/domain/data_process/ai_task/metric_processor.cpp for the op_summary column names).

Partial: the simulator's device does not produce these records yet and the export does not call this
module yet, so op_summary has no metric column (docs/msprof.md, "AI Core metrics").
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

RECORD_BYTES = 128
FUNC_TYPE_CONTEXT_PMU = 0b101000  # 40: the funcType of a ContextPmu record
PMU_COUNTERS = 8
# <: little-endian, packed. head(u16: funcType 6 bits, cnt 4), resv, streamId, taskId, resv(u64),
# subTaskType/ovFlag(u16), subTaskId(u16), fftsType(u16, top 3 bits), resv(u16), resv(u64),
# totalCycle(u64), resv(u64), pmuList[8](u64), timeList[2](u64).
_LAYOUT = struct.Struct("<HHHHQHHHHQQQ8Q2Q")
assert _LAYOUT.size == RECORD_BYTES


class AicoreMetrics(IntEnum):
    """aclprofAicoreMetrics (acl_prof.h)."""

    ARITHMETIC_UTILIZATION = 0
    PIPE_UTILIZATION = 1
    MEMORY_BANDWIDTH = 2
    L0B_AND_WIDTH = 3
    RESOURCE_CONFLICT_RATIO = 4
    MEMORY_UB = 5
    L2_CACHE = 6
    PIPE_EXECUTE_UTILIZATION = 7
    MEMORY_ACCESS = 8
    NONE = 0xFF


class PmuDataError(ValueError):
    """PMU data that is not a whole number of well-formed ContextPmu records."""


@dataclass(frozen=True)
class ContextPmu:
    stream: int
    task: int
    total_cycles: int
    counters: tuple[int, ...]  # PMU_COUNTERS values, in the order of the metric set's events
    times: tuple[int, int]


def decode(data: bytes) -> list[ContextPmu]:
    """The ContextPmu records of a channel-53 byte stream; PmuDataError names the first bad record."""
    if len(data) % RECORD_BYTES:
        raise PmuDataError(f"{len(data)} bytes is not a whole number of {RECORD_BYTES}-byte PMU records")
    records = []
    for index, fields in enumerate(_LAYOUT.iter_unpack(data)):
        func_type = fields[0] & 0x3F
        if func_type != FUNC_TYPE_CONTEXT_PMU:
            raise PmuDataError(f"PMU record {index}: funcType {func_type}, expected {FUNC_TYPE_CONTEXT_PMU}")
        records.append(
            ContextPmu(
                stream=fields[2],
                task=fields[3],
                total_cycles=fields[10],
                counters=tuple(fields[12:20]),
                times=(fields[20], fields[21]),
            )
        )
    return records


@dataclass(frozen=True)
class PipeMetric:
    name: str  # msprof's metric name (the op_summary column before its unit and core prefix)
    events: tuple[int, ...]
    kind: str  # "ratio": sum(count) / total cycles; "time": total time * ratio; "division": first / rest


@dataclass(frozen=True)
class MetricSet:
    name: str
    metrics: tuple[PipeMetric, ...]  # in op_summary's column order
    events: tuple[int, ...]  # the events the set programs, one per counter of the record


def _pipe(name: str, *events: int) -> tuple[PipeMetric, PipeMetric]:
    """A pipe's time and ratio columns, both read from `events`."""
    return PipeMetric(name + "_time", events, "time"), PipeMetric(name + "_ratio", events, "ratio")


_ICACHE = PipeMetric("icache_miss_rate", (0x55, 0x54), "division")

# msprof's PipeUtilization set (PipeUtCalculator): the vector and cube pipes counted on every core.
PIPE_UTILIZATION = MetricSet(
    "PipeUtilization",
    (*_pipe("vec", 0x8), *_pipe("mac", 0xA), *_pipe("scalar", 0x9), *_pipe("mte1", 0xB), *_pipe("mte2", 0xC),
     *_pipe("mte3", 0xD), _ICACHE),
    (0x8, 0xA, 0x9, 0xB, 0xC, 0xD, 0x55, 0x54),
)  # fmt: skip
# Its extended form for the cube cores of chips that count cube and vector cores apart
# (PipeUtExtCalculator): mac and mte1 from other events (msprof names them *_ratio_extra and writes
# them as *_ratio), fixpipe instead of vec and mte3.
PIPE_UTILIZATION_EXCT = MetricSet(
    "PipeUtilizationExct",
    (PipeMetric("mac_time", (0x416, 0x417), "time"), PipeMetric("mac_ratio_extra", (0x416, 0x417), "ratio"),
     *_pipe("scalar", 0x9),
     PipeMetric("mte1_time", (0x302,), "time"), PipeMetric("mte1_ratio_extra", (0x302,), "ratio"),
     *_pipe("mte2", 0xC), *_pipe("fixpipe", 0x303), _ICACHE),
    (0x416, 0x417, 0x9, 0x302, 0xC, 0x303, 0x55, 0x54),
)  # fmt: skip
assert all(len(s.events) == PMU_COUNTERS for s in (PIPE_UTILIZATION, PIPE_UTILIZATION_EXCT))
# The columns of these sets that msprof drops from op_summary (metric_processor.cpp's UNSUPPORTED_HEADER).
UNSUPPORTED_COLUMNS = frozenset(
    {"aic_vec_ratio", "aic_vec_time", "aiv_mac_ratio", "aiv_mac_time", "aiv_mte1_ratio", "aiv_mte1_time",
     "aiv_fixpipe_ratio", "aiv_fixpipe_time"}
)  # fmt: skip


def total_time_us(total_cycles: int, block_num: int, core_num: int, freq_mhz: float) -> float:
    """msprof's task time from its cycles: cycles / freq / blocks * ceil(blocks / cores); 0 when a
    factor is unknown (0), as msprof computes it."""
    if not block_num or not core_num or not freq_mhz:
        return 0.0
    return total_cycles / freq_mhz / block_num * math.ceil(block_num / core_num)


def pipe_utilization(
    record: ContextPmu,
    metric_set: MetricSet = PIPE_UTILIZATION,
    events: Sequence[int] | None = None,
    *,
    block_num: int,
    core_num: int,
    freq_mhz: float,
) -> dict[str, float]:
    """The metrics of `metric_set` of one record whose counters count `events` (in order; the set's
    own by default), plus total_cycles and total_time, as msprof computes them."""
    events = metric_set.events if events is None else events
    if len(events) != len(record.counters):
        raise PmuDataError(f"{len(events)} events for {len(record.counters)} PMU counters")
    count = dict(zip(events, record.counters, strict=True))
    cycles = record.total_cycles
    total = total_time_us(cycles, block_num, core_num, freq_mhz)
    out: dict[str, float] = {"total_cycles": float(cycles), "total_time": total}
    for metric in metric_set.metrics:
        missing = [e for e in metric.events if e not in count]
        if missing:
            raise PmuDataError(f"{metric.name}: event {missing[0]:#x} is not among the record's events")
        values = [count[e] for e in metric.events]
        if cycles == 0:
            out[metric.name] = 0.0
        elif metric.kind == "division":
            out[metric.name] = 0.0 if 0 in values else values[0] / values[1]
        else:
            ratio = sum(values) / cycles
            out[metric.name] = total * ratio if metric.kind == "time" else ratio
    return out


def summary_header(name: str, prefix: str = "") -> str:
    """op_summary's column for a metric, as msprof's MetricProcessor names it: total_time is
    aicore_time(us) (aiv_time(us) for the vector cores), *_extra loses its suffix, other times get
    (us); `prefix` is aic_ or aiv_ on chips that count cube and vector cores apart, "" otherwise."""
    if name == "total_time":
        return "aiv_time(us)" if prefix == "aiv_" else "aicore_time(us)"
    full = prefix + name.removesuffix("_extra")
    return full + "(us)" if "time" in name else full


def summary_headers(metric_set: MetricSet = PIPE_UTILIZATION, prefix: str = "") -> list[str]:
    """op_summary's columns for one set on one kind of core, in msprof's order, without the columns
    msprof drops."""
    names = ["total_time", "total_cycles"] + [m.name for m in metric_set.metrics]
    return [summary_header(n, prefix) for n in names if prefix + n not in UNSUPPORTED_COLUMNS]
