"""`mspti-conformance run --repeat N`: stable pass, stable fail and flaky k/N, with the evidence of
each failing run, and reports that list failures first and flaky clauses apart."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from conformance.catalogue import Clause, load_catalogue
from conformance.checks import ClauseResult
from conformance.cli import build_parser
from conformance.repeat import combine
from conformance.report import report_dict, schema_errors, summary_lines, write_all
from conformance.runner import RunOptions, ScenarioReport, SuiteRunner
from conformance.scenarios import SCENARIOS, Scenario
from conformance.target import Target
from support.fake_mspti import build_fake_mspti


def _result(verdict: str, note: str = "") -> ClauseResult:
    failures = [f"check failed: {note}"] if verdict == "fail" else []
    return ClauseResult("X-01", verdict, f"reason {note}", failures, [f"records seen: {note}"], "s")


def test_combine_tells_stable_pass_stable_fail_and_flaky() -> None:
    result, repetition = combine([_result("pass", "a"), _result("pass", "b")])
    assert result.verdict == "pass" and repetition.label() == "stable pass"
    result, repetition = combine([_result("fail", "a"), _result("fail", "b")])
    assert result.verdict == "fail" and repetition.label() == "stable fail"
    assert [run.failures for run in repetition.failed_runs] == [["check failed: a"], ["check failed: b"]]
    result, repetition = combine([_result("pass", "a"), _result("fail", "b"), _result("pass", "c")])
    assert result.verdict == "fail" and repetition.label() == "flaky 1/3"
    assert result.reason == "flaky: failed 1 of 3 runs; run 2: reason b"
    (failed,) = repetition.failed_runs
    assert (failed.round, failed.failures, failed.evidence) == (2, ["check failed: b"], ["records seen: b"])


def test_repeat_must_be_a_positive_number() -> None:
    parser = build_parser()
    assert parser.parse_args(["run"]).repeat == 1
    assert parser.parse_args(["run", "--repeat", "3"]).repeat == 3
    with pytest.raises(SystemExit) as raised:
        parser.parse_args(["run", "--repeat", "0"])
    assert raised.value.code == 2


@pytest.fixture
def runner_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A runner whose scenarios are stubs: ACT-EXT-03 fails every other time, ACT-EXT-04 always,
    the other clauses never. No workload is built or run."""
    lib64 = tmp_path / "tree" / "lib64"
    library = build_fake_mspti(lib64, ext=True)
    include = tmp_path / "tree" / "include"
    (include / "mspti").mkdir(parents=True)
    target = Target("sim", library, lib64, (include,), (lib64,), {})
    calls = itertools.count()

    def run_scenario(
        self: SuiteRunner, scenario: Scenario, clauses: dict[str, Clause]
    ) -> tuple[ScenarioReport, dict[str, ClauseResult]]:
        results = {}
        for clause_id in clauses:
            flaky_fails = clause_id == "ACT-EXT-03" and next(calls) % 2 == 1
            verdict = "fail" if clause_id == "ACT-EXT-04" or flaky_fails else "pass"
            results[clause_id] = ClauseResult(
                clause_id,
                verdict,
                f"{clause_id} in {self.work_dir.name}",
                [f"failed check in {self.work_dir.name}"] if verdict == "fail" else [],
                [f"records seen in {self.work_dir.name}"],
                scenario.name,
            )
        return ScenarioReport(scenario.name, scenario.summary, sorted(clauses)), results

    monkeypatch.setattr(SuiteRunner, "_run_scenario", run_scenario)
    monkeypatch.setattr(SuiteRunner, "_static_verdict", lambda self, clause: None)

    def make(repeat: int) -> SuiteRunner:
        options = RunOptions(patterns=["ACT-EXT-0[1-4]"], report_dir=tmp_path / f"r{repeat}", repeat=repeat)
        return SuiteRunner(load_catalogue(), target, options)

    return make


def test_repeat_grades_each_clause_n_times_and_reports_flaky_apart(runner_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert all(c.scenario in SCENARIOS for c in load_catalogue().select(["ACT-EXT-0[1-4]"]))
    report = runner_for(3).run()
    by_id = {clause.id: result for clause, result in report.clauses}
    assert report.repetitions["ACT-EXT-04"].label() == "stable fail"
    assert report.repetitions["ACT-EXT-03"].label() == "flaky 1/3"
    assert report.repetitions["ACT-EXT-01"].label() == "stable pass"
    assert by_id["ACT-EXT-03"].verdict == "fail" and report.exit_status() == 1
    # The failing run's own evidence, from its own round's run directory.
    (failed,) = report.repetitions["ACT-EXT-03"].failed_runs
    assert failed.failures == [f"failed check in round-{failed.round}"]
    assert failed.evidence == [f"records seen in round-{failed.round}"]
    assert {s.round for s in report.scenarios} == {1, 2, 3}

    data = report_dict(report)
    assert schema_errors(data) == []
    order = [row["id"] for row in data["clauses"]]
    assert order == ["ACT-EXT-04", "ACT-EXT-03", "ACT-EXT-01", "ACT-EXT-02"]  # failures, flaky, the rest
    assert data["flaky"] == ["ACT-EXT-03"]
    assert data["summary"]["repeat"] == 3 and data["summary"]["flaky"] == 1
    assert data["summary"]["stable_fail"] == 1
    flaky_row = data["clauses"][1]["repetition"]
    assert flaky_row["stability"] == "flaky" and flaky_row["failed_runs"][0]["round"] == failed.round

    paths = write_all(report, tmp_path / "out")
    page = paths["html"].read_text(encoding="utf-8")
    flaky_section = page.split("<h2>Flaky clauses</h2>")[1].split("<h2>Clauses</h2>")[0]
    assert "ACT-EXT-03" in flaky_section and "ACT-EXT-04" not in flaky_section
    assert "flaky 1/3" in page and f"round {failed.round} failed" in page
    lines = summary_lines(report)
    assert lines[0].startswith("FAIL  ACT-EXT-04") and lines[1].startswith("FLAKY 1/3  ACT-EXT-03")


def test_without_repeat_the_report_is_as_before(runner_for) -> None:  # type: ignore[no-untyped-def]
    report = runner_for(1).run()
    data = report_dict(report)
    assert "flaky" not in data and "repeat" not in data["summary"]
    assert all("repetition" not in row for row in data["clauses"])
    assert all("round" not in row for row in data["scenarios"])
    assert [row["id"] for row in data["clauses"]] == [c.id for c, _r in report.clauses]  # catalogue order
    assert report.repetitions == {}


def test_repeat_and_timeout_are_both_options_of_run() -> None:
    args = build_parser().parse_args(["run", "--repeat", "2", "--timeout", "5"])
    assert (args.repeat, args.timeout) == (2, 5.0)


def test_a_library_given_up_on_in_a_later_round_is_reported_not_graded(  # type: ignore[no-untyped-def]
    runner_for, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--repeat with the unresponsive-library handling: once the library stops answering (here in
    round 2), the rest of the clauses are not graded, and every report says so beside the rounds."""
    given_up = "the library does not answer: run 's/main' timed out after 2 s, then ..."

    def run_scenario(
        self: SuiteRunner, scenario: Scenario, clauses: dict[str, Clause]
    ) -> tuple[ScenarioReport, dict[str, ClauseResult]]:
        if self.work_dir.name == "round-2":
            self._unresponsive = given_up
        reason = f"not graded: {self._unresponsive}" if self._unresponsive else "ok"
        verdict = "fail" if self._unresponsive else "pass"
        results = {c: ClauseResult(c, verdict, reason, [reason] * (verdict == "fail")) for c in clauses}
        return ScenarioReport(scenario.name, scenario.summary, sorted(clauses)), results

    monkeypatch.setattr(SuiteRunner, "_run_scenario", run_scenario)
    report = runner_for(3).run()
    assert report.unresponsive == given_up
    assert {r.label() for r in report.repetitions.values()} == {"flaky 2/3"}
    data = report_dict(report)
    assert schema_errors(data) == []
    assert data["summary"]["unresponsive"] == given_up and data["summary"]["repeat"] == 3
    lines = summary_lines(report)
    assert f"NOT GRADED: {given_up}" in lines
    assert any(line.startswith("graded 3 times: 0 stable failure(s), 4 flaky") for line in lines)
