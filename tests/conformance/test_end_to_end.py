"""The suite run for real against the libmspti.so of the native build (skipped when there is none).

The native build is the one the other tests use: ``NPU_SIM_BUILD_DIR`` or the installed package.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.build import Builder
from conformance.catalogue import load_catalogue
from conformance.execute import Invocation, execute
from conformance.report import summary_lines, write_all
from conformance.runner import RunOptions, SuiteReport, SuiteRunner
from conformance.target import Target, TargetError, resolve_target
from support.native import python_subprocess_env

REPO = Path(__file__).resolve().parents[2]

#: A stand-in msPTI whose GetNextRecord crashes and whose FlushAll hangs (the harness must survive both).
BROKEN_MSPTI = r"""
#include <signal.h>
#include <unistd.h>
#include "mspti.h"
msptiResult msptiActivityRegisterCallbacks(msptiBuffersCallbackRequestFunc a,
                                           msptiBuffersCallbackCompleteFunc b)
{ (void)a; (void)b; return MSPTI_SUCCESS; }
msptiResult msptiActivityEnable(msptiActivityKind k) { (void)k; return MSPTI_SUCCESS; }
msptiResult msptiActivityDisable(msptiActivityKind k) { (void)k; return MSPTI_SUCCESS; }
bool msptiActivityIsEnabled(msptiActivityKind k) { (void)k; return false; }
msptiResult msptiActivityEnableMarkerDomain(const char *n) { (void)n; return MSPTI_SUCCESS; }
msptiResult msptiActivityDisableMarkerDomain(const char *n) { (void)n; return MSPTI_SUCCESS; }
msptiResult msptiActivityGetNextRecord(uint8_t *b, size_t s, msptiActivity **r)
{ (void)b; (void)s; (void)r; raise(SIGSEGV); return MSPTI_ERROR_INNER; }
msptiResult msptiActivityFlushAll(uint32_t f) { (void)f; sleep(600); return MSPTI_SUCCESS; }
msptiResult msptiActivityFlushPeriod(uint32_t t) { (void)t; return MSPTI_SUCCESS; }
msptiResult msptiActivityPushExternalCorrelationId(msptiExternalCorrelationKind k, uint64_t i)
{ (void)k; (void)i; return MSPTI_SUCCESS; }
msptiResult msptiActivityPopExternalCorrelationId(msptiExternalCorrelationKind k, uint64_t *i)
{ (void)k; (void)i; return MSPTI_SUCCESS; }
msptiResult msptiSubscribe(msptiSubscriberHandle *s, msptiCallbackFunc c, void *u)
{ (void)s; (void)c; (void)u; return MSPTI_SUCCESS; }
msptiResult msptiUnsubscribe(msptiSubscriberHandle s) { (void)s; return MSPTI_SUCCESS; }
msptiResult msptiEnableCallback(uint32_t e, msptiSubscriberHandle s, msptiCallbackDomain d, msptiCallbackId c)
{ (void)e; (void)s; (void)d; (void)c; return MSPTI_SUCCESS; }
msptiResult msptiEnableDomain(uint32_t e, msptiSubscriberHandle s, msptiCallbackDomain d)
{ (void)e; (void)s; (void)d; return MSPTI_SUCCESS; }
"""


#: A stand-in msPTI every call of which hangs: the suite must give up on it quickly.
HANGING_MSPTI = r"""
#include <unistd.h>
#include "mspti.h"
#define HANG { for (;;) pause(); }
msptiResult msptiActivityRegisterCallbacks(msptiBuffersCallbackRequestFunc a,
                                           msptiBuffersCallbackCompleteFunc b) HANG
msptiResult msptiActivityEnable(msptiActivityKind k) HANG
msptiResult msptiActivityDisable(msptiActivityKind k) HANG
bool msptiActivityIsEnabled(msptiActivityKind k) HANG
msptiResult msptiActivityEnableMarkerDomain(const char *n) HANG
msptiResult msptiActivityDisableMarkerDomain(const char *n) HANG
msptiResult msptiActivityGetNextRecord(uint8_t *b, size_t s, msptiActivity **r) HANG
msptiResult msptiActivityFlushAll(uint32_t f) HANG
msptiResult msptiActivityFlushPeriod(uint32_t t) HANG
msptiResult msptiActivityPushExternalCorrelationId(msptiExternalCorrelationKind k, uint64_t i) HANG
msptiResult msptiActivityPopExternalCorrelationId(msptiExternalCorrelationKind k, uint64_t *i) HANG
msptiResult msptiSubscribe(msptiSubscriberHandle *s, msptiCallbackFunc c, void *u) HANG
msptiResult msptiUnsubscribe(msptiSubscriberHandle s) HANG
msptiResult msptiEnableCallback(uint32_t e, msptiSubscriberHandle s, msptiCallbackDomain d, msptiCallbackId c)
HANG
msptiResult msptiEnableDomain(uint32_t e, msptiSubscriberHandle s, msptiCallbackDomain d) HANG
"""


def _target(mspti: Path | None = None) -> Target:
    try:
        return resolve_target(mspti=mspti)
    except (TargetError, FileNotFoundError) as error:
        pytest.skip(f"no native build with a libmspti.so: {error}")


@pytest.fixture(scope="module")
def target() -> Target:
    if shutil.which("g++") is None:
        pytest.skip("needs g++")
    return _target()


def run_suite(
    target: Target, tmp_path: Path, patterns: list[str], profile: str = "spec", examples: int = 5
) -> SuiteReport:
    options = RunOptions(
        profile=profile, patterns=patterns, jobs=2, report_dir=tmp_path / "report", stateful_examples=examples
    )
    report = SuiteRunner(load_catalogue(), target, options).run()
    write_all(report, options.report_dir)
    return report


def verdicts(report: SuiteReport) -> dict[str, str]:
    return {clause.id: result.verdict for clause, result in report.clauses}


def failures(report: SuiteReport) -> str:
    return "\n".join(f"{c.id}: {r.reason}" for c, r in report.clauses if r.verdict == "fail")


def test_a_few_scenarios_pass_on_our_msPTI(target: Target, tmp_path: Path) -> None:
    report = run_suite(
        target,
        tmp_path,
        ["abi_lock", "ext_stack", "iterate", "cb_subscribe", "markers_host", "buffer_protocol"],
    )
    found = verdicts(report)
    assert "fail" not in found.values(), failures(report)
    assert found["GEN-ABI-01"] == "pass" and found["ACT-EXT-03"] == "pass" and found["CB-SUB-02"] == "pass"
    assert found["ACT-ITER-07"] == "skip"  # a vendor quirk, not part of the spec profile
    if "mstx" in target.features():
        assert found["MSTX-01"] == "pass" and found["ACT-BUF-04"] == "pass"
    for name in ("report.json", "junit.xml", "report.html"):
        assert (tmp_path / "report" / name).is_file()
    assert (tmp_path / "report" / "runs" / "ext_stack" / "main" / "log.jsonl").is_file()


def test_the_upstream_profile_names_each_deviation_by_clause(target: Target, tmp_path: Path) -> None:
    report = run_suite(target, tmp_path, ["ext_stack"], profile="upstream")
    result = dict((c.id, r) for c, r in report.clauses)["ACT-EXT-05"]
    # our msPTI follows the documented side of ambiguity 3: Pop(kind, NULL) pops
    assert result.verdict == "fail"
    assert "Pop(CUSTOM0, NULL) returned SUCCESS (0); expected INVALID_PARAMETER" in result.failures
    assert report.exit_status() == 1


def test_the_python_package_and_the_reentrancy_probe_pass_on_our_msPTI(
    target: Target, tmp_path: Path
) -> None:
    report = run_suite(target, tmp_path, ["PY-*", "THR-07"])
    found = verdicts(report)
    if "python" not in report.environment["features"].split(","):
        pytest.skip(f"no Python package to grade: {report.environment['python_package']}")
    assert "fail" not in found.values(), failures(report)
    assert found["THR-07"] == "pass" and found["PY-IMPORT-01"] == "pass" and found["PY-STOP-02"] == "pass"
    if "mstx" in target.features():
        assert found["PY-RANGE-01"] == "pass" and found["PY-DATA-03"] == "pass"
    assert found["PY-DATA-04"] == "skip"  # upstream-only
    assert (tmp_path / "report" / "runs" / "py_monitors" / "main" / "log.jsonl").is_file()


@pytest.fixture(scope="module")
def broken_mspti(target: Target, tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("broken")
    source = directory / "broken.c"
    source.write_text(BROKEN_MSPTI, encoding="utf-8")
    library = directory / "libmspti.so"
    includes = [f"-I{d}" for d in target.include_dirs]
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-o", str(library), str(source), *includes, "-Wl,-soname,libmspti.so"],
        check=True,
    )
    return library


def test_a_crashing_implementation_fails_its_clauses_and_keeps_the_log(
    broken_mspti: Path, tmp_path: Path
) -> None:
    report = run_suite(_target(broken_mspti), tmp_path, ["ACT-ITER-01", "ACT-ITER-02"])
    for _clause, result in report.clauses:
        assert result.verdict == "fail"
        # a sanitizer runtime, when preloaded, turns the signal into its own exit status
        assert result.reason.startswith("run 'main': the workload "), result.reason
        assert "crashed (SIGSEGV)" in result.reason or "exited with status" in result.reason
    assert (tmp_path / "report" / "runs" / "iterate" / "main" / "log.jsonl").is_file()


def test_a_hanging_implementation_is_killed_at_the_timeout(broken_mspti: Path, tmp_path: Path) -> None:
    target = _target(broken_mspti)
    builder = Builder(target)
    result = execute(
        "hang", Invocation(script="subscribe\nflush 1 @flush\n", timeout=2), target, builder, tmp_path
    )
    assert result.timed_out and result.failed
    assert result.duration < 30
    assert result.failure() == "timed out after 2 s (killed)"
    assert result.log.calls[0].fn == "msptiSubscribe" and not result.log.has_call("flush")


def test_a_library_that_does_not_answer_is_given_up_on_after_its_first_timeout(
    target: Target, tmp_path: Path
) -> None:
    source = tmp_path / "hanging.c"
    source.write_text(HANGING_MSPTI, encoding="utf-8")
    library = tmp_path / "libmspti.so"
    includes = [f"-I{d}" for d in target.include_dirs]
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-o", str(library), str(source), *includes, "-Wl,-soname,libmspti.so"],
        check=True,
    )
    scenarios = ["ext_stack", "iterate", "cb_subscribe", "register_errors", "buffer_protocol", "markers_host"]
    options = RunOptions(patterns=scenarios, jobs=2, report_dir=tmp_path / "report", timeout=2)
    started = time.monotonic()
    report = SuiteRunner(load_catalogue(), _target(library), options).run()
    elapsed = time.monotonic() - started
    assert report.unresponsive.startswith("the library does not answer: run '"), report.unresponsive
    assert "timed out after 2 s, then msptiSubscribe did not return within 2 s" in report.unresponsive
    graded = [(clause, result) for clause, result in report.clauses if result.verdict in ("pass", "fail")]
    assert graded and all(result.reason == f"not graded: {report.unresponsive}" for _c, result in graded)
    assert report.exit_status() == 1
    ran = [run for scenario in report.scenarios for run in scenario.runs if not run.not_run]
    assert len(ran) <= 2 * options.jobs, [f"{run.scenario}/{run.invocation.name}" for run in ran]
    assert elapsed < 60, elapsed  # every clause at its full timeout would take minutes


def test_a_selection_that_grades_nothing_exits_2(target: Target, tmp_path: Path) -> None:
    report = run_suite(target, tmp_path, ["ACT-ITER-07"])  # a vendor quirk: skipped under the spec profile
    assert verdicts(report) == {"ACT-ITER-07": "skip"}
    assert report.exit_status() == 2
    assert "RESULT: NOTHING GRADED" in summary_lines(report)[-1]


def test_the_pytest_plugin_turns_clauses_into_items(target: Target, tmp_path: Path) -> None:
    env = python_subprocess_env()  # the packages this test process imports (installed, or the source tree)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "conformance.pytest_plugin",
        "--conformance",
        "-q",
        "-p",
        "no:cacheprovider",
        "--conformance-k",
        "ext_stack",
        "--conformance-k",
        "ACT-ITER-07",
        "--conformance-report-dir",
        "report",  # relative: taken from where pytest started, not from where each workload runs
        "-rs",
    ]
    result = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 passed, 1 skipped" in result.stdout
    assert "ACT-ITER-07: vendor-observed behaviour" in result.stdout
    assert (tmp_path / "report" / "junit.xml").is_file()


@pytest.mark.slow
def test_the_whole_suite_passes_on_our_msPTI_under_the_spec_profile(target: Target, tmp_path: Path) -> None:
    report = run_suite(target, tmp_path, [], examples=20)
    assert all(not scenario.error for scenario in report.scenarios), [s.error for s in report.scenarios]
    assert report.exit_status() == 0, failures(report)
    counts = report.counts()
    assert counts["pass"] >= 100
    assert sum(counts.values()) == len(load_catalogue())


@pytest.mark.slow
def test_the_whole_suite_runs_under_the_upstream_profile(target: Target, tmp_path: Path) -> None:
    report = run_suite(target, tmp_path, [], profile="upstream", examples=5)
    assert all(not scenario.error for scenario in report.scenarios)
    for _clause, result in report.clauses:
        if result.verdict == "fail":
            assert result.failures, result.clause_id
    assert verdicts(report)["PLAT-01"] == "skip"


def test_copies_through_dlsym_are_graded_per_profile(target: Target, tmp_path: Path) -> None:
    # Our msPTI records copies and fills reached without its interposer, synchronous ones included;
    # the vendor's records come from its interposed functions only, so the upstream profile expects none.
    spec = verdicts(run_suite(target, tmp_path / "spec", ["copy_direct"]))
    assert spec["ACT-MEMCPY-05"] == spec["ACT-MEMCPY-07"] == "pass", spec
    upstream = run_suite(target, tmp_path / "upstream", ["copy_direct"], profile="upstream")
    result = dict((c.id, r) for c, r in upstream.clauses)["ACT-MEMCPY-07"]
    assert result.verdict == "fail"
    assert "records of synchronous direct calls: got 18, expected 0" in result.failures
