"""Kernel launch rate of the simulator, and the host cost msPTI adds to a traced launch.

Runs programs/launch_rate.c three times in the virtual clock: without msPTI, with msPTI preloaded
but idle (subscribed, nothing enabled), and with KERNEL + API + RUNTIME_API enabled. Reports the
wall time per launch and, beside it, the CPU time per launch of the launching thread and of the
whole process (msPTI's reader and delivery threads included), which a loaded machine inflates less.
The added figures are differences within one round, so that both sides faced the same load.
"""

from __future__ import annotations

import json
from pathlib import Path

from sim_runtime.bench.core import (
    Benchmark,
    Build,
    Figure,
    Measured,
    build_bench_program,
    program_env,
    run_bench_program,
)

LAUNCHES = 2_000_000
MODES = ("off", "idle", "traced")


def issued(launches: int) -> int:
    """The launches of one run of the program for LAUNCHES: it warms up with a tenth more."""
    return launches + launches // 10


def run_mode(exe: Path, build: Build, mode: str, launches: int) -> dict[str, float]:
    env = program_env(build, clock="virtual", preload=mode != "off")
    out = run_bench_program(exe, [mode, str(launches)], env, timeout=600)
    return json.loads(out.strip().splitlines()[-1])


def measure(build: Build, launches: int, work: Path) -> Measured:
    exe = build_bench_program("launch_rate.c", build.toolkit, libs=["ascendcl"])
    runs = {mode: run_mode(exe, build, mode, launches) for mode in MODES}
    off, idle, traced = runs["off"], runs["idle"], runs["traced"]
    return {
        "off_ns": off["ns_per_launch"],
        "idle_ns": idle["ns_per_launch"],
        "traced_ns": traced["ns_per_launch"],
        "added_ns": traced["ns_per_launch"] - off["ns_per_launch"],
        "added_thread_cpu_ns": traced["thread_cpu_ns_per_launch"] - off["thread_cpu_ns_per_launch"],
        "added_process_cpu_ns": traced["process_cpu_ns_per_launch"] - off["process_cpu_ns_per_launch"],
        "idle_added_ns": idle["ns_per_launch"] - off["ns_per_launch"],
        "off_launches_per_s": 1e9 / off["ns_per_launch"],
        "records_per_launch": traced["records"] / issued(launches),
        "dropped": traced["dropped"],
    }


BENCHMARK = Benchmark(
    name="launch_rate",
    summary="host ns per kernel launch: off, msPTI idle, traced (KERNEL + API + RUNTIME_API), virtual clock",
    figures=(
        Figure("off_ns", "ns per launch, no msPTI", "ns"),
        Figure("idle_ns", "ns per launch, msPTI idle", "ns"),
        Figure("traced_ns", "ns per launch, traced", "ns"),
        Figure("added_ns", "added wall ns per traced launch", "ns"),
        Figure("added_thread_cpu_ns", "added launching-thread CPU ns per traced launch", "ns"),
        Figure("added_process_cpu_ns", "added process CPU ns per traced launch", "ns"),
        Figure("idle_added_ns", "added wall ns per launch, msPTI idle", "ns"),
        Figure("off_launches_per_s", "launches per second, no msPTI", "/s", digits=0),
        Figure("records_per_launch", "records delivered per traced launch", "", digits=3),
        Figure("dropped", "records dropped, traced", "", digits=0),
    ),
    measure=measure,
    default_count=LAUNCHES,
)
