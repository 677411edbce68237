"""The MatMul cost model on small and many-wave shapes, against the model restated from the data files.

The do_bench-timed MatMul rows of calibration.toml (one call between two events, the device behind the
host) are run through `npu-sim calibrate`; each simulated time must be what timing.toml and socs.toml
say: two stream gaps, the event task and the task overhead, plus the kernel's per-kernel floor, one
pipeline fill per kernel and, per wave of output tiles over the cube cores, the work of one whole base
block on every core.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from sim_runtime import calibrate
from support.native import NativeTree, python_subprocess_env

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

DATA = Path(__file__).resolve().parents[2] / "sim_runtime" / "data"
CATALOGUE = tomllib.loads((DATA / "socs.toml").read_text(encoding="utf-8"))
TIMING = tomllib.loads((DATA / "timing.toml").read_text(encoding="utf-8"))
JITTER = CATALOGUE["defaults"]["jitter_pct"] / 100.0
DTYPE_BYTES = {"fp16": 2, "bf16": 2, "fp32": 4, "hf32": 4}


def coefficients(soc: str) -> dict:
    table = TIMING["soc"][soc]
    return {**TIMING["family"][table["family"]], **table}


def kernel_ns(row: calibrate.Row) -> float:
    """timing.toml's cube model for the row's shape (fp16/bf16 rows)."""
    spec, t = CATALOGUE["soc"][row.soc], coefficients(row.soc)
    m, n, k = (int(row.shape[key]) for key in ("m", "n", "k"))
    cores = spec["aic"]
    blocks = math.ceil(m / t["cube_tile_m"]) * math.ceil(n / t["cube_tile_n"])
    waves = math.ceil(blocks / cores)
    peak = cores * spec["cube_flops_per_cycle"] * spec["cube_mhz"] * 1e-3  # FLOPs per ns
    rate = peak * t[f"cube_rate_{row.shape['dtype']}"] * t["cube_efficiency"]
    operands = (m * k + k * n + m * n) * DTYPE_BYTES[row.shape["dtype"]]
    spill = t["cube_l2_spill"] if operands > spec["l2_mib"] * (1 << 20) else 1.0
    block = 2.0 * t["cube_tile_m"] * t["cube_tile_n"] * k  # a partly covered block costs a whole one
    compute = waves * cores * block / (rate * spill) + t["cube_wave_ns"]  # one fill per kernel
    return t["cube_floor_ns"] + max(compute, operands / spec["hbm_gbps"])


def test_device_timed_matmuls_follow_the_block_model(calibrate_home: Path, native: NativeTree) -> None:
    rows = [row for row in calibrate.load_rows() if row.op == "matmul" and row.method == "device"]
    assert {int(row.shape["m"]) for row in rows} >= {32, 128, 512, 1024, 4096}  # one wave to 22 waves
    env = python_subprocess_env(native.env(HOME=str(calibrate_home)))
    args = [sys.executable, "-m", "sim_runtime", "calibrate", "--json", *(f"--id={row.id}" for row in rows)]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    simulated = {r["id"]: r["simulated_ns"] for r in json.loads(done.stdout)["rows"]}
    for row in rows:
        spec = CATALOGUE["soc"][row.soc]
        # [record e0] gap [kernel + task overhead] gap [record e1]: events stamp the ends of their tasks.
        fixed = 2 * spec["task_gap_ns"] + spec["event_task_ns"] + spec["task_overhead_ns"]
        kernel = kernel_ns(row)
        slack = (kernel + spec["task_overhead_ns"] + spec["event_task_ns"]) * JITTER + 3
        assert abs(simulated[row.id] - (fixed + kernel)) <= slack, (row.id, simulated[row.id], fixed + kernel)
