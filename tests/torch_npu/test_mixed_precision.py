"""float16 and bfloat16 on device `npu` (programs/mixed_precision.py), compared with the same program on
the CPU computed with CANN's arithmetic (programs/cann_math.py): float32 accumulation in matmul,
reductions, softmax and normalisations, one rounding of each operator's result; the fused attention
rounds its probabilities (and, backward, dS) to the input type before the cube's products.

The tolerances follow from that rule. Both sides compute each operator's float32 value and round it
once; they differ only by the float32 summation order (about 1e-6 relative), which moves a result
across a rounding boundary now and then: a single operator's result is then one unit in the last
place (ulp) off, at most 2^-10 relative for float16 and 2^-7 for bfloat16, and most elements are
identical. Through a model such one-ulp differences are carried on; there the tolerance is a few
ulps (never looser than rtol 2e-2), stated per test.
"""

from __future__ import annotations

import pytest
from torch_npu_harness import PROGRAMS, run_on_simulator

# One ulp relative to the value (normal numbers) of each type.
ULP = {"fp16": 2.0**-10, "bf16": 2.0**-7}
# A single operator (or, on SDPA's math path, matmul - softmax - matmul in float32 inside torch's
# composite, which widens float16/bfloat16): one ulp, plus an absolute 1/64 ulp at 1.0 for results
# near zero (gradients summed from terms of either sign).
OP_TOLERANCE = {d: (ulp, ulp / 64) for d, ulp in ULP.items()}
# A model step (forward, loss, backward, one AdamW step): one-ulp differences of single operators are
# carried through the layers and the backward, so a result may be a few ulps off where most are equal.
MODEL_TOLERANCE = {"fp16": (8 * ULP["fp16"], ULP["fp16"] / 16), "bf16": (2 * ULP["bf16"], ULP["bf16"] / 8)}
FAST = [
    *(
        f"sdpa-{path}-{d}@{OP_TOLERANCE[d][0]}@{OP_TOLERANCE[d][1]}"
        for path in ("fused", "math")
        for d in ULP
    ),
    *(f"cross-entropy-{d}@{OP_TOLERANCE[d][0]}@{OP_TOLERANCE[d][1]}" for d in ULP),
    *(f"encoder-{d}@{MODEL_TOLERANCE[d][0]}@{MODEL_TOLERANCE[d][1]}" for d in ULP),
    f"scaler-skip-fp16@{MODEL_TOLERANCE['fp16'][0]}@{MODEL_TOLERANCE['fp16'][1]}",
    "autocast-float32-ops",
]


def run(*specs: str) -> dict[str, dict[str, object]]:
    out = run_on_simulator(PROGRAMS / "mixed_precision.py", *specs)
    for spec in specs:
        case = spec.split("@")[0]
        assert "error" not in out[case], out[case]  # type: ignore[operator]
    return out  # type: ignore[return-value]


@pytest.fixture(scope="module")
def fast() -> dict[str, dict[str, object]]:
    """The default run's cases, in one process (a torch start-up costs seconds)."""
    return run(*FAST)


def within(report: dict[str, object], *quantities: str) -> None:
    for quantity in quantities:
        q = report[quantity]
        assert isinstance(q, dict) and q["ratio"] <= 1.0, (quantity, report)


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_attention_fused_and_math_paths_round_as_cann(fast: dict[str, dict[str, object]], dtype: str) -> None:
    """OP_TOLERANCE, and at least 95 % of elements identical: on the fused path this holds only when
    the probabilities (and, backward, dS) are rounded to the input type as CANN's cube takes them
    (without that, measured: 74 % of outputs and 64 % of gradients)."""
    for case in (f"sdpa-fused-{dtype}", f"sdpa-math-{dtype}"):
        within(fast[case], "out", "grads")
        for quantity in ("out", "grads"):
            q = fast[case][quantity]
            assert isinstance(q, dict) and q["equal"] >= 0.95, (case, quantity, fast[case])


def test_autocast_float32_operators_are_the_references(fast: dict[str, dict[str, object]]) -> None:
    """The operators the reference runs in float32 under autocast (cann_math.AUTOCAST_FLOAT32 and
    AUTOCAST_SET_OPT_DTYPE) are the ones npu's autocast runs in float32: each returns float32 from a
    bfloat16 input on npu; those of AUTOCAST_SET_OPT_DTYPE keep a dtype the call names, and npu has
    a rule for each of them where the CPU has none; npu has no rule for those of AUTOCAST_NOT_ON_NPU,
    which the CPU casts."""
    out = fast["autocast-float32-ops"]
    dtypes, explicit, rules = out["dtypes"], out["explicit"], out["rules"]
    assert isinstance(dtypes, dict) and set(dtypes.values()) == {"torch.float32"}, out
    assert out["listed"] == sorted(dtypes), out
    assert isinstance(explicit, dict) and set(explicit.values()) == {"torch.bfloat16"}, out
    assert isinstance(rules, dict) and isinstance(out["set_opt_dtype"], list), out
    for name in out["set_opt_dtype"]:
        assert rules[name] == {"AutocastPrivateUse1": True, "AutocastCPU": False}, (name, out)
    assert out["not_on_npu"], out
    for name in out["not_on_npu"]:  # type: ignore[union-attr]
        assert rules[name] == {"AutocastPrivateUse1": False, "AutocastCPU": True}, (name, out)


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_cross_entropy_under_autocast_keeps_npu_types(fast: dict[str, dict[str, object]], dtype: str) -> None:
    """`F.cross_entropy` of low-type logits under autocast: npu's autocast has no rule for
    cross_entropy_loss, so its log-softmax computes in the logits' type (the CPU's autocast would
    cast it to float32); loss and logits' gradient at OP_TOLERANCE, at least 95 % identical
    (measured: all identical; 0 % of losses and 80 % of gradients while the reference took the CPU's
    float32 rule, which made BERT's float16 step fail)."""
    case = fast[f"cross-entropy-{dtype}"]
    within(case, "loss", "grads")
    for quantity in ("loss", "grads"):
        q = case[quantity]
        assert isinstance(q, dict) and q["equal"] >= 0.95, (quantity, case)


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_encoder_layer_step_under_autocast(fast: dict[str, dict[str, object]], dtype: str) -> None:
    """`nn.TransformerEncoderLayer` with a causal mask: forward, loss, backward and one AdamW step
    under autocast (float16 with GradScaler), at MODEL_TOLERANCE."""
    within(fast[f"encoder-{dtype}"], "out", "loss", "grads", "params")


def test_grad_scaler_skips_the_step_that_overflows(fast: dict[str, dict[str, object]]) -> None:
    """GradScaler at scale 2^24: the float16 backward overflows, the scaler finds inf, leaves every
    parameter as it was and halves its scale, on npu as on the CPU."""
    out = fast["scaler-skip-fp16"]
    assert out["ref_grads_finite"] is False, out
    assert out["scale"] == [2.0**23, 2.0**23] and out["moved"] == [0.0, 0.0], out
    within(out, "out", "loss", "params")


HF_CASES = [(m, d) for m in ("gpt2", "bert", "llama") for d in ULP]


@pytest.mark.slow
@pytest.mark.parametrize(("model", "dtype"), HF_CASES)
def test_hf_model_step_under_autocast(model: str, dtype: str) -> None:
    """The small Hugging Face models of hf_models.py (random weights, dropout 0): forward with their
    own loss, backward and one AdamW step under bf16 autocast or fp16 autocast with GradScaler, at
    MODEL_TOLERANCE."""
    pytest.importorskip("transformers")
    rtol, atol = MODEL_TOLERANCE[dtype]
    out = run(f"{model}-{dtype}@{rtol}@{atol}")[f"{model}-{dtype}"]
    within(out, "out", "loss", "grads", "params")
