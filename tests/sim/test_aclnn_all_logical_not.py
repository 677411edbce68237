"""aclnnAll and aclnnAny (torch.all / torch.any over dimensions), aclnnInplaceLogicalNot and aclnnBitwiseNot
against numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out = ops.T, ops.check, ops.out
PARAM_INVALID = ops.PARAM_INVALID
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


@pytest.mark.parametrize(("dims", "keep"), [((), False), ((1,), False), ((0, 2), True), ((-1,), True)])
@pytest.mark.parametrize("dt", ["bool", "f32", "i32"])
def test_all_over_dimensions(op: Op, dt: str, dims: tuple[int, ...], keep: bool) -> None:
    rng = np.random.default_rng(100)
    x = (rng.random((3, 4, 5)) < 0.85).astype(np.float64)
    x[1, :, :] = 1.0  # one slice all true, so both answers occur
    ref = x.astype(bool).all(axis=dims if dims else None, keepdims=keep)
    ref = np.asarray(ref, dtype=np.float64)
    attrs = [f"ints dim {len(dims)} {' '.join(map(str, dims))}".rstrip(), f"int keepDim {int(keep)}"]
    res = op("All", [T("self", dt, x), out("out", "bool", ref.shape)], attrs)
    check(res, "out", ref, "f64")


@pytest.mark.parametrize(("dims", "keep"), [((), False), ((1,), False), ((0, 2), True)])
@pytest.mark.parametrize("dt", ["bool", "f32", "i32"])
def test_any_over_dimensions(op: Op, dt: str, dims: tuple[int, ...], keep: bool) -> None:
    rng = np.random.default_rng(101)
    x = (rng.random((3, 4, 5)) < 0.1).astype(np.float64)
    x[1, :, :] = 0.0  # one slice all false, so both answers occur
    ref = np.asarray(x.astype(bool).any(axis=dims if dims else None, keepdims=keep), dtype=np.float64)
    attrs = [f"ints dim {len(dims)} {' '.join(map(str, dims))}".rstrip(), f"int keepDim {int(keep)}"]
    res = op("Any", [T("self", dt, x), out("out", "bool", ref.shape)], attrs)
    check(res, "out", ref, "f64")


def test_all_refuses_a_float_out_and_a_wrong_shape(op: Op) -> None:
    x = np.ones((2, 3))
    res = op("All", [T("self", "bool", x), out("out", "f32", (2,))], ["ints dim 1 1", "int keepDim 0"])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr
    res = op("All", [T("self", "bool", x), out("out", "bool", (3,))], ["ints dim 1 1", "int keepDim 0"])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr


@pytest.mark.parametrize("dt", ["bool", "f32", "i32"])
def test_inplace_logical_not(op: Op, dt: str) -> None:
    x = (
        np.array([[0.0, 1.0, 3.0], [-2.0, 0.0, 1.0]])
        if dt != "bool"
        else np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
    )
    res = op("InplaceLogicalNot", [T("selfRef", dt, x, out=True)])
    check(res, "selfRef", (x == 0).astype(np.float64), "f64")


@pytest.mark.parametrize("dt", ["bool", "i8", "i32", "i64"])
def test_bitwise_not(op: Op, dt: str) -> None:
    x = np.array([0.0, 1.0, 1.0, 0.0]) if dt == "bool" else np.array([0.0, 1.0, -7.0, 100.0])
    res = op("BitwiseNot", [T("self", dt, x), out("out", dt, x.shape)])
    ref = (x == 0).astype(np.float64) if dt == "bool" else ~x.astype(np.int64)
    check(res, "out", ref.astype(np.float64), "f64")


def test_bitwise_not_refuses_floats(op: Op) -> None:
    x = np.ones(3)
    res = op("BitwiseNot", [T("self", "f32", x), out("out", "f32", x.shape)])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr
