"""Kernel launch rate of the simulator, and the host cost msPTI adds to a traced launch.

Runs one C program three times in the virtual clock: without msPTI, with msPTI preloaded but idle,
and with KERNEL + API + RUNTIME_API enabled. Prints launches per second of host time, ns per
launch, the added ns per traced launch and the ratios, all measured in this one run; beside the
wall time, the CPU time per launch of the launching thread and of the whole process (msPTI's reader
and delivery threads included), which a loaded machine does not inflate.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from support.native import ProgramBuilder, find_native_tree, run_program  # noqa: E402

PROGRAM = Path(__file__).resolve().parent / "programs" / "launch_rate.c"
LAUNCHES = 2_000_000


def run_mode(mode: str, exe: Path, launches: int) -> dict[str, float]:
    tree = find_native_tree()
    env = tree.env(preload_mspti=mode != "off", NPU_SIM_CLOCK="virtual", NPU_SIM_LOG_LEVEL="error")
    result = run_program(exe, env, [mode, str(launches)], timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"launch_rate {mode} failed ({result.returncode}):\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    launches = int(argv[0]) if argv else LAUNCHES
    with tempfile.TemporaryDirectory(prefix="launch-rate-") as tmp:
        exe = ProgramBuilder(find_native_tree(), Path(tmp)).build(
            [PROGRAM], libs=["ascendcl"], extra_flags=["-O2"]
        )
        results = {mode: run_mode(mode, exe, launches) for mode in ("off", "idle", "traced")}
    off = results["off"]["ns_per_launch"]
    print(
        f"{'mode':<8} {'launches/s':>14} {'ns/launch':>10} {'thread cpu':>11} {'process cpu':>12} "
        f"{'records':>10} {'dropped':>8}"
    )
    for mode, r in results.items():
        print(
            f"{mode:<8} {1e9 / r['ns_per_launch']:>14,.0f} {r['ns_per_launch']:>10.1f} "
            f"{r['thread_cpu_ns_per_launch']:>11.1f} {r['process_cpu_ns_per_launch']:>12.1f} "
            f"{r['records']:>10} {r['dropped']:>8}"
        )
    traced = results["traced"]["ns_per_launch"]
    print(
        f"added host cost per traced launch: {traced - off:.1f} ns (target <= 150 ns); "
        f"traced/off = {traced / off:.2f}, idle/off = {results['idle']['ns_per_launch'] / off:.2f}"
    )
    for key, what in (
        ("thread_cpu_ns_per_launch", "launching thread"),
        ("process_cpu_ns_per_launch", "process"),
    ):
        print(f"added CPU per traced launch ({what}): {results['traced'][key] - results['off'][key]:.1f} ns")
    print(f"simulator launch rate, profiling off: {1e9 / off:,.0f} launches/s (target >= 1,000,000)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
