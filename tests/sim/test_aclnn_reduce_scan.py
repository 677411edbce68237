"""Reductions and scans along dimensions: aclnnReduceSum over integer and bool tensors (torch sums
them into int64: cross-entropy's count of targets that are not ignore_index), aclnnCumsum /
aclnnCumsumV2 and aclnnArgMax / aclnnArgMin (csrc/sim/opapi/op_along_dim.cpp), against numpy, with
their bad-input classes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID, PARAM_NULLPTR, ACL = ops.PARAM_INVALID, ops.PARAM_NULLPTR, ops.ACL
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op

RNG = np.random.default_rng(35)


@pytest.mark.parametrize("dt", ["bool", "i32", "i64", "u8"])
def test_reduce_sum_of_integer_and_bool_tensors_into_int64(op: Op, dt: str) -> None:
    x = RNG.integers(0, 2 if dt == "bool" else 100, size=(4, 6)).astype(np.float64)
    res = op(
        "ReduceSum",
        [T("self", dt, x), out("out", "i64", (4,))],
        ["ints dim 1 1", "int keepDim 0", f"int dtype {ACL['i64']}"],
    )
    assert res.phase1 == 0, res.proc.stderr
    np.testing.assert_array_equal(res.outputs["out"], x.sum(axis=1))
    res = op(
        "ReduceSum", [T("self", dt, x), out("out", "i64", ())], ["ints dim 0", f"int dtype {ACL['i64']}"]
    )
    np.testing.assert_array_equal(res.outputs["out"], x.sum())


def test_reduce_sum_refuses_a_bool_dtype(op: Op) -> None:
    res = op(
        "ReduceSum",
        [T("self", "bool", np.ones((3,))), out("out", "bool", ())],
        ["ints dim 0", f"int dtype {ACL['bool']}"],
    )
    assert res.phase1 == PARAM_INVALID


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumsum_along_each_dimension(op: Op, dim: int) -> None:
    x = rand(RNG, (3, 4, 5), "f32")
    res = op(
        "Cumsum",
        [T("self", "f32", x), out("out", "f32", x.shape)],
        [f"int dim {dim}", f"int dtype {ACL['f32']}"],
    )
    check(res, "out", np.cumsum(x, axis=dim), "f32")


def test_cumsum_of_int32_into_int64(op: Op) -> None:
    x = RNG.integers(-50, 50, size=(6,)).astype(np.float64)
    res = op(
        "Cumsum", [T("self", "i32", x), out("out", "i64", (6,))], ["int dim 0", f"int dtype {ACL['i64']}"]
    )
    np.testing.assert_array_equal(res.outputs["out"], np.cumsum(x))


@pytest.mark.parametrize(("exclusive", "reverse"), [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_cumsum_v2_exclusive_and_reverse(op: Op, exclusive: int, reverse: int) -> None:
    x = rand(RNG, (2, 5), "f32")
    y = x[:, ::-1] if reverse else x
    ref = np.cumsum(y, axis=1) - (y if exclusive else 0)
    ref = ref[:, ::-1] if reverse else ref
    res = op(
        "CumsumV2",
        [T("self", "f32", x), out("out", "f32", x.shape)],
        ["int dim 1", f"int exclusive {exclusive}", f"int reverse {reverse}"],
    )
    check(res, "out", ref, "f32")


@pytest.mark.parametrize(("name", "fn"), [("ArgMax", np.argmax), ("ArgMin", np.argmin)])
@pytest.mark.parametrize("keepdim", [0, 1])
def test_arg_max_min_first_of_equal(op: Op, name: str, fn, keepdim: int) -> None:
    x = RNG.integers(0, 4, size=(3, 7)).astype(np.float64)  # many ties: the first index wins
    shape = (3, 1) if keepdim else (3,)
    res = op(name, [T("self", "f32", x), out("out", "i64", shape)], ["int dim 1", f"int keepdim {keepdim}"])
    assert res.phase1 == 0, res.proc.stderr
    np.testing.assert_array_equal(res.outputs["out"].reshape(-1), fn(x, axis=1))
    res = op(name, [T("self", "i32", x), out("out", "i64", (7,))], ["int dim 0", "int keepdim 0"])
    np.testing.assert_array_equal(res.outputs["out"], fn(x, axis=0))


def test_argmax_takes_nan_as_the_largest(op: Op) -> None:
    x = np.array([[1.0, np.nan, 5.0, np.nan]])
    res = op("ArgMax", [T("self", "f32", x), out("out", "i64", (1,))], ["int dim 1", "int keepdim 0"])
    np.testing.assert_array_equal(res.outputs["out"], [1])


def test_bad_inputs_get_canns_codes(op: Op) -> None:
    x = np.ones((2, 3))
    assert op("Cumsum", [out("out", "f32", (2, 3))], ["int dim 0"]).phase1 == PARAM_NULLPTR  # null
    dim_out_of_range = op("Cumsum", [T("self", "f32", x), out("out", "f32", (2, 3))], ["int dim 2"])
    assert dim_out_of_range.phase1 == PARAM_INVALID  # attribute
    assert (
        op("Cumsum", [T("self", "f32", x), out("out", "f32", (3, 2))], ["int dim 0"]).phase1 == PARAM_INVALID
    )
    wrong_dtype = op("Cumsum", [T("self", "f32", x), out("out", "f16", (2, 3))], ["int dim 0", "int dtype 0"])
    assert wrong_dtype.phase1 == PARAM_INVALID  # dtype
    assert op("ArgMax", [T("self", "f32", x), out("out", "f32", (2,))], ["int dim 1"]).phase1 == PARAM_INVALID
    assert op("ArgMin", [T("self", "f32", x), out("out", "i64", (3,))], ["int dim 1"]).phase1 == PARAM_INVALID


@pytest.mark.parametrize("dims", [[0], [1, 2], [-1], []])
def test_flip(op: Op, dims: list[int]) -> None:
    x = rand(RNG, (2, 3, 4), "f32")
    res = op(
        "Flip",
        [T("self", "f32", x), out("out", "f32", x.shape)],
        [f"ints dims {len(dims)} {' '.join(map(str, dims))}"],
    )
    check(res, "out", np.flip(x, axis=tuple(dims)) if dims else x, "f32")


def test_flip_refuses_a_repeated_dimension(op: Op) -> None:
    x = np.ones((2, 3))
    res = op("Flip", [T("self", "f32", x), out("out", "f32", x.shape)], ["ints dims 2 1 -1"])
    assert res.phase1 == PARAM_INVALID
