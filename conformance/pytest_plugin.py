"""pytest plugin: every catalogue clause becomes a test item.

Enable it with ``pytest -p conformance.pytest_plugin --conformance [options]``. The suite runs once,
when the first clause item runs; each item then reports its clause's verdict: pass, fail (with the
failed checks), or skip (with the reason; "not yet automated" clauses are skips too).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.catalogue import PROFILES, Clause
from conformance.checks import ClauseResult

__all__ = ["ClauseFailure", "ClauseItem"]

_REPORT_KEY = pytest.StashKey[Any]()


class ClauseFailure(AssertionError):
    """A clause failed under the chosen profile."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mspti-conformance", "msPTI conformance suite")
    group.addoption("--conformance", action="store_true", help="add one test item per conformance clause")
    group.addoption("--conformance-mspti", type=Path, metavar="PATH", help="libmspti.so under test")
    group.addoption("--conformance-cann", type=Path, metavar="DIR", help="CANN toolkit of the target")
    group.addoption(
        "--conformance-build-dir", type=Path, metavar="DIR", help="CMake build tree of the simulator"
    )
    group.addoption("--conformance-sim", metavar="SOC", help="simulated SoC")
    group.addoption(
        "--conformance-profile", choices=PROFILES, default="spec", help="spec (default) or upstream"
    )
    group.addoption("--conformance-k", action="append", default=[], metavar="PATTERN", help="select clauses")
    group.addoption("--conformance-jobs", type=int, default=2, metavar="N", help="scenarios run in parallel")
    group.addoption("--conformance-report-dir", type=Path, metavar="DIR", help="also write the reports there")
    group.addoption(
        "--conformance-stateful-examples",
        type=int,
        default=20,
        metavar="N",
        help="random sequences tried by the stateful scenario",
    )


class ClauseItem(pytest.Item):
    def __init__(self, *, clause: Clause, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.clause = clause
        self.add_marker(pytest.mark.conformance)

    def runtest(self) -> None:
        result = _results(self.config).get(self.clause.id)
        if result is None:
            raise ClauseFailure(f"{self.clause.id}: the suite produced no verdict")
        if result.verdict == "pass":
            return
        if result.verdict in ("skip", "not-automated"):
            prefix = "not yet automated: " if result.verdict == "not-automated" else ""
            pytest.skip(f"{self.clause.id}: {prefix}{result.reason}")
        raise ClauseFailure(_describe(self.clause, result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClauseFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.clause_path(), None, f"conformance clause {self.clause.id}"

    def clause_path(self) -> Path:
        return Path(str(self.config.rootpath))


def _describe(clause: Clause, result: ClauseResult) -> str:
    lines = [f"{clause.id} ({clause.level}): {clause.statement}", ""]
    lines += [f"  FAILED: {failure}" for failure in result.failures[:20]]
    lines += [f"  evidence: {line}" for line in result.evidence[:10]]
    if result.runs:
        lines += ["", "  logs: " + ", ".join(result.runs)]
    return "\n".join(lines)


def _results(config: pytest.Config) -> dict[str, ClauseResult]:
    cached = config.stash.get(_REPORT_KEY, None)
    if cached is None:
        from conformance.report import write_all
        from conformance.runner import RunOptions, SuiteRunner
        from conformance.scenarios import load_checked_catalogue
        from conformance.target import resolve_target

        catalogue = load_checked_catalogue()
        target = resolve_target(
            mspti=config.getoption("conformance_mspti"),
            cann=config.getoption("conformance_cann"),
            soc=config.getoption("conformance_sim")
            or (None if config.getoption("conformance_cann") else catalogue.default_soc),
            build_dir=config.getoption("conformance_build_dir"),
        )
        report_dir = config.getoption("conformance_report_dir")
        # Workloads run in their own folders: a relative report folder is taken from where pytest started.
        report_dir = Path(report_dir).resolve() if report_dir is not None else None
        options = RunOptions(
            profile=config.getoption("conformance_profile"),
            patterns=list(config.getoption("conformance_k")),
            jobs=config.getoption("conformance_jobs"),
            report_dir=report_dir or Path(str(config.rootpath)) / ".mspti-conformance",
            stateful_examples=config.getoption("conformance_stateful_examples"),
        )
        report = SuiteRunner(catalogue, target, options).run()
        if report_dir is not None:
            write_all(report, report_dir)
        cached = {clause.id: result for clause, result in report.clauses}
        config.stash[_REPORT_KEY] = cached
    return cached


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance: an msPTI conformance clause")


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if not config.getoption("conformance"):
        return
    from conformance.scenarios import load_checked_catalogue

    catalogue = load_checked_catalogue()
    for clause in catalogue.select(config.getoption("conformance_k")):
        items.append(ClauseItem.from_parent(session, name=clause.id, clause=clause))
