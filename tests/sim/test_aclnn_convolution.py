"""aclnnConvolution and aclnnConvolutionBackward (1-D and 2-D; stride, padding, dilation, groups,
bias; the backward's output mask) against a numpy reference computed in float64 from the same
quantized inputs, and their error paths, through programs/aclnn_runner.cpp as in test_aclnn_ops.py."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
FLOATS, PARAM_INVALID, PARAM_NULLPTR = ops.FLOATS, ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


@dataclass(frozen=True)
class Conv:
    """The attributes of one convolution (per spatial dimension: height, width; 1-D uses width)."""

    stride: tuple[int, ...]
    padding: tuple[int, ...]
    dilation: tuple[int, ...]
    groups: int = 1
    # A transposed convolution's (test_aclnn_conv_transpose.py); a direct one passes zeros.
    output_padding: tuple[int, ...] | None = None
    transposed: bool = False

    def attrs(self) -> list[str]:
        def ints(name: str, v: tuple[int, ...]) -> str:
            return f"ints {name} {len(v)} {' '.join(map(str, v))}"

        return [
            *(["int transposed 1"] if self.transposed else []),
            ints("stride", self.stride),
            ints("padding", self.padding),
            ints("dilation", self.dilation),
            ints("outputPadding", self.output_padding or tuple(0 for _ in self.stride)),
            f"int groups {self.groups}",
        ]

    def hw(self, v: tuple[int, ...], fill: int) -> tuple[int, int]:
        return (fill, v[0]) if len(v) == 1 else (v[0], v[1])


def as_2d(x: np.ndarray) -> np.ndarray:
    return x[:, :, None, :] if x.ndim == 3 else x


def patches(xp: np.ndarray, c: Conv, i: int, j: int, oh: int, ow: int) -> tuple[slice, slice]:
    sh, sw = c.hw(c.stride, 1)
    dh, dw = c.hw(c.dilation, 1)
    return slice(i * dh, i * dh + sh * (oh - 1) + 1, sh), slice(j * dw, j * dw + sw * (ow - 1) + 1, sw)


def out_hw(x: np.ndarray, w: np.ndarray, c: Conv) -> tuple[int, int]:
    (sh, sw), (ph, pw), (dh, dw) = c.hw(c.stride, 1), c.hw(c.padding, 0), c.hw(c.dilation, 1)
    h, wd = x.shape[2:]
    kh, kw = w.shape[2:]
    return (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1, (wd + 2 * pw - dw * (kw - 1) - 1) // sw + 1


def conv_ref(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, c: Conv) -> np.ndarray:
    spatial = x.ndim - 2
    x, w = as_2d(x), as_2d(w)
    (ph, pw) = c.hw(c.padding, 0)
    oh, ow = out_hw(x, w, c)
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    o, cg = w.shape[:2]
    og = o // c.groups
    y = np.zeros((x.shape[0], o, oh, ow))
    for i in range(w.shape[2]):
        for j in range(w.shape[3]):
            sh_, sw_ = patches(xp, c, i, j, oh, ow)
            p = xp[:, :, sh_, sw_]
            for g in range(c.groups):
                y[:, g * og : (g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", p[:, g * cg : (g + 1) * cg], w[g * og : (g + 1) * og, :, i, j]
                )
    if b is not None:
        y += b[None, :, None, None]
    return y[:, :, 0, :] if spatial == 1 else y


def conv_grads(x: np.ndarray, w: np.ndarray, dy: np.ndarray, c: Conv) -> tuple[np.ndarray, ...]:
    spatial = x.ndim - 2
    x2, w2, dy2 = as_2d(x), as_2d(w), as_2d(dy)
    (ph, pw) = c.hw(c.padding, 0)
    oh, ow = dy2.shape[2:]
    xp = np.pad(x2, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    dxp, dw = np.zeros_like(xp), np.zeros_like(w2)
    o, cg = w2.shape[:2]
    og = o // c.groups
    for i in range(w2.shape[2]):
        for j in range(w2.shape[3]):
            sh_, sw_ = patches(xp, c, i, j, oh, ow)
            for g in range(c.groups):
                gi, go = slice(g * cg, (g + 1) * cg), slice(g * og, (g + 1) * og)
                dxp[:, gi, sh_, sw_] += np.einsum("nohw,oc->nchw", dy2[:, go], w2[go, :, i, j])
                dw[go, :, i, j] += np.einsum("nohw,nchw->oc", dy2[:, go], xp[:, gi, sh_, sw_])
    dx = dxp[:, :, ph : ph + x2.shape[2], pw : pw + x2.shape[3]]
    db = dy2.sum(axis=(0, 2, 3))
    if spatial == 1:
        return dx[:, :, 0, :], dw[:, :, 0, :], db
    return dx, dw, db


CASES = {
    "2d-stride-pad": ((2, 3, 7, 6), (4, 3, 3, 3), Conv((2, 2), (1, 1), (1, 1))),
    "2d-dilation-groups": ((2, 4, 8, 7), (6, 2, 3, 2), Conv((1, 2), (2, 0), (2, 1), groups=2)),
    "1d": ((3, 4, 11), (6, 2, 3), Conv((2,), (2,), (2,), groups=2)),
}


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_convolution_forward(op: Op, dt: str, case: str) -> None:
    xs, ws, c = CASES[case]
    rng = np.random.default_rng(40)
    x, w, b = rand(rng, xs, dt), rand(rng, ws, dt), rand(rng, (ws[0],), dt)
    y = conv_ref(x, w, b, c)
    res = op(
        "Convolution",
        [T("input", dt, x), T("weight", dt, w), T("bias", dt, b), out("output", dt, y.shape)],
        c.attrs(),
    )
    check(res, "output", y, dt, scale=8)


def test_convolution_without_bias(op: Op) -> None:
    xs, ws, c = CASES["2d-stride-pad"]
    rng = np.random.default_rng(41)
    x, w = rand(rng, xs, "f32"), rand(rng, ws, "f32")
    y = conv_ref(x, w, None, c)
    res = op(
        "Convolution", [T("input", "f32", x), T("weight", "f32", w), out("output", "f32", y.shape)], c.attrs()
    )
    check(res, "output", y, "f32", scale=8)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_convolution_backward(op: Op, dt: str, case: str) -> None:
    xs, ws, c = CASES[case]
    rng = np.random.default_rng(42)
    x, w = rand(rng, xs, dt), rand(rng, ws, dt)
    dy = rand(rng, conv_ref(x, w, None, c).shape, dt)
    dx, dw, db = conv_grads(x, w, dy, c)
    res = op(
        "ConvolutionBackward",
        [
            T("gradOutput", dt, dy),
            T("input", dt, x),
            T("weight", dt, w),
            out("gradInput", dt, x.shape),
            out("gradWeight", dt, w.shape),
            out("gradBias", dt, (ws[0],)),
        ],
        [*c.attrs(), f"ints biasSizes 1 {ws[0]}", "bools outputMask 3 1 1 1"],
    )
    check(res, "gradInput", dx, dt, scale=8)
    check(res, "gradWeight", dw, dt, scale=16)
    check(res, "gradBias", db, dt, scale=16)


def test_convolution_backward_output_mask_skips_gradients(op: Op) -> None:
    xs, ws, c = CASES["2d-dilation-groups"]
    rng = np.random.default_rng(43)
    x, w = rand(rng, xs, "f32"), rand(rng, ws, "f32")
    dy = rand(rng, conv_ref(x, w, None, c).shape, "f32")
    dx, _, db = conv_grads(x, w, dy, c)
    res = op(
        "ConvolutionBackward",
        [
            T("gradOutput", "f32", dy),
            T("input", "f32", x),
            T("weight", "f32", w),
            out("gradInput", "f32", x.shape),
            out("gradBias", "f32", (ws[0],)),
        ],
        [*c.attrs(), "bools outputMask 3 1 0 1"],
    )  # gradWeight is NULL: not selected
    check(res, "gradInput", dx, "f32", scale=8)
    check(res, "gradBias", db, "f32", scale=8)


def test_convolution_rejects_bad_input(op: Op) -> None:
    xs, ws, c = CASES["2d-stride-pad"]
    rng = np.random.default_rng(44)
    x, w = rand(rng, xs, "f32"), rand(rng, ws, "f32")
    y_shape = conv_ref(x, w, None, c).shape

    def run(tensors: list, attrs: list[str]) -> ops.Result:
        return op("Convolution", tensors, attrs)

    bad = Conv(c.stride, c.padding, c.dilation, groups=2)
    res = run([T("input", "f32", x), T("weight", "f32", w), out("output", "f32", y_shape)], bad.attrs())
    assert res.phase1 == PARAM_INVALID and "groups" in res.proc.stderr
    res = run([T("input", "f32", x), out("output", "f32", y_shape)], c.attrs())
    assert res.phase1 == PARAM_NULLPTR
    res = run([T("input", "f32", x), T("weight", "f32", w), out("output", "f32", (2, 4, 3, 3))], c.attrs())
    assert res.phase1 == PARAM_INVALID and "output" in res.proc.stderr
    res = run([T("input", "f32", x), T("weight", "f16", w), out("output", "f32", y_shape)], c.attrs())
    assert res.phase1 == PARAM_INVALID
    res = op(
        "ConvolutionBackward",
        [T("gradOutput", "f32", np.zeros(y_shape)), T("input", "f32", x), T("weight", "f32", w),
         out("gradInput", "f32", x.shape)],
        [*c.attrs(), "bools outputMask 3 1 1 0"],
    )  # fmt: skip
    assert res.phase1 == PARAM_NULLPTR  # gradWeight selected but NULL
