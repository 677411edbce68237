"""The trace_export benchmark: a scaled-down run of its measurement over mspti_trace's synthetic
capture (the capture itself is tested in tests/trace/test_synthetic.py)."""

from __future__ import annotations

from pathlib import Path

from mspti_trace import check_chrome_trace, validate_facts
from sim_runtime.bench import trace_export as benchmark


def test_the_benchmark_times_every_phase_of_the_synthetic_capture(tmp_path: Path) -> None:
    figures = benchmark.measure(None, 30_000, tmp_path)  # type: ignore[arg-type]  # uses no msPTI build
    assert abs(figures["records"] - 30_000) < 1_500
    for phase in ("load", "chrome", "kineto", "breakdown"):
        assert figures[f"{phase}_s_per_m"] > 0, phase
    assert figures["kineto_records_per_s"] > 0
    # What it timed is valid output, not a run over nothing.
    assert check_chrome_trace(tmp_path / "trace.json") == []
    assert validate_facts(tmp_path / "facts").ok
    assert any((tmp_path / "kineto").rglob("*.json"))
    assert {figure.key for figure in benchmark.BENCHMARK.figures} == set(figures)
