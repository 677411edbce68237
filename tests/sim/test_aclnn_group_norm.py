"""aclnnGroupNorm and aclnnGroupNormBackward against numpy: the normalised output with its [N, group]
mean and rstd, and the gradients of input, gamma and beta against central differences of the forward."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand, FLOATS = ops.T, ops.check, ops.out, ops.rand, ops.FLOATS
PARAM_INVALID = ops.PARAM_INVALID
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op

EPS = 1e-5


def group_norm(x, gamma, beta, group):
    n, c = x.shape[:2]
    xg = x.reshape(n, group, -1)
    mean, var = xg.mean(-1), xg.var(-1)
    rstd = 1 / np.sqrt(var + EPS)
    xhat = ((xg - mean[..., None]) * rstd[..., None]).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return xhat * gamma.reshape(shape) + beta.reshape(shape), mean, rstd


def attrs(x, group) -> list[str]:
    n, c = x.shape[:2]
    return [f"int N {n}", f"int C {c}", f"int HxW {x[0, 0].size}", f"int group {group}", f"float eps {EPS}"]


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(("shape", "group"), [((2, 6, 5), 3), ((3, 4, 2, 3), 2), ((2, 4, 1), 4)])
def test_forward_with_mean_and_rstd(op: Op, dt: str, shape: tuple[int, ...], group: int) -> None:
    rng = np.random.default_rng(110)
    x, gamma, beta = rand(rng, shape, dt), rand(rng, shape[1:2], dt), rand(rng, shape[1:2], dt)
    ref, mean, rstd = group_norm(x, gamma, beta, group)
    n = shape[0]
    tensors = [T("self", dt, x), T("gamma", dt, gamma), T("beta", dt, beta), out("out", dt, shape)]
    tensors += [out("meanOut", dt, (n, group)), out("rstdOut", dt, (n, group))]
    res = op("GroupNorm", tensors, attrs(x, group))
    check(res, "out", ref, dt, scale=4)
    check(res, "meanOut", mean, dt, scale=2)
    check(res, "rstdOut", rstd, dt, scale=2)


def test_backward_against_central_differences(op: Op) -> None:
    rng = np.random.default_rng(111)
    shape, group = (2, 6, 4), 3
    x, gamma, beta, dy = (rand(rng, s, "f32") for s in (shape, (6,), (6,), shape))
    _, mean, rstd = group_norm(x, gamma, beta, group)

    def loss(x_, g_, b_):
        return float((group_norm(x_, g_, b_, group)[0] * dy).sum())

    numeric = []
    for which, v in enumerate((x, gamma, beta)):
        grad = np.zeros_like(v)
        for idx in np.ndindex(v.shape):
            args = [x, gamma, beta]
            for sign in (1, -1):
                moved = v.copy()
                moved[idx] += sign * 1e-6
                args[which] = moved
                grad[idx] += sign * loss(*args) / 2e-6
        numeric.append(grad)
    tensors = [T("gradOut", "f32", dy), T("input", "f32", x), T("mean", "f32", mean), T("rstd", "f32", rstd)]
    tensors += [T("gamma", "f32", gamma), out("gradInput", "f32", shape), out("gradGamma", "f32", (6,))]
    tensors += [out("gradBeta", "f32", (6,))]
    res = op("GroupNormBackward", tensors, [*attrs(x, group), "bools outputMask 3 1 1 1"])
    for name, ref in zip(("gradInput", "gradGamma", "gradBeta"), numeric, strict=True):
        check(res, name, ref, "f32", scale=20)  # the differences carry about 1e-9 / 2e-6 of noise


def test_bad_shapes_are_param_invalid(op: Op) -> None:
    x = np.ones((2, 6, 4))
    tensors = [T("self", "f32", x), out("out", "f32", x.shape)]
    tensors += [out("meanOut", "f32", (2, 4)), out("rstdOut", "f32", (2, 4))]
    res = op("GroupNorm", tensors, attrs(x, 4))  # 4 groups do not divide 6 channels
    assert res.phase1 == PARAM_INVALID, res.proc.stderr
