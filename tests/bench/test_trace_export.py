"""The trace_export benchmark's synthetic capture stays valid input (a scaled-down run of
sim_runtime/bench/trace_export.py's generator through the whole pipeline)."""

from __future__ import annotations

from pathlib import Path

from mspti_trace import (
    BreakdownOptions,
    build_breakdown,
    check_chrome_trace,
    emit_facts,
    export_chrome_trace,
    load_trace,
    validate_facts,
)
from sim_runtime.bench import trace_export as benchmark


def test_the_synthetic_capture_goes_through_the_pipeline(tmp_path: Path) -> None:
    written = benchmark.synthetic_capture(tmp_path / "capture", 60_000)
    trace = load_trace(tmp_path / "capture")
    assert trace.total_records == written
    export_chrome_trace(trace, tmp_path / "trace.json")
    breakdown = build_breakdown(trace, BreakdownOptions(model_name="bench"))
    emit_facts(breakdown, tmp_path / "facts")
    assert check_chrome_trace(tmp_path / "trace.json") == []
    assert validate_facts(tmp_path / "facts").ok
    ops_per_step = benchmark.LAYERS * benchmark.OPS_PER_LAYER
    assert breakdown.perf["accounting"]["kernels_attributed"] == ops_per_step
