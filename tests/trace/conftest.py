"""Fixtures of the trace tests: the in-memory capture builder (fake_capture.py beside this file)
and a synthetic decoder capture with its breakdown."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import sim_runtime.trace as trace_api

_HERE = Path(__file__).resolve().parent


def _load(name: str) -> ModuleType:
    module_name = f"npu_sim_trace_tests_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, _HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def fakes() -> ModuleType:
    return _load("fake_capture")


@pytest.fixture()
def decoder_dir(fakes: ModuleType, tmp_path: Path) -> Path:
    """A capture of 3 decoder layers x 2 steps, with one all-reduce per step."""
    directory = tmp_path / "capture"
    fakes.decoder_capture(
        directory, layers=3, steps=2, allreduce=True, meta={"soc": "Ascend910B3", "clock": "virtual"}
    )
    return directory


@pytest.fixture()
def facts_dir(decoder_dir: Path, tmp_path: Path) -> Path:
    breakdown = trace_api.build_breakdown(
        trace_api.load_trace(decoder_dir), trace_api.BreakdownOptions(model_name="Decoder 3L")
    )
    out = tmp_path / "facts"
    trace_api.emit_facts(breakdown, out)
    return out
