"""``mspti-trace``: capture, export, breakdown, validate and report.

mspti-trace [-o DIR] [--kinds K,...] [--mspti PATH] -- PROGRAM [ARGS...]
mspti-trace export DIR [--format chrome|kineto|ascend-pt] [-o PATH] [--no-flows] [--check]
mspti-trace breakdown DIR [-o OUT] [--model-name NAME] [--declarations FILE] ...
mspti-trace validate OUT
mspti-trace report DIR [-o FILE] [--facts OUT]

A launcher (:class:`Launcher`) decides how a program is captured: this package's own runs it with
the CANN toolkit's libmspti.so (or ``--mspti``); ``npu-sim trace`` is the simulator's launcher of the
same commands, adding the simulator's options.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mspti_base.preload import preload_parts
from mspti_trace.ascend_pt import AscendPtOptions, export_ascend_pt
from mspti_trace.ascend_pt_views import ASCEND_PT_FILES
from mspti_trace.breakdown import (
    BreakdownError,
    BreakdownOptions,
    ConversionRefused,
    build_breakdown,
    emit_facts,
    load_declarations,
    validate_documents,
    validate_facts,
)
from mspti_trace.breakdown.validate import load_facts
from mspti_trace.capture import MSPTI_LIBRARY, capture, find_mspti, kinds_value, preload_mspti
from mspti_trace.capture_format import CaptureFormatError
from mspti_trace.chrome import export_chrome_trace
from mspti_trace.chrome_check import check_chrome_trace
from mspti_trace.html_summary import write_html_summary
from mspti_trace.kineto import KinetoOptions, export_kineto_traces
from mspti_trace.reader import Trace, capture_notices, load_trace

__all__ = ["CRASH_SIGNALS", "SUBCOMMANDS", "Launcher", "crash_signal", "main"]

SUBCOMMANDS = ("export", "breakdown", "validate", "report")
EXPORT_FORMATS = ("chrome", "kineto", "ascend-pt")
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_TIMEOUT = 124
SUBSCRIBE_ADVICE = (
    "The collector subscribes to msPTI (device and marker records are produced only while a subscriber "
    "exists), and msPTI has one subscriber slot: a program that subscribes itself is refused "
    "(MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED). Set NPU_SIM_TRACE_SUBSCRIBE=0 to leave the slot "
    "to the program."
)


@dataclass(frozen=True)
class Launcher:
    """How the capture command runs a program: its name in messages, the options it adds and the
    environment (with a libmspti.so preloaded) and run.json entries it gives the program."""

    prog: str
    description: str
    add_options: Callable[[argparse.ArgumentParser], None]
    environment: Callable[[argparse.Namespace], tuple[dict[str, str], Mapping[str, object]]]
    default_output: Path = field(default=Path("mspti-trace"))


def _host_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--mspti",
        type=Path,
        metavar="PATH",
        help="libmspti.so to preload (default: $ASCEND_HOME_PATH/tools/mspti/lib64/libmspti.so)",
    )


def _host_environment(args: argparse.Namespace) -> tuple[dict[str, str], Mapping[str, object]]:
    library = args.mspti if args.mspti is not None else find_mspti()
    if not Path(library).is_file():
        raise FileNotFoundError(f"--mspti {library}: no such file")
    return preload_mspti(os.environ, Path(library).resolve()), {}


#: This package's own launcher: any ABI-compatible libmspti.so, on an Ascend host or elsewhere.
HOST = Launcher(
    prog="mspti-trace",
    description="Run PROGRAM with a libmspti.so and the trace collector preloaded",
    add_options=_host_options,
    environment=_host_environment,
)


def _capture_parser(launcher: Launcher) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=launcher.prog,
        description=f"{launcher.description}; "
        "every activity record of every process lands in DIR (trace-<pid>.records/.strings/.json). "
        f"Other commands: {', '.join(SUBCOMMANDS)} ({launcher.prog} COMMAND --help).",
        epilog=SUBSCRIBE_ADVICE,
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=launcher.default_output,
        metavar="DIR",
        help=f"capture directory (default: ./{launcher.default_output})",
    )
    parser.add_argument(
        "--kinds",
        action="append",
        metavar="K,...",
        help="activity kinds to enable (default: all 12), e.g. kernel,api,marker",
    )
    launcher.add_options(parser)
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help=f"kill PROGRAM (and what it started) after this; exits with {EXIT_TIMEOUT}",
    )
    parser.add_argument("program", nargs=argparse.REMAINDER, metavar="-- PROGRAM [ARGS...]")
    return parser


def _strict_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--strict",
        action="store_true",
        help=f"fail (exit {EXIT_FAILED}, writing nothing) when the capture is empty, cut short, has bytes "
        "after its records or was not finished; without it these are notices on stderr",
    )


def positive_seconds(text: str) -> float:
    """A finite number of seconds above 0 (as sim_runtime.arguments, which this package may not import)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"invalid value {text!r}; expected a positive number of seconds")
    return seconds


def _subparser(command: str, prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"{prog} {command}")
    if command == "export":
        parser.description = (
            "Export a capture directory: --format chrome (the default) writes one Chrome/Perfetto trace "
            "event JSON; --format kineto writes one PyTorch-profiler (Kineto) trace per rank into a "
            "directory that HolisticTraceAnalysis reads with TraceAnalysis(trace_dir=...); "
            "--format ascend-pt writes the torch_npu profiler layout (per rank a <name>_ascend_pt folder: "
            "ASCEND_PROFILER_OUTPUT/trace_view.json, kernel_details.csv, step_trace_time.csv, "
            "communication.json, ... and profiler_info_<rank>.json), which msprof-analyze and "
            "torch-tb-profiler-ascend read."
        )
        parser.add_argument("directory", type=Path, metavar="DIR")
        parser.add_argument("--format", choices=EXPORT_FORMATS, default="chrome", help="default: chrome")
        parser.add_argument(
            "-o",
            "--output",
            type=Path,
            metavar="PATH",
            help="chrome: the file (default DIR/trace.json); kineto: the directory (default DIR/kineto); "
            "ascend-pt: the directory (default DIR/ascend_pt)",
        )
        parser.add_argument("--no-flows", action="store_true", help="leave out the API -> kernel flow arrows")
        parser.add_argument(
            "--native-names",
            action="store_true",
            help="kineto: keep CANN's names for launch calls and communication ops instead of the names "
            "of their CUDA roles, which HTA matches (cudaLaunchKernel, ncclKernel_*)",
        )
        parser.add_argument("--check", action="store_true", help="check the structure of the written JSON")
        _strict_option(parser)
    elif command == "breakdown":
        parser.description = (
            "Attribute the kernels of one process to the structure its mstx ranges declare and write the "
            "four facts files. Refuses (exit 1) unless every kernel is attributed or excluded."
        )
        parser.add_argument("directory", type=Path, metavar="DIR")
        parser.add_argument("-o", "--output", type=Path, metavar="OUT", help="default: DIR/breakdown")
        parser.add_argument("--model-name", default="model")
        parser.add_argument("--model-id")
        parser.add_argument("--report-id")
        parser.add_argument("--prefix", help="file name prefix (default: the model id)")
        parser.add_argument("--pid", type=int, help="process to break down (default: the lowest pid)")
        parser.add_argument("--step-range", default="step", help="name of the ranges that delimit steps")
        parser.add_argument("--representative-step", type=int, metavar="N")
        parser.add_argument("--runtime-domain", default="runtime")
        parser.add_argument("--sampler-domain", default="sampler")
        parser.add_argument(
            "--declarations", type=Path, metavar="FILE", help="declarations JSON (docs/trace.md)"
        )
        parser.add_argument("--html", type=Path, metavar="FILE", help="also write the HTML summary")
        _strict_option(parser)
    elif command == "validate":
        parser.description = "Check every cross-file invariant of a facts directory."
        parser.add_argument("directory", type=Path, metavar="OUT")
    else:
        parser.description = "Write the HTML summary (top kernels, time per node, stream utilisation)."
        parser.add_argument("directory", type=Path, metavar="DIR")
        parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="default: DIR/summary.html")
        parser.add_argument("--facts", type=Path, metavar="OUT", help="facts directory for time per node")
        _strict_option(parser)
    return parser


def main(argv: Sequence[str] | None = None, launcher: Launcher = HOST) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args[:1] and args[0] in SUBCOMMANDS:
            command = args[0]
            options = _subparser(command, launcher.prog).parse_args(args[1:])
            options.prog = launcher.prog
            return {"export": _export, "breakdown": _breakdown, "validate": _validate, "report": _report}[
                command
            ](options)
        return _capture(args, launcher)
    except _StrictRefusal:
        return EXIT_FAILED
    except (CaptureFormatError, BreakdownError, FileNotFoundError, ValueError, OSError) as error:
        print(f"{launcher.prog}: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_USAGE


def _one_line(error: Exception) -> str:
    """The message of ``error`` (an OSError's as 'FILE: reason') on one line."""
    if isinstance(error, OSError) and error.strerror and error.filename is not None:
        return f"{error.filename}: {error.strerror}"
    return " ".join(str(error).split())


def _capture(argv: list[str], launcher: Launcher) -> int:
    parser = _capture_parser(launcher)
    args = parser.parse_args(argv)
    program = list(args.program)
    if program[:1] == ["--"]:
        program = program[1:]
    if not program:
        parser.error("missing PROGRAM: give the program to run after --")
    kinds_value(args.kinds)  # reject unknown kinds before building anything
    environ, run_info = launcher.environment(args)
    result = capture(
        program, args.output, kinds=args.kinds, environ=environ, timeout=args.timeout, run_info=run_info
    )
    if result.timed_out:
        print(
            f"{launcher.prog}: error: {program[0]!r} timed out after {args.timeout:g} s; killed it "
            f"(captured {len(result.pids)} process(es) in {result.directory}, possibly incomplete)",
            file=sys.stderr,
        )
        return EXIT_TIMEOUT
    print(f"{launcher.prog}: captured {len(result.pids)} process(es) in {result.directory}", file=sys.stderr)
    crash = crash_signal(result.returncode)
    if crash is not None:
        names = [
            part for part in preload_parts(environ.get("LD_PRELOAD", "")) if Path(part).name == MSPTI_LIBRARY
        ]
        library = (
            f" with the msPTI library {names[0]} preloaded (it may have crashed as it loaded)"
            if names
            else ""
        )
        print(f"{launcher.prog}: error: {program[0]!r} was killed by {crash.name}{library}", file=sys.stderr)
    elif not result.pids:
        print(
            f"{launcher.prog}: notice: no process delivered a record. If the program uses msPTI itself, "
            "its own subscription is refused while the collector holds msPTI's only subscriber slot; "
            "run it with NPU_SIM_TRACE_SUBSCRIBE=0 to leave the slot to the program",
            file=sys.stderr,
        )
    return result.returncode if result.returncode >= 0 else 128 - result.returncode


class _StrictRefusal(Exception):
    """--strict and the capture has notices (already printed)."""


def _load(args: argparse.Namespace) -> Trace:
    """The capture, its notices printed on stderr; with --strict a capture with notices is refused."""
    trace = load_trace(args.directory)
    notices = capture_notices(trace)
    for notice in notices:
        print(f"{args.prog}: {'error' if args.strict else 'notice'}: {notice}", file=sys.stderr)
    if notices and args.strict:
        raise _StrictRefusal
    return trace


#: Signals that mean a program crashed (rather than was stopped); npu-sim run uses them too.
CRASH_SIGNALS = frozenset(
    {
        signal.SIGSEGV,
        signal.SIGBUS,
        signal.SIGILL,
        signal.SIGFPE,
        signal.SIGABRT,
        signal.SIGSYS,
        signal.SIGTRAP,
    }
)


def crash_signal(returncode: int) -> signal.Signals | None:
    """The crash signal that killed a process with this return code (negative: killed by a signal)."""
    if returncode >= 0:
        return None
    try:
        received = signal.Signals(-returncode)
    except ValueError:
        return None
    return received if received in CRASH_SIGNALS else None


def _export(args: argparse.Namespace) -> int:
    trace = _load(args)
    started = time.perf_counter()
    if args.format == "kineto":
        out = args.output or args.directory / "kineto"
        kineto = export_kineto_traces(
            trace, out, KinetoOptions(flows=not args.no_flows, native_names=args.native_names)
        )
        seconds = time.perf_counter() - started
        for rank in kineto.files:
            print(f"wrote {rank.path}: rank {rank.rank} of {kineto.world_size}, {rank.events} events")
        print(
            f"{kineto.events} events ({kineto.flows} flows) in {len(kineto.files)} file(s) from "
            f"{trace.total_records} records in {seconds:.2f} s"
        )
        written = [rank.path for rank in kineto.files]
    elif args.format == "ascend-pt":
        out = args.output or args.directory / "ascend_pt"
        ascend = export_ascend_pt(trace, out, AscendPtOptions(flows=not args.no_flows))
        seconds = time.perf_counter() - started
        for rank in ascend.files:
            print(f"wrote {rank.path}: rank {rank.rank}, {rank.events} events")
            beside = [name for name in ASCEND_PT_FILES if (rank.path.parent / name).exists()]
            print(f"  beside it: {', '.join(beside)}")
            folder = rank.path.parent.parent.name
            print(f"  in {folder}: profiler_info_{rank.rank}.json, profiler_metadata.json, PROF_*")
        print(
            f"{ascend.events} events ({ascend.flows} flows) in {len(ascend.files)} file(s) from "
            f"{trace.total_records} records in {seconds:.2f} s"
        )
        written = [rank.path for rank in ascend.files]
    else:
        out = args.output or args.directory / "trace.json"
        stats = export_chrome_trace(trace, out, flows=not args.no_flows)
        seconds = time.perf_counter() - started
        print(
            f"wrote {out}: {stats.events} events ({stats.flows} flows) from {trace.total_records} records "
            f"in {seconds:.2f} s"
        )
        written = [out]
    if args.check:
        problems = [f"{path.name}: {problem}" for path in written for problem in check_chrome_trace(path)]
        for problem in problems[:50]:
            print(f"  {problem}")
        if problems:
            print(f"{len(problems)} structural problem(s)")
            return EXIT_FAILED
        print("structure check: ok")
    return 0


def _breakdown(args: argparse.Namespace) -> int:
    trace = _load(args)
    declarations = load_declarations(args.declarations) if args.declarations else {}
    options = BreakdownOptions(
        model_name=args.model_name,
        model_id=args.model_id,
        report_id=args.report_id,
        pid=args.pid,
        step_range=args.step_range,
        representative_step=args.representative_step,
        runtime_domain=args.runtime_domain,
        sampler_domain=args.sampler_domain,
        declarations=declarations,
    )
    breakdown = build_breakdown(trace, options)
    out = args.output or args.directory / "breakdown"
    try:
        written = emit_facts(breakdown, out, args.prefix)
    except ConversionRefused as refused:
        print(f"{args.prog}: {refused}", file=sys.stderr)
        return EXIT_FAILED
    print(breakdown.account)
    for path in written.values():
        print(f"wrote {path}")
    report = validate_documents(load_facts(out))
    print(report.summary())
    if args.html:
        write_html_summary(trace, args.html, breakdown.perf)
        print(f"wrote {args.html}")
    return 0 if report.ok else EXIT_FAILED


def _validate(args: argparse.Namespace) -> int:
    report = validate_facts(args.directory)
    print(report.summary())
    return 0 if report.ok else EXIT_FAILED


def _report(args: argparse.Namespace) -> int:
    trace = _load(args)
    perf = load_facts(args.facts)["perf"] if args.facts else None
    out = write_html_summary(trace, args.output or args.directory / "summary.html", perf)
    print(f"wrote {out}")
    return 0
