"""The suite runner: plans which clauses can be graded, runs their scenarios and collects verdicts."""

from __future__ import annotations

import dataclasses
import os
import platform
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.build import Builder
from conformance.catalogue import Catalogue, Clause
from conformance.checks import CheckContext, ClauseResult
from conformance.execute import Invocation, RunResult, execute, not_run
from conformance.model.invariants import Violation, buffer_protocol, result_codes
from conformance.python_target import find_python_package
from conformance.repeat import Repetition, combine, order_failures_first
from conformance.scenarios import PLANNED, SCENARIOS, Scenario, ScenarioEnv
from conformance.target import Target

__all__ = [
    "EXIT_NOTHING_GRADED",
    "RunOptions",
    "ScenarioReport",
    "SuiteReport",
    "SuiteRunner",
    "plan_features",
]

EXIT_NOTHING_GRADED = 2
#: The longest a probe of an unanswering library may take (seconds), capped by RunOptions.timeout.
PROBE_TIMEOUT = 10.0
#: The probe: one call that any msPTI answers at once.
PROBE = Invocation(name="probe", script="subscribe\nunsubscribe\n", timeout=PROBE_TIMEOUT)

#: Clauses checked in every run's log as well as in their own scenario.
GLOBAL_CLAUSES = (
    "ACT-BUF-01",
    "ACT-BUF-02",
    "ACT-BUF-03",
    "ACT-BUF-04",
    "GEN-ABI-01",
    "GEN-ABI-03",
    "GEN-RES-01",
)


@dataclass
class RunOptions:
    profile: str = "spec"
    patterns: list[str] = field(default_factory=list)
    jobs: int = 2
    report_dir: Path = Path("mspti-conformance-report")
    stateful_examples: int = 20
    stateful_seed: int = 0
    werror: bool = False
    python_package: str = "auto"  # see conformance.python_target
    timeout: float | None = None  # caps each run's own timeout (seconds); None: the scenario's own
    repeat: int = 1  # gradings of each clause that needs a run (see conformance.repeat)


@dataclass
class ScenarioReport:
    name: str
    summary: str
    clauses: list[str]
    runs: list[RunResult] = field(default_factory=list)
    duration: float = 0.0
    error: str = ""
    round: int = 0  # with --repeat: which grading (1-based); 0 for a single one


@dataclass
class SuiteReport:
    profile: str
    target: dict[str, Any]
    started: str
    duration: float
    clauses: list[tuple[Clause, ClauseResult]]
    scenarios: list[ScenarioReport]
    catalogue_size: int
    environment: dict[str, str] = field(default_factory=dict)
    #: Why the library was given up on (it stopped answering), empty when it was not.
    unresponsive: str = ""
    repeat: int = 1
    #: With ``repeat`` > 1: how the gradings of each graded clause came out, by clause id.
    repetitions: dict[str, Repetition] = field(default_factory=dict)

    def flaky(self) -> list[tuple[Clause, ClauseResult]]:
        """The clauses that passed in some runs and failed in others (``--repeat``)."""
        return [
            (clause, result)
            for clause, result in self.clauses
            if (r := self.repetitions.get(clause.id)) is not None and r.stability == "flaky"
        ]

    def ordered(self) -> list[tuple[Clause, ClauseResult]]:
        """The clauses as reports list them: catalogue order, or with ``--repeat`` stable failures
        first, then flaky clauses, then the rest."""
        if self.repeat <= 1:
            return list(self.clauses)
        return order_failures_first(self.clauses, self.repetitions)

    def counts(self) -> dict[str, int]:
        counts = {"pass": 0, "fail": 0, "skip": 0, "not-automated": 0}
        for _clause, result in self.clauses:
            counts[result.verdict] = counts.get(result.verdict, 0) + 1
        return counts

    @property
    def passed(self) -> bool:
        """True when no applicable automated clause failed (skips and not-automated clauses do not count)."""
        counts = self.counts()
        return counts["fail"] == 0

    @property
    def graded(self) -> int:
        """Clauses given a pass or fail verdict."""
        counts = self.counts()
        return counts["pass"] + counts["fail"]

    def exit_status(self) -> int:
        """0 when every graded clause passed, 1 when one failed, 2 when nothing was graded."""
        if not self.passed:
            return 1
        return 0 if self.graded else EXIT_NOTHING_GRADED


def plan_features(target: Target) -> frozenset[str]:
    """The target's features plus ``launch`` when kernels can be launched from an opaque binary."""
    features = set(target.features())
    if "acl" in features and (target.is_simulator or os.environ.get("MSPTI_CONFORMANCE_KERNEL_BIN")):
        features.add("launch")
    return frozenset(features)


class SuiteRunner:
    def __init__(
        self,
        catalogue: Catalogue,
        target: Target,
        options: RunOptions,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.catalogue = catalogue
        self.target = target
        self.options = options
        self.progress = progress or (lambda _line: None)
        self.features = plan_features(target)
        python = find_python_package(target, options.python_package)
        if isinstance(python, str):
            self.python_description, python_env = f"none: {python}", {}
        else:
            self.features = self.features | {"python"}
            self.python_description, python_env = python.description, dict(python.env)
        self.env = ScenarioEnv(self.features, target.kind, target.devices, python_env)
        self.builder = Builder(target, werror=options.werror)
        self.work_dir = options.report_dir / "runs"
        # Set once a run timed out and the probe did not answer either: no further run is started.
        self._unresponsive = ""
        self._probe_lock = threading.Lock()

    # ------------------------------------------------------------------ planning

    def _static_verdict(self, clause: Clause) -> ClauseResult | None:
        """The verdict of a clause that needs no run (skip or not automated), else None."""
        expectation = clause.expectation(self.options.profile)
        if not expectation.applies:
            return ClauseResult(clause.id, "skip", expectation.reason, scenario=clause.scenario)
        environments = set(clause.environment)
        if environments == {"HW"} and self.target.is_simulator:
            return ClauseResult(clause.id, "skip", "needs real Ascend hardware", scenario=clause.scenario)
        if "MULTI" in environments and self.target.devices < 2:
            return ClauseResult(clause.id, "skip", "needs at least 2 devices", scenario=clause.scenario)
        if not clause.scenario:
            return ClauseResult(clause.id, "not-automated", "no scenario yet")
        if clause.scenario in PLANNED:
            return ClauseResult(
                clause.id,
                "not-automated",
                f"not yet automated: {PLANNED[clause.scenario]}",
                scenario=clause.scenario,
            )
        scenario = SCENARIOS[clause.scenario]
        missing = scenario.missing(self.features)
        if missing:
            reason = f"the target lacks {', '.join(missing)}"
            if "python" in missing:
                reason += f" (Python package {self.python_description})"
            return ClauseResult(clause.id, "skip", reason, scenario=clause.scenario)
        return None

    # ------------------------------------------------------------------ running

    def _capped(self, invocation: Invocation) -> Invocation:
        cap = self.options.timeout
        if cap is None or invocation.timeout <= cap:
            return invocation
        return dataclasses.replace(invocation, timeout=cap)

    def _execute(self, scenario: str, invocation: Invocation) -> RunResult:
        if self._unresponsive:
            return not_run(scenario, invocation, self.work_dir, self._unresponsive)
        result = execute(scenario, self._capped(invocation), self.target, self.builder, self.work_dir)
        if result.timed_out:
            how = result.failure().removesuffix(" (killed)")
            self._probe_after_timeout(f"{scenario}/{invocation.name}", how)
        return result

    def _probe_after_timeout(self, where: str, how: str) -> None:
        """After a run timed out: does the library answer one plain call? If not, give up on it
        (a library whose every call hangs would otherwise cost every run its whole timeout)."""
        with self._probe_lock:
            if self._unresponsive:
                return
            probe = self._capped(PROBE)
            result = execute("probe", probe, self.target, self.builder, self.work_dir)
            # A probe that got its answer but then hung in its exit has answered.
            if result.timed_out and not result.exit_hang:
                self._unresponsive = (
                    f"the library does not answer: run '{where}' {how}, then "
                    f"msptiSubscribe did not return within {probe.timeout:g} s"
                )
                self.progress(f"{self._unresponsive}; the remaining runs are not started")

    def _run_scenario(
        self, scenario: Scenario, clauses: dict[str, Clause]
    ) -> tuple[ScenarioReport, dict[str, ClauseResult]]:
        report = ScenarioReport(scenario.name, scenario.summary, sorted(clauses))
        started = time.monotonic()
        results: dict[str, ClauseResult] = {}
        try:
            invocations = scenario.build(self.env)
            runs = {inv.name: self._execute(scenario.name, inv) for inv in invocations}
            report.runs = list(runs.values())
            context = CheckContext(
                scenario.name,
                runs,
                clauses,
                self.options.profile,
                self.features,
                executor=lambda inv: self._execute(scenario.name, inv),
                options={
                    "stateful_examples": self.options.stateful_examples,
                    "stateful_seed": self.options.stateful_seed,
                },
            )
            assert scenario.check is not None, f"scenario {scenario.name} has no checker"
            scenario.check(context)
            report.runs = list(context.runs.values())
            results = context.results
        except Exception as error:  # a broken scenario must not stop the suite
            report.error = f"{type(error).__name__}: {error}\n{traceback.format_exc()}"
        if self._unresponsive and any(run.timed_out or run.not_run for run in report.runs):
            # Whatever the checker made of runs that hung or never ran, the clauses were not graded.
            reason = f"not graded: {self._unresponsive}"
            results = {
                clause_id: ClauseResult(clause_id, "fail", reason, [reason], scenario=scenario.name)
                for clause_id in clauses
            }
        for clause_id in clauses:
            if clause_id not in results:
                reason = "the scenario's checker did not grade this clause"
                if report.error:
                    reason = f"the scenario failed: {report.error.splitlines()[0]}"
                results[clause_id] = ClauseResult(clause_id, "fail", reason, [reason], scenario=scenario.name)
            results[clause_id].scenario = scenario.name
        report.duration = time.monotonic() - started
        return report, {k: v for k, v in results.items() if k in clauses}

    def _global_violations(self, reports: Iterable[ScenarioReport]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for report in reports:
            for run in report.runs:
                if run.failed:
                    continue
                violations: list[Violation] = [*buffer_protocol(run.log), *result_codes(run.log)]
                for violation in violations:
                    if violation.clause in GLOBAL_CLAUSES:
                        where = f"{report.name}/{run.invocation.name}"
                        found.setdefault(violation.clause, []).append(f"[{where}] {violation.message}")
        return found

    def run(self) -> SuiteReport:
        started_wall = datetime.now(timezone.utc).isoformat(timespec="seconds")
        started = time.monotonic()
        selected = self.catalogue.select(self.options.patterns)
        verdicts: dict[str, ClauseResult] = {}
        to_run: dict[str, dict[str, Clause]] = {}
        for clause in selected:
            static = self._static_verdict(clause)
            if static is not None:
                verdicts[clause.id] = static
            else:
                to_run.setdefault(clause.scenario, {})[clause.id] = clause
        total = len(to_run)
        self.progress(f"target: {self.target.description} ({self.target.kind}); msPTI: {self.target.mspti}")
        self.progress(
            f"profile {self.options.profile}: {len(selected)} clause(s) selected, {total} scenario(s) to run,"
            f" {len(verdicts)} decided without running"
        )
        self.options.report_dir.mkdir(parents=True, exist_ok=True)
        repeat = max(1, self.options.repeat)
        reports: list[ScenarioReport] = []
        repetitions: dict[str, Repetition] = {}
        if repeat == 1:
            reports, graded = self._grade_round(to_run, self.options.report_dir / "runs", 0)
            verdicts.update(graded)
        else:
            rounds: dict[str, list[ClauseResult]] = {}
            for index in range(1, repeat + 1):
                self.progress(f"round {index} of {repeat}")
                round_reports, graded = self._grade_round(
                    to_run, self.options.report_dir / "runs" / f"round-{index}", index
                )
                reports.extend(round_reports)
                for clause_id, result in graded.items():
                    rounds.setdefault(clause_id, []).append(result)
            for clause_id, results in rounds.items():
                verdicts[clause_id], repetitions[clause_id] = combine(results)
        clauses = [(clause, verdicts[clause.id]) for clause in selected]
        if self._unresponsive:
            not_graded = sum(1 for _c, result in clauses if result.reason.startswith("not graded: "))
            self.progress(f"{not_graded} clause(s) not graded: {self._unresponsive}")
        return SuiteReport(
            profile=self.options.profile,
            target=self.target.describe(),
            started=started_wall,
            duration=time.monotonic() - started,
            clauses=clauses,
            scenarios=sorted(reports, key=lambda r: (r.name, r.round)),
            catalogue_size=len(self.catalogue),
            environment={
                "python": platform.python_version(),
                "host": platform.node(),
                "suite_version": __version__,
                "features": ",".join(sorted(self.features)),
                "python_package": self.python_description,
            },
            unresponsive=self._unresponsive,
            repeat=repeat,
            repetitions=repetitions,
        )

    def _grade_round(
        self, to_run: dict[str, dict[str, Clause]], work_dir: Path, round_index: int
    ) -> tuple[list[ScenarioReport], dict[str, ClauseResult]]:
        """One grading of every clause in ``to_run``, with its runs under ``work_dir``."""
        self.work_dir = work_dir
        total = len(to_run)
        reports: list[ScenarioReport] = []
        verdicts: dict[str, ClauseResult] = {}
        with ThreadPoolExecutor(max_workers=max(1, self.options.jobs)) as pool:
            futures = {
                pool.submit(self._run_scenario, SCENARIOS[name], clauses): name
                for name, clauses in sorted(to_run.items())
            }
            for done, future in enumerate(as_completed(futures), start=1):
                report, results = future.result()
                report.round = round_index
                reports.append(report)
                verdicts.update(results)
                tally: dict[str, int] = {}
                for result in results.values():
                    tally[result.verdict] = tally.get(result.verdict, 0) + 1
                summary = ", ".join(f"{n} {v}" for v, n in sorted(tally.items()))
                note = f" [{report.error.splitlines()[0]}]" if report.error else ""
                self.progress(
                    f"[{done:>3}/{total}] {report.name:<30} {summary} ({report.duration:.1f}s){note}"
                )
        for clause_id, messages in self._global_violations(reports).items():
            result = verdicts.get(clause_id)
            if result is None or result.verdict != "pass":
                continue
            result.verdict = "fail"
            result.failures.extend(messages[:20])
            result.reason = f"violated in another scenario: {messages[0]}"
        return reports, verdicts
