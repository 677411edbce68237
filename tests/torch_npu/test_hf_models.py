"""Hugging Face `transformers` models from small random configs (programs/hf_models.py): GPT-2,
BERT and Llama train three AdamW steps on device `npu` and match the same run on the CPU (losses,
logits, the first step's gradients, final parameters; fp32 rtol 1e-5 / atol 1e-6). Slow (the
torch-models env runs them); skipped when transformers is not installed, failed instead under
NPU_SIM_REQUIRE_TRANSFORMERS (the torch-models env sets it)."""

from __future__ import annotations

import importlib.util
import os

import pytest
from torch_npu_harness import PROGRAMS, run_on_simulator

pytestmark = pytest.mark.slow

MODELS = ["gpt2", "bert", "llama"]


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    if importlib.util.find_spec("transformers") is None:
        reason = "transformers is not installed (tox -e torch-models installs it)"
        if os.environ.get("NPU_SIM_REQUIRE_TRANSFORMERS"):
            pytest.fail(reason)
        pytest.skip(reason)
    return run_on_simulator(PROGRAMS / "hf_models.py", *MODELS)


@pytest.mark.parametrize("model", MODELS)
def test_train_steps_match_the_cpu(results: dict[str, object], model: str) -> None:
    out = results[model]
    assert isinstance(out, dict)
    assert {k: out.get(k) for k in ("losses", "logits", "grads", "params")} == {
        "losses": True, "logits": True, "grads": True, "params": True,
    }, out  # fmt: skip
    losses = out["npu_losses"]
    assert isinstance(losses, list) and len(losses) == 3 and losses[0] > losses[2]
