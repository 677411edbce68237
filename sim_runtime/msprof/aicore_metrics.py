"""AI Core metrics: CANN's per-task PMU record and msprof's PipeUtilization calculation.

On the device, each task's PMU counters reach the host on driver channel 53 (the FFTS profile
channel; msprof's collector writes it as ``ffts_profile.data.<n>.slice_<m>``) as one 128-byte
ContextPmu record per task: the stream and task id, the task's total cycles, eight PMU counters (the
events the metric set programs, in that order) and two time stamps. The layout and the
PipeUtilization formulas follow Ascend/msprof 9ba1ac7 (analysis/csrc/domain/services/parser/
parser_item/chip4_pmu_parser_item.h; association/calculator/metric/metric_calculator.cpp and
metric_calculator_group/pipeut_calculator.h; data_process/ai_task/metric_processor.cpp for the
op_summary column names).

Partial: the simulator's device does not produce these records yet (docs/msprof.md, "AI Core
metrics"), so the export writes no metric column; this module is the reader and calculator the export
applies to them.
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


# msprof's PipeUtilization set: the metrics in column order and the PMU events each reads.
PIPE_UTILIZATION = (
    PipeMetric("vec_time", (0x8,), "time"),
    PipeMetric("vec_ratio", (0x8,), "ratio"),
    PipeMetric("mac_time", (0xA,), "time"),
    PipeMetric("mac_ratio", (0xA,), "ratio"),
    PipeMetric("scalar_time", (0x9,), "time"),
    PipeMetric("scalar_ratio", (0x9,), "ratio"),
    PipeMetric("mte1_time", (0xB,), "time"),
    PipeMetric("mte1_ratio", (0xB,), "ratio"),
    PipeMetric("mte2_time", (0xC,), "time"),
    PipeMetric("mte2_ratio", (0xC,), "ratio"),
    PipeMetric("mte3_time", (0xD,), "time"),
    PipeMetric("mte3_ratio", (0xD,), "ratio"),
    PipeMetric("icache_miss_rate", (0x55, 0x54), "division"),
)
# The events the set programs, one per counter of the record.
PIPE_UTILIZATION_EVENTS = (0x8, 0xA, 0x9, 0xB, 0xC, 0xD, 0x55, 0x54)
assert len(PIPE_UTILIZATION_EVENTS) == PMU_COUNTERS


def total_time_us(total_cycles: int, block_num: int, core_num: int, freq_mhz: float) -> float:
    """msprof's task time from its cycles: cycles / freq / blocks * ceil(blocks / cores); 0 when a
    factor is unknown (0), as msprof computes it."""
    if not block_num or not core_num or not freq_mhz:
        return 0.0
    return total_cycles / freq_mhz / block_num * math.ceil(block_num / core_num)


def pipe_utilization(
    record: ContextPmu,
    events: Sequence[int],
    *,
    block_num: int,
    core_num: int,
    freq_mhz: float,
) -> dict[str, float]:
    """The PipeUtilization metrics of one record whose counters count `events` (in order), plus
    total_cycles and total_time, as msprof computes them."""
    if len(events) != len(record.counters):
        raise PmuDataError(f"{len(events)} events for {len(record.counters)} PMU counters")
    count = dict(zip(events, record.counters, strict=True))
    cycles = record.total_cycles
    total = total_time_us(cycles, block_num, core_num, freq_mhz)
    out: dict[str, float] = {"total_cycles": float(cycles), "total_time": total}
    for metric in PIPE_UTILIZATION:
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
    aicore_time(us) (aiv_time(us) for the vector cores), other times get (us); `prefix` is aic_ or aiv_
    on chips that count the cube and vector cores apart, "" otherwise."""
    if name == "total_time":
        return "aiv_time(us)" if prefix == "aiv_" else "aicore_time(us)"
    full = prefix + name
    return full + "(us)" if "time" in name else full


def pipe_utilization_headers(prefix: str = "") -> list[str]:
    names = ["total_time", "total_cycles"] + [m.name for m in PIPE_UTILIZATION]
    return [summary_header(n, prefix) for n in names]
