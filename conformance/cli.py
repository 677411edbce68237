"""The ``mspti-conformance`` command: list the catalogue, run the suite."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from conformance.catalogue import PROFILES, Catalogue, CatalogueError, load_catalogue

__all__ = ["build_parser", "main"]

PROG = "mspti-conformance"
EXIT_USAGE = 2


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


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
    run.add_argument("--devices", type=int, metavar="N", help="simulated device count")
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
        "-j", "--jobs", type=int, default=2, metavar="N", help="scenarios run in parallel (default 2)"
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
        type=int,
        default=20,
        metavar="N",
        help="random call sequences tried by the stateful scenario (default 20)",
    )
    run.add_argument("--stateful-seed", type=int, default=0, metavar="N", help="seed of the stateful search")
    run.add_argument("--werror", action="store_true", help="compile workloads with -Werror")
    run.add_argument(
        "--python-package",
        choices=("auto", "mspti_core", "mspti"),
        default="auto",
        help="the Python package the PY clauses grade (auto: mspti_core on the simulator, mspti on hardware)",
    )
    run.add_argument(
        "--repeat",
        type=_positive,
        default=1,
        metavar="N",
        help="grade each clause N times in fresh processes; clauses that fail in some runs only are "
        "reported as flaky k/N with the evidence of each failing run (default 1)",
    )
    run.add_argument(
        "-v", "--verbose", action="store_true", help="print every failed check, not only the first"
    )
    return parser


def _load(patterns: list[str]) -> tuple[Catalogue, list]:  # type: ignore[type-arg]
    catalogue = load_catalogue()
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
    from conformance.target import TargetError, resolve_target

    catalogue = load_catalogue()
    soc = args.sim or (None if args.cann else (os.environ.get("NPU_SIM_SOC") or catalogue.default_soc))
    try:
        target = resolve_target(
            mspti=args.mspti, cann=args.cann, soc=soc, build_dir=args.build_dir, devices=args.devices
        )
    except (TargetError, FileNotFoundError) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if "mspti" not in target.features():
        print(f"{PROG}: no mspti/mspti.h under {', '.join(map(str, target.include_dirs))}", file=sys.stderr)
        return EXIT_USAGE
    options = RunOptions(
        profile=args.profile,
        patterns=args.patterns,
        jobs=args.jobs,
        report_dir=args.report_dir.resolve(),  # workloads run in their own directories
        stateful_examples=args.stateful_examples,
        stateful_seed=args.stateful_seed,
        werror=args.werror,
        python_package=args.python_package,
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
        print(f"{PROG}: invalid catalogue: {error}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
