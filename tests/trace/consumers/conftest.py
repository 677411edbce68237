"""Fixtures of the consumer tests: known-count workloads (workloads.py beside this file) captured
for one and two ranks and exported with ``--format kineto`` and ``--format ascend-pt``."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from mspti_trace import load_trace
from mspti_trace.ascend_pt import export_ascend_pt
from mspti_trace.kineto import KinetoExportStats, export_kineto_traces
from support.sibling import load_sibling

_HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def workloads() -> ModuleType:
    return load_sibling(_HERE, "workloads")


def _export(
    workloads: ModuleType, root: Path, ranks: int, **variant: object
) -> tuple[Path, KinetoExportStats]:
    capture = root / "capture"
    workloads.write_workload(capture, ranks, **variant)
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


@pytest.fixture(scope="session", params=[0, 1], ids=["rank0-late", "rank1-late"])
def straggling(
    request: pytest.FixtureRequest, workloads: ModuleType, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, int]:
    """Two ranks, one of whose all-reduces start ``workloads.LATE_NS`` after the other's; returns the
    export's directory and the late rank."""
    late = request.param
    directory, _ = _export(
        workloads, tmp_path_factory.mktemp("straggling"), 2, late={late: workloads.LATE_NS}
    )
    return directory, late


@pytest.fixture(scope="session")
def short_calls(
    workloads: ModuleType, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, KinetoExportStats]:
    """Two ranks whose calls last 600 ns from 200 ns past a whole microsecond: no whole one inside."""
    return _export(workloads, tmp_path_factory.mktemp("short-calls"), 2, call_ns=600, call_offset_ns=200)


def _export_ascend_pt(workloads: ModuleType, root: Path, **variant: object) -> list[Path]:
    workloads.write_workload(root / "capture", 2, **variant)
    stats = export_ascend_pt(load_trace(root / "capture"), root / "ascend_pt")
    return [f.path.parent.parent for f in stats.files]


@pytest.fixture(scope="session")
def ascend_pt_two_ranks(workloads: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The two-rank workload (step ranges, one all-reduce per step) exported with ``--format
    ascend-pt``: the ``<name>_ascend_pt`` folder of each rank."""
    return _export_ascend_pt(workloads, tmp_path_factory.mktemp("ascend-pt"))


@pytest.fixture(scope="session")
def ascend_pt_late(workloads: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """As ``ascend_pt_two_ranks`` with rank 1's all-reduces starting ``workloads.LATE_NS`` later."""
    return _export_ascend_pt(
        workloads, tmp_path_factory.mktemp("ascend-pt-late"), late={1: workloads.LATE_NS}
    )
