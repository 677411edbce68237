"""Optimisers and mixed precision on device `npu` (programs/optimizers.py): SGD with momentum and
Nesterov, Adam and AdamW on their single-tensor paths (`foreach=False`) and Adam's foreach path with
weight decay, clip_grad_norm_ with an LR scheduler, fp16 autocast with GradScaler and bf16 autocast;
each matches the same run on the CPU (losses, outputs, gradients, clip norms, parameters after three
steps) within the tolerance the program states per case. One process runs the cases (a torch
start-up costs seconds)."""

from __future__ import annotations

import pytest
from torch_npu_harness import PROGRAMS, run_on_simulator

CASES = [
    "sgd-momentum", "sgd-momentum-single", "sgd-nesterov", "sgd-nesterov-single", "adam-single",
    "adam-weight-decay", "adamw-single", "clip-scheduler", "clip-scheduler-single", "fp16-grad-scaler",
    "bf16-autocast",
]  # fmt: skip


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return run_on_simulator(PROGRAMS / "optimizers.py", *CASES)


@pytest.mark.parametrize("case", CASES)
def test_optimizer_steps_match_the_cpu(results: dict[str, object], case: str) -> None:
    out = results[case]
    assert isinstance(out, dict)
    assert {k: out.get(k) for k in ("losses", "outputs", "grads", "norms", "params")} == {
        "losses": True, "outputs": True, "grads": True, "norms": True, "params": True,
    }, out  # fmt: skip
    losses = out["npu_losses"]
    assert isinstance(losses, list) and len(losses) == 3 and losses[0] > losses[2]
