"""``msprof``: the toolkit's msprof command over the simulator's libmsprofiler.

  msprof --export=on --output=DIR [--type=db]  export every PROF_* collection in DIR (or DIR itself)
  msprof --analyze=on --output=DIR         the communication analysis torch_npu runs after the export
  msprof --application="CMD" --output=DIR  run CMD with collection on, then export

The export writes ``<PROF_*>/mindstudio_profiler_output/`` (summaries.py, timeline.py, memory.py) or,
with ``--type=db``, ``<PROF_*>/msprof_<time>.db`` (database.py); the analysis ``<PROF_*>/analyze/``
(communication.py). Usage errors print one line and exit 2; a directory
without collections exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

# The summary columns torch_npu copies from msprof are written once, beside the ascend_pt writer.
from mspti_base.preload import preload_value
from mspti_trace.ascend_pt_views import API_STATISTIC_HEADERS, OP_STATISTIC_HEADERS, TASK_TIME_HEADERS
from mspti_trace.summary_statistics import COMMUNICATION_STATISTIC_HEADERS
from sim_runtime import paths
from sim_runtime.msprof import aicore_metrics, communication, database, memory, raw, summaries, timeline
from sim_runtime.msprof.raw import ACL_PROF_TASK_TIME

PROG = "msprof"
EXIT_USAGE = 2
OUTPUT_DIR = "mindstudio_profiler_output"
# libmsprofiler's application mode (csrc/sim/msprofiler/prof_api.cpp): the folder and data types a
# program collects into from aclInit to its exit.
OUTPUT_ENV = "NPU_SIM_MSPROF_OUTPUT"
DATA_TYPES_ENV = "NPU_SIM_MSPROF_DATA_TYPES"
AIC_METRICS_ENV = "NPU_SIM_MSPROF_AIC_METRICS"
# msprof's --aic-metrics names and their aclprofAicoreMetrics values (acl_prof.h); 255: none.
AIC_METRICS = {
    "ArithmeticUtilization": 0, "PipeUtilization": 1, "Memory": 2, "MemoryL0": 3,
    "ResourceConflictRatio": 4, "MemoryUB": 5, "L2Cache": 6, "PipelineExecuteUtilization": 7,
    "MemoryAccess": 8,
}  # fmt: skip
AIC_METRICS_NONE = 255
# acl_prof.h's switches: ACL_API | TASK_TIME | HCCL_TRACE | RUNTIME_API (msprof's defaults: the
# AscendCL API, task time and, on a cluster, HCCL; runtime API when asked).
ACL_PROF_ACL_API = 0x0001
ACL_PROF_HCCL_TRACE = 0x0020
ACL_PROF_RUNTIME_API = 0x0100


class UsageError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="The simulated toolkit's msprof: collect with libmsprofiler, export CANN's summary "
        "and timeline files.",
    )
    on_off = ("on", "off")
    parser.add_argument("--export", choices=on_off, default="off", help="export the collections in --output")
    parser.add_argument(
        "--analyze", choices=on_off, default="off", help="analyse the collections in --output"
    )
    parser.add_argument("--application", metavar="CMD", help="run CMD with collection on, then export")
    parser.add_argument("--output", metavar="DIR", help="a PROF_* directory or the folder that holds them")
    parser.add_argument(
        "--type",
        choices=("text", "db"),
        default="text",
        help="export format: text (mindstudio_profiler_output/) or db (msprof_<time>.db)",
    )
    parser.add_argument("--ascendcl", choices=on_off, default="on", help="application mode: AscendCL API")
    parser.add_argument("--runtime-api", choices=on_off, default="off", help="application mode: runtime API")
    parser.add_argument("--task-time", choices=on_off, default="on", help="application mode: device tasks")
    parser.add_argument("--hccl", choices=on_off, default="on", help="application mode: communication")
    parser.add_argument(
        "--ai-core", choices=on_off, default="on", help="application mode: AI Core metrics (with --task-time)"
    )
    parser.add_argument(
        "--aic-metrics",
        choices=tuple(AIC_METRICS),
        default="PipeUtilization",
        help="application mode: the AI Core metric set (PipelineExecuteUtilization is not collected)",
    )
    return parser


def collections_in(output: Path) -> list[Path]:
    if raw.is_collection(output):
        return [output]
    if not output.is_dir():
        raise UsageError(f"--output {output} is not a directory")
    found = sorted(p for p in output.iterdir() if p.name.startswith("PROF_") and raw.is_collection(p))
    return found


def export(prof: Path, export_type: str = "text") -> Path:
    """Writes mindstudio_profiler_output/ (text) or msprof_<time>.db (db) of one PROF_* directory;
    returns that folder or file."""
    collection = raw.load(prof)
    if export_type == "db":
        return database.write(collection)
    out = prof / OUTPUT_DIR
    out.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d%H%M%S")
    # The timeline first, each file whole (summaries.publish): torch_npu reads the timeline as soon as
    # the first CSV is there.
    summaries.publish(out / f"msprof_{stamp}.json", json.dumps(timeline.events(collection)))
    summaries.write_csv(
        out / f"op_summary_{stamp}.csv",
        summaries.op_summary_headers(collection),
        summaries.op_summary_rows(collection),
    )
    summaries.write_csv(
        out / f"task_time_{stamp}.csv", TASK_TIME_HEADERS, summaries.task_time_rows(collection)
    )
    summaries.write_csv(
        out / f"api_statistic_{stamp}.csv",
        API_STATISTIC_HEADERS,
        summaries.api_statistic_rows(collection),
    )
    summaries.write_csv(
        out / f"op_statistic_{stamp}.csv",
        OP_STATISTIC_HEADERS,
        summaries.op_statistic_rows(collection),
    )
    statistic = summaries.communication_statistic_rows(collection)
    if statistic:  # communication operations collected (msprof writes the file only with HCCL data)
        summaries.write_csv(
            out / f"communication_statistic_{stamp}.csv", COMMUNICATION_STATISTIC_HEADERS, statistic
        )
    if collection.memory or collection.memory_in_use:  # collected with task memory (ACL_PROF_TASK_MEMORY)
        summaries.write_csv(
            out / f"npu_mem_{stamp}.csv", memory.NPU_MEM_HEADERS, memory.npu_mem_rows(collection)
        )
    return out


def analyze(prof: Path, export_type: str = "text") -> None:
    """Writes analyze/communication*.json (text) and communication_analyzer.db of one PROF_*
    directory (communication.py); a collection without communication operations has nothing to
    analyse, as with CANN (a note, exit 0)."""
    written = communication.analyze(raw.load(prof), export_type)
    for path in written:
        print(f"{PROG}: analyzed {path}")
    if not written:
        print(f"{PROG}: {prof.name}: no communication data to analyze", file=sys.stderr)


def _data_types(args: argparse.Namespace) -> int:
    bits = 0
    bits |= ACL_PROF_ACL_API if args.ascendcl == "on" else 0
    bits |= ACL_PROF_TASK_TIME if args.task_time == "on" else 0
    bits |= ACL_PROF_HCCL_TRACE if args.hccl == "on" else 0
    bits |= ACL_PROF_RUNTIME_API if args.runtime_api == "on" else 0
    return bits


def application_env(args: argparse.Namespace, output: Path) -> dict[str, str]:
    """The application's environment: libmsprofiler's application mode, and our libmspti preloaded
    (unless an msPTI already is), as `npu-sim run` does. libmsprofiler collects as an msPTI client,
    and msPTI enables the MEMCPY, MEMSET, MEMORY and HCCL kinds only with its interposer in place
    (MSPTI_ERROR_WITHOUT_LD_PRELOAD otherwise), so without it the program's copies and fills would be
    missing from the export although the runtime reports them (docs/msprof.md)."""
    metrics = (
        AIC_METRICS[args.aic_metrics] if args.ai_core == "on" and args.task_time == "on" else AIC_METRICS_NONE
    )
    env = {
        **os.environ,
        OUTPUT_ENV: str(output.resolve()),
        DATA_TYPES_ENV: str(_data_types(args)),
        AIC_METRICS_ENV: str(metrics),
    }
    preloaded = env.get("LD_PRELOAD", "")
    library = paths.mspti_tree(env).lib64 / paths.MSPTI_LIBRARY
    if paths.MSPTI_LIBRARY not in preloaded and library.is_file():  # none found: libmsprofiler says so
        env["LD_PRELOAD"] = preload_value(preloaded, first=[str(library)])
    return env


def run_application(args: argparse.Namespace, output: Path) -> int:
    command = shlex.split(args.application)
    if not command:
        raise UsageError(
            '--application is empty: give the program to run, e.g. --application="python train.py"'
        )
    output.mkdir(parents=True, exist_ok=True)
    before = set(collections_in(output))
    try:
        status = subprocess.run(command, env=application_env(args, output), check=False).returncode
    except OSError as error:
        raise UsageError(f"--application: cannot run {command[0]}: {error.strerror}") from error
    made = [p for p in collections_in(output) if p not in before]
    for prof in made:
        print(f"{PROG}: exported {export(prof, args.type)}")
    if not made:
        print(f"{PROG}: the application collected nothing (it never called aclInit)", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.output is None:
            raise UsageError("--output is required: the folder to collect into or to export from")
        output = Path(args.output).expanduser()
        if args.application is not None:
            return run_application(args, output)
        if args.export == "off" and args.analyze == "off":
            raise UsageError("nothing to do: give --export=on, --analyze=on or --application=CMD")
        found = collections_in(output)
        if not found:
            print(
                f"{PROG}: {output} holds no PROF_* collection of libmsprofiler ({raw.RECORDS_FILE})",
                file=sys.stderr,
            )
            return 1
        for prof in found:
            if args.export == "on":
                print(f"{PROG}: exported {export(prof, args.type)}")
            if args.analyze == "on":
                analyze(prof, args.type)
    except UsageError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except (raw.RawDataError, aicore_metrics.PmuDataError) as error:
        print(f"{PROG}: error: unreadable collection: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{PROG}: error: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 1
    return 0
