"""Report writers: JUnit XML parses, JSON follows its schema, HTML holds every clause, terminal totals."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.catalogue import load_catalogue
from conformance.checks import ClauseResult
from conformance.execute import Invocation, RunResult
from conformance.log import RunLog
from conformance.report import SCHEMA, report_dict, schema_errors, summary_lines, write_all
from conformance.report.json_report import SCHEMA_FILE, write_json
from conformance.runner import ScenarioReport, SuiteReport

VERDICTS = ["pass", "fail", "skip", "not-automated"]


@pytest.fixture
def report(tmp_path: Path) -> SuiteReport:
    catalogue = load_catalogue()
    clauses = catalogue.select(["ACT-EXT-*", "ACT-HCCL-01"])
    results = []
    for index, clause in enumerate(clauses):
        verdict = VERDICTS[index % 3] if clause.id != "ACT-HCCL-01" else "not-automated"
        result = ClauseResult(
            clause.id,
            verdict,
            reason="" if verdict == "pass" else f"reason <{clause.id}>",
            scenario=clause.scenario,
        )
        if verdict == "fail":
            result.failures = [f"check of {clause.id} failed: <script>alert(1)</script>", "second failure"]
        result.evidence = [f"evidence for {clause.id}"]
        results.append((clause, result))
    directory = tmp_path / "runs" / "ext_stack" / "main"
    directory.mkdir(parents=True)
    (directory / "log.jsonl").write_text(
        '{"ev":"call","fn":"msptiActivityPushExternalCorrelationId","seq":1}\n', encoding="utf-8"
    )
    run = RunResult(
        "ext_stack",
        Invocation(script="push CUSTOM0 1 @push\n"),
        RunLog([]),
        directory,
        exit_code=0,
        duration=0.25,
    )
    crashed = RunResult("ext_stack", Invocation("crashed"), RunLog([]), directory, exit_code=-11)
    scenario = ScenarioReport(
        "ext_stack", "push and pop", [c.id for c, _r in results[:5]], [run, crashed], 0.5
    )
    return SuiteReport(
        "spec",
        {"kind": "sim", "mspti": "/x/libmspti.so", "description": "test target"},
        "2026-01-01T00:00:00+00:00",
        1.5,
        results,
        [scenario],
        len(catalogue),
        {"python": "3.11"},
    )


def test_counts_and_exit_status(report: SuiteReport) -> None:
    counts = report.counts()
    assert sum(counts.values()) == len(report.clauses) == 14
    assert counts["not-automated"] == 1 and counts["fail"] > 0
    assert report.exit_status() == 1
    passing = SuiteReport(
        "spec", {}, "", 0, [(c, r) for c, r in report.clauses if r.verdict != "fail"], [], 186
    )
    assert passing.exit_status() == 0


def test_junit_xml_has_one_case_per_clause(report: SuiteReport, tmp_path: Path) -> None:
    paths = write_all(report, tmp_path / "out")
    root = ET.parse(paths["junit"]).getroot()
    cases = root.findall(".//testcase")
    assert [c.get("name") for c in cases] == [clause.id for clause, _r in report.clauses]
    failures = [c for c in cases if c.find("failure") is not None]
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert len(failures) == report.counts()["fail"]
    assert len(skipped) == report.counts()["skip"] + report.counts()["not-automated"]
    hccl = next(c for c in cases if c.get("name") == "ACT-HCCL-01")
    assert hccl.find("skipped").get("message").startswith("not yet automated")  # type: ignore[union-attr]
    assert cases[0].get("classname") == "conformance.ACT-EXT"
    suite = root.find("testsuite")
    assert suite is not None and suite.get("failures") == str(len(failures))


def test_json_report_follows_the_schema(report: SuiteReport, tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    paths = write_all(report, tmp_path / "out")
    data = json.loads(paths["json"].read_text(encoding="utf-8"))
    jsonschema.validate(data, SCHEMA)
    assert data["summary"]["selected"] == 14 and data["summary"]["catalogued"] == 190
    assert data["summary"]["exit_status"] == 1
    assert data["scenarios"][0]["runs"][1]["failure"] == "the workload crashed (SIGSEGV)"
    broken = dict(data, profile="strict")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, SCHEMA)
    assert report_dict(report)["clauses"][0]["id"] == "ACT-EXT-01"


def test_the_report_schema_is_a_file_in_the_package_and_names_what_breaks(report: SuiteReport) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == SCHEMA
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    data = report_dict(report)
    assert schema_errors(data) == []
    del data["summary"]["fail"]
    data["clauses"][0]["verdict"] = "maybe"
    errors = schema_errors(data)
    assert any(e.startswith("$.summary:") and "'fail'" in e for e in errors), errors
    assert any(e.startswith("$.clauses[0].verdict:") for e in errors), errors


def test_a_report_that_breaks_its_schema_is_written_and_refused(
    report: SuiteReport, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("jsonschema")
    import conformance.report.json_report as json_report

    original = json_report.report_dict
    monkeypatch.setattr(json_report, "report_dict", lambda r: dict(original(r), profile="strict"))
    path = tmp_path / "report.json"
    with pytest.raises(ValueError, match=r"report.json breaks report.schema.json: \$.profile"):
        write_json(report, path)
    assert json.loads(path.read_text(encoding="utf-8"))["profile"] == "strict"


def test_html_report_is_self_contained_and_lists_every_clause(report: SuiteReport, tmp_path: Path) -> None:
    page = write_all(report, tmp_path / "out")["html"].read_text(encoding="utf-8")
    for clause, result in report.clauses:
        assert f'id="clause-{clause.id}"' in page
        assert f'data-verdict="{result.verdict}"' in page
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "push CUSTOM0 1 @push" in page  # the scenario's script
    assert "msptiActivityPushExternalCorrelationId" in page  # its log, inline
    assert 'id="scenario-ext_stack"' in page
    assert "<link" not in page and 'src="http' not in page


def test_terminal_summary(report: SuiteReport) -> None:
    lines = summary_lines(report)
    assert len([line for line in lines if line.startswith(("PASS", "FAIL", "SKIP", "TODO"))]) == 14
    assert any(line.startswith("FAIL  ACT-EXT-02") and "reason <ACT-EXT-02>" in line for line in lines)
    assert any(line.strip() == "second failure" for line in lines)
    assert lines[-3].startswith("190 clauses catalogued, 14 selected")
    assert "not yet automated 1" in lines[-2]
    assert lines[-1].startswith("RESULT: FAILED")
    coloured = summary_lines(report, colour=True)
    assert "\033[31;1mFAIL\033[0m" in "\n".join(coloured)
