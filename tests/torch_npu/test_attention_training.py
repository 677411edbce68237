"""Attention training on device `npu` (programs/attention_training.py): TransformerEncoderLayer with a
causal mask and MultiheadAttention with a causal mask train three SGD steps and
match the CPU (fp32: rtol 1e-5, atol 1e-6); attention dropout keeps about 1 - p of the probabilities
and its backward uses the forward's keep mask; a dropout encoder's run repeats from the same seed.
Skipped when `import torch, torch_npu` fails."""

from __future__ import annotations

import math

import pytest
from torch_npu_harness import PROGRAMS, run_on_simulator

PROGRAM = PROGRAMS / "attention_training.py"
# encoder-padding fails at ReduceAll (aclnnAll is not implemented: docs/torch_npu.md).
TRAINED = ["encoder-causal", "mha"]


def case(results: dict[str, object], name: str) -> dict[str, object]:
    out = results[name]
    assert isinstance(out, dict) and "error" not in out, out
    return out


@pytest.fixture(scope="module")
def fast() -> dict[str, object]:
    """The default run's cases, in one process (a torch start-up costs seconds); each from its own seeds."""
    return run_on_simulator(PROGRAM, *TRAINED, "sdpa-dropout")


@pytest.mark.parametrize("name", TRAINED)
def test_attention_training_matches_the_cpu(fast: dict[str, object], name: str) -> None:
    out = case(fast, name)
    assert {key: out[key] for key in ("losses", "outputs", "grads", "params")} == {
        "losses": True, "outputs": True, "grads": True, "params": True,
    }, out  # fmt: skip
    losses = out["npu_losses"]
    assert isinstance(losses, list) and losses[0] > losses[-1] > 0  # the steps reached the parameters


def test_attention_dropout_backward_uses_the_forward_mask(fast: dict[str, object]) -> None:
    out = case(fast, "sdpa-dropout")
    assert out["match"] is True, out
    kept, n, keep = out["kept"], out["elements"], 0.7
    assert isinstance(kept, int) and isinstance(n, int)
    assert abs(kept - keep * n) <= 3 * math.sqrt(n * keep * (1 - keep)), out


@pytest.mark.slow
def test_dropout_encoder_trains_and_repeats() -> None:
    out = case(run_on_simulator(PROGRAM, "encoder-dropout"), "encoder-dropout")
    assert out["finite"] is True and out["repeatable"] is True, out
