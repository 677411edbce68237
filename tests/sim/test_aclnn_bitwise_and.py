"""aclnnBitwiseAndScalar, aclnnBitwiseAndTensor and their in-place forms (torch's `&`, e.g. of the
attention masks transformers' BERT combines) against numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out = ops.T, ops.check, ops.out
PARAM_INVALID, ACL = ops.PARAM_INVALID, ops.ACL
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


@pytest.mark.parametrize(("dt", "other"), [("bool", 1), ("bool", 0), ("i32", 6), ("i64", -3), ("u8", 12)])
def test_bitwise_and_scalar(op: Op, dt: str, other: int) -> None:
    x = np.array([0, 1, 1, 0]) if dt == "bool" else np.array([0, 5, 7, 12, 255 if dt == "u8" else -9])
    ref = (x.astype(bool) & bool(other)) if dt == "bool" else (x.astype(np.int64) & other)
    scalar = f"scalar other {ACL['bool'] if dt == 'bool' else ACL['i64']} {other}"
    res = op("BitwiseAndScalar", [T("self", dt, x.astype(np.float64)), out("out", dt, x.shape)], [scalar])
    check(res, "out", ref.astype(np.float64), "f64")
    res = op("InplaceBitwiseAndScalar", [T("selfRef", dt, x.astype(np.float64), out=True)], [scalar])
    check(res, "selfRef", ref.astype(np.float64), "f64")


def test_bitwise_and_scalar_refuses_floats(op: Op) -> None:
    x = np.ones(3)
    res = op(
        "BitwiseAndScalar",
        [T("self", "f32", x), out("out", "f32", x.shape)],
        [f"scalar other {ACL['i64']} 1"],
    )
    assert res.phase1 == PARAM_INVALID, res.proc.stderr


@pytest.mark.parametrize("dt", ["bool", "i32", "i8"])
def test_bitwise_and_tensor_broadcast(op: Op, dt: str) -> None:
    rng = np.random.default_rng(11)
    high = 2 if dt == "bool" else 100
    a, b = rng.integers(0, high, (3, 4)), rng.integers(0, high, (1, 4))
    ref = (a.astype(bool) & b.astype(bool)) if dt == "bool" else (a & b)
    other = T("other", dt, b.astype(np.float64))
    tensors = [T("self", dt, a.astype(np.float64)), other, out("out", dt, a.shape)]
    check(op("BitwiseAndTensor", tensors), "out", ref.astype(np.float64), "f64")
    tensors = [T("selfRef", dt, a.astype(np.float64), out=True), other]
    check(op("InplaceBitwiseAndTensor", tensors), "selfRef", ref.astype(np.float64), "f64")
