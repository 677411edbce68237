"""The JSON report and its schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.execute import RunResult
from conformance.runner import SuiteReport
from conformance.scenarios import SCENARIOS

__all__ = ["SCHEMA", "SCHEMA_ID", "report_dict", "write_json"]

SCHEMA_ID = "mspti-conformance-report/1"
_VERDICT = {"enum": ["pass", "fail", "skip", "not-automated"]}
_STRINGS = {"type": "array", "items": {"type": "string"}}

#: JSON Schema (draft 2020-12) of report.json.
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "msPTI conformance report",
    "type": "object",
    "required": [
        "schema",
        "suite_version",
        "profile",
        "started",
        "duration_s",
        "target",
        "summary",
        "clauses",
        "scenarios",
    ],
    "properties": {
        "schema": {"const": SCHEMA_ID},
        "suite_version": {"type": "string"},
        "profile": {"enum": ["spec", "upstream"]},
        "started": {"type": "string"},
        "duration_s": {"type": "number", "minimum": 0},
        "target": {"type": "object", "required": ["kind", "mspti"]},
        "environment": {"type": "object"},
        "summary": {
            "type": "object",
            "required": [
                "catalogued",
                "selected",
                "automated",
                "pass",
                "fail",
                "skip",
                "not-automated",
                "exit_status",
            ],
            "properties": {
                key: {"type": "integer", "minimum": 0}
                for key in (
                    "catalogued",
                    "selected",
                    "automated",
                    "pass",
                    "fail",
                    "skip",
                    "not-automated",
                    "exit_status",
                )
            },
        },
        "clauses": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [
                    "id",
                    "statement",
                    "level",
                    "environment",
                    "scenario",
                    "verdict",
                    "reason",
                    "failures",
                    "evidence",
                ],
                "properties": {
                    "id": {"type": "string"},
                    "statement": {"type": "string"},
                    "source": {"type": "string"},
                    "level": {"enum": ["MUST", "DOC", "UPSTREAM", "AMB"]},
                    "environment": _STRINGS,
                    "scenario": {"type": "string"},
                    "verdict": _VERDICT,
                    "reason": {"type": "string"},
                    "failures": _STRINGS,
                    "evidence": _STRINGS,
                },
            },
        },
        "scenarios": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "clauses", "duration_s", "runs"],
                "properties": {
                    "runs": {
                        "type": "array",
                        "items": {"type": "object", "required": ["name", "program", "exit_code", "log"]},
                    },
                },
            },
        },
    },
}


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


def report_dict(report: SuiteReport) -> dict[str, Any]:
    counts = report.counts()
    automated = sum(1 for clause, _r in report.clauses if clause.scenario in SCENARIOS)
    return {
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
        },
        "clauses": [
            {
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
            for clause, result in report.clauses
        ],
        "scenarios": [
            {
                "name": scenario.name,
                "summary": scenario.summary,
                "clauses": scenario.clauses,
                "duration_s": round(scenario.duration, 3),
                "error": scenario.error,
                "runs": [_run(run) for run in scenario.runs],
            }
            for scenario in report.scenarios
        ],
    }


def write_json(report: SuiteReport, path: Path) -> None:
    path.write_text(json.dumps(report_dict(report), indent=2) + "\n", encoding="utf-8")
