"""Training-mode dropout inside models on device `npu` (programs/dropout_stats.py, p = 0.25): the
fraction kept is 1 - p within 3 sigma of the binomial, kept values are scaled by 1 / (1 - p), the same seed
gives the same output and another seed another one, the backward runs; in eval mode dropout is the
identity exactly and the output equals the CPU's. MultiheadAttention (its attention weights after
dropout), TransformerEncoderLayer and TransformerDecoderLayer (causal self-attention, cross-attention)
in the default run; the Hugging Face models are slow."""

from __future__ import annotations

import importlib.util

import pytest
from torch_npu_harness import PROGRAMS, run_on_simulator

P = 0.25


def check(out: dict[str, object], statistics: bool, modules: bool) -> None:
    """`statistics`: elements were seen (dropout modules, or MHA's returned weights); `modules`: the
    model has nn.Dropout modules, whose eval-mode identity is checked."""
    assert "error" not in out, out
    n, kept = out["elements"], out["kept"]
    assert isinstance(n, int) and isinstance(kept, int)
    if statistics:
        sigma = (n * P * (1 - P)) ** 0.5
        assert n > 1000 and abs(kept - n * (1 - P)) <= 3 * sigma, out
        assert isinstance(out["scale_error"], float) and out["scale_error"] < 1e-6, out
    assert out["eval_identity"] is (True if modules else None), out
    assert out["same_seed"] is True and out["other_seed"] is True, out
    assert out["backward"] is True and out["eval_matches_cpu"] is True, out


def test_dropout_in_attention_and_encoder_and_decoder_layers() -> None:
    results = run_on_simulator(PROGRAMS / "dropout_stats.py", "mha", "encoder", "decoder")
    assert results["p"] == P
    mha = results["mha"]
    assert isinstance(mha, dict)
    check(mha, statistics=True, modules=False)  # its attention weights before and after dropout
    for layer in ("encoder", "decoder"):
        out = results[layer]
        assert isinstance(out, dict)
        check(out, statistics=True, modules=True)


@pytest.mark.slow
@pytest.mark.parametrize("model", ["gpt2", "bert", "llama"])
def test_dropout_in_hf_models(model: str) -> None:
    """Llama has no dropout module (its attention dropout is inside scaled_dot_product_attention):
    checked by seeds, backward and eval mode only."""
    if importlib.util.find_spec("transformers") is None:
        pytest.skip("transformers is not installed (tox -e torch-models installs it)")
    out = run_on_simulator(PROGRAMS / "dropout_stats.py", model)[model]
    assert isinstance(out, dict)
    check(out, statistics=model != "llama", modules=model != "llama")
