"""aclnnMish, aclnnInplaceMish, aclnnMishBackward, aclnnSoftplus and aclnnSoftplusBackward against numpy:
the forward as torch defines it, the gradients against central differences of that forward."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand, FLOATS = ops.T, ops.check, ops.out, ops.rand, ops.FLOATS
PARAM_INVALID, PARAM_NULLPTR = ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


def mish(x: np.ndarray) -> np.ndarray:
    return x * np.tanh(np.log1p(np.exp(x)))


def softplus(x: np.ndarray, beta: float, threshold: float) -> np.ndarray:
    return np.where(x * beta > threshold, x, np.log1p(np.exp(x * beta)) / beta)


def derivative(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    return (f(x + h) - f(x - h)) / (2 * h)


@pytest.mark.parametrize("dt", FLOATS)
def test_mish_and_its_gradient(op: Op, dt: str) -> None:
    rng = np.random.default_rng(80)
    x, g = rand(rng, (3, 7), dt, -6, 6), rand(rng, (3, 7), dt)
    check(op("Mish", [T("self", dt, x), out("out", dt, x.shape)]), "out", mish(x), dt, scale=2)
    check(op("InplaceMish", [T("selfRef", dt, x, out=True)]), "selfRef", mish(x), dt, scale=2)
    res = op("MishBackward", [T("gradOutput", dt, g), T("self", dt, x), out("gradInput", dt, x.shape)])
    check(res, "gradInput", g * derivative(mish, x), dt, scale=4)


@pytest.mark.parametrize(("beta", "threshold"), [(1.0, 20.0), (2.0, 3.0)])
@pytest.mark.parametrize("dt", FLOATS)
def test_softplus_and_its_gradient_with_beta_and_threshold(
    op: Op, dt: str, beta: float, threshold: float
) -> None:
    rng = np.random.default_rng(81)
    x, g = rand(rng, (4, 6), dt, -4, 4), rand(rng, (4, 6), dt)
    x = np.where(np.abs(x * beta - threshold) < 1e-3, 0.0, x)  # away from the kink the threshold makes
    attrs = [f"scalar beta 0 {beta}", f"scalar threshold 0 {threshold}"]
    res = op("Softplus", [T("self", dt, x), out("out", dt, x.shape)], attrs)
    check(res, "out", softplus(x, beta, threshold), dt, scale=2)
    res = op(
        "SoftplusBackward", [T("gradOutput", dt, g), T("self", dt, x), out("gradInput", dt, x.shape)], attrs
    )
    ref = g * derivative(lambda v: softplus(v, beta, threshold), x)
    check(res, "gradInput", ref, dt, scale=4)


def test_bad_arguments_get_cann_codes(op: Op) -> None:
    x = np.ones((2, 3))
    res = op("Mish", [T("self", "i32", x), out("out", "i32", x.shape)])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # an integer type
    res = op(
        "MishBackward",
        [T("gradOutput", "f32", np.ones((2, 4))), T("self", "f32", x), out("gradInput", "f32", x.shape)],
    )
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # shapes that do not broadcast
    res = op("Softplus", [T("self", "f32", x), out("out", "f32", x.shape)], ["scalar beta 0 1"])
    assert res.phase1 == PARAM_NULLPTR, res.proc.stderr  # no threshold
