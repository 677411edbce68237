"""Records per second that msPTI delivers from producer threads into the client's CompleteFunc.

Runs programs/record_delivery.c, which makes host markers on 1 and on 2 producer threads with a
fixed pool of client buffers; CompleteFunc walks every buffer with msptiActivityGetNextRecord and
counts. The window ends when msptiActivityFlushAll(1) has returned, so the rate counts only records
that reached CompleteFunc. Each configuration runs in the virtual clock (a marker's timestamp is a
load of the simulator's clock) and in the wall clock (one clock_gettime per marker, as on a real
host). Reports the rates, the process CPU time per record and the records not delivered.
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

RECORDS = 10_000_000
CONFIGURATIONS = (("virtual", 1), ("virtual", 2), ("wall", 1), ("wall", 2))


def measure(build: Build, records: int, work: Path) -> Measured:
    exe = build_bench_program("record_delivery.c", build.toolkit, libs=["mspti"])
    figures: dict[str, float | None] = {}
    lost = 0
    for clock, threads in CONFIGURATIONS:
        env = program_env(build, clock=clock, preload=False)
        out = run_bench_program(exe, [str(threads), str(records // threads)], env, timeout=600)
        r = json.loads(out.strip().splitlines()[-1])
        figures[f"{clock}_{threads}_per_s"] = r["records_per_second"]
        figures[f"{clock}_{threads}_cpu_ns"] = r["process_cpu_ns_per_record"]
        lost += r["produced"] - r["delivered"]
    figures["not_delivered"] = lost
    return figures


BENCHMARK = Benchmark(
    name="record_delivery",
    summary="records/s delivered into CompleteFunc, 1 and 2 producer threads, virtual and wall clock",
    figures=(
        *(
            Figure(
                f"{clock}_{threads}_per_s", f"records/s, {clock} clock, {threads} thread(s)", "/s", digits=0
            )
            for clock, threads in CONFIGURATIONS
        ),
        *(
            Figure(
                f"{clock}_{threads}_cpu_ns", f"process CPU ns per record, {clock}, {threads} thread(s)", "ns"
            )
            for clock, threads in CONFIGURATIONS
        ),
        Figure("not_delivered", "records produced but not delivered (all runs)", "", digits=0),
    ),
    measure=measure,
    default_count=RECORDS,
)
