"""The ``mspti-conformance`` command: list the catalogue, run the suite."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from conformance.catalogue import PROFILES, Catalogue, CatalogueError
from sim_runtime.arguments import positive_int, positive_seconds, whole_number

__all__ = ["build_parser", "main"]

PROG = "mspti-conformance"
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Conformance suite for msPTI implementations.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    listing = commands.add_parser(
        "list",
        help="print the clause catalogue",
        description="Print the clauses (id, level, environment, scenario, statement).",
    )
    listing.add_argument(
        "--profile", choices=PROFILES, help="also show whether each clause applies under PROFILE"
    )
    listing.add_argument(
        "-k",
        dest="patterns",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only clauses whose id matches the glob, or whose id/statement/scenario contains "
        "PATTERN (repeatable; commas separate several)",
    )
    listing.add_argument("--json", action="store_true", help="print JSON")

    run = commands.add_parser(
        "run",
        help="run the suite against an msPTI library",
        description="Run the scenarios of the selected clauses in fresh processes and grade "
        "each clause. Exit status 0 only when every applicable automated clause "
        "passes under the chosen profile.",
    )
    run.add_argument(
        "--mspti", type=Path, metavar="PATH", help="libmspti.so under test (default: the target's)"
    )
    where = run.add_mutually_exclusive_group()
    where.add_argument(
        "--cann",
        type=Path,
        metavar="DIR",
        help="a CANN toolkit (DIR/include, DIR/lib64), e.g. $ASCEND_HOME_PATH on an Ascend host",
    )
    where.add_argument(
        "--build-dir",
        type=Path,
        metavar="DIR",
        help="a CMake build tree of this project (default: $NPU_SIM_BUILD_DIR, else the installed simulator)",
    )
    run.add_argument(
        "--sim", metavar="SOC", help="simulated SoC (sets NPU_SIM_SOC; default from the catalogue)"
    )
    run.add_argument("--devices", type=positive_int, metavar="N", help="simulated device count")
    run.add_argument(
        "--profile",
        choices=PROFILES,
        default="spec",
        help="spec: the documented contract (default); upstream: observed vendor behaviour",
    )
    run.add_argument(
        "-k",
        dest="patterns",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only clauses matching PATTERN (see `list -k`)",
    )
    run.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        default=2,
        metavar="N",
        help="scenarios run in parallel (default 2)",
    )
    run.add_argument(
        "--report-dir",
        type=Path,
        default=Path("mspti-conformance-report"),
        metavar="DIR",
        help="where report.json, junit.xml, report.html and the run logs go",
    )
    run.add_argument(
        "--stateful-examples",
        type=positive_int,
        default=20,
        metavar="N",
        help="random call sequences tried by the stateful scenario (default 20)",
    )
    run.add_argument(
        "--stateful-seed", type=whole_number, default=0, metavar="N", help="seed of the stateful search"
    )
    run.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="kill a run after this long (default: each scenario's own, 60 s for most); after a run is "
        "killed, one msptiSubscribe call probes the library, and a library that does not answer it is "
        "given up on: the clauses not yet graded are reported as not graded, and the run ends",
    )
    run.add_argument("--werror", action="store_true", help="compile workloads with -Werror")
    run.add_argument(
        "--python-package",
        choices=("auto", "mspti_core", "mspti"),
        default="auto",
        help="the Python package the PY clauses grade (auto: mspti_core on the simulator, mspti on hardware)",
    )
    run.add_argument(
        "--repeat",
        type=positive_int,
        default=1,
        metavar="N",
        help="grade each clause N times in fresh processes; clauses that fail in some runs only are "
        "reported as flaky k/N with the evidence of each failing run (default 1)",
    )
    run.add_argument(
        "-v", "--verbose", action="store_true", help="print every failed check, not only the first"
    )
    return parser


def _error(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _check_report_dir(directory: Path) -> str:
    """Why reports cannot be written into ``directory`` (empty when they can)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        return f"--report-dir {directory}: cannot write there ({error.strerror or error})"
    return ""


def _load(patterns: list[str]) -> tuple[Catalogue, list]:  # type: ignore[type-arg]
    from conformance.scenarios import load_checked_catalogue

    catalogue = load_checked_catalogue()
    return catalogue, catalogue.select(patterns)


def _list(args: argparse.Namespace) -> int:
    import json

    from conformance.scenarios import PLANNED, SCENARIOS

    catalogue, clauses = _load(args.patterns)
    if args.json:
        rows = []
        for clause in clauses:
            row = {
                "id": clause.id,
                "level": clause.level,
                "environment": list(clause.environment),
                "scenario": clause.scenario,
                "automated": clause.scenario in SCENARIOS,
                "statement": clause.statement,
                "source": clause.source,
            }
            if args.profile:
                expectation = clause.expectation(args.profile)
                row["applies"] = expectation.applies
                row["expect"] = dict(expectation.values)
            rows.append(row)
        print(json.dumps(rows, indent=2))
        return 0
    for clause in clauses:
        state = (
            "auto" if clause.scenario in SCENARIOS else ("planned" if clause.scenario in PLANNED else "none")
        )
        applies = ""
        if args.profile:
            applies = "applies " if clause.expectation(args.profile).applies else "n/a     "
        print(
            f"{clause.id:<14} {clause.level:<8} {'+'.join(clause.environment):<9} {applies}"
            f"{clause.scenario or '-':<28} {state:<7} {clause.statement}"
        )
    automated = sum(1 for c in clauses if c.scenario in SCENARIOS)
    print(
        f"\n{len(clauses)} of {len(catalogue)} clauses; {automated} automated, "
        f"{len(clauses) - automated} not yet automated"
    )
    return 0


def _run(args: argparse.Namespace) -> int:
    from conformance.report import summary_lines, write_all
    from conformance.runner import RunOptions, SuiteRunner
    from conformance.scenarios import load_checked_catalogue
    from conformance.target import TargetError, resolve_target

    catalogue = load_checked_catalogue()
    if not catalogue.select(args.patterns):
        return _error(
            f"-k {' -k '.join(args.patterns)} selects no clause; nothing was graded "
            f"(`{PROG} list` shows the clauses)"
        )
    problem = _check_report_dir(args.report_dir)
    if problem:
        return _error(problem)
    soc = args.sim or (None if args.cann else (os.environ.get("NPU_SIM_SOC") or catalogue.default_soc))
    try:
        target = resolve_target(
            mspti=args.mspti, cann=args.cann, soc=soc, build_dir=args.build_dir, devices=args.devices
        )
    except (TargetError, FileNotFoundError) as error:
        return _error(str(error))
    if "mspti" not in target.features():
        return _error(f"no mspti/mspti.h under {', '.join(map(str, target.include_dirs))}")
    options = RunOptions(
        profile=args.profile,
        patterns=args.patterns,
        jobs=args.jobs,
        report_dir=args.report_dir.resolve(),  # workloads run in their own directories
        stateful_examples=args.stateful_examples,
        stateful_seed=args.stateful_seed,
        werror=args.werror,
        python_package=args.python_package,
        timeout=args.timeout,
        repeat=args.repeat,
    )
    runner = SuiteRunner(catalogue, target, options, progress=lambda line: print(line, flush=True))
    report = runner.run()
    print()
    for line in summary_lines(report, colour=sys.stdout.isatty(), verbose=args.verbose):
        print(line)
    paths = write_all(report, args.report_dir)
    print(f"reports: {paths['html']}  {paths['json']}  {paths['junit']}")
    return report.exit_status()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            return _list(args)
        return _run(args)
    except CatalogueError as error:
        return _error(f"invalid catalogue: {error}")
    except OSError as error:  # e.g. the report directory became unwritable during the run
        where = f"{error.filename}: " if error.filename else ""
        return _error(f"{where}{error.strerror or error}")


if __name__ == "__main__":
    sys.exit(main())
