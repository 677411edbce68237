"""tools/format_cpp.py, the clang-format gate of the lint env (docs/ci.md): its list and its verdicts."""

from __future__ import annotations

import importlib.util
import stat
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def format_cpp() -> ModuleType:
    spec = importlib.util.spec_from_file_location("format_cpp", REPO / "tools" / "format_cpp.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def fake_clang_format(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "clang-format"
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def test_the_list_names_tracked_sources_once_in_order(format_cpp: ModuleType) -> None:
    listed = format_cpp.listed_sources()
    assert listed, "the gate checks no file"
    assert listed == sorted(set(listed))
    assert set(listed) <= set(format_cpp.tracked_sources())


def test_a_file_clang_format_would_change_is_reported_with_its_lines(
    format_cpp: ModuleType, tmp_path: Path
) -> None:
    paths = format_cpp.listed_sources()[:2]
    unchanged = fake_clang_format(tmp_path, "cat")
    assert format_cpp.check(str(unchanged), paths) == []
    (tmp_path / "cat").mkdir()
    appends = fake_clang_format(tmp_path / "cat", "cat; echo '// added'")
    assert format_cpp.check(str(appends), paths) == [format_cpp.Difference(p, 1) for p in paths]


def test_a_missing_clang_format_is_one_line_and_exit_2(
    format_cpp: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert format_cpp.main(["--check", "--clang-format", str(tmp_path / "no-such-clang-format")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "not found; pip install 'clang-format==23.1.5'" in err
