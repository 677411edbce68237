"""Instructions per kernel launch on the simulator, counted by callgrind: off, msPTI idle, traced.

Runs programs/launch_rate.c under ``valgrind --tool=callgrind --separate-threads=yes`` with two
launch counts (COUNT and 2 x COUNT) in each mode (off; msPTI preloaded and idle; KERNEL + API +
RUNTIME_API traced; virtual clock) and takes the difference, so that start-up and shut-down cancel
out. Three counts per launch:

- launching thread: every instruction of thread 1, the thread that launches;
- all threads: msPTI's reader and delivery threads included;
- inside the call: only the instructions spent inside ``aclrtLaunchKernel`` (the inclusive cost of
  the program's out-of-line ``launch_once`` in thread 1, from ``callgrind_annotate``), what an
  application thread waits for.

The batching is fixed for the measurement, so that the counts do not move with the machine's load.
msPTI's reader takes device logs in batches, and what a batch costs beyond its records (a wake-up,
a poll, a read, a drain of the track rings) is paid once per batch. Left to itself, the reader
batches by time: it polls again after short pauses, and a device log becomes readable once the
virtual clock has passed its time; a run slowed by other load then makes more, smaller batches, and
the all-threads count rose by 3 to 6 % beside other load. Here the program synchronises its stream
after every ``CHUNK`` launches (in every mode, so the synchronisations cancel out but for msPTI's
share of them) and runs with ``NPU_SIM_DEVICE_LOGS=sync``: a device log becomes readable only at the
synchronisation that waited for it, which wakes the reader, so each batch is exactly one chunk of
launches whatever the load. ``--fair-sched=yes`` lets threads take turns under valgrind, as on a
machine with a core each. Needs valgrind (``apt-get install
valgrind``): without it the benchmark stops with a message saying so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sim_runtime.bench.core import (
    Benchmark,
    BenchmarkUnavailable,
    Build,
    Figure,
    build_bench_program,
    program_env,
)
from sim_runtime.bench.launch_rate import issued

COUNT = 20_000
# The launch count at which the ceilings of bench_targets.toml are checked (the CI test,
# tests/bench/test_launch_instructions.py, and the load protocol, benchmarks/instruction_stability.py).
CEILING_COUNT = 2_000
MODES = ("off", "idle", "traced")
# Launches per synchronisation, and so per batch of device logs: a batch as msPTI's reader takes
# them on an unloaded machine (its 0.5 ms gather pause at a few million launches/s).
CHUNK = 1_000
VALGRIND_MISSING = (
    "launch_instructions needs valgrind (callgrind and callgrind_annotate), which is not on PATH: install it "
    "(`apt-get install valgrind` on Debian and Ubuntu, `dnf install valgrind` on Fedora) and run again"
)

_TOTALS = re.compile(r"^(?:summary|totals):\s+(\d+)", re.MULTILINE)


def find_valgrind() -> tuple[str, str]:
    """valgrind and callgrind_annotate (both come with valgrind); raises BenchmarkUnavailable saying
    how to get them."""
    valgrind, annotate = shutil.which("valgrind"), shutil.which("callgrind_annotate")
    if valgrind is None or annotate is None:
        raise BenchmarkUnavailable(VALGRIND_MISSING)
    return valgrind, annotate


def thread_instructions(out_dir: Path) -> list[int]:
    """Instructions of each thread (thread 1, the launching thread, first) of one callgrind run."""
    counts: dict[int, int] = {}
    for path in out_dir.glob("callgrind.out*-*"):
        thread = int(path.name.rsplit("-", 1)[1])
        found = _TOTALS.findall(path.read_text(errors="replace"))
        if found:
            counts[thread] = int(found[-1])
    if 1 not in counts:
        raise RuntimeError(f"callgrind wrote no totals for the launching thread in {out_dir}")
    return [counts[t] for t in sorted(counts)]


@dataclass(frozen=True)
class Counted:
    """Instructions of one callgrind run: per thread (the launching thread first) and inside the
    launching thread's calls of ``launch_once`` (inclusive)."""

    threads: list[int]
    inside: int


def inclusive_cost(annotate: str, thread_file: Path, function: str) -> int:
    """The inclusive instruction count of ``function`` in one thread's callgrind output.

    ``--threshold=100`` lists every function: by default callgrind_annotate stops at 99 % of the
    total, which leaves out a cheap launch loop in a short run dominated by start-up."""
    done = subprocess.run(
        [annotate, "--inclusive=yes", "--threshold=100", str(thread_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"callgrind_annotate failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    pattern = re.compile(rf"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?\S*:{re.escape(function)}\b", re.MULTILINE)
    found = pattern.search(done.stdout)
    if found is None:
        raise RuntimeError(f"callgrind_annotate shows no {function} in {thread_file}")
    return int(found.group(1).replace(",", ""))


def run_counted(
    tools: tuple[str, str], exe: Path, build: Build, mode: str, launches: int, work: Path
) -> Counted:
    valgrind, annotate = tools
    env = program_env(build, clock="virtual", preload=mode != "off", device_logs="sync")
    out_dir = work / f"{mode}-{launches}"
    out_dir.mkdir(parents=True)
    cmd = [
        valgrind,
        "--tool=callgrind",
        "--separate-threads=yes",
        "--fair-sched=yes",  # threads take turns, so msPTI's reader keeps up as on a real machine
        f"--callgrind-out-file={out_dir}/callgrind.out",
        str(exe),
        mode,
        str(launches),
        str(CHUNK),
    ]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"callgrind {mode} {launches} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    threads = thread_instructions(out_dir)
    inside = inclusive_cost(annotate, out_dir / "callgrind.out-01", "launch_once")
    return Counted(threads, inside)


def measure(build: Build, count: int, work: Path) -> Mapping[str, float]:
    tools = find_valgrind()
    exe = build_bench_program("launch_rate.c", build.toolkit, libs=["ascendcl"])
    low, high = count, 2 * count
    launches = issued(high) - issued(low)
    per_launch: dict[str, tuple[float, float, float]] = {}
    for mode in MODES:
        a = run_counted(tools, exe, build, mode, low, work)
        b = run_counted(tools, exe, build, mode, high, work)
        per_launch[mode] = (
            (b.threads[0] - a.threads[0]) / launches,
            (sum(b.threads) - sum(a.threads)) / launches,
            (b.inside - a.inside) / launches,
        )
    off, idle, traced = per_launch["off"], per_launch["idle"], per_launch["traced"]
    return {
        "off_thread": off[0],
        "off_all": off[1],
        "added_thread": traced[0] - off[0],
        "added_all": traced[1] - off[1],
        "added_inside": traced[2] - off[2],
        "idle_added_thread": idle[0] - off[0],
        "idle_added_inside": idle[2] - off[2],
    }


BENCHMARK = Benchmark(
    name="launch_instructions",
    summary="instructions per kernel launch (callgrind; needs valgrind): off, msPTI idle, traced",
    figures=(
        Figure("off_thread", "simulator's launch, no msPTI (launching thread)", "instr", digits=0),
        Figure("off_all", "simulator's launch, no msPTI (all threads)", "instr", digits=0),
        Figure("added_thread", "added per traced launch, launching thread", "instr", digits=0),
        Figure("added_all", "added per traced launch, all threads", "instr", digits=0),
        Figure("added_inside", "added per traced launch, inside the call", "instr", digits=0),
        Figure("idle_added_thread", "added per launch, msPTI idle, launching thread", "instr", digits=0),
        Figure("idle_added_inside", "added per launch, msPTI idle, inside the call", "instr", digits=0),
    ),
    measure=measure,
    default_count=COUNT,
    notes=(
        "instructions: COUNT and 2 x COUNT launches per mode, the difference divided by the launches",
        f"a stream synchronisation every {CHUNK:,} launches, device logs readable at synchronisations "
        "(NPU_SIM_DEVICE_LOGS=sync): the reader's batches are fixed, so the counts do not move with load",
    ),
)
