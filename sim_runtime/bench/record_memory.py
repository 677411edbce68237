"""Resident memory of a traced process over millions of records: bounded by the client's buffers.

Runs programs/record_memory.c in the virtual clock: KERNEL + API + RUNTIME_API enabled, a fixed pool
of client buffers recycled by CompleteFunc, COUNT launches after a warm-up, the process RSS sampled
along the way. Reports the growth from the first sample to the last and over the last half, and the
peak. What grows at all grows with the largest backlog of the run (a reader held off the cores), not
with the number of records: the backlog is capped by fixed capacities.
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

LAUNCHES = 5_000_000
SAMPLES = 10
MIB = 1 << 20


def measure(build: Build, launches: int, work: Path) -> Measured:
    exe = build_bench_program("record_memory.c", build.toolkit, libs=["ascendcl", "mspti"])
    env = program_env(build, clock="virtual", preload=True)
    out = run_bench_program(exe, [str(launches), str(SAMPLES)], env, timeout=900)
    r = json.loads(out.strip().splitlines()[-1])
    rss = r["rss"]
    half = len(rss) // 2
    return {
        "records_m": r["records"] / 1e6,
        "growth_mib": (rss[-1] - rss[0]) / MIB,
        "late_growth_mib": (rss[-1] - rss[half]) / MIB,
        "peak_mib": max(rss) / MIB,
        "pool_mib": r["pool_bytes"] / MIB,
        "dropped": r["dropped"],
    }


BENCHMARK = Benchmark(
    name="record_memory",
    summary="RSS of a traced process (KERNEL + API + RUNTIME_API) over millions of records, virtual clock",
    figures=(
        Figure("records_m", "records delivered", "M", digits=2),
        Figure("growth_mib", "RSS growth after warm-up", "MiB", digits=2),
        Figure("late_growth_mib", "RSS growth over the last half", "MiB", digits=2),
        Figure("peak_mib", "peak RSS", "MiB"),
        Figure("pool_mib", "client buffers (of the peak)", "MiB", digits=0),
        Figure("dropped", "records dropped", "", digits=0),
    ),
    measure=measure,
    default_count=LAUNCHES,
)
