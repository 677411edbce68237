"""Fixtures of the consumer tests: known-count workloads (workloads.py beside this file) captured
for one and two ranks and exported with ``--format kineto``."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from mspti_trace import load_trace
from mspti_trace.kineto import KinetoExportStats, export_kineto_traces
from support.sibling import load_sibling

_HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def workloads() -> ModuleType:
    return load_sibling(_HERE, "workloads")


def _export(workloads: ModuleType, root: Path, ranks: int) -> tuple[Path, KinetoExportStats]:
    capture = root / "capture"
    workloads.write_workload(capture, ranks)
    stats = export_kineto_traces(load_trace(capture), root / "kineto")
    return root / "kineto", stats


@pytest.fixture(scope="session")
def single_rank(
    workloads: ModuleType, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, KinetoExportStats]:
    return _export(workloads, tmp_path_factory.mktemp("one-rank"), 1)


@pytest.fixture(scope="session")
def two_ranks(
    workloads: ModuleType, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, KinetoExportStats]:
    return _export(workloads, tmp_path_factory.mktemp("two-ranks"), 2)
