"""Host cost that HIXL host-API profiling adds to a transfer.

Runs N small TransferSync calls between two engines of one process with profiling off and
on (a profiler callback receives every record), alternating the modes over several rounds,
and prints the wall-clock nanoseconds per transfer in each mode, the difference and the ratio.

The simulator's virtual clock is the default: modelled transfer time is then not slept, so
the figures are the host cost alone. ``--clock wall`` includes the modelled link time.

    NPU_SIM_BUILD_DIR=build/dev python benchmarks/hixl_overhead.py [--transfers N] [--size BYTES]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from support.native import ProgramBuilder, find_native_tree, run_program  # noqa: E402

PROGRAM = REPO / "tests" / "sim" / "programs" / "hixl_bench.cpp"


def measure(transfers: int, size: int, rounds: int, clock: str, build_dir: Path) -> dict:
    tree = find_native_tree()
    exe = ProgramBuilder(tree, build_dir).build([PROGRAM], libs=["hixl", "profapi"], extra_flags=["-O2"])
    env = tree.env(NPU_SIM_CLOCK=clock, NPU_SIM_LOG_LEVEL="error")
    result = run_program(exe, env, [str(transfers), str(size), str(rounds)], timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"hixl_bench failed ({result.returncode}):\n{result.stderr}")
    raw = json.loads(result.stdout.strip().splitlines()[-1])
    off = statistics.median(raw["off_ns"])
    on = statistics.median(raw["on_ns"])
    return {
        **raw,
        "clock": clock,
        "off_ns_per_transfer": off,
        "on_ns_per_transfer": on,
        "added_ns_per_transfer": on - off,
        "ratio": on / off if off > 0 else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transfers", type=int, default=20000, help="transfers per round and mode")
    parser.add_argument("--size", type=int, default=64, help="bytes per transfer")
    parser.add_argument("--rounds", type=int, default=7, help="rounds (each runs both modes)")
    parser.add_argument("--clock", choices=["virtual", "wall"], default="virtual")
    parser.add_argument(
        "--build-dir",
        type=Path,
        default=None,
        help="where the benchmark program is compiled (default: a temporary folder)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.build_dir is None:
        with tempfile.TemporaryDirectory(prefix="hixl-bench-") as tmp:
            r = measure(args.transfers, args.size, args.rounds, args.clock, Path(tmp))
    else:
        args.build_dir.mkdir(parents=True, exist_ok=True)
        r = measure(args.transfers, args.size, args.rounds, args.clock, args.build_dir)
    if args.json:
        print(json.dumps(r))
        return 0
    print(
        f"HIXL TransferSync, {r['size']} B, {r['transfers']} transfers x {r['rounds']} rounds, "
        f"clock={r['clock']}"
    )
    print(f"  profiling off : {r['off_ns_per_transfer']:10.1f} ns/transfer")
    print(f"  profiling on  : {r['on_ns_per_transfer']:10.1f} ns/transfer  ({r['reports']} records)")
    print(f"  added by on   : {r['added_ns_per_transfer']:10.1f} ns/transfer")
    print(f"  ratio on/off  : {r['ratio']:10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
