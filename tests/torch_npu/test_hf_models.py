"""Hugging Face `transformers` models from small random configs (programs/hf_models.py): GPT-2,
BERT and Llama train three AdamW steps on device `npu` and are compared with the same run on the
CPU computing CANN's math (programs/cann_math.py; for these fp32 models it matters for BERT, whose
erf-form "gelu" reaches aclnnGelu, which computes the tanh form): each step's loss and logits against
the CPU's forward from the same parameters, the first step's gradients, the final parameters (fp32
rtol 1e-5 / atol 1e-6; adam_compare's rule for elements whose gradient is rounding noise). Slow (the
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
    """Each step's loss and logits from the same parameters, and the first step's gradients. (Before
    steps 2 and 3 were compared from the same parameters, GPT-2's logits of those steps were 2.7e-6
    beyond the tolerance: they came from parameters AdamW had moved apart, the test below.)"""
    out = model_results(results, model)
    assert {k: out.get(k) for k in ("losses", "logits", "grads")} == {
        "losses": True, "logits": True, "grads": True,
    }, out  # fmt: skip
    losses = out["npu_losses"]
    assert isinstance(losses, list) and len(losses) == 3 and losses[0] > losses[2]


@pytest.mark.parametrize("model", MODELS)
def test_parameters_after_three_adamw_steps_match_the_cpu(
    results: dict[str, dict[str, object]], model: str
) -> None:
    """adam_compare's rule: elements whose CPU gradient is within the gradient tolerance (1e-6) of zero
    at some step (the attention key's bias, whose gradient is zero in exact arithmetic: softmax is
    blind to a constant added to a row's scores) within 2·lr per step; all others at rtol 1e-5 /
    atol 1e-6."""
    out = model_results(results, model)
    params = out["params"]
    assert isinstance(params, dict) and params["match"] is True, out


@pytest.mark.parametrize("model", ["gpt2", "bert"])
def test_two_cpu_runs_need_the_same_rule(results: dict[str, dict[str, object]], model: str) -> None:
    """Why the rule: the CPU run against the same program in float64 (every operation rounded
    differently) differs beyond the plain tolerance after three AdamW steps, only in elements the
    rule frees (measured: BERT's first key bias, GPT-2's c_attn biases, which hold the key biases);
    for GPT-2 so does the CPU run with the batch reversed (another summation order)."""
    out = model_results(results, model)
    for key in ("cpu_vs_float64",) + (("cpu_vs_cpu",) if model == "gpt2" else ()):
        cpu = out[key]
        assert isinstance(cpu, dict), out
        assert cpu["plain_match"] is False and cpu["match"] is True, (key, cpu)
        assert cpu["beyond_in_free"] == sum(cpu["beyond"].values()) > 0, (key, cpu)


def test_bert_differs_from_the_erf_form_of_gelu(results: dict[str, dict[str, object]]) -> None:
    """BERT's "gelu" is F.gelu's erf form on the CPU; on npu it is CANN's tanh form
    (docs/torch_npu.md, GELU): npu's first logits are beyond the fp32 tolerance from the CPU's own
    erf-form run (they match the CPU computing the tanh form, above)."""
    out = model_results(results, "bert")
    assert isinstance(out["erf_logits_excess"], float) and out["erf_logits_excess"] > 1e-6, out
