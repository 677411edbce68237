"""How the runner decides, before running anything, what a clause's verdict can be."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.catalogue import load_catalogue
from conformance.runner import RunOptions, SuiteRunner, plan_features
from conformance.target import Target


def fake_target(
    tmp_path: Path, *, kind: str = "sim", devices: int = 1, headers: tuple[str, ...] = ()
) -> Target:
    include = tmp_path / "include"
    for header in ("mspti/mspti.h", *headers):
        (include / header).parent.mkdir(parents=True, exist_ok=True)
        (include / header).write_text("/* stand-in */\n", encoding="utf-8")
    return Target(
        kind, tmp_path / "libmspti.so", tmp_path, (include,), (tmp_path,), {}, "Ascend910B3", devices
    )


def verdict(runner: SuiteRunner, clause_id: str) -> tuple[str, str] | None:
    result = runner._static_verdict(runner.catalogue.get(clause_id))
    return None if result is None else (result.verdict, result.reason)


@pytest.fixture
def runner(tmp_path: Path) -> SuiteRunner:
    target = fake_target(tmp_path, headers=("acl/acl.h",))
    return SuiteRunner(load_catalogue(), target, RunOptions(report_dir=tmp_path / "report"))


def test_features_come_from_headers_and_the_target_kind(tmp_path: Path) -> None:
    sim = fake_target(tmp_path / "a", headers=("acl/acl.h", "mstx/ms_tools_ext.h"), devices=8)
    assert plan_features(sim) == {"mspti", "acl", "mstx", "multi", "sim", "launch"}
    hardware = fake_target(tmp_path / "b", kind="hardware", headers=("acl/acl.h",))
    assert plan_features(hardware) == {"mspti", "acl", "hw"}  # no kernel binary to launch on hardware


def test_static_verdicts(runner: SuiteRunner) -> None:
    assert verdict(runner, "ACT-ITER-01") is None  # runs
    assert verdict(runner, "ACT-ITER-07") == (
        "skip",
        "vendor-observed behaviour outside the documented contract; graded by --profile upstream",
    )
    assert verdict(runner, "ACT-HCCL-01") == ("skip", "needs at least 2 devices")
    assert verdict(runner, "ACT-KERNEL-04") is None  # runs (graph_replay)
    assert verdict(runner, "MSTX-01") == ("skip", "the target lacks mstx")
    assert verdict(runner, "ACT-MEM-01") is None


def test_hardware_only_clauses_skip_on_the_simulator(tmp_path: Path) -> None:
    options = RunOptions(profile="upstream", report_dir=tmp_path / "report")
    sim = SuiteRunner(load_catalogue(), fake_target(tmp_path / "sim"), options)
    assert verdict(sim, "PLAT-01") == ("skip", "needs real Ascend hardware")
    hardware = SuiteRunner(load_catalogue(), fake_target(tmp_path / "hw", kind="hardware"), options)
    assert verdict(hardware, "PLAT-01") is not None and verdict(hardware, "PLAT-01")[0] == "not-automated"


def test_a_selection_that_needs_no_process_yields_a_report(tmp_path: Path) -> None:
    target = fake_target(tmp_path)
    # PY-DATA-04 is graded by the upstream profile only, and its scenario is not written yet.
    options = RunOptions(
        profile="upstream", patterns=["ACT-HCCL-*", "PY-DATA-04"], report_dir=tmp_path / "report"
    )
    lines: list[str] = []
    report = SuiteRunner(load_catalogue(), target, options, progress=lines.append).run()
    assert [r.verdict for _c, r in report.clauses] == ["skip", "skip", "skip", "skip", "not-automated"]
    # Nothing was graded: no verdict to pass on, so not a success (exit 2, as a selection of no clause).
    assert report.scenarios == [] and report.exit_status() == 2
    assert "0 scenario(s) to run" in lines[1]
