"""Trace export speed: builds a 1,000,000-record capture in memory (a decoder-like program: mstx
ranges, API calls, the kernels they launch, copies and allocations), then times loading it, the
Chrome/Perfetto export, the Kineto export and the breakdown. Times are given per 1,000,000 records,
so that a shorter run (``--count``) compares with the target. Does not use msPTI.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from mspti_trace import BreakdownOptions, build_breakdown, emit_facts, export_chrome_trace, load_trace
from mspti_trace.kinds import ActivityKind, MarkerFlag
from mspti_trace.kineto import export_kineto_traces
from mspti_trace.writer import CaptureWriter, new_records
from sim_runtime.bench.core import Benchmark, Build, Figure

RECORDS = 1_000_000
PID = 1000
BASE = 1_700_000_000_000_000_000
OPS_PER_LAYER = 16
LAYERS = 32
# Per operator: one range (2 markers), two API records (node and runtime API), one kernel.
RECORDS_PER_OP = 5


def synthetic_capture(directory: Path, records: int) -> int:
    """Writes the capture; returns the number of records written."""
    ops_per_step = LAYERS * OPS_PER_LAYER
    steps = max(1, records // (ops_per_step * RECORDS_PER_OP + 2 + 2 * LAYERS))
    ops = steps * ops_per_step
    writer = CaptureWriter(directory, PID, {"soc": "Ascend910B3", "clock": "virtual"})
    leaf_names = [f"op{i}" for i in range(OPS_PER_LAYER)]
    kernel_names = writer.strings([f"Kernel{i % 7}_{i}" for i in range(OPS_PER_LAYER)])
    kernel_types = writer.strings(["KERNEL_AICORE", "KERNEL_AIVEC"])
    api_names = writer.strings([f"aclnnOp{i}" for i in range(OPS_PER_LAYER)])
    launch = writer.string("aclrtLaunchKernel")

    op_index = np.arange(ops)
    layer = (op_index // OPS_PER_LAYER) % LAYERS
    step = op_index // ops_per_step
    leaf = op_index % OPS_PER_LAYER
    # Host time: every op takes 1 us; each layer adds 100 ns of range boundaries, each step 200 ns.
    t_op = BASE + op_index * 1000 + (step * LAYERS + layer) * 100 + step * 200 + 100
    corr = op_index.astype(np.uint64) + 1

    api = new_records(ActivityKind.NODE_API, ops)
    api["start"], api["end"] = t_op + 100, t_op + 400
    api["process_id"], api["thread_id"], api["correlation_id"] = PID, PID, corr
    api["name"] = api_names[leaf]
    runtime = new_records(ActivityKind.RUNTIME_API, ops)
    runtime["start"], runtime["end"] = t_op + 200, t_op + 350
    runtime["process_id"], runtime["thread_id"], runtime["correlation_id"] = PID, PID, corr
    runtime["name"] = launch
    kernels = new_records(ActivityKind.KERNEL, ops)
    kernels["start"] = t_op + 500
    kernels["end"] = t_op + 500 + 400 + (leaf % 3) * 100
    kernels["device_id"], kernels["stream_id"], kernels["correlation_id"] = 0, 2, corr
    kernels["name"] = kernel_names[leaf]
    kernels["type"] = kernel_types[leaf % 2]

    # Ranges: one per op (leaf), one per layer (domain decoder_layers), one per step.
    leaf_name_ids = writer.strings(leaf_names)
    default, layers_domain, empty = (
        writer.string("default"),
        writer.string("decoder_layers"),
        writer.string(""),
    )
    layer_starts = np.flatnonzero(leaf == 0)
    step_starts = np.flatnonzero(op_index % ops_per_step == 0)
    n_ranges = ops + len(layer_starts) + len(step_starts)
    starts = np.concatenate([t_op + 10, t_op[layer_starts] - 50, t_op[step_starts] - 150])
    ends = np.concatenate(
        [
            t_op + 990,
            t_op[layer_starts + OPS_PER_LAYER - 1] + 995,
            t_op[step_starts + ops_per_step - 1] + 1000,
        ]
    )
    names = np.concatenate(
        [
            leaf_name_ids[leaf],
            np.full(len(layer_starts), writer.string("layer")),
            np.full(len(step_starts), writer.string("step")),
        ]
    )
    domains = np.concatenate(
        [np.full(ops, default), np.full(len(layer_starts), layers_domain), np.full(len(step_starts), default)]
    )
    markers = new_records(ActivityKind.MARKER, 2 * n_ranges)
    ids = np.arange(1, n_ranges + 1, dtype=np.uint64)
    markers["flag"][:n_ranges], markers["flag"][n_ranges:] = int(MarkerFlag.START), int(MarkerFlag.END)
    markers["timestamp"][:n_ranges], markers["timestamp"][n_ranges:] = starts, ends
    markers["id"][:n_ranges], markers["id"][n_ranges:] = ids, ids
    markers["object_a"], markers["object_b"] = PID, PID
    markers["name"][:n_ranges], markers["domain"][:n_ranges] = names, domains
    markers["name"][n_ranges:], markers["domain"][n_ranges:] = empty, empty

    chunk = 80_000  # as buffers of a few MB would deliver them
    for kind, array in (
        (ActivityKind.MARKER, markers),
        (ActivityKind.NODE_API, api),
        (ActivityKind.RUNTIME_API, runtime),
        (ActivityKind.KERNEL, kernels),
    ):
        for first in range(0, len(array), chunk):
            writer.add(kind, array[first : first + chunk])
    writer.close()
    return len(markers) + len(api) + len(runtime) + len(kernels)


def measure(build: Build, records: int, work: Path) -> Mapping[str, float]:
    written = synthetic_capture(work / "capture", records)
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    trace = load_trace(work / "capture")
    seconds["load"] = time.perf_counter() - started
    started = time.perf_counter()
    export_chrome_trace(trace, work / "trace.json")
    seconds["chrome"] = time.perf_counter() - started
    started = time.perf_counter()
    export_kineto_traces(trace, work / "kineto")
    seconds["kineto"] = time.perf_counter() - started
    started = time.perf_counter()
    emit_facts(build_breakdown(trace, BreakdownOptions(model_name="bench")), work / "facts")
    seconds["breakdown"] = time.perf_counter() - started
    per_million = 1e6 / written
    return {
        "records": written,
        **{f"{name}_s_per_m": value * per_million for name, value in seconds.items()},
        "kineto_records_per_s": written / seconds["kineto"],
    }


BENCHMARK = Benchmark(
    name="trace_export",
    summary="loading a synthetic capture, its Chrome, Kineto exports and breakdown (seconds per 1 M records)",
    figures=(
        Figure("records", "records in the capture", "", digits=0),
        Figure("load_s_per_m", "load, s per 1 M records", "s", digits=2),
        Figure("chrome_s_per_m", "Chrome/Perfetto export, s per 1 M records", "s", digits=2),
        Figure("kineto_s_per_m", "Kineto export, s per 1 M records", "s", digits=2),
        Figure("breakdown_s_per_m", "breakdown, s per 1 M records", "s", digits=2),
        Figure("kineto_records_per_s", "Kineto export, records/s", "/s", digits=0),
    ),
    measure=measure,
    default_count=RECORDS,
    uses_mspti=False,
)
