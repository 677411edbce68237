"""Fixtures of the trace tests: the in-memory capture builder (fake_capture.py beside this file)
and a synthetic decoder capture with its breakdown."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

import sim_runtime.trace as trace_api
from support.sibling import load_sibling

_HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def fakes() -> ModuleType:
    return load_sibling(_HERE, "fake_capture")


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
