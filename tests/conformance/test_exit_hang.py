"""A library that hangs in the process's exit (its teardown waits forever) costs a run a few seconds,
not its whole timeout: the run is killed EXIT_GRACE s after its log says the work was done, and
fails as a timed-out run does. The unresponsive-library probe counts such a library as answering."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from conformance import execute as execute_module
from conformance.build import Builder
from conformance.catalogue import load_catalogue
from conformance.execute import Invocation, execute
from conformance.runner import RunOptions, SuiteRunner
from conformance.target import Target, TargetError, resolve_target
from support.fake_mspti import build_fake_mspti

#: A destructor that never returns: the library's teardown at exit hangs.
HANG_AT_EXIT = """
#include <unistd.h>
__attribute__((destructor)) static void hang_at_exit(void) { for (;;) pause(); }
"""
GRACE = 1.0


@pytest.fixture
def hangs_at_exit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Target:
    if shutil.which("g++") is None:
        pytest.skip("needs g++")
    library = build_fake_mspti(tmp_path / "lib", ext=False, extra_source=HANG_AT_EXIT)
    try:
        target = resolve_target(mspti=library)
    except (TargetError, FileNotFoundError) as error:
        pytest.skip(f"no native build to run on: {error}")
    monkeypatch.setattr(execute_module, "EXIT_GRACE", GRACE)
    return target


def test_a_run_that_hangs_in_its_exit_is_killed_soon_after_its_work(
    hangs_at_exit: Target, tmp_path: Path
) -> None:
    builder = Builder(hangs_at_exit)
    builder.build(execute_module.PROGRAMS["driver"]())  # the build is not part of the run's time
    started = time.monotonic()
    result = execute(
        "exit_hang", Invocation(script="subscribe\n", timeout=60), hangs_at_exit, builder, tmp_path
    )
    elapsed = time.monotonic() - started
    assert result.log.first("finish") is not None, result.stderr  # the work was done
    assert result.timed_out and result.exit_hang and result.failed
    assert elapsed < 20, elapsed  # the timeout (60 s) was not waited out
    assert result.failure() == "timed out: did not exit within 1 s of finishing its work (killed)"


def test_a_library_that_hangs_only_in_its_exit_still_answers_the_probe(
    hangs_at_exit: Target, tmp_path: Path
) -> None:
    options = RunOptions(patterns=["ACT-EXT-01"], jobs=1, report_dir=tmp_path / "report")
    report = SuiteRunner(load_catalogue(), hangs_at_exit, options).run()
    assert report.unresponsive == ""
    ((_clause, result),) = report.clauses
    assert result.verdict == "fail"
    assert "did not exit within 1 s of finishing its work" in result.reason, result.reason
    assert report.duration < 40, report.duration
