"""JUnit XML: one test case per clause, grouped by clause family."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from conformance.runner import SuiteReport

__all__ = ["junit_tree", "write_junit"]


def junit_tree(report: SuiteReport) -> ET.ElementTree[ET.Element]:
    counts = report.counts()
    root = ET.Element(
        "testsuites",
        name="mspti-conformance",
        tests=str(len(report.clauses)),
        failures=str(counts["fail"]),
        skipped=str(counts["skip"] + counts["not-automated"]),
        time=f"{report.duration:.3f}",
    )
    suite = ET.SubElement(
        root,
        "testsuite",
        name=f"mspti-conformance[{report.profile}]",
        tests=str(len(report.clauses)),
        failures=str(counts["fail"]),
        errors="0",
        skipped=str(counts["skip"] + counts["not-automated"]),
        timestamp=report.started,
        time=f"{report.duration:.3f}",
    )
    properties = ET.SubElement(suite, "properties")
    for key, value in (
        ("profile", report.profile),
        ("mspti", str(report.target.get("mspti", ""))),
        ("target", str(report.target.get("description", ""))),
    ):
        ET.SubElement(properties, "property", name=key, value=value)
    for clause, result in report.clauses:
        case = ET.SubElement(suite, "testcase", classname=f"conformance.{clause.group}", name=clause.id)
        if result.verdict == "fail":
            failure = ET.SubElement(case, "failure", message=result.reason[:500], type="ConformanceFailure")
            failure.text = "\n".join([clause.statement, "", *result.failures, "", *result.evidence])
        elif result.verdict == "skip":
            ET.SubElement(case, "skipped", message=result.reason[:500])
        elif result.verdict == "not-automated":
            ET.SubElement(case, "skipped", message=f"not yet automated: {result.reason}"[:500])
        if result.evidence and result.verdict == "pass":
            ET.SubElement(case, "system-out").text = "\n".join(result.evidence)
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(report: SuiteReport, path: Path) -> None:
    junit_tree(report).write(path, encoding="utf-8", xml_declaration=True)
