"""The in-tree benchmarks, and an alias of ``npu-sim bench`` for the ones shipped in the package.

python -m benchmarks                      # every benchmark
python -m benchmarks hixl_overhead        # an in-tree one (needs the checkout's test programs)
python -m benchmarks launch_rate          # a shipped one: the same as `npu-sim bench launch_rate`

The benchmarks of msPTI's cost (launch_rate, launch_instructions, record_delivery, record_memory,
trace_export) live in ``sim_runtime.bench`` and run from an install as ``npu-sim bench``; the ones
here compile programs of the test suite (tests/sim/programs, tests/mspti_core/fixtures) and so run
only from a checkout.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path

from sim_runtime.bench import BENCHMARKS
from sim_runtime.cli import EXIT_USAGE
from sim_runtime.cli import main as npu_sim


def in_tree() -> list[str]:
    here = Path(__file__).resolve().parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    names = argv or [*BENCHMARKS, *in_tree()]
    unknown = [n for n in names if n not in BENCHMARKS and n not in in_tree()]
    if unknown:
        available = ", ".join([*BENCHMARKS, *in_tree()])
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {available}", file=sys.stderr)
        return EXIT_USAGE
    shipped = [n for n in names if n in BENCHMARKS]
    failures = 0
    if shipped:
        failures += 1 if npu_sim(["bench", *shipped]) else 0
    for name in (n for n in names if n not in BENCHMARKS):
        print(f"== {name} ==", flush=True)
        started = time.perf_counter()
        try:
            status = importlib.import_module(f"benchmarks.{name}").main([])
        except Exception as exc:  # a failing benchmark is reported and the others still run
            print(f"{name}: failed: {exc!r}", file=sys.stderr)
            status = 1
        failures += 1 if status else 0
        print(f"({name}: {time.perf_counter() - started:.1f} s)\n", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
