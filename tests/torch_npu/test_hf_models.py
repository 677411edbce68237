"""Hugging Face `transformers` models from small random configs (programs/hf_models.py): GPT-2,
BERT and Llama train three AdamW steps on device `npu` and are compared with the same run on the
CPU (losses, logits, the first step's gradients, final parameters; fp32 rtol 1e-5 / atol 1e-6).
Slow (the torch-models env runs them); skipped when transformers is not installed, failed instead
under NPU_SIM_REQUIRE_TRANSFORMERS (the torch-models env sets it).

Not all of it runs yet (docs/torch_npu.md, "What does not work yet"): the expected failures below are
strict, so that a model that starts to match fails its marker and the marker is removed."""

from __future__ import annotations

import importlib.util
import os

import pytest
from torch_npu_harness import PROGRAMS, run_on_simulator

pytestmark = pytest.mark.slow

# GPT-2: losses and the first step's gradients match; the first step's logits match too (largest
# |npu - cpu| - 1e-5 |cpu| 7.7e-8, every layer's output within the tolerance), those of steps 2 and 3
# do not (2.7e-6 and 2.5e-6): they come from parameters AdamW has already moved apart (1.2e-5, near-zero
# gradients it normalises, as below). With SGD instead of AdamW the logits of all three steps match
# (1.1e-7) and so do the parameters (3.4e-9): not the GEMM's summation order (measured 2026-12-07).
MISSING: dict[str, str] = {
    "gpt2": "logits of steps 2 and 3 come from parameters AdamW moved apart (near-zero gradients normalised)",
    # BERT's activation "gelu" is F.gelu's erf form, which torch_npu sends to aclnnGelu: CANN's Gelu
    # kernel computes the tanh form (docs/torch_npu.md), as the simulator does.
    "bert": "F.gelu (erf form on the CPU) is CANN's tanh-form Gelu on npu: up to 4.7e-4 apart"
    " (8.7e-4 in the derivative)",
}
# BERT's only difference is the attention key's bias, whose gradient is zero in exact arithmetic (a
# constant added to every score of a row): AdamW turns its rounding noise into an update of about lr.
# Llama matched after three steps once the GEMM moved to OpenBLAS (before: one element of 2048 of a
# k_proj weight, whose near-zero gradient AdamW normalised).
ADAM_AMPLIFIED = {
    "bert": "the key bias's gradient is zero but for rounding, which AdamW normalises into an update",
    "gpt2": "the key bias (in c_attn.bias) as BERT's, and attention weights whose near-zero gradients AdamW"
    " normalises (4 tensors, up to 1e-5 beyond the tolerance)",
}
MODELS = [pytest.param(m, marks=pytest.mark.xfail(reason=MISSING[m], strict=True)) if m in MISSING else m
          for m in ["gpt2", "bert", "llama"]]  # fmt: skip


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, object]]:
    """Each model's results, from its own process: after an operator error torch_npu's task queue
    leaves the process unusable (docs/torch_npu.md), so one model's failure must not reach another."""
    if importlib.util.find_spec("transformers") is None:
        reason = "transformers is not installed (tox -e torch-models installs it)"
        if os.environ.get("NPU_SIM_REQUIRE_TRANSFORMERS"):
            pytest.fail(reason)
        pytest.skip(reason)
    return {}


def model_results(results: dict[str, dict[str, object]], model: str) -> dict[str, object]:
    if model not in results:
        results[model] = run_on_simulator(PROGRAMS / "hf_models.py", model)
    out = results[model][model]
    assert isinstance(out, dict)
    assert "error" not in out, out
    return out


@pytest.mark.parametrize("model", MODELS)
def test_forward_loss_and_backward_match_the_cpu(results: dict[str, dict[str, object]], model: str) -> None:
    out = model_results(results, model)
    assert {k: out.get(k) for k in ("losses", "logits", "grads")} == {
        "losses": True, "logits": True, "grads": True,
    }, out  # fmt: skip
    losses = out["npu_losses"]
    assert isinstance(losses, list) and len(losses) == 3 and losses[0] > losses[2]


@pytest.mark.parametrize(
    "model",
    [pytest.param(m, marks=pytest.mark.xfail(reason={**MISSING, **ADAM_AMPLIFIED}[m], strict=True))
     if m in {**MISSING, **ADAM_AMPLIFIED} else m for m in ["gpt2", "bert", "llama"]],
)  # fmt: skip
def test_parameters_after_three_adamw_steps_match_the_cpu(
    results: dict[str, dict[str, object]], model: str
) -> None:
    out = model_results(results, model)
    assert out["params"] is True, out
