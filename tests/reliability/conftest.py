"""Fixtures of the reliability tests: building their programs, recording the campaign figures."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reliability_support import Figures, ReliabilityPrograms

from support.native import REPO, NativeTree, ProgramBuilder

_FIGURES = Figures()


@pytest.fixture(scope="session")
def figures() -> Iterator[Figures]:
    report_dir = Path(os.environ.get("RELIABILITY_REPORT_DIR", REPO / "build" / "reliability"))
    report_dir.mkdir(parents=True, exist_ok=True)
    _FIGURES.path = report_dir / "fault_campaign.jsonl"
    _FIGURES.path.write_text("")
    yield _FIGURES


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _FIGURES.matrix:
        terminalreporter.write_sep("-", "fault matrix figures")
        for line in _FIGURES.matrix:
            terminalreporter.write_line(line)
    cases = _FIGURES.cases
    if not cases:
        return
    injected = sum(int(c.get("injected", 0)) for c in cases)
    expected = sum(int(c.get("host_expected", 0)) for c in cases)
    accounted = sum(int(c.get("host_accounted", 0)) for c in cases)
    delivered = sum(int(c.get("delivered_total", 0)) for c in cases)
    terminalreporter.write_sep("-", "fault campaign figures")
    terminalreporter.write_line(
        f"{len(cases)} runs, {injected} faults injected, host records owed {expected}, "
        f"accounted (delivered + dropped) {accounted}, records delivered in total {delivered}"
    )
    totals: dict[str, dict[str, int]] = {}
    for case in cases:
        accounting = case.get("device_accounting")
        if not isinstance(accounting, dict):
            continue
        for name, figures in accounting.items():
            total = totals.setdefault(name, {"produced": 0, "delivered": 0, "unaccounted": 0})
            total["produced"] += int(figures["produced"])
            total["delivered"] += int(figures["delivered"])
            total["unaccounted"] += int(figures["unaccounted"])
            for reason, count in figures["dropped"].items():
                total[reason] = total.get(reason, 0) + int(count)
    for name, total in totals.items():
        dropped = {k: v for k, v in total.items() if k not in ("produced", "delivered", "unaccounted")}
        terminalreporter.write_line(
            f"{name}: produced {total['produced']}, delivered {total['delivered']}, dropped {dropped or 0}, "
            f"unaccounted {total['unaccounted']}"
        )
    if _FIGURES.path is not None:
        terminalreporter.write_line(f"per-run figures: {_FIGURES.path}")


@pytest.fixture(scope="session")
def reliability_programs(native: NativeTree, programs: ProgramBuilder) -> ReliabilityPrograms:
    if not native.mspti_library.exists():
        pytest.skip("libmspti.so is not built")
    return ReliabilityPrograms(native, programs)
