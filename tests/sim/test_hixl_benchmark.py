"""benchmarks/hixl_overhead.py runs and reports both modes (a small run; the figures are not checked)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from support.native import NativeTree


def load_benchmark(repo_root: Path):
    path = repo_root / "benchmarks" / "hixl_overhead.py"
    spec = importlib.util.spec_from_file_location("hixl_overhead", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_overhead_benchmark_measures_both_modes(repo_root: Path, native: NativeTree, tmp_path: Path) -> None:
    bench = load_benchmark(repo_root)
    result = bench.measure(transfers=200, size=64, rounds=2, clock="virtual", build_dir=tmp_path)
    assert len(result["off_ns"]) == len(result["on_ns"]) == 2
    assert result["reports"] == 200 * 2  # one record per transfer while on, none while off
    assert result["off_ns_per_transfer"] > 0 and result["on_ns_per_transfer"] > 0
    assert result["ratio"] > 0
