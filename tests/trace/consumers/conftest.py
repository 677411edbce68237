"""Fixtures of the consumer tests: known-count workloads (workloads.py beside this file) captured
for one and two ranks and exported with ``--format kineto``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from sim_runtime.trace import load_trace
from sim_runtime.trace.kineto import KinetoExportStats, export_kineto_traces

_HERE = Path(__file__).resolve().parent


def _load(name: str) -> ModuleType:
    module_name = f"npu_sim_trace_consumer_tests_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, _HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def workloads() -> ModuleType:
    return _load("workloads")


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
