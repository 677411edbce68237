"""The simulated MatMul against the one measured data point of the breakdown contract.

A real Ascend 910B capture (Qwen-7B decode step) timed the SwiGLU gate projection, MatMulV2 with
inputs 1 x 4096 and 4096 x 11008 in float16, at 99.5 us. This runs the same aclnnMatmul on the
simulated Ascend910B3 in the virtual clock and reads the kernel's device time from events: the
interval around the launch minus the interval of two back-to-back events (the stream's fixed
cost between events). It prints both figures, the measured one and their ratio.

    NPU_SIM_BUILD_DIR=build/dev python benchmarks/matmul_vs_capture.py [--soc Ascend910B3] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from support.native import ProgramBuilder, find_native_tree, run_program  # noqa: E402

PROGRAM = REPO / "tests" / "sim" / "programs" / "aclnn_matmul_bench.c"
MEASURED_US = 99.5
SHAPE = (1, 4096, 11008)  # M, K, N


def measure(soc: str, build_dir: Path, seed: int) -> dict:
    tree = find_native_tree()
    exe = ProgramBuilder(tree, build_dir).build(
        [PROGRAM], libs=["ascendcl", "opapi", "nnopbase"], extra_flags=["-O2"]
    )
    env = tree.env(
        NPU_SIM_CLOCK="virtual", NPU_SIM_SOC=soc, NPU_SIM_SEED=str(seed), NPU_SIM_LOG_LEVEL="error"
    )
    result = run_program(exe, env, [str(v) for v in SHAPE], timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"aclnn_matmul_bench failed ({result.returncode}):\n{result.stderr}")
    raw = json.loads(result.stdout.strip().splitlines()[-1])
    m, k, n = SHAPE
    simulated_us = (raw["with_kernel_ms"] - raw["empty_ms"]) * 1000.0
    return {
        **raw,
        "flops": 2 * m * k * n,
        "bytes": 2 * (m * k + k * n + m * n),
        "simulated_us": simulated_us,
        "measured_us": MEASURED_US,
        "ratio": simulated_us / MEASURED_US,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default="Ascend910B3")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="matmul-bench-") as tmp:
        r = measure(args.soc, Path(tmp), args.seed)
    if args.json:
        print(json.dumps(r))
        return 0
    m, k, n = SHAPE
    print(f"MatMulV2 ({m} x {k}) x ({k} x {n}) float16 on {r['soc']}, virtual clock")
    print(f"  FLOPs / bytes        : {r['flops'] / 1e6:.1f} MFLOP / {r['bytes'] / 1e6:.1f} MB")
    print(f"  events around launch : {r['with_kernel_ms'] * 1000:10.2f} us")
    print(f"  back-to-back events  : {r['empty_ms'] * 1000:10.2f} us")
    print(f"  simulated kernel     : {r['simulated_us']:10.2f} us")
    print(f"  measured (910B)      : {r['measured_us']:10.2f} us")
    print(f"  ratio sim/measured   : {r['ratio']:10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
