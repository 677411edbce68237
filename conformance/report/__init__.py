"""Report writers: terminal summary, JUnit XML, JSON and a self-contained HTML page."""

from __future__ import annotations

from pathlib import Path

from conformance.report.html import write_html
from conformance.report.json_report import SCHEMA, report_dict, schema_errors, write_json
from conformance.report.junit import write_junit
from conformance.report.terminal import summary_lines
from conformance.runner import SuiteReport

__all__ = [
    "SCHEMA",
    "report_dict",
    "schema_errors",
    "summary_lines",
    "write_all",
    "write_html",
    "write_json",
    "write_junit",
]


def write_all(report: SuiteReport, directory: Path) -> dict[str, Path]:
    """Writes report.json, junit.xml and report.html into ``directory``; returns their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": directory / "report.json",
        "junit": directory / "junit.xml",
        "html": directory / "report.html",
    }
    write_junit(report, paths["junit"])
    write_html(report, paths["html"])
    write_json(report, paths["json"])  # last: it raises when the report breaks its schema
    return paths
