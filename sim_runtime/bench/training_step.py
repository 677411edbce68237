"""The cost of a training step on the simulated NPU relative to CPU torch on the same machine.

Runs programs/training_step.py under the simulator (torch + torch_npu, the toolkit's environment,
outputs computed: not NPU_SIM_TIMING_ONLY) for two models: an MLP 1024 -> 4096 -> 1024 at batch 256
and a transformer encoder block (d_model 512, 8 heads, feed-forward 2048, sequence 256, batch 8),
each an SGD step on an MSE loss. The NPU and CPU steps alternate in one process, torch at its
default thread count (OMP_NUM_THREADS, else the physical cores), which is also libopapi's math
library's (docs/torch_npu.md); each figure is the median of COUNT steps after a warm-up of 2. The
run fails when the two copies' losses or parameters drift apart (relative loss 1e-3, parameters
1e-3). Needs torch and torch_npu (bash ci/install_torch_npu.sh); without them the benchmark says so.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from sim_runtime.bench.core import (
    PROGRAMS,
    Benchmark,
    BenchmarkUnavailable,
    Build,
    Figure,
    Measured,
    program_env,
)

STEPS = 5
MODELS = ("mlp", "encoder")
LOSS_TOLERANCE = 1e-3
PARAM_TOLERANCE = 1e-3


def run_model(build: Build, model: str, steps: int) -> dict[str, float]:
    env = program_env(build, clock="virtual", preload=False)
    args = [sys.executable, str(PROGRAMS / "training_step.py"), model, str(steps)]
    try:
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=1800, check=False)
    except subprocess.TimeoutExpired as error:
        raise RuntimeError(f"training_step.py {model} did not finish within 1800 s") from error
    if done.returncode != 0:
        raise RuntimeError(
            f"training_step.py {model} failed (exit {done.returncode}):\n{done.stderr.strip()[-2000:]}"
        )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if result["loss_rel_diff"] > LOSS_TOLERANCE or result["param_max_diff"] > PARAM_TOLERANCE:
        raise RuntimeError(
            f"training_step.py {model}: the NPU's results differ from CPU torch's "
            f"(loss {result['loss_rel_diff']:.2e}, parameters {result['param_max_diff']:.2e})"
        )
    return result


def measure(build: Build, steps: int, work: Path) -> Measured:
    del work
    missing = [name for name in ("torch", "torch_npu") if importlib.util.find_spec(name) is None]
    if missing:
        raise BenchmarkUnavailable(
            f"needs {' and '.join(missing)} "
            "(bash ci/install_torch_npu.sh installs torch's CPU build and torch-npu)"
        )
    values: dict[str, float] = {}
    for model in MODELS:
        r = run_model(build, model, steps)
        values[f"{model}_cpu_ms"] = r["cpu_ms"]
        values[f"{model}_npu_ms"] = r["npu_ms"]
        values[f"{model}_ratio"] = r["npu_ms"] / r["cpu_ms"]
        values["threads"] = r["threads"]
    return values


BENCHMARK = Benchmark(
    name="training_step",
    summary="an SGD step of an MLP and of a transformer encoder block under torch_npu, against CPU torch",
    figures=(
        Figure("mlp_ratio", "MLP 1024-4096-1024, batch 256: NPU / CPU step", "x", digits=2),
        Figure("mlp_npu_ms", "MLP step on the simulator", "ms"),
        Figure("mlp_cpu_ms", "MLP step in CPU torch", "ms"),
        Figure("encoder_ratio", "encoder block d512 h8 s256 b8: NPU / CPU step", "x", digits=2),
        Figure("encoder_npu_ms", "encoder step on the simulator", "ms"),
        Figure("encoder_cpu_ms", "encoder step in CPU torch", "ms"),
        Figure("threads", "torch threads (= the math library's)", "", digits=0),
    ),
    measure=measure,
    default_count=STEPS,
    uses_mspti=False,
)
