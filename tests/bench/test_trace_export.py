"""The trace_export benchmark's synthetic capture stays valid input (a scaled-down run of
sim_runtime/bench/trace_export.py's generator through the whole pipeline)."""

from __future__ import annotations

import time
from pathlib import Path

from sim_runtime.bench import trace_export as benchmark
from sim_runtime.trace import (
    BreakdownOptions,
    build_breakdown,
    check_chrome_trace,
    emit_facts,
    export_chrome_trace,
    load_trace,
    validate_facts,
)


def test_the_synthetic_capture_goes_through_the_pipeline(tmp_path: Path) -> None:
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
    assert breakdown.perf["accounting"]["attributed"] == ops_per_step
    # Far below the 10 s budget for 1,000,000 records (about 0.6 s of it at this size).
    assert elapsed < 5.0
