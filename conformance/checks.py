"""Verdicts and the context a scenario checker works in.

A checker grades each of its clauses inside ``with ctx.clause(ID) as c:``; every ``c.check`` /
``c.returns`` / ``c.equal`` records evidence or a failure. A clause whose block raised, or ran no
check at all, fails: a clause is never passed without a check that ran.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from conformance.abi import result_name, result_value
from conformance.catalogue import Clause, ProfileExpectation
from conformance.execute import Invocation, RunResult
from conformance.log import Call, LogError, RunLog

__all__ = [
    "VERDICTS",
    "CheckContext",
    "ClauseCheck",
    "ClauseResult",
    "RunFailed",
    "SkipClause",
]

VERDICTS: tuple[str, ...] = ("pass", "fail", "skip", "not-automated")
_MAX_EVIDENCE = 40


class RunFailed(Exception):
    """The process a check needs did not run to completion."""


class SkipClause(Exception):
    """The clause cannot be graded on this target; the message says why."""


@dataclass
class ClauseResult:
    clause_id: str
    verdict: str
    reason: str = ""
    failures: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    scenario: str = ""
    runs: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.clause_id,
            "verdict": self.verdict,
            "reason": self.reason,
            "failures": list(self.failures),
            "evidence": list(self.evidence),
            "scenario": self.scenario,
            "runs": list(self.runs),
        }


def _names(allowed: str | int | Sequence[str | int]) -> list[str | int]:
    if isinstance(allowed, (str, int)):
        return [allowed]
    return list(allowed)


class ClauseCheck:
    """The checks of one clause."""

    def __init__(self, clause_id: str, expect: ProfileExpectation, profile: str) -> None:
        self.clause_id = clause_id
        self.expect = expect
        self.profile = profile
        self.failures: list[str] = []
        self.evidence: list[str] = []
        self.checks = 0
        self.skip_reason = ""

    def note(self, text: str) -> None:
        if len(self.evidence) < _MAX_EVIDENCE:
            self.evidence.append(text)

    def check(self, condition: bool, message: str, evidence: str | None = None) -> bool:
        """Passes when ``condition``; ``message`` says what was expected and what happened."""
        self.checks += 1
        if condition:
            if evidence:
                self.note(evidence)
        else:
            self.failures.append(message)
        return condition

    def equal(self, actual: Any, expected: Any, what: str) -> bool:
        return self.check(
            actual == expected, f"{what}: got {actual!r}, expected {expected!r}", f"{what} = {actual!r}"
        )

    def returns(self, call: Call, allowed: str | int | Sequence[str | int], what: str | None = None) -> bool:
        """The call returned one of the ``allowed`` result codes (names or values)."""
        description = what or _describe(call)
        if call.missing:
            return self.check(False, f"{description}: the target does not export {call.fn}")
        values = [result_value(a) for a in _names(allowed)]
        expected = " or ".join(result_name(v) for v in values)
        actual = call.ret
        got = f"{result_name(actual)} ({actual})" if isinstance(actual, int) else repr(actual)
        return self.check(
            actual in values, f"{description} returned {got}; expected {expected}", f"{description} -> {got}"
        )

    def skip(self, reason: str) -> None:
        raise SkipClause(reason)

    def fail(self, message: str) -> None:
        self.check(False, message)


def _describe(call: Call) -> str:
    skip = {"ev", "fn", "label", "ret", "tid", "t0", "t1", "seq"}
    args = ", ".join(f"{k}={v!r}" for k, v in call.data.items() if k not in skip)
    return f"{call.fn}({args})" + (f" [{call.label}]" if call.label else "")


class CheckContext:
    """What a scenario checker sees: its runs, the clauses it grades and the profile."""

    def __init__(
        self,
        scenario: str,
        runs: Mapping[str, RunResult],
        clauses: Mapping[str, Clause],
        profile: str,
        features: frozenset[str] = frozenset(),
        *,
        executor: Callable[[Invocation], RunResult] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.scenario = scenario
        self.runs: dict[str, RunResult] = dict(runs)
        self.clauses = clauses
        self.profile = profile
        self.features = features
        self.executor = executor
        self.options: Mapping[str, Any] = options or {}
        self.results: dict[str, ClauseResult] = {}

    def execute(self, invocation: Invocation) -> RunResult:
        """Runs one more process (scenarios that decide their runs as they go, like the stateful one)."""
        if self.executor is None:
            raise RunFailed("this context cannot start processes")
        result = self.executor(invocation)
        self.runs[invocation.name] = result
        return result

    def run(self, name: str = "main") -> RunResult:
        """The run ``name``; RunFailed when it did not complete (unless it may crash by design)."""
        if name not in self.runs:
            raise RunFailed(f"the scenario has no run named {name!r}")
        result = self.runs[name]
        if result.build_error is not None or result.timed_out:
            raise RunFailed(f"run {name!r}: {result.failure()}")
        if result.failed and not result.invocation.crash_ok:
            raise RunFailed(f"run {name!r}: {result.failure()}")
        return result

    def log(self, name: str = "main") -> RunLog:
        return self.run(name).log

    def expectation(self, clause_id: str) -> ProfileExpectation:
        clause = self.clauses.get(clause_id)
        if clause is None:
            return ProfileExpectation(True)
        return clause.expectation(self.profile)

    @contextmanager
    def clause(self, clause_id: str) -> Iterator[ClauseCheck]:
        check = ClauseCheck(clause_id, self.expectation(clause_id), self.profile)
        result = ClauseResult(
            clause_id, "fail", scenario=self.scenario, runs=[str(run.directory) for run in self.runs.values()]
        )
        try:
            yield check
        except SkipClause as skip:
            result.verdict, result.reason = "skip", str(skip)
            result.evidence = check.evidence
            self.results[clause_id] = result
            return
        except RunFailed as error:
            check.failures.append(str(error))
        except LogError as error:
            check.failures.append(f"missing evidence: {error}")
        except Exception as error:  # a checker bug or a malformed log must fail the clause, not the run
            check.failures.append(f"checker error: {type(error).__name__}: {error}")
        result.failures = check.failures
        result.evidence = check.evidence
        if check.failures:
            result.verdict, result.reason = "fail", check.failures[0]
        elif check.checks == 0:
            result.verdict, result.reason = "fail", "no check ran for this clause"
        else:
            result.verdict = "pass"
        previous = self.results.get(clause_id)
        if previous is not None:  # a clause graded in two blocks: both must pass
            result.failures = previous.failures + result.failures
            result.evidence = previous.evidence + result.evidence
            if previous.verdict == "fail" or result.verdict == "fail":
                result.verdict = "fail"
                result.reason = (result.failures or [previous.reason])[0]
        self.results[clause_id] = result
