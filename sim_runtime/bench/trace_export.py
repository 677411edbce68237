"""Trace export speed: writes the synthetic 1,000,000-record capture of ``mspti_trace.synthetic``
(steps of decoder layers of operators: mstx ranges, three API levels and a kernel per operator, an
asynchronous and a synchronous copy per layer, an all-reduce and an allocation per step), then times
loading it, the Chrome/Perfetto export, the Kineto export and the breakdown. Times are given per
1,000,000 records, so that a shorter run (``--count``) compares with the target. Does not use msPTI.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

from mspti_trace import BreakdownOptions, build_breakdown, emit_facts, export_chrome_trace, load_trace
from mspti_trace.kineto import export_kineto_traces
from mspti_trace.synthetic import write_synthetic_capture
from sim_runtime.bench.core import Benchmark, Build, Figure

RECORDS = 1_000_000


def measure(build: Build, records: int, work: Path) -> Mapping[str, float]:
    written = write_synthetic_capture(work / "capture", records)
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
