"""aclnnFlashAttentionScore with what torch_npu passes for causal, biased and dropout attention: the
causal sparse modes with CANN's compressed [2048, 2048] mask, realShift (pse) and the dropMask bit
mask, against numpy (CANN's formula: Dropout(Softmax(Mask(scale * (pse + Q K^T)))) V)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID = ops.PARAM_INVALID
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op

TOKEN_MAX = 2147483647


def forward(q, k, v, scale, mask=None, pse=None, keep=None, keep_prob=1.0):
    """Attention output and what its backward needs, the probabilities before and after dropout
    (float64; k and v with as many heads as q)."""
    z = q @ np.swapaxes(k, -1, -2)
    if pse is not None:
        z = z + pse
    s = scale * z
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    pd = p if keep is None else np.where(keep, p / keep_prob, 0.0)
    return pd @ v, p, pd


def reference(q, k, v, scale, mask=None, pse=None, keep=None, keep_prob=1.0):
    return forward(q, k, v, scale, mask, pse, keep, keep_prob)[0]


def qkv(rng, b, n, sq, skv, d, dt="f32"):
    return rand(rng, (b, n, sq, d), dt), rand(rng, (b, n, skv, d), dt), rand(rng, (b, n, skv, d), dt)


def run(op: Op, q, k, v, extra: list, attrs: list[str], dt: str = "f32"):
    n = q.shape[1]
    tensors = [T("query", dt, q), T("key", dt, k), T("value", dt, v), *extra, out("out", dt, q.shape)]
    return op("FlashAttentionScore", tensors, [f"int headNum {n}", "str layout BNSD", *attrs])


@pytest.mark.parametrize(("mode", "sq", "skv"), [(2, 6, 6), (2, 4, 7), (3, 4, 7)])
def test_causal_sparse_modes_take_the_compressed_mask(op: Op, mode: int, sq: int, skv: int) -> None:
    # torch_npu's is_causal: triu(ones(2048, 2048), 1), sparseMode 2 (leftUpCausal), nextTokens 0.
    rng = np.random.default_rng(60)
    q, k, v = qkv(rng, 1, 2, sq, skv, 8)
    compressed = np.triu(np.ones((2048, 2048)), 1)
    scale = 1 / math.sqrt(8)
    res = run(
        op,
        q,
        k,
        v,
        [T("mask", "bool", compressed)],
        [f"float scale {scale!r}", f"int sparseMode {mode}", "int nextTokens 0"],
    )
    i, j = np.indices((sq, skv))
    causal = j > i if mode == 2 else j > i + (skv - sq)
    check(res, "out", reference(q, k, v, scale, mask=causal), "f32", scale=2)


@pytest.mark.parametrize("pse_shape", [(2, 2, 5, 7), (2, 2, 1, 7), (1, 2, 5, 7)])
def test_real_shift_is_added_before_the_scale(op: Op, pse_shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(61)
    q, k, v = qkv(rng, 2, 2, 5, 7, 4)
    pse = rand(rng, pse_shape, "f32")
    res = run(op, q, k, v, [T("realShift", "f32", pse)], ["float scale 0.5"])
    check(res, "out", reference(q, k, v, 0.5, pse=pse), "f32", scale=2)


def test_drop_mask_bits_keep_and_scale_the_probabilities(op: Op) -> None:
    rng = np.random.default_rng(62)
    b, n, sq, skv = 1, 2, 3, 16
    q, k, v = qkv(rng, b, n, sq, skv, 4)
    keep = rng.random((b, n, sq, skv)) < 0.7
    bits = np.packbits(keep.reshape(-1), bitorder="little")  # bit k of byte k / 8: element k
    res = run(
        op, q, k, v, [T("dropMask", "u8", bits.astype(np.float64))], ["float scale 0.5", "float keepProb 0.7"]
    )
    check(res, "out", reference(q, k, v, 0.5, keep=keep, keep_prob=0.7), "f32", scale=2)


@pytest.mark.parametrize(
    ("extra", "attrs"),
    [
        ([], ["float keepProb 0.5"]),  # dropout without its mask
        ([T("dropMask", "u8", np.ones(1))], ["float keepProb 0.5"]),  # too few bits
        ([T("realShift", "f32", np.ones((1, 1, 2, 2)))], []),  # pse of another shape
        ([], ["int sparseMode 4"]),  # band: not offered
        ([], ["int preTokens 1"]),  # a band with sparseMode 0: not offered
    ],
)
def test_bad_masks_are_param_invalid(op: Op, extra: list, attrs: list[str]) -> None:
    x = np.ones((1, 2, 4, 4))
    res = run(op, x, x, x, extra, attrs)
    assert res.phase1 == PARAM_INVALID, res.proc.stdout + res.proc.stderr
