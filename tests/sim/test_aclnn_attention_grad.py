"""aclnnFlashAttentionScoreGrad against numpy: the gradients of query, key, value (and the pse) with
the causal sparse modes, explicit masks, grouped-query heads and the dropout bits of the forward,
the reference checked itself against central differences of the forward."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID, PARAM_NULLPTR = ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op
forward = load_sibling(Path(__file__).resolve().parent, "test_aclnn_attention_masks").forward


def reference(q, k, v, dy, scale, mask=None, pse=None, keep=None, keep_prob=1.0):
    """dq, dk, dv, dpse (dpse of the full [B, N, Sq, Skv] scores) of sum(out * dy)."""
    group = q.shape[1] // k.shape[1]
    kr, vr = np.repeat(k, group, axis=1), np.repeat(v, group, axis=1)
    _, p, pd = forward(q, kr, vr, scale, mask, pse, keep, keep_prob)
    dv = np.swapaxes(pd, -1, -2) @ dy
    dpd = dy @ np.swapaxes(vr, -1, -2)
    dp = dpd if keep is None else np.where(keep, dpd / keep_prob, 0.0)
    dz = scale * p * (dp - (p * dp).sum(-1, keepdims=True))
    dq, dk = dz @ kr, np.swapaxes(dz, -1, -2) @ q

    def fold(x):  # the gradient of a key head: the sum over its query heads
        return x.reshape(x.shape[0], -1, group, *x.shape[2:]).sum(2)

    return dq, fold(dk), fold(dv), dz


def qkv(rng, b, n, kn, sq, skv, d, dt="f32"):
    return rand(rng, (b, n, sq, d), dt), rand(rng, (b, kn, skv, d), dt), rand(rng, (b, kn, skv, d), dt)


def run(op: Op, q, k, v, dy, extra: list, attrs: list[str], dt: str = "f32", dpse_shape=None):
    outs = [out("dq", dt, q.shape), out("dk", dt, k.shape), out("dv", dt, v.shape)]
    if dpse_shape is not None:
        outs.append(out("dpse", dt, dpse_shape))
    tensors = [T("query", dt, q), T("key", dt, k), T("value", dt, v), T("dy", dt, dy), *extra, *outs]
    return op("FlashAttentionScoreGrad", tensors, [f"int headNum {q.shape[1]}", "str layout BNSD", *attrs])


def check_grads(res, grads, dt: str = "f32", names=("dq", "dk", "dv")) -> None:
    for name, ref in zip(names, grads, strict=False):
        check(res, name, ref, dt, scale=4)


def test_reference_matches_central_differences() -> None:
    # The numpy backward above is itself checked against the forward it differentiates.
    rng = np.random.default_rng(70)
    q, k, v = (rng.normal(size=(1, 2, 3, 4)) for _ in range(3))
    dy, pse = rng.normal(size=(1, 2, 3, 4)), rng.normal(size=(1, 2, 3, 3))
    mask = np.triu(np.ones((3, 3), dtype=bool), 1)
    keep = rng.random((1, 2, 3, 3)) < 0.6

    def loss(q_, k_, v_, pse_):
        return float((forward(q_, k_, v_, 0.7, mask, pse_, keep, 0.6)[0] * dy).sum())

    grads = reference(q, k, v, dy, 0.7, mask, pse, keep, 0.6)
    for which, x in enumerate((q, k, v, pse)):
        numeric = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            args = [q, k, v, pse]
            for sign in (1, -1):
                moved = x.copy()
                moved[idx] += sign * 1e-6
                args[which] = moved
                numeric[idx] += sign * loss(*args) / 2e-6
        np.testing.assert_allclose(grads[which], numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize(("mode", "sq", "skv"), [(0, 5, 5), (2, 5, 5), (3, 4, 6)])
def test_gradients_with_causal_sparse_modes(op: Op, mode: int, sq: int, skv: int) -> None:
    rng = np.random.default_rng(71)
    q, k, v = qkv(rng, 2, 2, 2, sq, skv, 8)
    dy = rand(rng, q.shape, "f32")
    scale = 1 / math.sqrt(8)
    extra, attrs, causal = [], [f"float scale {scale!r}"], None
    if mode:
        extra = [T("mask", "bool", np.triu(np.ones((2048, 2048)), 1))]
        attrs += [f"int sparseMode {mode}", "int nextTokens 0"]
        i, j = np.indices((sq, skv))
        causal = j > i if mode == 2 else j > i + (skv - sq)
    res = run(op, q, k, v, dy, extra, attrs)
    check_grads(res, reference(q, k, v, dy, scale, mask=causal))


def test_padding_mask_and_grouped_query_heads(op: Op) -> None:
    # [B, 1, Sq, Skv] padding mask (the last keys of batch 1 masked), 4 query heads over 2 key heads.
    rng = np.random.default_rng(72)
    q, k, v = qkv(rng, 2, 4, 2, 3, 6, 4)
    dy = rand(rng, q.shape, "f32")
    mask = np.zeros((2, 1, 3, 6), dtype=bool)
    mask[1, :, :, 4:] = True
    res = run(op, q, k, v, dy, [T("mask", "bool", mask.astype(np.float64))], ["float scale 0.5"])
    check_grads(res, reference(q, k, v, dy, 0.5, mask=mask))


@pytest.mark.parametrize("pse_shape", [(2, 2, 3, 5), (2, 2, 1, 5), (1, 2, 3, 5)])
def test_pse_gradient_sums_over_its_broadcast_axes(op: Op, pse_shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(73)
    q, k, v = qkv(rng, 2, 2, 2, 3, 5, 4)
    dy, pse = rand(rng, q.shape, "f32"), rand(rng, pse_shape, "f32")
    res = run(op, q, k, v, dy, [T("realShift", "f32", pse)], ["float scale 0.5"], dpse_shape=pse_shape)
    dq, dk, dv, dz = reference(q, k, v, dy, 0.5, pse=pse)
    axes = tuple(a for a in range(4) if pse_shape[a] == 1)
    check_grads(res, (dq, dk, dv, dz.sum(axis=axes, keepdims=True)), names=("dq", "dk", "dv", "dpse"))


def test_dropout_uses_the_forward_bits(op: Op) -> None:
    rng = np.random.default_rng(74)
    b, n, sq, skv = 1, 2, 3, 16
    q, k, v = qkv(rng, b, n, n, sq, skv, 4)
    dy = rand(rng, q.shape, "f32")
    keep = rng.random((b, n, sq, skv)) < 0.7
    bits = np.packbits(keep.reshape(-1), bitorder="little")  # bit k of byte k / 8: element k
    extra = [T("dropMask", "u8", bits.astype(np.float64))]
    res = run(op, q, k, v, dy, extra, ["float scale 0.5", "float keepProb 0.7"])
    check_grads(res, reference(q, k, v, dy, 0.5, keep=keep, keep_prob=0.7))


@pytest.mark.parametrize("dt", ["f16", "bf16"])
def test_half_types_round_once(op: Op, dt: str) -> None:
    rng = np.random.default_rng(75)
    q, k, v = qkv(rng, 1, 2, 2, 4, 4, 8, dt)
    dy = rand(rng, q.shape, dt)
    res = run(op, q, k, v, dy, [], ["float scale 0.25"], dt=dt)
    check_grads(res, reference(q, k, v, dy, 0.25), dt=dt)


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("dy of another shape", PARAM_INVALID),
        ("dq of another type", PARAM_INVALID),
        ("no dv", PARAM_NULLPTR),
        ("pse without dpse", PARAM_INVALID),
        ("dpse without pse", PARAM_INVALID),
    ],
)
def test_bad_arguments(op: Op, case: str, code: int) -> None:
    x = np.ones((1, 2, 4, 4))
    tensors = [T("query", "f32", x), T("key", "f32", x), T("value", "f32", x)]
    tensors.append(T("dy", "f32", np.ones((1, 2, 4, 3)) if case == "dy of another shape" else x))
    tensors.append(out("dq", "f16" if case == "dq of another type" else "f32", x.shape))
    tensors.append(out("dk", "f32", x.shape))
    if case != "no dv":
        tensors.append(out("dv", "f32", x.shape))
    if case == "pse without dpse":
        tensors.append(T("realShift", "f32", np.ones((1, 2, 4, 4))))
    if case == "dpse without pse":
        tensors.append(out("dpse", "f32", (1, 2, 4, 4)))
    res = op("FlashAttentionScoreGrad", tensors, ["int headNum 2", "str layout BNSD"])
    assert res.phase1 == code, res.proc.stdout + res.proc.stderr
