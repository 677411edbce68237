"""aclnnInplaceMaskedFillScalar and aclnnInplaceMaskedFillTensor against numpy: the value where the
(broadcast) mask is set, rounded to selfRef's type; a mask that would widen selfRef is refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, rand, FLOATS = ops.T, ops.check, ops.rand, ops.FLOATS
PARAM_INVALID = ops.PARAM_INVALID
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("mask_shape", [(3, 5), (1, 5), (3, 1)])
def test_scalar_value_where_the_broadcast_mask_is_set(op: Op, dt: str, mask_shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(90)
    x, mask = rand(rng, (3, 5), dt), rng.random(mask_shape) < 0.5
    res = op(
        "InplaceMaskedFillScalar",
        [T("selfRef", dt, x, out=True), T("mask", "bool", mask.astype(np.float64))],
        ["scalar value 0 -300.5"],
    )
    check(res, "selfRef", np.where(mask, -300.5, x), dt)


def test_tensor_value_and_integer_self(op: Op) -> None:
    rng = np.random.default_rng(91)
    x, mask = rng.integers(-50, 50, (4, 3)).astype(np.float64), rng.random((4, 3)) < 0.5
    res = op(
        "InplaceMaskedFillTensor",
        [
            T("selfRef", "i32", x, out=True),
            T("mask", "bool", mask.astype(np.float64)),
            T("value", "i32", np.array(7.0)),
        ],
    )
    check(res, "selfRef", np.where(mask, 7, x), "f64")


def test_a_mask_wider_than_self_is_refused(op: Op) -> None:
    x = np.ones((1, 4))
    res = op(
        "InplaceMaskedFillScalar",
        [T("selfRef", "f32", x, out=True), T("mask", "bool", np.ones((3, 4)))],
        ["scalar value 0 0"],
    )
    assert res.phase1 == PARAM_INVALID, res.proc.stderr
