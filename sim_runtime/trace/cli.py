"""``npu-sim trace``: capture, export, breakdown, validate and report.

npu-sim trace [-o DIR] [--kinds K,...] [run options] -- PROGRAM [ARGS...]
npu-sim trace export DIR [--format chrome|kineto|ascend-pt] [-o PATH] [--no-flows] [--check]
npu-sim trace breakdown DIR [-o OUT] [--model-name NAME] [--declarations FILE] ...
npu-sim trace validate OUT
npu-sim trace report DIR [-o FILE] [--facts OUT]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from sim_runtime.trace.ascend_pt import AscendPtOptions, export_ascend_pt
from sim_runtime.trace.breakdown import (
    BreakdownError,
    BreakdownOptions,
    ConversionRefused,
    build_breakdown,
    emit_facts,
    load_declarations,
    validate_documents,
    validate_facts,
)
from sim_runtime.trace.breakdown.validate import load_facts
from sim_runtime.trace.capture import capture, kinds_value
from sim_runtime.trace.capture_format import CaptureFormatError
from sim_runtime.trace.chrome import export_chrome_trace
from sim_runtime.trace.chrome_check import check_chrome_trace
from sim_runtime.trace.html_summary import write_html_summary
from sim_runtime.trace.kineto import KinetoOptions, export_kineto_traces
from sim_runtime.trace.reader import load_trace

__all__ = ["SUBCOMMANDS", "main"]

PROG = "npu-sim trace"
SUBCOMMANDS = ("export", "breakdown", "validate", "report")
EXPORT_FORMATS = ("chrome", "kineto", "ascend-pt")
EXIT_FAILED = 1
EXIT_USAGE = 2


def _capture_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Run PROGRAM on the simulated NPU with libmspti.so and the trace collector preloaded; "
        "every activity record of every process lands in DIR (trace-<pid>.records/.strings/.json). "
        f"Other commands: {', '.join(SUBCOMMANDS)} (npu-sim trace COMMAND --help).",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("npu-sim-trace"),
        metavar="DIR",
        help="capture directory (default: ./npu-sim-trace)",
    )
    parser.add_argument(
        "--kinds",
        action="append",
        metavar="K,...",
        help="activity kinds to enable (default: all 12), e.g. kernel,api,marker",
    )
    parser.add_argument("--mspti", type=Path, metavar="PATH", help="libmspti.so to preload (default: ours)")
    for name, meta in (
        ("soc", "NAME"),
        ("devices", "N"),
        ("clock", "wall|virtual"),
        ("seed", "N"),
        ("faults", "SPEC"),
    ):
        parser.add_argument(f"--{name}", metavar=meta, help=f"simulator {name} (as for npu-sim run)")
    parser.add_argument("--config", type=Path, metavar="FILE", help="TOML config file")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="kill PROGRAM after this")
    parser.add_argument("program", nargs=argparse.REMAINDER, metavar="-- PROGRAM [ARGS...]")
    return parser


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"{PROG} {command}")
    if command == "export":
        parser.description = (
            "Export a capture directory: --format chrome (the default) writes one Chrome/Perfetto trace "
            "event JSON; --format kineto writes one PyTorch-profiler (Kineto) trace per rank into a "
            "directory that HolisticTraceAnalysis reads with TraceAnalysis(trace_dir=...); "
            "--format ascend-pt writes the torch_npu profiler layout "
            "(<name>_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json per rank)."
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
            "of their CUDA roles, which HTA matches (cudaLaunchKernel, ncclDevKernel_*)",
        )
        parser.add_argument("--check", action="store_true", help="check the structure of the written JSON")
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
    elif command == "validate":
        parser.description = "Check every cross-file invariant of a facts directory."
        parser.add_argument("directory", type=Path, metavar="OUT")
    else:
        parser.description = "Write the HTML summary (top kernels, time per node, stream utilisation)."
        parser.add_argument("directory", type=Path, metavar="DIR")
        parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="default: DIR/summary.html")
        parser.add_argument("--facts", type=Path, metavar="OUT", help="facts directory for time per node")
    return parser


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    try:
        if args[:1] and args[0] in SUBCOMMANDS:
            command = args[0]
            options = _subparser(command).parse_args(args[1:])
            return {"export": _export, "breakdown": _breakdown, "validate": _validate, "report": _report}[
                command
            ](options)
        return _capture(args)
    except (CaptureFormatError, BreakdownError, FileNotFoundError, ValueError, OSError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE


def _capture(argv: list[str]) -> int:
    parser = _capture_parser()
    args = parser.parse_args(argv)
    program = list(args.program)
    if program[:1] == ["--"]:
        program = program[1:]
    if not program:
        parser.error("missing PROGRAM: give the program to run after --")
    kinds_value(args.kinds)  # reject unknown kinds before building anything
    from sim_runtime.config import CONFIG_VAR, SimConfig, parse_setting
    from sim_runtime.toolkit import build_toolkit

    environ = dict(os.environ)
    if args.config is not None:
        environ[CONFIG_VAR] = str(args.config)
    config = SimConfig.from_env(environ)
    changes = {
        name: parse_setting(name, raw, source=f"--{name}")
        for name in ("soc", "devices", "clock", "seed", "faults")
        if (raw := getattr(args, name)) is not None
    }
    if changes:
        config = config.replace(**changes)
    environ.update(build_toolkit(args.mspti).env(config, preload=True, environ=os.environ))
    result = capture(program, args.output, kinds=args.kinds, environ=environ, timeout=args.timeout)
    print(f"{PROG}: captured {len(result.pids)} process(es) in {result.directory}", file=sys.stderr)
    return result.returncode if result.returncode >= 0 else 128 - result.returncode


def _export(args: argparse.Namespace) -> int:
    trace = load_trace(args.directory)
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
    trace = load_trace(args.directory)
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
        print(f"{PROG}: {refused}", file=sys.stderr)
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
    trace = load_trace(args.directory)
    perf = load_facts(args.facts)["perf"] if args.facts else None
    out = write_html_summary(trace, args.output or args.directory / "summary.html", perf)
    print(f"wrote {out}")
    return 0
