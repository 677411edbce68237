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
from sim_runtime.msprof.raw import Collection, Kernel, KernelTask

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


# --- The simulator's collection: PMU files, programmed events, and the join to the kernels ---

SAMPLE_FILE = "sample.json"
_SLICE = re.compile(r"ffts_profile\.data\.(\d+)\.slice_(\d+)$")
METRIC_SETS = {s.name: s for s in (PIPE_UTILIZATION, PIPE_UTILIZATION_EXCT)}


def _events(text: str) -> tuple[int, ...]:
    return tuple(int(e, 16) for e in text.split(",") if e.strip())


def read_device(
    prof_dir: Path, device: int
) -> tuple[str, tuple[int, ...], tuple[int, ...], list[ContextPmu]]:
    """A device's metric set name, cube and vector events (sample.json) and PMU records (its
    ffts_profile slices in order); ("", (), (), []) when the device collected no AI Core metrics.
    PmuDataError names a file that is not what libmsprofiler writes."""
    folder = prof_dir / f"device_{device}"
    sample = folder / SAMPLE_FILE
    if not sample.is_file():
        return "", (), (), []
    try:
        meta = json.loads(sample.read_text(encoding="utf-8"))
        name = str(meta["ai_core_metrics"])
        aic, aiv = _events(str(meta["ai_core_profiling_events"])), _events(str(meta["aiv_profiling_events"]))
    except (OSError, ValueError, KeyError, TypeError) as error:
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
    return name, aic, aiv, records


@dataclass(frozen=True)
class KernelMetrics:
    """op_summary's metric columns of one collection and each kernel's values (by its record key)."""

    headers: list[str]
    values: dict[tuple[int, int, int, int, int], list[str]]
    tasks: dict[tuple[int, int, int, int, int], KernelTask]  # each kernel's task (Task ID)

    def row(self, kernel_key: tuple[int, int, int, int, int] | None) -> list[str]:
        """A row's metric values: N/A for a task without PMU records (a communication operation, an
        AI CPU kernel)."""
        known = self.values.get(kernel_key) if kernel_key is not None else None
        return known if known is not None else ["N/A"] * len(self.headers)


def _format(header: str, value: float) -> str:
    return str(int(value)) if header.endswith("total_cycles") else f"{value:.3f}"


def _columns(metric_set: MetricSet, prefix: str) -> list[tuple[str, str]]:
    """(metric name, op_summary header) of one set on one kind of core, in msprof's order."""
    names = ["total_time", "total_cycles"] + [m.name for m in metric_set.metrics]
    return [(n, summary_header(n, prefix)) for n in names if prefix + n not in UNSUPPORTED_COLUMNS]


def kernel_metrics(collection: Collection) -> KernelMetrics:
    """The AI Core metric columns of op_summary, as msprof writes them for a PipeUtilization
    collection: on a chip that counts cube and vector cores apart (the device has vector cores) the
    cube cores' extended set (aic_ columns) then the vector cores' set (aiv_ columns), else the plain
    set; none when no device collected metrics. A kernel's PMU records are found as msprof joins them:
    by stream and task id (its KERNEL record's task, ``kernel_task``), the record's end time telling
    apart tasks whose 16-bit ids repeat. Times use msprof's formula with one block on one core: the
    simulated record's cycles are those of the task's span (docs/msprof.md)."""
    tasks = {t.record_key: t for t in collection.kernel_tasks}
    headers: list[str] = []
    values: dict[tuple[int, int, int, int, int], list[str]] = {}
    for device in collection.devices:
        name, aic_events, aiv_events, records = read_device(collection.path, device)
        if name != PIPE_UTILIZATION.name:
            continue
        info = device_info.read(collection.path, device)
        split = info.aiv_num > 0
        layout = (
            [(PIPE_UTILIZATION_EXCT, "aic_", True, aic_events), (PIPE_UTILIZATION, "aiv_", False, aiv_events)]
            if split
            else [(PIPE_UTILIZATION, "", None, aic_events)]
        )
        columns = [(cube, s, ev, _columns(s, prefix)) for s, prefix, cube, ev in layout]
        device_headers = [h for *_, cols in columns for _, h in cols]
        if headers and headers != device_headers:
            raise PmuDataError(f"device {device}: metric columns differ from another device's")
        headers = device_headers
        by_task: dict[tuple[int, int, int], list[ContextPmu]] = {}
        for r in records:
            by_task.setdefault((r.stream, r.task, r.times[1]), []).append(r)
        freq = float(info.aic_frequency_mhz)
        for kernel in collection.kernels:
            if kernel.device != device:
                continue
            key = _record_key(kernel)
            task = tasks.get(key)
            contexts = by_task.get((task.stream, task.task, task.end_count), []) if task else []
            if not contexts:
                continue
            row: list[str] = []
            for cube, metric_set, events, cols in columns:
                record = next((c for c in contexts if cube is None or c.cube == cube), None)
                if record is None:
                    row += ["N/A"] * len(cols)
                    continue
                computed = pipe_utilization(
                    record, metric_set, events, block_num=1, core_num=1, freq_mhz=freq
                )
                row += [_format(h, computed[n]) for n, h in cols]
            values[key] = row
    return KernelMetrics(headers, values, tasks)


def _record_key(kernel: Kernel) -> tuple[int, int, int, int, int]:
    return (kernel.device, kernel.stream, kernel.start, kernel.end, kernel.correlation)
