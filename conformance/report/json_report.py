"""The JSON report and its schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.catalogue import Clause
from conformance.checks import ClauseResult
from conformance.execute import RunResult
from conformance.runner import ScenarioReport, SuiteReport
from conformance.scenarios import SCENARIOS

__all__ = ["SCHEMA", "SCHEMA_FILE", "SCHEMA_ID", "report_dict", "schema_errors", "write_json"]

SCHEMA_ID = "mspti-conformance-report/1"
SCHEMA_FILE = Path(__file__).resolve().parent / "schemas" / "report.schema.json"
#: JSON Schema (draft 2020-12) of report.json, kept as package data in ``schemas/``.
SCHEMA: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def schema_errors(data: Any, limit: int = 20) -> list[str]:
    """Where ``data`` breaks the report schema: ``<json path>: <message>``, at most ``limit``."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(SCHEMA)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    return [f"{e.json_path}: {e.message}" for e in errors[:limit]]


def _run(run: RunResult) -> dict[str, Any]:
    return {
        "name": run.invocation.name,
        "program": run.invocation.program,
        "exit_code": run.exit_code,
        "timed_out": run.timed_out,
        "duration_s": round(run.duration, 3),
        "directory": str(run.directory),
        "log": str(run.log_path),
        "events": len(run.log),
        "failure": run.failure(),
        "build_error": run.build_error,
    }


def _clause(clause: Clause, result: ClauseResult, report: SuiteReport) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": clause.id,
        "statement": clause.statement,
        "source": clause.source,
        "level": clause.level,
        "environment": list(clause.environment),
        "scenario": clause.scenario,
        "amb": clause.amb,
        "note": clause.note,
        "verdict": result.verdict,
        "reason": result.reason,
        "failures": list(result.failures),
        "evidence": list(result.evidence),
    }
    repetition = report.repetitions.get(clause.id)
    if repetition is not None:
        row["repetition"] = repetition.to_dict()
    return row


def _scenario(scenario: ScenarioReport, report: SuiteReport) -> dict[str, Any]:
    row: dict[str, Any] = {
        "name": scenario.name,
        "summary": scenario.summary,
        "clauses": scenario.clauses,
        "duration_s": round(scenario.duration, 3),
        "error": scenario.error,
        "runs": [_run(run) for run in scenario.runs],
    }
    if report.repeat > 1:
        row["round"] = scenario.round
    return row


def report_dict(report: SuiteReport) -> dict[str, Any]:
    """The report as JSON data. With ``--repeat`` the clauses come failures first (stable, then
    flaky), each graded clause carries its ``repetition``, and ``flaky`` lists the flaky clauses."""
    counts = report.counts()
    automated = sum(1 for clause, _r in report.clauses if clause.scenario in SCENARIOS)
    data: dict[str, Any] = {
        "schema": SCHEMA_ID,
        "suite_version": __version__,
        "profile": report.profile,
        "started": report.started,
        "duration_s": round(report.duration, 3),
        "target": report.target,
        "environment": report.environment,
        "summary": {
            "catalogued": report.catalogue_size,
            "selected": len(report.clauses),
            "automated": automated,
            **counts,
            "exit_status": report.exit_status(),
            "unresponsive": report.unresponsive,
        },
        "clauses": [_clause(clause, result, report) for clause, result in report.ordered()],
        "scenarios": [_scenario(scenario, report) for scenario in report.scenarios],
    }
    if report.repeat > 1:
        flaky = [clause.id for clause, _result in report.flaky()]
        stable_fail = sum(1 for r in report.repetitions.values() if r.stability == "stable-fail")
        data["summary"].update({"repeat": report.repeat, "flaky": len(flaky), "stable_fail": stable_fail})
        data["flaky"] = flaky
    return data


def write_json(report: SuiteReport, path: Path) -> None:
    """Writes report.json; raises ValueError (after writing, so that the run's results are kept)
    when the report breaks its schema."""
    data = report_dict(report)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    errors = schema_errors(data)
    if errors:
        raise ValueError(f"{path} breaks {SCHEMA_FILE.name}: " + "; ".join(errors[:5]))
