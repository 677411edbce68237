"""The coverage gate of `tox -e cov` (ci/coverage_gate.py) on made-up reports: it passes, and fails."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

GATE = Path(__file__).resolve().parents[2] / "ci" / "coverage_gate.py"


@pytest.fixture(scope="module")
def gate() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("coverage_gate", GATE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def write_inputs(
    tmp_path: Path, python: tuple[int, int], cpp: tuple[int, int], baseline: tuple[float, float]
) -> list[str]:
    """coverage.py and gcovr reports with (covered, total) lines, and a baseline file."""
    py_report = tmp_path / "python.json"
    py_report.write_text(
        json.dumps({"meta": {}, "totals": {"covered_lines": python[0], "num_statements": python[1]}})
    )
    cpp_summary = tmp_path / "cpp-summary.json"
    cpp_summary.write_text(json.dumps({"line_covered": cpp[0], "line_total": cpp[1], "line_percent": 0}))
    committed = tmp_path / "baseline.toml"
    committed.write_text(f"[python]\nline_percent = {baseline[0]}\n\n[cpp]\nline_percent = {baseline[1]}\n")
    return ["--python", str(py_report), "--cpp", str(cpp_summary), "--baseline", str(committed)]


@pytest.mark.parametrize(
    ("python", "cpp", "passes"),
    [
        ((800, 1000), (700, 1000), True),  # both at the committed figures
        ((900, 1000), (750, 1000), True),  # both above
        ((790, 1000), (690, 1000), True),  # both exactly one point below: still within the tolerance
        ((7899, 10000), (700, 1000), False),  # Python 1.01 points below
        ((800, 1000), (6899, 10000), False),  # C++ 1.01 points below
        ((500, 1000), (100, 1000), False),  # both far below
        ((0, 0), (700, 1000), False),  # nothing measured counts as 0%
    ],
)
def test_gate_fails_only_more_than_one_point_below(
    gate: ModuleType,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    python: tuple[int, int],
    cpp: tuple[int, int],
    passes: bool,
) -> None:
    status = gate.main(write_inputs(tmp_path, python, cpp, (80.0, 70.0)))
    out = capsys.readouterr().out
    assert status == (0 if passes else 1), out
    assert f"Python  line coverage {100 * python[0] / python[1] if python[1] else 0:6.2f}%" in out
    assert f"C++     line coverage {100 * cpp[0] / cpp[1]:6.2f}%" in out
    assert ("coverage gate: passed" in out) == passes
    assert ("coverage gate: FAILED" in out) == (not passes)


def test_report_only_prints_the_failing_figure_and_never_fails(
    gate: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = gate.main([*write_inputs(tmp_path, (100, 1000), (700, 1000), (80.0, 70.0)), "--report-only"])
    out = capsys.readouterr().out
    assert status == 0
    assert "Python  line coverage  10.00% (100/1000 lines), committed 80.00%, floor 79.00%: FAIL" in out
    assert "coverage gate: not applied" in out


def test_missing_figure_in_the_baseline_is_an_error(gate: ModuleType, tmp_path: Path) -> None:
    args = write_inputs(tmp_path, (800, 1000), (700, 1000), (80.0, 70.0))
    (tmp_path / "baseline.toml").write_text("[python]\nline_percent = 80.0\n")
    with pytest.raises(SystemExit, match="cpp"):
        gate.main(args)


def test_committed_baseline_is_readable(gate: ModuleType) -> None:
    figures = gate.load_baseline(gate.BASELINE)
    assert set(figures) == {"Python", "C++"}
    assert all(0.0 < value <= 100.0 for value in figures.values())
