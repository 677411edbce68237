"""2-d pooling (csrc/sim/opapi/op_pooling.cpp): aclnnMaxPool2dWithIndices / WithMask and their
backward, aclnnAvgPool2d and its backward, against a numpy reference of torch's rules (output size
with ceil mode, padding, dilation, the first maximum of a window, count_include_pad and
divisor_override), with their bad-input classes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID, PARAM_NULLPTR, ACL = ops.PARAM_INVALID, ops.PARAM_NULLPTR, ops.ACL
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op

RNG = np.random.default_rng(37)


def out_size(n: int, k: int, s: int, p: int, d: int, ceil: bool) -> int:
    span = n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)
    o = span // s + 1
    return o - 1 if ceil and (o - 1) * s >= n + p else o


def max_pool(x: np.ndarray, k: int, s: int, p: int, d: int, ceil: bool) -> tuple[np.ndarray, np.ndarray]:
    n, c, h, w = x.shape
    oh, ow = out_size(h, k, s, p, d, ceil), out_size(w, k, s, p, d, ceil)
    y, idx = np.zeros((n, c, oh, ow)), np.zeros((n, c, oh, ow), dtype=np.int64)
    for b in range(n):
        for ch in range(c):
            for i in range(oh):
                for j in range(ow):
                    best, at = -math.inf, -1
                    for ki in range(k):
                        for kj in range(k):
                            yy, xx = i * s - p + ki * d, j * s - p + kj * d
                            if 0 <= yy < h and 0 <= xx < w and (at < 0 or x[b, ch, yy, xx] > best):
                                best, at = x[b, ch, yy, xx], yy * w + xx
                    y[b, ch, i, j], idx[b, ch, i, j] = best, at
    return y, idx


def scatter_back(g: np.ndarray, idx: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    dx = np.zeros(shape).reshape(shape[0], shape[1], -1)
    for b, ch, i, j in np.ndindex(*g.shape):
        dx[b, ch, idx[b, ch, i, j]] += g[b, ch, i, j]
    return dx.reshape(shape)


def geometry(k: int, s: int, p: int, d: int, ceil: bool) -> list[str]:
    return [f"ints kernelSize 1 {k}", f"ints stride 1 {s}", f"ints padding 1 {p}", f"ints dilation 1 {d}",
            f"int ceilMode {int(ceil)}"]  # fmt: skip


CASES = [(2, 2, 0, 1, False), (3, 2, 1, 1, True), (3, 1, 1, 2, False), (2, 3, 1, 1, True)]


@pytest.mark.parametrize(("k", "s", "p", "d", "ceil"), CASES)
def test_max_pool_with_indices_and_backward(op: Op, k: int, s: int, p: int, d: int, ceil: bool) -> None:
    x = rand(RNG, (2, 3, 7, 6), "f32")
    y, idx = max_pool(x, k, s, p, d, ceil)
    res = op(
        "MaxPool2dWithIndices",
        [T("self", "f32", x), out("out", "f32", y.shape), out("indices", "i32", y.shape)],
        geometry(k, s, p, d, ceil),
    )
    check(res, "out", y, "f32")
    np.testing.assert_array_equal(res.outputs["indices"], idx)
    g = rand(RNG, y.shape, "f32")
    res = op(
        "MaxPool2dWithIndicesBackward",
        [T("gradOutput", "f32", g), T("self", "f32", x), T("indices", "i32", idx.astype(np.float64)),
         out("gradInput", "f32", x.shape)],
        geometry(k, s, p, d, ceil),
    )  # fmt: skip
    check(res, "gradInput", scatter_back(g, idx, x.shape), "f32")


@pytest.mark.parametrize(("k", "s", "p", "d", "ceil"), CASES[:2])
def test_max_pool_mask_round_trip(op: Op, k: int, s: int, p: int, d: int, ceil: bool) -> None:
    # torch_npu's default path: the mask the forward writes is what the backward reads.
    x = rand(RNG, (1, 2, 6, 6), "f32")
    y, idx = max_pool(x, k, s, p, d, ceil)
    row = (math.ceil(y.shape[2] * y.shape[3] / 16) + 1) * 32
    mask_shape = (1, 2, k * k, row)
    res = op(
        "MaxPool2dWithMask",
        [T("self", "f32", x), out("out", "f32", y.shape), out("indices", "i8", mask_shape)],
        geometry(k, s, p, d, ceil),
    )
    check(res, "out", y, "f32")
    g = rand(RNG, y.shape, "f32")
    res = op(
        "MaxPool2dWithMaskBackward",
        [T("gradOutput", "f32", g), T("self", "f32", x), T("indices", "i8", res.outputs["indices"]),
         out("gradInput", "f32", x.shape)],
        geometry(k, s, p, d, ceil),
    )  # fmt: skip
    check(res, "gradInput", scatter_back(g, idx, x.shape), "f32")


def avg_pool(
    x: np.ndarray, k: int, s: int, p: int, ceil: bool, include_pad: bool, divisor: int
) -> np.ndarray:
    n, c, h, w = x.shape
    oh, ow = out_size(h, k, s, p, 1, ceil), out_size(w, k, s, p, 1, ceil)
    y = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            y0, x0 = i * s - p, j * s - p
            y1, x1 = min(y0 + k, h + p), min(x0 + k, w + p)
            size = (y1 - y0) * (x1 - x0)
            y0, x0, y1, x1 = max(y0, 0), max(x0, 0), min(y1, h), min(x1, w)
            div = divisor or (size if include_pad else (y1 - y0) * (x1 - x0))
            y[:, :, i, j] = x[:, :, y0:y1, x0:x1].sum(axis=(2, 3)) / div
    return y


@pytest.mark.parametrize(
    ("k", "s", "p", "ceil", "include_pad", "divisor"),
    [(2, 2, 0, False, True, 0), (3, 2, 1, True, False, 0), (3, 2, 1, False, True, 5)],
)
def test_avg_pool_and_backward(
    op: Op, k: int, s: int, p: int, ceil: bool, include_pad: bool, divisor: int
) -> None:
    x = rand(RNG, (2, 2, 7, 5), "f32")
    y = avg_pool(x, k, s, p, ceil, include_pad, divisor)
    attrs = [
        f"ints kernelSize 2 {k} {k}",
        f"ints strides 1 {s}",
        f"ints paddings 1 {p}",
        f"int ceilMode {int(ceil)}",
        f"int countIncludePad {int(include_pad)}",
        f"int divisorOverride {divisor}",
    ]
    res = op("AvgPool2d", [T("self", "f32", x), out("out", "f32", y.shape)], attrs)
    check(res, "out", y, "f32")
    # the backward is the transpose of the forward: <avg_pool(x), g> == <x, backward(g)>
    g = rand(RNG, y.shape, "f32")
    bwd = [a.replace("strides", "stride").replace("paddings", "padding") for a in attrs]
    res = op(
        "AvgPool2dBackward",
        [T("gradOutput", "f32", g), T("self", "f32", x), out("gradInput", "f32", x.shape)],
        bwd,
    )
    assert res.phase1 == 0 and res.phase2 == [0], res.proc.stderr
    basis = np.zeros(x.size)
    reference = np.zeros(x.size)
    for e in range(x.size):  # column e of the forward's matrix, dotted with g
        basis[:] = 0
        basis[e] = 1
        reference[e] = (avg_pool(basis.reshape(x.shape), k, s, p, ceil, include_pad, divisor) * g).sum()
    check(res, "gradInput", reference.reshape(x.shape), "f32")


def test_pooling_bad_inputs(op: Op) -> None:
    x = np.ones((1, 1, 4, 4))
    good = geometry(2, 2, 0, 1, False)
    assert op("MaxPool2dWithIndices", [out("out", "f32", (1, 1, 2, 2))], good).phase1 == PARAM_NULLPTR
    wrong_out = op(
        "MaxPool2dWithIndices",
        [T("self", "f32", x), out("out", "f32", (1, 1, 3, 3)), out("indices", "i32", (1, 1, 3, 3))],
        good,
    )
    assert wrong_out.phase1 == PARAM_INVALID  # shape
    too_much_padding = op(
        "MaxPool2dWithIndices",
        [T("self", "f32", x), out("out", "f32", (1, 1, 2, 2)), out("indices", "i32", (1, 1, 2, 2))],
        geometry(2, 2, 2, 1, False),
    )
    assert too_much_padding.phase1 == PARAM_INVALID  # attribute
    int_input = op(
        "AvgPool2d",
        [T("self", "i32", x), out("out", "i32", (1, 1, 2, 2))],
        ["ints kernelSize 1 2", "ints strides 1 2", "ints paddings 1 0"],
    )
    assert int_input.phase1 == PARAM_INVALID  # dtype
