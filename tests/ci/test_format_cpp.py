"""tools/format_cpp.py, the clang-format gate of the lint env (docs/ci.md): its verdicts."""

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


# A stand-in clang-format: --dry-run names every file it is given (as clang-format names a file that
# would change); given one file, it prints it with one line added.
FAKE_CHANGING = """if [ "$1" = "--dry-run" ]; then
  shift 2
  for f in "$@"; do echo "$f:1:1: error: code should be clang-formatted [-Wclang-format-violations]" >&2; done
  exit 1
fi
cat "$2"; echo '// added'"""


def test_a_tree_clang_format_leaves_alone_passes(format_cpp: ModuleType, tmp_path: Path) -> None:
    paths = format_cpp.tracked_sources()[:3]
    assert paths, "the tree has no C/C++ file"
    quiet = fake_clang_format(tmp_path, "exit 0")
    assert format_cpp.check(str(quiet), paths) == []


def test_a_file_clang_format_would_change_is_reported_with_its_lines(
    format_cpp: ModuleType, tmp_path: Path
) -> None:
    paths = format_cpp.tracked_sources()[:2]
    changing = fake_clang_format(tmp_path, FAKE_CHANGING)
    assert format_cpp.check(str(changing), paths) == [format_cpp.Difference(p, 1) for p in paths]


def test_cann_public_headers_keep_cann_text() -> None:
    # The toolkit manifest compares these headers with CANN's files: the formatter must leave them be.
    for folder in ("csrc/sim/include", "csrc/mspti/include"):
        style = (REPO / folder / ".clang-format").read_text(encoding="utf-8")
        assert "DisableFormat: true" in style.splitlines(), folder


def test_a_missing_clang_format_is_one_line_and_exit_2(
    format_cpp: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert format_cpp.main(["--check", "--clang-format", str(tmp_path / "no-such-clang-format")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "not found; pip install 'clang-format==23.1.5'" in err
