"""Runs every benchmark (or the ones named) and prints their figures.

python -m benchmarks                 # all
python -m benchmarks launch_rate     # one
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def available() -> list[str]:
    here = Path(__file__).resolve().parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    names = argv or available()
    unknown = [n for n in names if n not in available()]
    if unknown:
        print(
            f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available())}",
            file=sys.stderr,
        )
        return 2
    failures = 0
    for name in names:
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
