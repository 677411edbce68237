"""The hang detector of the reliability programs (support.native.run_watched_program): slow is not
stuck. A program that keeps printing progress lines may run past its stall limit in total; one that
stops printing them is killed once the stall limit has passed."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from support.native import Stalled, run_watched_program


def script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "program.sh"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_a_slow_program_that_progresses_is_not_stuck(tmp_path: Path) -> None:
    # 2.4 s in all, twice the stall limit, but never more than 0.3 s between progress lines.
    exe = script(tmp_path, "for i in 1 2 3 4 5 6 7 8; do echo P step=$i; sleep 0.3; done\necho S done=1\n")
    proc = run_watched_program(exe, dict(os.environ), [], "P ", stall_s=1.2, limit_s=60)
    assert proc.returncode == 0
    assert proc.stdout.count("P step=") == 8 and "S done=1" in proc.stdout


def test_a_program_that_stops_progressing_is_killed(tmp_path: Path) -> None:
    # Output that is not progress does not count: only "P " lines do.
    exe = script(tmp_path, "echo P step=1\nwhile true; do echo chatter; sleep 0.2; done\n")
    started = time.monotonic()
    with pytest.raises(Stalled, match="no progress for 1 s") as stalled:
        run_watched_program(exe, dict(os.environ), [], "P ", stall_s=1.0, limit_s=60)
    assert time.monotonic() - started < 20
    assert "P step=1" in stalled.value.stdout and "chatter" in stalled.value.stdout
