"""Running a command line that is used wrongly: it must exit 2 with one line, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

from support.native import python_subprocess_env

EXIT_USAGE = 2


def run_cli(
    module: str, args: Sequence[str], env: Mapping[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ARGS`` with the packages this test process imports (run in this folder, so
    that ``python -m`` does not put a source checkout's packages first)."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=Path(__file__).resolve().parent,
        env={**python_subprocess_env(), **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def call_main(
    main: Callable[[list[str]], int], args: Sequence[str], capsys: pytest.CaptureFixture[str]
) -> subprocess.CompletedProcess[str]:
    """A command's ``main(args)`` in this process, as if run: its exit status (argparse's SystemExit
    included) and what it printed. An exception escaping ``main`` fails the test, as a traceback would."""
    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, out, err)


def error_lines(stderr: str, prog: str) -> list[str]:
    """The lines of ``stderr`` outside argparse's usage text (which precedes its one error line,
    ``PROG [COMMAND]: error: ...``)."""
    lines = stderr.splitlines()
    if lines and lines[0].startswith("usage:"):
        lines = [line for line in lines if line.startswith(prog) and ": error: " in line]
    return lines


def assert_usage_error(result: subprocess.CompletedProcess[str], prog: str, says: str = "") -> str:
    """Exit 2, one line of error (starting with ``prog``, containing ``says``), no traceback; the line."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == EXIT_USAGE, (result.returncode, result.stdout, result.stderr)
    lines = error_lines(result.stderr, prog)
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(prog), result.stderr
    assert says in lines[0], result.stderr
    return lines[0]
