"""The ``npu-sim`` command: toolkit environment, SoC catalogue and running programs on the simulator."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from sim_runtime import soc as soc_catalogue
from sim_runtime.arguments import positive_int, positive_seconds
from sim_runtime.config import CLOCKS, ConfigError, SimConfig, config_with_options
from sim_runtime.faults import FaultPlanError
from sim_runtime.operators import op_plugin_operators, operator_coverage, registered_operators
from sim_runtime.soc import SocSpec
from sim_runtime.toolkit import ToolkitError, build_toolkit
from sim_runtime.toolkit_layout import cann_release, check_toolkit

__all__ = ["EXIT_TIMEOUT", "EXIT_USAGE", "build_parser", "main", "shell_quote"]

PROG = "npu-sim"
EXIT_USAGE = 2
EXIT_TIMEOUT = 124
EXIT_CANNOT_EXECUTE = 126
EXIT_NOT_FOUND = 127
_KILL_GRACE_SECONDS = 2.0
#: Errors whose message tells the user what to fix; anything else is a bug and keeps its traceback.
_USER_ERRORS = (
    ConfigError,
    FaultPlanError,
    ToolkitError,
    soc_catalogue.UnknownSocError,
    soc_catalogue.CatalogueError,
    OSError,
)


def shell_quote(value: str) -> str:
    """``value`` in single quotes, safe to paste into a POSIX shell."""
    return "'" + value.replace("'", "'\"'\"'") + "'"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Simulated Ascend NPU runtime tools.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    env = commands.add_parser(
        "env",
        help="print the environment of the simulated CANN toolkit",
        description="Print `export` lines (or JSON) that put a shell on the simulated CANN toolkit. "
        'Use as: eval "$(npu-sim env --preload)".',
    )
    env.add_argument(
        "--mspti", type=Path, metavar="PATH", help="libmspti.so to put under test (default: ours)"
    )
    env.add_argument("--preload", action="store_true", help="also set LD_PRELOAD to the msPTI under test")
    env.add_argument("--json", action="store_true", help="print a JSON object instead of shell exports")
    env.add_argument(
        "--check",
        action="store_true",
        help="print every CANN path and variable programs read and whether the toolkit has it; "
        "exits with 1 when a path the toolkit should have is missing",
    )

    info = commands.add_parser("info", help="show the SoC catalogue", description="Show the SoC catalogue.")
    info.add_argument("--json", action="store_true", help="print JSON instead of a table")
    info.add_argument("--soc", metavar="NAME", help="show only this SoC")

    run = commands.add_parser(
        "run",
        help="run a program on the simulated NPU",
        description="Run PROGRAM on the simulated NPU with the msPTI under test preloaded. Settings come "
        "from the SoC catalogue defaults, then --config (or $NPU_SIM_CONFIG), then the NPU_SIM_* "
        "variables, then the options below. Exits with PROGRAM's exit code, or 124 on timeout.",
    )
    mspti = run.add_mutually_exclusive_group()
    mspti.add_argument("--mspti", type=Path, metavar="PATH", help="libmspti.so to preload (default: ours)")
    mspti.add_argument("--no-mspti", action="store_true", help="do not preload any msPTI")
    run.add_argument("--soc", metavar="NAME", help="SoC to simulate (see `npu-sim info`)")
    run.add_argument("--devices", metavar="N", help="number of devices, 1..64")
    run.add_argument("--clock", metavar="|".join(CLOCKS), help="clock mode")
    run.add_argument("--seed", metavar="N", help="seed, 0..2**64-1")
    run.add_argument("--faults", metavar="SPEC", help="fault plan, e.g. 'aclrtMalloc:error=207001@2'")
    run.add_argument(
        "--config", type=Path, metavar="FILE", help="TOML config file (replaces $NPU_SIM_CONFIG)"
    )
    run.add_argument("--timeout", type=positive_seconds, metavar="SECONDS", help="kill PROGRAM after this")
    run.add_argument("program", nargs=argparse.REMAINDER, metavar="-- PROGRAM [ARGS...]")
    run.set_defaults(parser=run)

    calibrate = commands.add_parser(
        "calibrate",
        help="run the calibration table on the simulator and compare with the real figures",
        description="Run each row of sim_runtime/data/calibration.toml (public Ascend measurements) on the "
        "simulator with the virtual clock and print real, simulated and their ratio, with the number of "
        "fit and check rows within +-25 %%. Needs a C++17 compiler (g++ or $CXX). See docs/timing.md.",
    )
    calibrate.add_argument("--rows", choices=("fit", "check", "all"), default="all", help="which rows to run")
    calibrate.add_argument(
        "--id", action="append", default=[], metavar="ID", help="run only this row (repeatable)"
    )
    calibrate.add_argument("--json", action="store_true", help="print JSON instead of a table")
    calibrate.add_argument(
        "--jobs", type=positive_int, default=1, metavar="N", help="run N rows at a time (default 1)"
    )
    site = calibrate.add_mutually_exclusive_group()
    site.add_argument(
        "--measure",
        action="store_true",
        help="run the selected rows on the NPU of this host through the CANN at --cann and write them as "
        "measured rows (to --out or standard output)",
    )
    site.add_argument(
        "--fit",
        type=Path,
        metavar="ROWS",
        help="fit a site timing profile to the measured rows of ROWS (written by --measure), starting from "
        "the built-in coefficients, and write it (to --out or standard output); NPU_SIM_CONFIG's `timing` "
        "key loads it",
    )
    calibrate.add_argument(
        "--cann", type=Path, metavar="DIR", help="with --measure: the CANN toolkit root ($ASCEND_HOME_PATH)"
    )
    calibrate.add_argument("--out", type=Path, metavar="FILE", help="with --measure or --fit: write here")

    bench = commands.add_parser(
        "bench",
        help="run the benchmarks and print their figures beside their targets",
        description="Run the named benchmarks (all when none is named) and print each figure as the "
        "median and range over --rounds rounds, with the ratio of the median to its target "
        "(sim_runtime/data/bench_targets.toml). Each --mspti build runs once per round, in the order "
        "given, and the builds are printed side by side. Needs a C compiler (gcc or $CC); "
        "launch_instructions needs valgrind (apt-get install valgrind). Exits with 0 when every "
        "benchmark ran, 1 when one failed, 2 on a usage error (an unknown name), 3 when one could not "
        "run here (valgrind missing). Targets are reported, not enforced. See docs/performance.md.",
    )
    bench.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (see --list)")
    bench.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    bench.add_argument(
        "--mspti",
        type=Path,
        action="append",
        default=[],
        metavar="PATH",
        help="a libmspti.so to benchmark (repeatable; default: ours); builds are labelled A, B, ...",
    )
    bench.add_argument(
        "--rounds", type=positive_int, default=3, metavar="N", help="rounds per benchmark (default 3)"
    )
    bench.add_argument(
        "--count",
        type=positive_int,
        metavar="N",
        help="launches or records per run of each named benchmark (default: each benchmark's own)",
    )
    bench.add_argument("--json", action="store_true", help="print JSON (every round's values) instead")

    ops = commands.add_parser(
        "ops",
        help="list the operators the simulated libopapi runs",
        description="List every registered aclnn operator and aclop type with its family, kernel and "
        "data types (read from libopapi).",
    )
    ops.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ops.add_argument(
        "--coverage",
        action="store_true",
        help="print how many of the aclnn operators torch_npu's op-plugin calls are registered",
    )

    commands.add_parser(
        "trace",
        help="capture a program's msPTI activity; export, break down, validate, report",
        description="See `npu-sim trace --help`.",
        add_help=False,
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["trace"]:
        return _cmd_trace(arguments[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "run":
        program = list(args.program)
        if program[:1] == ["--"]:
            program = program[1:]
        if not program:
            args.parser.error("missing PROGRAM: give the program to run after --")
        args.program = program
    try:
        if args.command == "env":
            return _cmd_env(args)
        if args.command == "info":
            return _cmd_info(args)
        if args.command == "calibrate":
            return _cmd_calibrate(args)
        if args.command == "bench":
            return _cmd_bench(args)
        if args.command == "ops":
            return _cmd_ops(args)
        return _cmd_run(args)
    except _USER_ERRORS as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE


# --- env ------------------------------------------------------------------------------------------


def _cmd_env(args: argparse.Namespace) -> int:
    config = SimConfig.from_env()
    toolkit = build_toolkit(args.mspti)
    if args.check:
        return _print_check(toolkit.ascend_home, as_json=args.json)
    variables = toolkit.env(config, preload=args.preload)
    if args.json:
        print(json.dumps(variables, indent=2))
    else:
        for name, value in variables.items():
            print(f"export {name}={shell_quote(value)}")
    return 0


def _print_check(root: Path, *, as_json: bool) -> int:
    rows = check_toolkit(root)
    release = cann_release()
    if as_json:
        entries = [dataclasses.asdict(row) for row in rows]
        print(
            json.dumps({"root": str(root), "cann": dataclasses.asdict(release), "entries": entries}, indent=2)
        )
    else:
        print(f"toolkit: {root}")
        print(f"mirrors: {release.name}")
        _print_table(
            [
                ("public repository", "commit", "version"),
                *((r.name, r.commit, r.version) for r in release.repositories),
            ]
        )
        _print_table([("entry", "status", "detail"), *((row.entry, row.status, row.detail) for row in rows)])
        missing = sum(not row.ok for row in rows)
        print(f"{missing} missing" if missing else "every path the toolkit provides is present")
    return 0 if all(row.ok for row in rows) else 1


# --- ops ------------------------------------------------------------------------------------------


def _cmd_ops(args: argparse.Namespace) -> int:
    operators = registered_operators()
    if args.coverage:
        called = op_plugin_operators()
        coverage = operator_coverage(operators, called)
        if args.json:
            missing = sorted(called.names - set(coverage.covered))
            print(
                json.dumps(
                    {**dataclasses.asdict(coverage), "percent": coverage.percent, "missing": missing},
                    indent=2,
                )
            )
        else:
            print(coverage.line())
        return 0
    if args.json:
        print(json.dumps([dataclasses.asdict(op) for op in operators], indent=2))
        return 0
    rows = [(op.name, op.path, op.family, op.kernel, ",".join(op.dtypes)) for op in operators]
    _print_table([("operator", "path", "family", "kernel", "data types"), *rows])
    aclnn = sum(op.path == "aclnn" for op in operators)
    print(f"{len(operators)} operators: {aclnn} aclnn, {len(operators) - aclnn} aclop")
    return 0


# --- info -----------------------------------------------------------------------------------------

_TABLE_COLUMNS = (
    "name",
    "chip type",
    "family",
    "AIC/AIV",
    "clock MHz",
    "FP16 TFLOPS",
    "memory GiB",
    "HBM GB/s",
)
_NUMERIC_COLUMNS = frozenset({1, 3, 4, 5, 6, 7})


def _cmd_info(args: argparse.Namespace) -> int:
    catalogue = soc_catalogue.default_catalogue()
    specs = [catalogue.get(args.soc)] if args.soc else list(catalogue.socs.values())
    if args.json:
        print(json.dumps([_spec_record(spec) for spec in specs], indent=2))
        return 0
    _print_table([_TABLE_COLUMNS, *(_spec_row(spec) for spec in specs)], numeric=_NUMERIC_COLUMNS)
    return 0


def _print_table(rows: Sequence[Sequence[str]], numeric: frozenset[int] = frozenset()) -> None:
    """Rows in aligned columns (the first row is the header); ``numeric`` columns right-aligned."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        cells = [
            cell.rjust(width) if column in numeric else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())


def _number(value: float, digits: int | None = None) -> str:
    return f"{value:.{digits}f}" if digits is not None else f"{value:g}"


def _spec_row(spec: SocSpec) -> tuple[str, ...]:
    return (
        spec.name,
        str(spec.chip_type),
        spec.family,
        f"{spec.aic}/{spec.aiv}",
        str(spec.cube_mhz),
        _number(spec.fp16_tflops, 1),
        str(spec.memory_gib),
        _number(spec.hbm_gbps),
    )


def _spec_record(spec: SocSpec) -> dict[str, Any]:
    return {**dataclasses.asdict(spec), "fp16_tflops": round(spec.fp16_tflops, 3)}


# --- trace ----------------------------------------------------------------------------------------


def _cmd_trace(arguments: list[str]) -> int:
    """``npu-sim trace ...``: mspti_trace's commands with the simulator's launcher."""
    from sim_runtime.trace_launcher import main as trace_main

    try:
        return trace_main(arguments)
    except _USER_ERRORS as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE


# --- calibrate ------------------------------------------------------------------------------------


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from sim_runtime import calibrate

    if (args.cann is not None) != bool(args.measure):
        return _usage_error("calibrate: --cann DIR goes with --measure (and --measure needs it)")
    if args.out is not None and not (args.measure or args.fit):
        return _usage_error("calibrate: --out goes with --measure or --fit")
    if (args.measure or args.fit) and args.json:
        return _usage_error("calibrate: --json is for the comparison table, not --measure or --fit")
    try:
        if args.measure:
            text = _calibrate_measure(args)
        elif args.fit:
            text = _calibrate_fit(args)
        else:
            results = calibrate.calibrate(args.rows, args.id, jobs=args.jobs)
            text = calibrate.as_json(results) if args.json else calibrate.render(results)
    except calibrate.CalibrationUsageError as error:
        return _usage_error(str(error))
    except calibrate.CalibrationError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    if args.out is None:
        print(text, end="" if text.endswith("\n") else "\n")
        return 0
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as error:
        return _usage_error(f"--out {args.out}: cannot write it ({error.strerror})")
    return 0


def _usage_error(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def _calibrate_measure(args: argparse.Namespace) -> str:
    from sim_runtime import calibrate, calibrate_measure

    rows = calibrate.select(calibrate.load_rows(), args.rows, args.id)
    measured = calibrate_measure.measure(args.cann, rows)
    return calibrate_measure.render_rows(measured, args.cann)


def _calibrate_fit(args: argparse.Namespace) -> str:
    from sim_runtime import calibrate, calibrate_fit

    rows = calibrate.select(calibrate.load_rows(args.fit), args.rows, args.id)
    return calibrate_fit.render_fit(calibrate_fit.fit(rows), args.fit)


# --- bench ----------------------------------------------------------------------------------------


def _cmd_bench(args: argparse.Namespace) -> int:
    from sim_runtime.bench import BENCHMARKS, runner
    from sim_runtime.bench.core import load_targets

    if args.list:
        width = max(len(name) for name in BENCHMARKS)
        for name, bench in BENCHMARKS.items():
            print(f"{name:<{width}}  {bench.summary}")
        return 0
    try:
        benchmarks = runner.select(args.names)
    except runner.UnknownBenchmarkError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    targets = load_targets()
    builds = runner.make_builds(args.mspti)

    def progress(text: str) -> None:
        print(f"{PROG} bench: {text}", file=sys.stderr, flush=True)

    results = runner.run_benchmarks(benchmarks, builds, args.rounds, args.count, progress)
    if args.json:
        print(runner.as_json(results, targets))
    else:
        print(runner.render(results, targets), end="")
    for result in results:
        if result.error is not None:
            print(f"{PROG}: {result.benchmark.name}: {result.error}", file=sys.stderr)
    return runner.exit_status(results)


# --- run ------------------------------------------------------------------------------------------


def _run_config(args: argparse.Namespace) -> SimConfig:
    names = ("soc", "devices", "clock", "seed", "faults")
    return config_with_options(args.config, {name: getattr(args, name) for name in names}, os.environ)


def _cmd_run(args: argparse.Namespace) -> int:
    config = _run_config(args)
    toolkit = build_toolkit(args.mspti)
    environ = dict(os.environ)
    environ.update(toolkit.env(config, preload=not args.no_mspti, environ=os.environ))
    status = _execute(args.program, environ, args.timeout)
    _report_crash(args.program[0], status, None if args.no_mspti else toolkit.mspti)
    return status


def _report_crash(program: str, status: int, mspti: Path | None) -> None:
    """One line when PROGRAM was killed by a crash signal (a shell-style status 128+N), naming the
    msPTI library preloaded into it, which may have crashed as it loaded."""
    if status <= 128:
        return
    from mspti_trace.cli import crash_signal  # only now: mspti_trace is slow to import

    crash = crash_signal(128 - status)
    if crash is None:
        return
    preloaded = (
        f" with the msPTI library {mspti} preloaded (it may have crashed as it loaded)" if mspti else ""
    )
    print(f"{PROG}: error: {program!r} was killed by {crash.name}{preloaded}", file=sys.stderr)


def _execute(program: list[str], environ: dict[str, str], timeout: float | None) -> int:
    # With a timeout PROGRAM gets its own process group so that everything it started can be killed;
    # without one it stays in ours, in the foreground, free to use the terminal.
    group: dict[str, Any] = {}
    if timeout is not None:
        group = {"process_group": 0} if sys.version_info >= (3, 11) else {"preexec_fn": os.setpgrp}
    signals = (
        [signal.SIGTERM, signal.SIGHUP] if timeout is None else [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
    )
    # Forwarding starts before PROGRAM does: a signal that arrives while it starts is passed on once
    # it exists instead of killing this launcher and leaving PROGRAM behind.
    started: list[subprocess.Popen[bytes]] = []
    pending: list[int] = []

    def deliver(signum: int) -> None:
        if not started:
            pending.append(signum)
        elif timeout is None:
            started[0].send_signal(signum)
        else:
            _signal_group(started[0], signum)

    with _forwarding(signals, deliver):
        try:
            started.append(subprocess.Popen(program, env=environ, **group))
        except FileNotFoundError:
            print(f"{PROG}: error: cannot run {program[0]!r}: no such file or command", file=sys.stderr)
            return EXIT_NOT_FOUND
        except OSError as error:
            reason = (error.strerror or str(error)).lower()
            print(f"{PROG}: error: cannot run {program[0]!r}: {reason}", file=sys.stderr)
            return EXIT_CANNOT_EXECUTE
        for signum in pending:
            deliver(signum)
        if timeout is None:
            return _exit_status(_wait_in_foreground(started[0]))
        return _wait_with_timeout(started[0], program, timeout)


@contextlib.contextmanager
def _forwarding(signals: Sequence[signal.Signals], send: Callable[[int], None]) -> Iterator[None]:
    """While active, ``signals`` received by this process are passed on through ``send``."""

    def forward(signum: int, _frame: FrameType | None) -> None:
        send(signum)

    previous = {signum: signal.signal(signum, forward) for signum in signals}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _wait_in_foreground(process: subprocess.Popen[bytes]) -> int:
    # The terminal's SIGINT reaches PROGRAM too; we keep waiting so PROGRAM decides how to exit.
    while True:
        try:
            return process.wait()
        except KeyboardInterrupt:
            continue


def _wait_with_timeout(process: subprocess.Popen[bytes], program: list[str], timeout: float) -> int:
    try:
        return _exit_status(process.wait(timeout=timeout))
    except subprocess.TimeoutExpired:
        pass
    print(f"{PROG}: error: {program[0]!r} timed out after {timeout:g} s; killed it", file=sys.stderr)
    _signal_group(process, signal.SIGTERM)
    try:
        process.wait(timeout=_KILL_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        _signal_group(process, signal.SIGKILL)
        process.wait()
    _signal_group(process, signal.SIGKILL)  # anything PROGRAM left behind in its group
    return EXIT_TIMEOUT


def _signal_group(process: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signum)


def _exit_status(returncode: int) -> int:
    """A shell-style exit status: killed by signal N gives 128+N."""
    return 128 - returncode if returncode < 0 else returncode
