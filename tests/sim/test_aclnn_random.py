"""aclnnInplaceUniform and aclnnInplaceNormal on the device RNG (csrc/sim/opapi/op_random.cpp): the
same seed and offset give the same numbers, another seed or offset others; the numbers have the
asked range, mean and deviation (within 4 sigma of the sample statistics); bad input gets CANN's codes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, out = ops.T, ops.out
PARAM_INVALID, PARAM_NULLPTR = ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op

N = 4096


def uniform(op: Op, seed: int, offset: int, lo: float = -2.0, hi: float = 3.0) -> np.ndarray:
    res = op(
        "InplaceUniform",
        [T("selfRef", "f32", np.zeros((64, N // 64)), out=True)],
        [f"float from {lo}", f"float to {hi}", f"int seed {seed}", f"int offset {offset}"],
    )
    assert res.phase1 == 0 and res.phase2 == [0], res.proc.stderr
    return res.outputs["selfRef"].reshape(-1)


def normal(op: Op, seed: int, offset: int, mean: float = 1.5, std: float = 0.5) -> np.ndarray:
    res = op(
        "InplaceNormal",
        [T("selfRef", "f32", np.zeros((N,)), out=True)],
        [f"float mean {mean}", f"float std {std}", f"int seed {seed}", f"int offset {offset}"],
    )
    assert res.phase1 == 0 and res.phase2 == [0], res.proc.stderr
    return res.outputs["selfRef"]


def test_uniform_range_moments_and_streams(op: Op) -> None:
    a = uniform(op, 7, 0)
    assert a.min() >= -2.0 and a.max() < 3.0
    # mean of U(-2, 3) is 0.5, its deviation 5 / sqrt(12); the sample mean's sigma is that / sqrt(N)
    assert abs(a.mean() - 0.5) < 4 * (5 / np.sqrt(12)) / np.sqrt(N)
    assert abs(a.std() - 5 / np.sqrt(12)) < 0.05
    np.testing.assert_array_equal(a, uniform(op, 7, 0))  # same seed and offset: same numbers
    assert not np.array_equal(a, uniform(op, 8, 0))  # another seed
    shifted = uniform(op, 7, 4)  # offset 4 counters on: the stream 16 elements later
    np.testing.assert_array_equal(shifted[:-16], a[16:])


def test_normal_moments_and_streams(op: Op) -> None:
    z = normal(op, 11, 0)
    assert abs(z.mean() - 1.5) < 4 * 0.5 / np.sqrt(N)
    assert abs(z.std() - 0.5) < 4 * 0.5 / np.sqrt(2 * N)
    np.testing.assert_array_equal(z, normal(op, 11, 0))
    assert not np.array_equal(z, normal(op, 12, 0))


@pytest.mark.parametrize(
    ("tensor", "attrs", "status"),
    [
        (None, ["float from 0", "float to 1"], PARAM_NULLPTR),
        (T("selfRef", "i32", np.zeros(4), out=True), ["float from 0", "float to 1"], PARAM_INVALID),
        (T("selfRef", "f32", np.zeros(4), out=True), ["float from 2", "float to 1"], PARAM_INVALID),
    ],
)
def test_uniform_bad_inputs(op: Op, tensor: object, attrs: list[str], status: int) -> None:
    res = op("InplaceUniform", [tensor] if tensor is not None else [], attrs)
    assert res.phase1 == status


def test_normal_refuses_a_negative_deviation(op: Op) -> None:
    res = op("InplaceNormal", [T("selfRef", "f32", np.zeros(4), out=True)], ["float mean 0", "float std -1"])
    assert res.phase1 == PARAM_INVALID
