"""Do the instruction counts of a traced launch move with the machine's load?

python -m benchmarks instruction_stability        # the defaults below
python -m benchmarks.instruction_stability [--runs N] [--launches N] [--tolerance PCT] [--spinners N]

The protocol of docs/ci.md ("Instruction counts under load"): ``launch_instructions`` at the launch
count of its CI test (tests/bench/test_launch_instructions.py), once on the machine as it is (the
quiet figure: run it on an otherwise idle machine), then ``--runs`` times in a row while every core
is kept busy by a spinning process of its own. Each loaded figure must stay within ``--tolerance``
per cent of the quiet one and under its ceiling in sim_runtime/data/bench_targets.toml; the table
prints every run, its deviation and the spread. Exit status 1 when a figure strays, 0 otherwise.
Needs valgrind, like launch_instructions; about half a minute per run on 2 cores.
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.synchronize
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from sim_runtime.bench import launch_instructions
from sim_runtime.bench.core import BenchmarkUnavailable, load_targets
from sim_runtime.bench.runner import make_builds

# The figures the CI test holds to ceilings, and so the ones that must not move with load.
GATED = ("added_inside", "added_all", "idle_added_inside")


def _spin(stop: multiprocessing.synchronize.Event) -> None:
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x = (x * 1_103_515_245 + 12_345) & 0xFFFFFFFF


@contextmanager
def busy_cores(count: int) -> Iterator[None]:
    """``count`` processes spinning on the CPU for as long as the block runs."""
    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=_spin, args=(stop,), daemon=True) for _ in range(count)]
    for p in spinners:
        p.start()
    try:
        yield
    finally:
        stop.set()
        for p in spinners:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()


def deviation(value: float, reference: float) -> float:
    """Per cent difference of ``value`` from ``reference``."""
    return 100.0 * (value - reference) / reference


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.instruction_stability")
    parser.add_argument("--runs", type=int, default=10, help="loaded runs in a row (default 10)")
    parser.add_argument(
        "--launches", type=int, default=launch_instructions.CEILING_COUNT, help="launch count (the CI test's)"
    )
    parser.add_argument("--tolerance", type=float, default=1.0, help="allowed deviation, per cent")
    parser.add_argument("--spinners", type=int, default=os.cpu_count() or 2, help="busy processes")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.launches < 1 or args.tolerance <= 0 or args.spinners < 1:
        parser.error("--runs, --launches, --spinners and --tolerance must be positive")
    return args


def main(argv: list[str]) -> int:
    args = parse(argv)
    try:
        (build,) = make_builds([])
        ceilings = {
            key: t.ceiling for (name, key), t in load_targets().items() if name == "launch_instructions"
        }
        with tempfile.TemporaryDirectory(prefix="instr-stability-") as tmp:
            work = Path(tmp)

            def measure(label: str) -> Mapping[str, float]:
                started = time.perf_counter()
                counts = launch_instructions.measure(build, args.launches, work / label)
                load = os.getloadavg()[0]
                print(
                    f"  {label}: {time.perf_counter() - started:.0f} s, load average {load:.1f}", flush=True
                )
                return counts

            print(f"quiet run ({args.launches:,} launches)", flush=True)
            quiet = measure("quiet")
            loaded: list[Mapping[str, float]] = []
            print(f"{args.runs} runs with {args.spinners} cores kept busy", flush=True)
            with busy_cores(args.spinners):
                for i in range(args.runs):
                    loaded.append(measure(f"loaded-{i + 1}"))
    except BenchmarkUnavailable as exc:
        print(f"instruction_stability: {exc}", file=sys.stderr)
        return 1
    strays = []
    print(f"\n{'figure':<20} {'quiet':>10} {'loaded min':>11} {'loaded max':>11} {'worst dev':>10} ceiling")
    for key in GATED:
        values = [run[key] for run in loaded]
        worst = max((deviation(v, quiet[key]) for v in values), key=abs)
        ceiling = ceilings.get(key)
        shown = f"{ceiling:,.0f}" if ceiling is not None else "-"
        print(
            f"{key:<20} {quiet[key]:>10,.1f} {min(values):>11,.1f} {max(values):>11,.1f} "
            f"{worst:>+9.2f}% {shown}"
        )
        for i, v in enumerate(values, 1):
            if abs(deviation(v, quiet[key])) > args.tolerance:
                strays.append(f"{key} run {i}: {v:,.1f} ({deviation(v, quiet[key]):+.2f}% from quiet)")
            if ceiling is not None and v > ceiling:
                strays.append(f"{key} run {i}: {v:,.1f} over its ceiling {ceiling:,.0f}")
    if strays:
        print(f"\nmoved with load (tolerance ±{args.tolerance}%):", *strays, sep="\n  ")
        return 1
    print(f"\nevery loaded figure within ±{args.tolerance}% of the quiet one and under its ceiling")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
