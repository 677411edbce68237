"""The benchmark's synthetic capture stays valid input (a scaled-down run of
benchmarks/trace_export.py's generator through the whole pipeline)."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

from sim_runtime.trace import (
    BreakdownOptions,
    build_breakdown,
    check_chrome_trace,
    emit_facts,
    export_chrome_trace,
    load_trace,
    validate_facts,
)

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "trace_export.py"


def load_benchmark():
    spec = importlib.util.spec_from_file_location("trace_export_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_synthetic_capture_goes_through_the_pipeline(tmp_path: Path) -> None:
    benchmark = load_benchmark()
    written = benchmark.synthetic_capture(tmp_path / "capture", 60_000)
    trace = load_trace(tmp_path / "capture")
    assert trace.total_records == written
    started = time.perf_counter()
    export_chrome_trace(trace, tmp_path / "trace.json")
    breakdown = build_breakdown(trace, BreakdownOptions(model_name="bench"))
    emit_facts(breakdown, tmp_path / "facts")
    elapsed = time.perf_counter() - started
    assert check_chrome_trace(tmp_path / "trace.json") == []
    assert validate_facts(tmp_path / "facts").ok
    ops_per_step = benchmark.LAYERS * benchmark.OPS_PER_LAYER
    assert breakdown.perf["accounting"]["kernels_attributed"] == ops_per_step
    # Far below the 10 s budget for 1,000,000 records (about 0.6 s of it at this size).
    assert elapsed < 5.0
