"""The simulated libascendalog: CheckLogLevelForC thresholds and DlogInnerForC output."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"

ALL_LINES = [
    "[DEBUG] PROFILING(31) debug 0",
    "[INFO] PROFILING(31) info no newline",
    "[WARN] RUNTIME(7) warn 50%",
    "[ERROR] ASCENDCL(48) error file.cpp:12",
    "[ERROR] MODULE(999) unknown module",
]


@pytest.fixture(scope="module")
def alog_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "alog_log.c"], libs=["ascendalog"])


def run(exe: Path, native: NativeTree, mode: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = native.env()
    # The test decides the logging settings, not the shell that runs pytest.
    for inherited in ("ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_LOG_FILE"):
        environment.pop(inherited, None)
    result = run_program(exe, {**environment, **env}, [mode])
    assert result.returncode == 0, (
        f"exit {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    )
    return result


def checks(stdout: str) -> dict[int, int]:
    return {int(level): int(answer) for level, answer in re.findall(r"^check (-?\d+)=(\d)$", stdout, re.M)}


@pytest.mark.parametrize(
    ("setting", "threshold"),
    [(None, 3), ("0", 0), ("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 3), ("-1", 3), ("info", 3), ("", 3)],
)
def test_threshold_comes_from_the_global_level(
    alog_exe: Path, native: NativeTree, setting: str | None, threshold: int
) -> None:
    env = {} if setting is None else {"ASCEND_GLOBAL_LOG_LEVEL": setting}
    result = run(alog_exe, native, "levels", **env)
    # Levels 0..3 pass at or above the threshold; -1, 4 (null) and 5 never do.
    assert checks(result.stdout) == {
        level: int(0 <= level <= 3 and level >= threshold) for level in range(-1, 6)
    }
    assert f"check module3 error={int(threshold <= 3)}" in result.stdout.splitlines()
    # DlogInnerForC applies the same filter; invalid levels and a null format are ignored.
    assert result.stderr.splitlines() == [
        line for line, level in zip(ALL_LINES, [0, 1, 2, 3, 3], strict=True) if level >= threshold
    ]


def test_log_file_is_appended_line_by_line(alog_exe: Path, native: NativeTree, tmp_path: Path) -> None:
    log = tmp_path / "ascend.log"
    log.write_text("earlier line\n")
    result = run(alog_exe, native, "levels", ASCEND_GLOBAL_LOG_LEVEL="0", ASCEND_LOG_FILE=str(log))
    assert result.stderr == ""
    assert log.read_text().splitlines() == ["earlier line", *ALL_LINES]


def test_unwritable_log_file_falls_back_to_stderr(alog_exe: Path, native: NativeTree, tmp_path: Path) -> None:
    result = run(alog_exe, native, "levels", ASCEND_LOG_FILE=str(tmp_path / "missing-dir" / "x.log"))
    assert result.stderr.splitlines() == ALL_LINES[3:]


def test_long_message_is_cut_to_one_line(alog_exe: Path, native: NativeTree) -> None:
    out = run(alog_exe, native, "long").stderr
    assert out.endswith("[ERROR] PROFILING(31) after\n")
    first, second = out.splitlines()
    assert first.startswith("[ERROR] PROFILING(31) aaaa") and set(first[22:]) == {"a"}
    assert len(first) + 1 == 4095  # the line buffer, newline included
    assert second == "[ERROR] PROFILING(31) after"


def test_concurrent_lines_never_interleave(alog_exe: Path, native: NativeTree, tmp_path: Path) -> None:
    log = tmp_path / "threads.log"
    run(alog_exe, native, "threads", ASCEND_LOG_FILE=str(log))
    lines = log.read_text().splitlines()
    pattern = re.compile(r"\[ERROR\] PROFILING\(31\) thread ([0-3]) line (\d+) x{20}")
    matches = [pattern.fullmatch(line) for line in lines]
    assert all(matches) and len(lines) == 4000
    seen = {(int(m.group(1)), int(m.group(2))) for m in matches if m}
    assert seen == {(t, i) for t in range(4) for i in range(1000)}


def test_alog_exports_only_its_two_functions_and_needs_no_simulator_core(native: NativeTree) -> None:
    library = native.sim_lib64 / "libascendalog.so"
    symbols = subprocess.run(
        ["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True, check=True
    )
    assert {line.split()[-1] for line in symbols.stdout.splitlines()} == {
        "CheckLogLevelForC",
        "DlogInnerForC",
    }
    needed = subprocess.run(
        ["readelf", "-d", str(library)], capture_output=True, text=True, check=True
    ).stdout
    assert "libnpusim" not in needed
