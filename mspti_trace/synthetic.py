"""A synthetic capture of any size, in the collector's format, and the timing of its export: the
workload the export speed is measured on (``measure_export``; ``npu-sim bench`` can call it).

The program it stands for: steps (an mstx ``step`` range each) of decoder layers (a
``decoder_layers`` range each) of operators. An operator is one call reported at three levels with
one span (NODE_API, ACL_API and RUNTIME_API records, as a runtime reports a launch) and the kernel
it launched on stream 2. Each layer also makes an asynchronous copy on the stream (timed on the
device, after the kernel before it) and a synchronous copy (timed by msPTI around the call, so it
starts 20 ns before the call's API records and ends 20 ns after them); each step ends with an
all-reduce on stream 3 (inside a ``grad_sync`` range, so that the breakdown attributes it) and a
memory allocation. Durations vary with a seeded generator, so a seed
reproduces the capture byte for byte.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mspti_trace.kinds import ActivityKind, MarkerFlag
from mspti_trace.writer import CaptureWriter, new_records

__all__ = ["EXPORT_FORMATS", "ExportTiming", "measure_export", "write_synthetic_capture"]

PID = 1000
BASE_NS = 1_700_000_000_000_000_000
OPS_PER_LAYER = 12
LAYERS_PER_STEP = 16
#: Records per layer: per operator 3 API records and a kernel; an async copy (2 API records and
#: the copy), a sync copy (2 + 1); the layer range (2 markers).
_RECORDS_PER_LAYER = OPS_PER_LAYER * 4 + 3 + 3 + 2
#: Records per step besides its layers: the step and grad_sync ranges (2 each), the all-reduce (API,
#: NODE_API, COMMUNICATION), one MEMORY record.
_RECORDS_PER_STEP = 2 + 2 + 3 + 1
_CHUNK = 80_000  # records per chunk, as buffers of a few MB deliver them
EXPORT_FORMATS = ("chrome", "kineto", "ascend-pt")


def write_synthetic_capture(directory: Path | str, records: int = 1_000_000, seed: int = 0) -> int:
    """Writes a capture of about ``records`` records (whole steps, at least one) into
    ``directory``; returns the number written."""
    per_step = LAYERS_PER_STEP * _RECORDS_PER_LAYER + _RECORDS_PER_STEP
    steps = max(1, round(records / per_step))
    rng = np.random.default_rng(seed)
    writer = CaptureWriter(directory, PID, {"soc": "Ascend910B3", "clock": "virtual", "argv": ["synthetic"]})
    layers = steps * LAYERS_PER_STEP
    ops = layers * OPS_PER_LAYER
    # Host time line: an operator call every 2 us, a layer adds two copies (4 us), a step 10 us.
    op = np.arange(ops)
    layer_of_op = op // OPS_PER_LAYER
    step_of_op = layer_of_op // LAYERS_PER_STEP
    t_op = BASE_NS + op * 2_000 + layer_of_op * 4_000 + step_of_op * 10_000 + 1_000
    layer = np.arange(layers)
    step_of_layer = layer // LAYERS_PER_STEP
    layer_start = BASE_NS + layer * (OPS_PER_LAYER * 2_000 + 4_000) + step_of_layer * 10_000 + 500
    layer_end = layer_start + OPS_PER_LAYER * 2_000 + 4_000 - 100
    async_copy_t = layer_start + 500 + OPS_PER_LAYER * 2_000
    sync_copy_t = async_copy_t + 1_000
    step = np.arange(steps)
    step_start = layer_start[step * LAYERS_PER_STEP] - 200
    step_last = layer_end[step * LAYERS_PER_STEP + LAYERS_PER_STEP - 1]
    allreduce_t = step_last + 1_000
    step_end = allreduce_t + 8_000

    correlation = np.arange(1, ops + 1, dtype=np.uint64)
    copy_corr = ops + 1 + 2 * layer.astype(np.uint64)
    sync_corr = copy_corr + 1
    allreduce_corr = ops + 2 * layers + 1 + step.astype(np.uint64)

    def apis(
        kind: ActivityKind, starts: np.ndarray, ends: np.ndarray, ids: np.ndarray, names: np.ndarray
    ) -> None:
        table = new_records(kind, len(starts))
        table["start"], table["end"] = starts, ends
        table["process_id"], table["thread_id"] = PID, PID
        table["correlation_id"], table["name"] = ids, names
        _add(writer, kind, table)

    op_names = writer.strings([f"aclnnOp{i}" for i in range(OPS_PER_LAYER)])[op % OPS_PER_LAYER]
    apis(ActivityKind.NODE_API, t_op, t_op + 1_200, correlation, op_names)
    apis(
        ActivityKind.ACL_API,
        t_op,
        t_op + 1_200,
        correlation,
        np.full(ops, writer.string("aclrtLaunchKernel")),
    )
    apis(
        ActivityKind.RUNTIME_API, t_op, t_op + 1_200, correlation, np.full(ops, writer.string("KernelLaunch"))
    )
    for starts, ids, acl, runtime in (
        (async_copy_t, copy_corr, "aclrtMemcpyAsync", "MemcpyAsync"),
        (sync_copy_t + 20, sync_corr, "aclrtMemcpy", "MemCopySync"),
    ):
        ends = starts + (800 if acl.endswith("Async") else 1_500)
        apis(ActivityKind.ACL_API, starts, ends, ids, np.full(layers, writer.string(acl)))
        apis(ActivityKind.RUNTIME_API, starts, ends, ids, np.full(layers, writer.string(runtime)))
    apis(
        ActivityKind.API,
        allreduce_t,
        allreduce_t + 3_000,
        allreduce_corr,
        np.full(steps, writer.string("HcclAllReduce")),
    )
    apis(
        ActivityKind.NODE_API,
        allreduce_t,
        allreduce_t + 3_000,
        allreduce_corr,
        np.full(steps, writer.string("hcom_allReduce_")),
    )

    # Device: stream 2 runs each layer's kernels, then its asynchronous copy, one after another;
    # a task starts 6 us after its launch or when the one before it ends, whichever is later.
    durations = rng.integers(1_000, 3_000, size=ops)
    per_layer = OPS_PER_LAYER + 1
    launches = np.empty(layers * per_layer, dtype=np.int64)
    lengths = np.empty(layers * per_layer, dtype=np.int64)
    kernel_slots = (np.arange(ops) // OPS_PER_LAYER) * per_layer + np.arange(ops) % OPS_PER_LAYER
    copy_slots = layer * per_layer + OPS_PER_LAYER
    launches[kernel_slots], lengths[kernel_slots] = t_op + 6_000, durations
    launches[copy_slots], lengths[copy_slots] = async_copy_t + 6_000, 700
    before = np.concatenate([[0], np.cumsum(lengths)[:-1]])  # work queued ahead of each task
    starts = before + np.maximum.accumulate(launches - before)
    kernels = new_records(ActivityKind.KERNEL, ops)
    kernels["start"] = starts[kernel_slots]
    kernels["end"] = starts[kernel_slots] + durations
    kernels["device_id"], kernels["stream_id"], kernels["correlation_id"] = 0, 2, correlation
    kernels["name"] = writer.strings([f"Kernel{i}" for i in range(OPS_PER_LAYER)])[op % OPS_PER_LAYER]
    kernels["type"] = writer.strings(["KERNEL_AICORE", "KERNEL_AIVEC"])[op % 2]
    _add(writer, ActivityKind.KERNEL, kernels)
    copies = new_records(ActivityKind.MEMCPY, 2 * layers)
    copies["start"][:layers] = starts[copy_slots]
    copies["end"][:layers] = starts[copy_slots] + 700
    copies["stream_id"][:layers], copies["is_async"][:layers] = 2, 1
    copies["correlation_id"][:layers] = copy_corr
    copies["start"][layers:], copies["end"][layers:] = sync_copy_t, sync_copy_t + 1_540
    copies["stream_id"][layers:], copies["correlation_id"][layers:] = 0xFFFFFFFF, sync_corr
    copies["copy_kind"], copies["bytes"], copies["device_id"] = 2, 1 << 20, 0
    _add(writer, ActivityKind.MEMCPY, copies)
    communication = new_records(ActivityKind.COMMUNICATION, steps)
    communication["start"] = allreduce_t + 6_000
    communication["end"] = communication["start"] + 5_000
    communication["device_id"], communication["stream_id"], communication["correlation_id"] = (
        0,
        3,
        allreduce_corr,
    )
    communication["data_type"], communication["count"] = 4, 1 << 20
    communication["name"] = writer.string("hcom_allReduce_")
    communication["alg_type"] = writer.string("RING")
    communication["comm_name"] = writer.string("world")
    _add(writer, ActivityKind.COMMUNICATION, communication)
    memory = new_records(ActivityKind.MEMORY, steps)
    memory["start"], memory["end"] = step_end - 500, step_end - 400
    memory["address"], memory["bytes"], memory["process_id"], memory["device_id"] = 0x10000, 1 << 16, PID, 0
    memory["memory_kind"], memory["stream_id"] = 1, 0xFFFFFFFF
    _add(writer, ActivityKind.MEMORY, memory)

    # Ranges: the steps, the layers and each step's grad_sync around its all-reduce.
    count = 2 * steps + layers
    markers = new_records(ActivityKind.MARKER, 2 * count)
    ids = np.arange(1, count + 1, dtype=np.uint64)
    markers["flag"][:count], markers["flag"][count:] = int(MarkerFlag.START), int(MarkerFlag.END)
    markers["timestamp"][:count] = np.concatenate([step_start, layer_start, allreduce_t - 100])
    markers["timestamp"][count:] = np.concatenate([step_end, layer_end, allreduce_t + 3_100])
    markers["id"][:count], markers["id"][count:] = ids, ids
    markers["object_a"], markers["object_b"] = PID, PID
    default = writer.string("default")
    markers["name"][:count] = np.concatenate(
        [
            np.full(steps, writer.string("step")),
            np.full(layers, writer.string("layer")),
            np.full(steps, writer.string("grad_sync")),
        ]
    )
    markers["domain"][:count] = np.concatenate(
        [np.full(steps, default), np.full(layers, writer.string("decoder_layers")), np.full(steps, default)]
    )
    _add(writer, ActivityKind.MARKER, markers)
    writer.close()
    return 4 * ops + 6 * layers + 4 * steps + 2 * count


def _add(writer: CaptureWriter, kind: ActivityKind, table: np.ndarray) -> None:
    for first in range(0, len(table), _CHUNK):
        writer.add(kind, table[first : first + _CHUNK])


@dataclass
class ExportTiming:
    """Seconds (wall and CPU of this process) per phase, for a capture of ``records`` records."""

    records: int
    wall: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)
    bytes_written: dict[str, int] = field(default_factory=dict)


def measure_export(
    records: int = 1_000_000,
    formats: Iterable[str] = ("kineto",),
    seed: int = 0,
    work_dir: Path | None = None,
) -> ExportTiming:
    """Writes the synthetic capture, then times loading it and exporting it in each of
    ``formats`` (names as for ``npu-sim trace export --format``)."""
    from mspti_trace.ascend_pt import export_ascend_pt
    from mspti_trace.chrome import export_chrome_trace
    from mspti_trace.kineto import export_kineto_traces
    from mspti_trace.reader import load_trace

    chosen = list(formats)
    unknown = [name for name in chosen if name not in EXPORT_FORMATS]
    if unknown:
        raise ValueError(f"unknown export format(s) {unknown}; expected some of {list(EXPORT_FORMATS)}")
    with tempfile.TemporaryDirectory(prefix="trace-export-", dir=work_dir) as tmp:
        root = Path(tmp)
        timing = ExportTiming(records=write_synthetic_capture(root / "capture", records, seed))

        def timed(name: str, action):
            wall, cpu = time.perf_counter(), time.process_time()
            result = action()
            timing.wall[name] = time.perf_counter() - wall
            timing.cpu[name] = time.process_time() - cpu
            return result

        trace = timed("load", lambda: load_trace(root / "capture"))
        for name in chosen:
            out = root / name
            if name == "chrome":
                out.mkdir()
                stats = timed(name, lambda out=out: export_chrome_trace(trace, out / "trace.json"))
                timing.events[name] = stats.events
            elif name == "kineto":
                stats = timed(name, lambda out=out: export_kineto_traces(trace, out))
                timing.events[name] = stats.events
            else:
                stats = timed(name, lambda out=out: export_ascend_pt(trace, out))
                timing.events[name] = stats.events
            timing.bytes_written[name] = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return timing
