"""The terminal summary: one line per clause, then the totals."""

from __future__ import annotations

from conformance.runner import SuiteReport
from conformance.scenarios import SCENARIOS

__all__ = ["summary_lines"]

_LABELS = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP", "not-automated": "TODO"}
_COLOURS = {"pass": "32", "fail": "31;1", "skip": "33", "not-automated": "36"}


def summary_lines(report: SuiteReport, *, colour: bool = False, verbose: bool = False) -> list[str]:
    lines = []
    for clause, result in report.ordered():
        label = _LABELS[result.verdict]
        repetition = report.repetitions.get(clause.id)
        if repetition is not None and repetition.stability == "flaky":
            label = f"FLAKY {repetition.failed}/{repetition.rounds}"
        if colour:
            label = f"\033[{_COLOURS[result.verdict]}m{label}\033[0m"
        detail = "" if result.verdict == "pass" else result.reason
        lines.append(f"{label}  {clause.id:<14} {detail}"[:240].rstrip())
        if result.verdict == "fail" and (verbose or len(result.failures) > 1):
            for failure in result.failures[1:6]:
                lines.append(f"{'':20}{failure}"[:240])
    counts = report.counts()
    automated = sum(1 for clause, _r in report.clauses if clause.scenario in SCENARIOS)
    lines.append("")
    lines.append(
        f"{report.catalogue_size} clauses catalogued, {len(report.clauses)} selected, {automated} automated; "
        f"profile {report.profile}"
    )
    lines.append(
        f"pass {counts['pass']}, fail {counts['fail']}, skip {counts['skip']}, "
        f"not yet automated {counts['not-automated']}  ({report.duration:.1f}s)"
    )
    if report.repeat > 1:
        stable = sum(1 for r in report.repetitions.values() if r.stability == "stable-fail")
        lines.append(
            f"graded {report.repeat} times: {stable} stable failure(s), {len(report.flaky())} flaky"
            " (FLAKY k/N: k of N gradings failed)"
        )
    if report.unresponsive:
        lines.append(f"NOT GRADED: {report.unresponsive}")
    if report.passed and not report.graded:
        lines.append("RESULT: NOTHING GRADED (no selected clause could be run here)")
        return lines
    lines.append(
        "RESULT: "
        + ("PASSED" if report.passed else "FAILED")
        + " (every applicable automated clause must pass)"
    )
    return lines
