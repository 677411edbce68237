"""aclnnConvolution and aclnnConvolutionBackward with transposed=true (ConvTranspose1d/2d: stride,
padding, dilation, groups, outputPadding, bias) against a numpy reference computed in float64 from
the same quantized inputs (the transposed convolution written directly as its scatter sum, not as
the adjoint the library computes), and their error paths, through programs/aclnn_runner.cpp as in
test_aclnn_ops.py."""

from __future__ import annotations

import typing
from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
FLOATS, PARAM_INVALID, PARAM_NULLPTR = ops.FLOATS, ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


conv = load_sibling(Path(__file__).resolve().parent, "test_aclnn_convolution")
as_2d = conv.as_2d


def ConvT(
    stride: tuple[int, ...],
    padding: tuple[int, ...],
    dilation: tuple[int, ...],
    output_padding: tuple[int, ...],
    groups: int = 1,
) -> typing.Any:
    """One transposed convolution's attributes, per spatial dimension (height, width; 1-D: width):
    the direct convolution's record with the transposed flag and an output padding."""
    return conv.Conv(stride, padding, dilation, groups, output_padding=output_padding, transposed=True)


def pairs(c: typing.Any) -> tuple[tuple[int, int], ...]:
    return c.hw(c.stride, 1), c.hw(c.padding, 0), c.hw(c.dilation, 1), c.hw(c.output_padding, 0)


def out_hw(x: np.ndarray, w: np.ndarray, c: typing.Any) -> tuple[int, int]:
    (sh, sw), (ph, pw), (dh, dw), (oph, opw) = pairs(c)
    (h, wd), (kh, kw) = x.shape[2:], w.shape[2:]
    return (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1, (wd - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1


def positions(c: typing.Any, h: int, wd: int, i: int, j: int) -> tuple[slice, slice]:
    """Where input positions land in the uncropped output for kernel tap (i, j)."""
    (sh, sw), _, (dh, dw), _ = pairs(c)
    return slice(i * dh, i * dh + sh * (h - 1) + 1, sh), slice(j * dw, j * dw + sw * (wd - 1) + 1, sw)


def conv_t_ref(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, c: typing.Any) -> np.ndarray:
    """y[n, g*og + o, s*i - p + d*k] += x[n, g*cg + ci, i] * w[g*cg + ci, o, k] (cg = C_in / groups)."""
    spatial = x.ndim - 2
    x, w = as_2d(x), as_2d(w)
    _, (ph, pw), _, _ = pairs(c)
    oh, ow = out_hw(x, w, c)
    n, cin, h, wd = x.shape
    cg, og = cin // c.groups, w.shape[1]
    full = np.zeros((n, og * c.groups, oh + 2 * ph, ow + 2 * pw))
    for i in range(w.shape[2]):
        for j in range(w.shape[3]):
            rows, cols = positions(c, h, wd, i, j)
            for g in range(c.groups):
                full[:, g * og : (g + 1) * og, rows, cols] += np.einsum(
                    "nchw,co->nohw", x[:, g * cg : (g + 1) * cg], w[g * cg : (g + 1) * cg, :, i, j]
                )
    y = full[:, :, ph : ph + oh, pw : pw + ow]
    if b is not None:
        y = y + b[None, :, None, None]
    return y[:, :, 0, :] if spatial == 1 else y


def conv_t_grads(x: np.ndarray, w: np.ndarray, dy: np.ndarray, c: typing.Any) -> tuple[np.ndarray, ...]:
    """The gradients of conv_t_ref's sum for the output gradient dy, read off the same scatter."""
    spatial = x.ndim - 2
    x2, w2, dy2 = as_2d(x), as_2d(w), as_2d(dy)
    _, (ph, pw), _, _ = pairs(c)
    n, cin, h, wd = x2.shape
    cg, og = cin // c.groups, w2.shape[1]
    oh, ow = dy2.shape[2:]
    full = np.zeros((n, og * c.groups, oh + 2 * ph + 16, ow + 2 * pw + 16))  # room for the outputPadding side
    full[:, :, ph : ph + oh, pw : pw + ow] = dy2
    dx, dw = np.zeros_like(x2), np.zeros_like(w2)
    for i in range(w2.shape[2]):
        for j in range(w2.shape[3]):
            rows, cols = positions(c, h, wd, i, j)
            for g in range(c.groups):
                gi, go = slice(g * cg, (g + 1) * cg), slice(g * og, (g + 1) * og)
                d = full[:, go, rows, cols]
                dx[:, gi] += np.einsum("nohw,co->nchw", d, w2[gi, :, i, j])
                dw[gi, :, i, j] += np.einsum("nohw,nchw->co", d, x2[:, gi])
    db = dy2.sum(axis=(0, 2, 3))
    if spatial == 1:
        return dx[:, :, 0, :], dw[:, :, 0, :], db
    return dx, dw, db


CASES = {
    # input shape, weight shape [C_in, C_out / groups, kH, kW], attributes
    "2d-stride-pad-outpad": ((2, 3, 4, 5), (3, 4, 3, 3), ConvT((2, 2), (1, 1), (1, 1), (1, 0))),
    "2d-dilation-groups": ((2, 4, 5, 4), (4, 3, 3, 2), ConvT((1, 2), (2, 0), (2, 1), (1, 1), groups=2)),
    "1d": ((3, 4, 7), (4, 2, 3), ConvT((3,), (1,), (2,), (2,), groups=2)),
}


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_transposed_convolution_forward(op: Op, dt: str, case: str) -> None:
    xs, ws, c = CASES[case]
    rng = np.random.default_rng(70)
    x, w = rand(rng, xs, dt), rand(rng, ws, dt)
    b = rand(rng, (ws[1] * c.groups,), dt)
    y = conv_t_ref(x, w, b, c)
    res = op(
        "Convolution",
        [T("input", dt, x), T("weight", dt, w), T("bias", dt, b), out("output", dt, y.shape)],
        c.attrs(),
    )
    check(res, "output", y, dt, scale=8)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_transposed_convolution_backward(op: Op, dt: str, case: str) -> None:
    xs, ws, c = CASES[case]
    rng = np.random.default_rng(71)
    x, w = rand(rng, xs, dt), rand(rng, ws, dt)
    dy = rand(rng, conv_t_ref(x, w, None, c).shape, dt)
    dx, dw, db = conv_t_grads(x, w, dy, c)
    cout = ws[1] * c.groups
    res = op(
        "ConvolutionBackward",
        [
            T("gradOutput", dt, dy),
            T("input", dt, x),
            T("weight", dt, w),
            out("gradInput", dt, x.shape),
            out("gradWeight", dt, w.shape),
            out("gradBias", dt, (cout,)),
        ],
        [*c.attrs(), f"ints biasSizes 1 {cout}", "bools outputMask 3 1 1 1"],
    )
    check(res, "gradInput", dx, dt, scale=8)
    check(res, "gradWeight", dw, dt, scale=16)
    check(res, "gradBias", db, dt, scale=16)


def test_transposed_convolution_rejects_bad_input(op: Op) -> None:
    xs, ws, c = CASES["2d-stride-pad-outpad"]
    rng = np.random.default_rng(72)
    x, w = rand(rng, xs, "f32"), rand(rng, ws, "f32")
    y_shape = conv_t_ref(x, w, None, c).shape

    def run(attrs: list[str], weight: np.ndarray = w, shape: tuple[int, ...] = y_shape) -> ops.Result:
        return op(
            "Convolution",
            [T("input", "f32", x), T("weight", "f32", weight), out("output", "f32", shape)],
            attrs,
        )

    too_wide = ConvT(c.stride, c.padding, c.dilation, (2, 0))  # not below stride 2 nor dilation 1
    res = run(too_wide.attrs())
    assert res.phase1 == PARAM_INVALID and "outputPadding" in res.proc.stderr
    res = run([a for a in c.attrs() if not a.startswith("ints outputPadding")])
    assert res.phase1 == PARAM_NULLPTR
    res = run(c.attrs(), weight=rand(rng, (4, 3, 3, 3), "f32"))  # dimension 0 is not C_in
    assert res.phase1 == PARAM_INVALID and "transposed" in res.proc.stderr
    res = run(ConvT(c.stride, c.padding, c.dilation, c.output_padding, groups=2).attrs())
    assert res.phase1 == PARAM_INVALID and "groups" in res.proc.stderr
    res = run(c.attrs(), shape=(2, 4, *y_shape[2:][:-1], y_shape[-1] + 1))
    assert res.phase1 == PARAM_INVALID and "output" in res.proc.stderr
