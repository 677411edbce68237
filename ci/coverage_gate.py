"""Compares measured line coverage with the committed figures in ci/coverage_baseline.toml.

    python ci/coverage_gate.py --python PY.json --cpp CPP-SUMMARY.json [--baseline FILE] [--report-only]

PY.json is coverage.py's JSON report (`coverage json`), CPP-SUMMARY.json gcovr's JSON summary
(`gcovr --json-summary`). Each figure is printed; the exit status is 1 when either is more than
TOLERANCE percentage points below its committed figure, 0 otherwise (always 0 with --report-only,
which ci/coverage_run.py passes after a subset of the suite). `tox -e cov` runs it after a run of the
whole default suite.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

BASELINE = Path(__file__).resolve().parent / "coverage_baseline.toml"
# A figure may drop by up to this many percentage points below the committed one.
TOLERANCE = 1.0


@dataclass(frozen=True)
class Figure:
    """Line coverage of one language: lines covered out of lines measured."""

    name: str
    covered: int
    total: int

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.total if self.total else 0.0


@dataclass(frozen=True)
class Verdict:
    figure: Figure
    baseline: float

    @property
    def floor(self) -> float:
        return self.baseline - TOLERANCE

    @property
    def passed(self) -> bool:
        # Compared at the precision the figures are committed and printed with (two decimals).
        return round(self.figure.percent, 2) >= round(self.floor, 2)

    def line(self) -> str:
        f = self.figure
        status = "ok" if self.passed else f"FAIL: more than {TOLERANCE:g} point below the committed figure"
        return (
            f"{f.name:<7} line coverage {f.percent:6.2f}% ({f.covered}/{f.total} lines), "
            f"committed {self.baseline:.2f}%, floor {self.floor:.2f}%: {status}"
        )


def python_figure(report: dict) -> Figure:
    """The total of a coverage.py JSON report (`coverage json`)."""
    totals = report["totals"]
    return Figure("Python", int(totals["covered_lines"]), int(totals["num_statements"]))


def cpp_figure(summary: dict) -> Figure:
    """The line total of a gcovr JSON summary (`gcovr --json-summary`)."""
    return Figure("C++", int(summary["line_covered"]), int(summary["line_total"]))


def load_baseline(path: Path) -> dict[str, float]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    try:
        return {"Python": float(data["python"]["line_percent"]), "C++": float(data["cpp"]["line_percent"])}
    except KeyError as missing:
        raise SystemExit(f"{path}: no {missing} figure") from None


def judge(figures: list[Figure], baseline: dict[str, float]) -> list[Verdict]:
    return [Verdict(f, baseline[f.name]) for f in figures]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", type=Path, required=True, help="coverage.py JSON report")
    parser.add_argument("--cpp", type=Path, required=True, help="gcovr JSON summary")
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    parser.add_argument("--report-only", action="store_true", help="print the figures, never fail")
    args = parser.parse_args(argv)
    figures = [
        python_figure(json.loads(args.python.read_text(encoding="utf-8"))),
        cpp_figure(json.loads(args.cpp.read_text(encoding="utf-8"))),
    ]
    verdicts = judge(figures, load_baseline(args.baseline))
    for verdict in verdicts:
        print(verdict.line())
    if args.report_only:
        print("coverage gate: not applied (a subset of the suite ran)")
        return 0
    if all(v.passed for v in verdicts):
        print("coverage gate: passed")
        return 0
    print(f"coverage gate: FAILED (committed figures: {args.baseline})")
    return 1


if __name__ == "__main__":
    sys.exit(main())
