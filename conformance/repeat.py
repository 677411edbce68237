"""Grading each clause several times (``mspti-conformance run --repeat N``).

A library whose behaviour depends on timing (a flush that waits a bounded time for device data, a
record lost on a loaded host) can pass a clause in one run and fail it in the next. With
``--repeat N`` the runner grades every clause that needs a run N times, each time in fresh
processes, and :func:`combine` turns the N verdicts into one:

* **stable pass**: every run passed (verdict ``pass``);
* **stable fail**: every run failed (verdict ``fail``);
* **flaky k/N**: k of the N runs failed (verdict ``fail``: a clause that can fail is not met).

Each failing run keeps its own evidence (the failed checks and the records seen), so a flaky
clause shows what went wrong each time it failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.checks import ClauseResult

__all__ = ["STABILITIES", "FailedRun", "Repetition", "combine", "order_failures_first"]

STABILITIES: tuple[str, ...] = ("stable-fail", "flaky", "stable-pass")


@dataclass
class FailedRun:
    """One failing grading of a clause: which round, and what it saw."""

    round: int  # 1-based
    reason: str
    failures: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "reason": self.reason,
            "failures": list(self.failures),
            "evidence": list(self.evidence),
        }


@dataclass
class Repetition:
    """How the N gradings of one clause came out."""

    rounds: int
    failed_runs: list[FailedRun] = field(default_factory=list)

    @property
    def failed(self) -> int:
        return len(self.failed_runs)

    @property
    def stability(self) -> str:
        """``stable-fail``, ``flaky`` or ``stable-pass`` (no run failed: passed, or skipped alike)."""
        if self.failed == self.rounds:
            return "stable-fail"
        if self.failed:
            return "flaky"
        return "stable-pass"

    def label(self) -> str:
        """``stable pass``, ``stable fail`` or ``flaky k/N`` (k failing runs of N)."""
        if self.stability == "flaky":
            return f"flaky {self.failed}/{self.rounds}"
        return self.stability.replace("-", " ")

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "failed": self.failed,
            "stability": self.stability,
            "label": self.label(),
            "failed_runs": [run.to_dict() for run in self.failed_runs],
        }


def combine(results: Sequence[ClauseResult]) -> tuple[ClauseResult, Repetition]:
    """One verdict from the gradings of one clause (one per round, in round order)."""
    if not results:
        raise ValueError("combine needs at least one result")
    failed = [
        FailedRun(index, r.reason, list(r.failures), list(r.evidence))
        for index, r in enumerate(results, start=1)
        if r.verdict == "fail"
    ]
    repetition = Repetition(len(results), failed)
    first = results[0]
    if not failed:
        # Every run passed (or was skipped by its checker alike): the first run stands for all.
        combined = ClauseResult(
            first.clause_id, first.verdict, first.reason, [], list(first.evidence), first.scenario
        )
        if first.verdict == "pass" and any(r.verdict != "pass" for r in results):
            combined.reason = "; ".join(sorted({r.reason for r in results if r.verdict != "pass"}))
        return combined, repetition
    worst = failed[0]
    if repetition.stability == "flaky":
        reason = (
            f"flaky: failed {repetition.failed} of {repetition.rounds} runs; "
            f"run {worst.round}: {worst.reason}"
        )
    else:
        reason = worst.reason
    return (
        ClauseResult(
            first.clause_id, "fail", reason, list(worst.failures), list(worst.evidence), first.scenario
        ),
        repetition,
    )


def order_failures_first(
    rows: Sequence[tuple[Any, ClauseResult]], repetitions: dict[str, Repetition]
) -> list[tuple[Any, ClauseResult]]:
    """Stable failures first, then flaky clauses, then the rest in catalogue order."""

    def rank(row: tuple[Any, ClauseResult]) -> int:
        result = row[1]
        repetition = repetitions.get(result.clause_id)
        if repetition is not None and repetition.stability == "flaky":
            return 1
        return 0 if result.verdict == "fail" else 2

    return sorted(rows, key=rank)  # sorted() is stable: catalogue order within each rank
