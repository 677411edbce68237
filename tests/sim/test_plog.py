"""CANN's process log (plog): where the simulator writes it, its line format and its threshold.

Facts from hicann/runtime 681ef76: src/dfx/log/liblog/slog/plog/plog_file_mgr.c (folder
<root>/debug/plog, file plog-<pid>_<YYYYMMDDhhmmssmmm>.log, root $ASCEND_PROCESS_LOG_PATH >
$ASCEND_WORK_PATH/log > $HOME/ascend/log), dlog_message.c and dlog_time.c (the line prefix).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"
FILE_NAME = re.compile(r"plog-(\d+)_\d{17}\.log")
LINE = re.compile(
    r"\[(DEBUG|INFO|WARNING|ERROR|EVENT)\] ([A-Z]+)\((\d+),plog_messages-[0-9a-f]+\):"
    r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} (.*)"
)


@pytest.fixture(scope="module")
def exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "plog_messages.c"], libs=["ascendcl"])


def run(exe: Path, native: NativeTree, **env: str) -> str:
    environment = native.env(NPU_SIM_DEVICES="1", **env)
    for name in ("ASCEND_PROCESS_LOG_PATH", "ASCEND_WORK_PATH", "ASCEND_GLOBAL_LOG_LEVEL"):
        if name not in env:
            environment.pop(name, None)
    result = run_program(exe, environment, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "dump=" in result.stdout and "init=0" in result.stdout
    return result.stderr


def plog_lines(root: Path) -> list[tuple[str, str, str]]:
    files = list((root / "debug" / "plog").iterdir())
    assert len(files) == 1 and FILE_NAME.fullmatch(files[0].name), files
    lines = files[0].read_text().splitlines()
    matches = [LINE.fullmatch(line) for line in lines]
    assert all(matches), lines
    pid = FILE_NAME.fullmatch(files[0].name)
    assert pid is not None and {m.group(3) for m in matches if m} == {pid.group(1)}
    return [(m.group(1), m.group(2), m.group(4)) for m in matches if m]


def test_warning_goes_to_the_plog_and_to_stderr(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    stderr = run(exe, native, ASCEND_PROCESS_LOG_PATH=str(tmp_path), ASCEND_GLOBAL_LOG_LEVEL="2")
    lines = plog_lines(tmp_path)
    assert lines[0][:2] == ("EVENT", "RUNTIME")
    warnings = [text for level, _, text in lines if level == "WARNING"]
    assert len(warnings) == 1 and "aclmdlInitDump is not supported" in warnings[0]
    assert not [line for line in lines if line[0] == "ERROR"]  # unsupported is a warning, not an error
    assert "npu-sim [warn] aclmdlInitDump is not supported" in stderr


@pytest.mark.parametrize(("level", "levels"), [(None, {"EVENT"}), ("3", {"EVENT"}), ("4", {"EVENT"})])
def test_the_global_level_filters_the_plog(
    exe: Path, native: NativeTree, tmp_path: Path, level: str | None, levels: set[str]
) -> None:
    env = {"ASCEND_PROCESS_LOG_PATH": str(tmp_path)}
    if level is not None:
        env["ASCEND_GLOBAL_LOG_LEVEL"] = level
    stderr = run(exe, native, **env)
    assert {lvl for lvl, _, _ in plog_lines(tmp_path)} == levels
    assert "aclmdlInitDump is not supported" in stderr  # stderr keeps NPU_SIM_LOG_LEVEL's threshold


def test_default_folder_is_under_home(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    run(exe, native, HOME=str(tmp_path), ASCEND_GLOBAL_LOG_LEVEL="2")
    assert any(level == "WARNING" for level, _, _ in plog_lines(tmp_path / "ascend" / "log"))


def test_work_path_comes_before_home(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    run(exe, native, HOME=str(tmp_path / "home"), ASCEND_WORK_PATH=str(tmp_path / "work"))
    assert plog_lines(tmp_path / "work" / "log")
    assert not (tmp_path / "home").exists()
