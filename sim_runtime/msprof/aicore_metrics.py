"""AI Core metrics: CANN's per-task PMU record and msprof's PipeUtilization calculation.

On the device, each task's PMU counters reach the host on driver channel 53 (the FFTS profile
channel; msprof's collector writes it as ``ffts_profile.data.<n>.slice_<m>``) as one 128-byte
ContextPmu record per task: the stream and task id, the task's total cycles, eight PMU counters (the
events the metric set programs, in that order) and two time stamps. The layout and the formulas
follow Ascend/msprof 9ba1ac7 (analysis/csrc/domain/services/: parser/parser_item/
chip4_pmu_parser_item.h; association/calculator/metric/metric_calculator.cpp,
metric_calculator_group/pipeut_calculator.h and pipeutext_calculator.h; and
analysis/csrc/domain/data_process/ai_task/metric_processor.cpp for the op_summary column names).

On the simulator the device model writes these records for PipeUtilization (csrc/sim/core/device.cpp,
Device::emit_pmu) and libmsprofiler stores them in ``device_<n>/data/ffts_profile.data.<n>.slice_<m>``
with the events it programmed in ``device_<n>/sample.json`` (csrc/sim/msprofiler/pmu_channel.h);
`kernel_metrics` joins them to the kernels and gives op_summary's metric columns (docs/msprof.md,
"AI Core metrics").
"""

from __future__ import annotations

import json
import math
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

from sim_runtime.msprof import device_info
from sim_runtime.msprof.block_num import block_dims
from sim_runtime.msprof.raw import Collection, KernelTask, RecordKey, record_key

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


FFTS_TYPE_AIC_ONLY = 0
FFTS_TYPE_FFTS_PLUS = 4
SUBTASK_MIX_AIC = 6
SUBTASK_MIX_AIV = 7


@dataclass(frozen=True)
class ContextPmu:
    stream: int
    task: int
    total_cycles: int
    counters: tuple[int, ...]  # PMU_COUNTERS values, in the order of the metric set's events
    times: tuple[int, int]
    sub_task_type: int = 0
    context: int = 0  # subTaskId: the context id of an FFTS+ task
    ffts_type: int = 0

    @property
    def cube(self) -> bool:
        """Counted on a cube core: msprof's GetAcceleratorTypeByType (pmu_accelerator_utils.cpp) gives
        AIC or MIX_AIC; AIV or MIX_AIV otherwise."""
        if self.ffts_type == FFTS_TYPE_FFTS_PLUS and self.sub_task_type in (SUBTASK_MIX_AIC, SUBTASK_MIX_AIV):
            return self.sub_task_type == SUBTASK_MIX_AIC
        return self.ffts_type == FFTS_TYPE_AIC_ONLY or (
            self.ffts_type == FFTS_TYPE_FFTS_PLUS and self.sub_task_type == 0
        )


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
                sub_task_type=fields[5] & 0xFF,
                context=fields[6],
                ffts_type=fields[7] >> 13,
            )
        )
    return records


@dataclass(frozen=True)
class PmuMetric:
    """One metric of a set, computed from its events as msprof's Calculator does."""

    name: str  # msprof's metric name (the op_summary column before its unit and core prefix)
    events: tuple[int, ...]
    # "ratio": sum(count) / total cycles; "time": total time * ratio; "division": first / rest;
    # "bandwidth": sum(count * pipe size * scale) / (cycles / frequency) / 2^33 (GB/s); "fops":
    # sum(count * operations per count); "sum": sum(count); "data": scale * sum(count) (KB);
    # "data_difference": scale * (first - rest) (KB)
    kind: str
    factors: tuple[float, ...] = ()  # bandwidth: (pipe size, scale); fops: one per event; data: (scale,)


@dataclass(frozen=True)
class MetricSet:
    name: str
    metrics: tuple[PmuMetric, ...]  # in op_summary's column order
    events: tuple[int, ...]  # the events the set programs, in counter order (at most PMU_COUNTERS)


def _pipe(name: str, *events: int) -> tuple[PmuMetric, PmuMetric]:
    """A pipe's time and ratio columns, both read from `events`."""
    return PmuMetric(name + "_time", events, "time"), PmuMetric(name + "_ratio", events, "ratio")


def _bw(name: str, event: int, pipe_size: float, scale: float) -> PmuMetric:
    return PmuMetric(name, (event,), "bandwidth", (pipe_size, scale))


_ICACHE = PmuMetric("icache_miss_rate", (0x55, 0x54), "division")

# The sets and events follow msprof's calculators (Ascend/msprof 9ba1ac7,
# analysis/csrc/domain/services/association/calculator/metric/metric_calculator_group/*.h, the column
# names of analysis/csrc/domain/entities/metric/metric.cpp) and the events its collector programs
# (hicann/runtime 681ef76, src/dfx/msprof/collector/dvvp/profimpl/platform/platform_interface.h,
# base_analyzer.cpp, cloud_v2_analyzer.h; csrc/sim/msprofiler/pmu_channel.cpp holds the same lists).

# PipeUtilization (PipeUtCalculator): the vector and cube pipes counted on every core.
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
    (PmuMetric("mac_time", (0x416, 0x417), "time"), PmuMetric("mac_ratio_extra", (0x416, 0x417), "ratio"),
     *_pipe("scalar", 0x9),
     PmuMetric("mte1_time", (0x302,), "time"), PmuMetric("mte1_ratio_extra", (0x302,), "ratio"),
     *_pipe("mte2", 0xC), *_pipe("fixpipe", 0x303), _ICACHE),
    (0x416, 0x417, 0x9, 0x302, 0xC, 0x303, 0x55, 0x54),
)  # fmt: skip
# ArithmeticUtilization (ArithMetricCalculator): cube and vector cycles by data type, and the
# operations they stand for (cube: 8192 fp16 / 16384 int8 per cycle; vector: the lanes of each type).
ARITHMETIC_UTILIZATION = MetricSet(
    "ArithmeticUtilization",
    (PmuMetric("mac_fp16_ratio", (0x49,), "ratio"), PmuMetric("mac_int8_ratio", (0x4A,), "ratio"),
     PmuMetric("vec_fp32_ratio", (0x4B,), "ratio"), PmuMetric("vec_fp16_ratio", (0x4C, 0x4D), "ratio"),
     PmuMetric("vec_int32_ratio", (0x4E,), "ratio"), PmuMetric("vec_misc_ratio", (0x4F,), "ratio"),
     PmuMetric("cube_fops", (0x49, 0x4A), "fops", (8192, 16384)),
     PmuMetric("vector_fops", (0x4C, 0x4D, 0x4B, 0x4E, 0x4F), "fops", (128, 64, 64, 64, 32))),
    (0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E, 0x4F),
)  # fmt: skip
# Memory (MemoryCalculator): bandwidths of the on-chip buffers, main memory and L2.
MEMORY = MetricSet(
    "Memory",
    (_bw("ub_read_bw", 0x15, 256, 4), _bw("ub_write_bw", 0x16, 256, 4), _bw("l1_read_bw", 0x31, 256, 16),
     _bw("l1_write_bw", 0x32, 128, 8), _bw("main_mem_read_bw", 0x12, 8, 8),
     _bw("main_mem_write_bw", 0x13, 8, 8), _bw("l2_read_bw", 0xF, 256, 8), _bw("l2_write_bw", 0x10, 256, 8)),
    (0x15, 0x16, 0x31, 0x32, 0xF, 0x10, 0x12, 0x13),
)  # fmt: skip
# MemoryL0 (MemoryL0Calculator): bandwidths of L0A, L0B and L0C.
MEMORY_L0 = MetricSet(
    "MemoryL0",
    (_bw("l0a_read_bw", 0x1B, 256, 16), _bw("l0a_write_bw", 0x1C, 256, 16), _bw("l0b_read_bw", 0x21, 256, 16),
     _bw("l0b_write_bw", 0x22, 256, 8), _bw("l0c_read_bw", 0x27, 256, 8), _bw("l0c_write_bw", 0x29, 256, 8),
     _bw("l0c_read_bw_cube", 0x28, 256, 32), _bw("l0c_write_bw_cube", 0x2A, 256, 32)),
    (0x1B, 0x1C, 0x21, 0x22, 0x27, 0x28, 0x29, 0x2A),
)  # fmt: skip
# ResourceConflictRatio (ResourceConflictCalculator): the vector unit's bank and resource conflicts.
RESOURCE_CONFLICT_RATIO = MetricSet(
    "ResourceConflictRatio",
    (PmuMetric("vec_bankgroup_cflt_ratio", (0x64,), "ratio"),
     PmuMetric("vec_bank_cflt_ratio", (0x65,), "ratio"), PmuMetric("vec_resc_cflt_ratio", (0x66,), "ratio")),
    (0x64, 0x65, 0x66),
)  # fmt: skip
# MemoryUB (MemoryUBCalculator): the unified buffer's bandwidths by the vector and the scalar unit.
MEMORY_UB = MetricSet(
    "MemoryUB",
    (_bw("ub_read_bw_vector", 0x43, 128, 2), _bw("ub_write_bw_vector", 0x44, 128, 2),
     _bw("ub_read_bw_scalar", 0x37, 128, 1), _bw("ub_write_bw_scalar", 0x38, 128, 1)),
    (0x10, 0x13, 0x37, 0x38, 0x3D, 0x3E, 0x43, 0x44),
)  # fmt: skip
# L2Cache (L2CacheCalculator): the L2 cache's hit and allocation counts.
L2_CACHE = MetricSet(
    "L2Cache",
    tuple(PmuMetric(n, (e,), "sum") for n, e in (
        ("write_cache_hit", 0x500), ("write_cache_miss_allocate", 0x502), ("r0_read_cache_hit", 0x504),
        ("r0_read_cache_miss_allocate", 0x506), ("r1_read_cache_hit", 0x508),
        ("r1_read_cache_miss_allocate", 0x50A))),
    (0x500, 0x502, 0x504, 0x506, 0x508, 0x50A),
)  # fmt: skip
# MemoryAccess (MemoryAccessCalculator): the data each path moved, in KB.
MEMORY_ACCESS = MetricSet(
    "MemoryAccess",
    (PmuMetric("read_main_memory_datas", (0x50D, 0x50E), "data", (0.125,)),
     PmuMetric("write_main_memory_datas", (0x50C,), "data", (0.125,)),
     PmuMetric("GM_to_L1_datas", (0x32, 0x206), "data_difference", (0.25,)),
     PmuMetric("L0C_to_L1_datas", (0x206,), "data", (0.125,)),
     PmuMetric("L0C_to_GM_datas", (0x20C, 0x206), "data_difference", (0.125,)),
     PmuMetric("GM_to_UB_datas", (0x3E,), "data", (0.125,)),
     PmuMetric("UB_to_GM_datas", (0x3D,), "data", (0.125,))),
    (0x32, 0x3D, 0x3E, 0x206, 0x20C, 0x50C, 0x50D, 0x50E),
)  # fmt: skip
assert all(
    len(s.events) <= PMU_COUNTERS
    for s in (PIPE_UTILIZATION, PIPE_UTILIZATION_EXCT, ARITHMETIC_UTILIZATION, MEMORY, MEMORY_L0,
              RESOURCE_CONFLICT_RATIO, MEMORY_UB, L2_CACHE, MEMORY_ACCESS)
)  # fmt: skip
# The columns of these sets that msprof drops from op_summary (metric_processor.cpp's UNSUPPORTED_HEADER).
UNSUPPORTED_COLUMNS = frozenset(
    {"aic_vec_ratio", "aic_vec_time", "aiv_mac_ratio", "aiv_mac_time", "aiv_mte1_ratio", "aic_ub_read_bw",
     "aiv_mte1_time", "aic_ub_write_bw", "aiv_l1_read_bw", "aiv_l1_write_bw", "aic_l0c_read_bw",
     "aic_l0c_write_bw", "aiv_l0a_read_bw", "aiv_l0a_write_bw", "aiv_l0b_read_bw", "aiv_l0b_write_bw",
     "aiv_l0c_read_bw_cube", "aiv_l0c_write_bw_cube", "aic_ub_read_bw_mte", "aic_ub_write_bw_mte",
     "aic_ub_read_bw_vector", "aic_ub_write_bw_vector", "aiv_mac_fp16_ratio", "aiv_mac_int8_ratio",
     "aic_vec_fp32_ratio", "aic_vec_fp16_ratio", "aic_vec_int32_ratio", "aic_vec_misc_ratio",
     "aic_vec_fp16_128lane_ratio", "aic_vec_fp16_64lane_ratio", "aic_vec_bankgroup_cflt_ratio",
     "aic_vec_bank_cflt_ratio", "aic_vec_resc_cflt_ratio", "aic_vector_fops", "aiv_cube_fops",
     "aiv_fixpipe_ratio", "aiv_fixpipe_time"}
)  # fmt: skip
BANDWIDTH_DIVISOR = 1 << 33  # msprof's OFFSET (metric_calculator.h): a bandwidth's count scale


def total_time_us(total_cycles: int, block_num: int, core_num: int, freq_mhz: float) -> float:
    """msprof's task time from its cycles: cycles / freq / blocks * ceil(blocks / cores); 0 when a
    factor is unknown (0), as msprof computes it."""
    if not block_num or not core_num or not freq_mhz:
        return 0.0
    return total_cycles / freq_mhz / block_num * math.ceil(block_num / core_num)


def _value(metric: PmuMetric, values: list[int], cycles: int, total: float, freq_mhz: float) -> float:
    """One metric from its events' counts, as msprof's Calculator computes it."""
    if metric.kind == "sum":
        return float(sum(values))
    if metric.kind == "data":
        return metric.factors[0] * sum(values)
    if metric.kind == "data_difference":
        return metric.factors[0] * (values[0] - sum(values[1:]))
    if cycles == 0:
        return 0.0
    if metric.kind == "division":
        return 0.0 if 0 in values else values[0] / values[1]
    if metric.kind == "fops":
        return float(sum(v * f for v, f in zip(values, metric.factors, strict=True)))
    if metric.kind == "bandwidth":
        if not freq_mhz:
            return 0.0
        pipe_size, scale = metric.factors
        return sum(values) * pipe_size * scale / (cycles / (freq_mhz * 1e6)) / BANDWIDTH_DIVISOR
    ratio = sum(values) / cycles
    return total * ratio if metric.kind == "time" else ratio


def compute_metrics(
    record: ContextPmu,
    metric_set: MetricSet = PIPE_UTILIZATION,
    events: Sequence[int] | None = None,
    *,
    block_num: int,
    core_num: int,
    freq_mhz: float,
) -> dict[str, float]:
    """The metrics of `metric_set` of one record whose first counters count `events` (in order; the
    set's own by default), plus total_cycles and total_time, as msprof computes them."""
    events = metric_set.events if events is None else events
    if not events or len(events) > len(record.counters):
        raise PmuDataError(f"{len(events)} events for {len(record.counters)} PMU counters")
    count = dict(zip(events, record.counters, strict=False))
    cycles = record.total_cycles
    total = total_time_us(cycles, block_num, core_num, freq_mhz)
    out: dict[str, float] = {"total_cycles": float(cycles), "total_time": total}
    for metric in metric_set.metrics:
        missing = [e for e in metric.events if e not in count]
        if missing:
            raise PmuDataError(f"{metric.name}: event {missing[0]:#x} is not among the record's events")
        out[metric.name] = _value(metric, [count[e] for e in metric.events], cycles, total, freq_mhz)
    return out


def summary_header(name: str, prefix: str = "") -> str:
    """op_summary's column for a metric, as msprof's MetricProcessor names it: total_time is
    aicore_time(us) (aiv_time(us) for the vector cores), *_extra loses its suffix, other times get
    (us), bandwidths (GB/s), data amounts (KB); `prefix` is aic_ or aiv_ on chips that count cube and
    vector cores apart, "" otherwise."""
    if name == "total_time":
        return "aiv_time(us)" if prefix == "aiv_" else "aicore_time(us)"
    full = prefix + name.removesuffix("_extra")
    if "time" in name:
        return full + "(us)"
    if "bw" in name:
        return full + "(GB/s)"
    if "datas" in name:
        return full + "(KB)"
    return full


def summary_headers(metric_set: MetricSet = PIPE_UTILIZATION, prefix: str = "") -> list[str]:
    """op_summary's columns for one set on one kind of core, in msprof's order, without the columns
    msprof drops."""
    return [h for _, h in _columns(metric_set, prefix)]


# --- The simulator's collection: PMU files, programmed events, and the join to the kernels ---

SAMPLE_FILE = "sample.json"
_SLICE = re.compile(r"ffts_profile\.data\.(\d+)\.slice_(\d+)$")
METRIC_SETS = {
    s.name: s
    for s in (PIPE_UTILIZATION, ARITHMETIC_UTILIZATION, MEMORY, MEMORY_L0, RESOURCE_CONFLICT_RATIO, MEMORY_UB,
              L2_CACHE, MEMORY_ACCESS)
}  # fmt: skip
# The set msprof computes on the cube cores of a chip that counts cube and vector cores apart, where
# it is not the set itself.
SPLIT_CUBE_SETS = {PIPE_UTILIZATION.name: PIPE_UTILIZATION_EXCT}
CUBE_UTILIZATION = "cube_utilization(%)"


def _events(text: str) -> tuple[int, ...]:
    return tuple(int(e, 16) for e in text.split(",") if e.strip())


@dataclass(frozen=True)
class DeviceSample:
    """What a device collected (sample.json and its ffts_profile slices)."""

    metric_set: str  # "" when the device collected no AI Core metrics
    aic_events: tuple[int, ...] = ()
    aiv_events: tuple[int, ...] = ()
    records: tuple[ContextPmu, ...] = ()
    # The events the simulated device counts (libmsprofiler's npu_sim_counted_events); None when the
    # file does not say (as CANN's): every event was counted.
    counted: frozenset[int] | None = None


def read_device(prof_dir: Path, device: int) -> DeviceSample:
    """A device's metric set, cube and vector events (sample.json) and PMU records (its ffts_profile
    slices in order). PmuDataError names a file that is not what libmsprofiler writes."""
    folder = prof_dir / f"device_{device}"
    sample = folder / SAMPLE_FILE
    if not sample.is_file():
        return DeviceSample("")
    try:
        meta = json.loads(sample.read_text(encoding="utf-8"))
        name = str(meta["ai_core_metrics"])
        aic, aiv = _events(str(meta["ai_core_profiling_events"])), _events(str(meta["aiv_profiling_events"]))
        counted_text = meta.get("npu_sim_counted_events")
        counted = frozenset(_events(str(counted_text))) if counted_text is not None else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise PmuDataError(f"{sample}: {error}") from error
    slices = sorted(
        (int(m.group(2)), path)
        for path in (folder / "data").glob(f"ffts_profile.data.{device}.slice_*")
        if (m := _SLICE.search(path.name))
    )
    records: list[ContextPmu] = []
    for _, path in slices:
        try:
            records += decode(path.read_bytes())
        except PmuDataError as error:
            raise PmuDataError(f"{path}: {error}") from error
    return DeviceSample(name, aic, aiv, tuple(records), counted)


Key = RecordKey  # a KERNEL record: device, stream, start, end, correlation


@dataclass(frozen=True)
class KernelMetrics:
    """op_summary's metric columns of one collection and each kernel's values (by its record key), and
    the values msprof's database keeps per task (TASK_PMU_INFO: metric name and value)."""

    headers: list[str]
    values: dict[Key, list[str]]
    tasks: dict[Key, KernelTask]  # each kernel's task (Task ID)
    pmu: dict[Key, list[tuple[str, float]]]  # the modelled metrics by msprof's metric names
    cube_usage: dict[Key, float]  # cube_utilization(%) before msprof divides by the task duration

    def row(self, kernel_key: Key | None, duration_us: float = 0.0) -> list[str]:
        """A row's metric values: N/A for a task without PMU records (a communication operation, an
        AI CPU kernel). cube_utilization(%) is the cube cycles over the cube cores' cycles in the
        task's duration, as msprof's OpSummaryAssembler completes it (0 for a zero duration)."""
        known = self.values.get(kernel_key) if kernel_key is not None else None
        if known is None:
            return [NA] * len(self.headers)
        if not self.headers or self.headers[-1] != CUBE_UTILIZATION:
            return known
        usage = self.cube_usage.get(kernel_key) if kernel_key is not None else None
        if usage is None:
            return [*known, NA]
        return [*known, f"{usage / duration_us:.3f}" if duration_us else "0"]


NA = "N/A"


def _format(header: str, value: float) -> str:
    return str(int(value)) if header.endswith("total_cycles") else f"{value:.3f}"


def _columns(metric_set: MetricSet, prefix: str) -> list[tuple[str, str]]:
    """(metric name, op_summary header) of one set on one kind of core, in msprof's order."""
    names = ["total_time", "total_cycles"] + [m.name for m in metric_set.metrics]
    return [(n, summary_header(n, prefix)) for n in names if prefix + n not in UNSUPPORTED_COLUMNS]


def _modelled(metric_set: MetricSet, name: str, counted: frozenset[int] | None) -> bool:
    """Whether a metric comes from an event the device counted (total time and cycles always do)."""
    if counted is None or name in ("total_time", "total_cycles"):
        return True
    metric = next(m for m in metric_set.metrics if m.name == name)
    return any(e in counted for e in metric.events)


def _cube_usage_columns(headers: list[str]) -> bool:
    """msprof adds cube_utilization(%) when the columns hold the cube's mac ratio and total cycles."""
    return ("mac_ratio" in headers and "total_cycles" in headers) or (
        "aic_mac_ratio" in headers and "aic_total_cycles" in headers
    )


def kernel_metrics(collection: Collection) -> KernelMetrics:
    """The AI Core metric columns of op_summary, as msprof writes them for the collection's metric set:
    on a chip that counts cube and vector cores apart (the device has vector cores) the cube cores'
    set (aic_ columns; PipeUtilization's extended set) then the vector cores' set (aiv_ columns), else
    the set without prefix; then cube_utilization(%) where msprof adds it; none when no device
    collected metrics. A metric none of whose events the simulated device counts is N/A. A kernel's
    PMU records are found as msprof joins them: by stream and task id (its KERNEL record's task,
    ``kernel_task``), the record's end time telling apart tasks whose 16-bit ids repeat. Times use
    msprof's formula with the kernel's Block Num (block_num.block_dims; 0, so a time of 0, when it is not
    known, as msprof) and the device's cube cores (a cube record) or vector cores (a vector record of a
    chip that counts them apart): the simulated records count the cycles of every core the blocks ran
    on (docs/msprof.md)."""
    tasks = {t.record_key: t for t in collection.kernel_tasks}
    blocks = block_dims(collection)
    headers: list[str] = []
    values: dict[Key, list[str]] = {}
    pmu: dict[Key, list[tuple[str, float]]] = {}
    cube_usage: dict[Key, float] = {}
    for device in collection.devices:
        sample = read_device(collection.path, device)
        metric_set = METRIC_SETS.get(sample.metric_set)
        if metric_set is None:
            continue
        info = device_info.read(collection.path, device)
        split = info.aiv_num > 0
        layout = (
            [(SPLIT_CUBE_SETS.get(metric_set.name, metric_set), "aic_", True, sample.aic_events),
             (metric_set, "aiv_", False, sample.aiv_events)]
            if split
            else [(metric_set, "", None, sample.aic_events)]
        )  # fmt: skip
        columns = [(cube, s, prefix, ev, _columns(s, prefix)) for s, prefix, cube, ev in layout]
        device_headers = [h for *_, cols in columns for _, h in cols]
        if _cube_usage_columns(device_headers):
            device_headers.append(CUBE_UTILIZATION)
        if headers and headers != device_headers:
            raise PmuDataError(f"device {device}: metric columns differ from another device's")
        headers = device_headers
        by_task: dict[tuple[int, int, int], list[ContextPmu]] = {}
        for r in sample.records:
            by_task.setdefault((r.stream, r.task, r.times[1]), []).append(r)
        freq = float(info.aic_frequency_mhz)
        for kernel in collection.kernels:
            if kernel.device != device:
                continue
            key = record_key(kernel)
            task = tasks.get(key)
            contexts = by_task.get((task.stream, task.task, task.end_count), []) if task else []
            if not contexts:
                continue
            row: list[str] = []
            named: list[tuple[str, float]] = []
            for cube, s, prefix, events, cols in columns:
                record = next((c for c in contexts if cube is None or c.cube == cube), None)
                if record is None:
                    row += [NA] * len(cols)
                    continue
                # msprof's CalculatePmuMetric: a cube record's cores are the AI Cores, a vector record's
                # the vector cores (on a chip without them, the AI Cores).
                cores = info.aiv_num if split and not record.cube else info.ai_core_num
                computed = compute_metrics(
                    record, s, events, block_num=blocks.get(key, 0), core_num=cores, freq_mhz=freq
                )
                for n, h in cols:
                    if _modelled(s, n, sample.counted):
                        row.append(_format(h, computed[n]))
                        named.append((prefix + n, computed[n]))
                    else:
                        row.append(NA)
                if cube is not False and CUBE_UTILIZATION in headers and info.ai_core_num and freq:
                    # msprof's AddCubeUsageWithoutDur: cycles / (frequency x cube cores) x 100; the
                    # record's cycles are summed over the cores the kernel's blocks ran on, so over the
                    # task's duration this is the share of the chip's cube cores the kernel kept busy.
                    cube_usage[key] = record.total_cycles / (freq * info.ai_core_num) * 100
            values[key] = row
            pmu[key] = named
    return KernelMetrics(headers, values, tasks, pmu, cube_usage)
