"""The workload build cache is keyed by everything a source includes from the workloads folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conformance import build
from conformance.build import Builder
from conformance.execute import PROGRAMS
from conformance.target import Target


def test_the_key_changes_with_a_workload_header(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workloads = tmp_path / "workloads"
    shutil.copytree(build.WORKLOAD_DIR, workloads)
    monkeypatch.setattr(build, "WORKLOAD_DIR", workloads)
    target = Target("sim", tmp_path / "libmspti.so", tmp_path, (), (tmp_path,), {})
    builder = Builder(target, tmp_path / "cache")
    program = PROGRAMS["driver"]()
    assert any(source.path is not None and source.path.parent == workloads for source in program.sources)
    before = builder._key(program)
    assert builder._key(program) == before
    header = workloads / "driver_common.h"
    header.write_text(header.read_text(encoding="utf-8") + "\n// changed\n", encoding="utf-8")
    assert builder._key(program) != before
