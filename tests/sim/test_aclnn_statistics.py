"""aclnnAmax / Amin, aclnnMaxDim / MinDim, aclnnProd / ProdDim, aclnnVar / VarCorrection / VarMean,
aclnnStd / StdMeanCorrection and aclnnLogSumExp against numpy, and CANN's code for each class of bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand, ACL = ops.T, ops.check, ops.out, ops.rand, ops.ACL
PARAM_INVALID, PARAM_NULLPTR = ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


def dim_attrs(dims: tuple[int, ...], keep: bool, keep_name: str = "keepDim") -> list[str]:
    return [f"ints dim {len(dims)} {' '.join(map(str, dims))}".rstrip(), f"int {keep_name} {int(keep)}"]


def reduced_shape(shape: tuple[int, ...], dims: tuple[int, ...], keep: bool) -> tuple[int, ...]:
    axes = {d % len(shape) for d in dims} if dims else set(range(len(shape)))
    return tuple(1 if i in axes else n for i, n in enumerate(shape) if keep or i not in axes)


@pytest.mark.parametrize(("dims", "keep"), [((), False), ((1,), False), ((0, 2), True), ((-1,), True)])
@pytest.mark.parametrize(("name", "fn"), [("Amax", np.max), ("Amin", np.min)])
@pytest.mark.parametrize("dt", ["f32", "bf16", "i32"])
def test_amax_amin(op: Op, dt: str, name: str, fn, dims: tuple[int, ...], keep: bool) -> None:
    rng = np.random.default_rng(7)
    x = rand(rng, (3, 4, 5), "f32", -50, 50)
    x = np.trunc(x) if dt == "i32" else ops.quantize(x, dt)
    ref = fn(x, axis=dims if dims else None, keepdims=keep)
    res = op(name, [T("self", dt, x), out("out", dt, np.shape(ref))], dim_attrs(dims, keep))
    check(res, "out", np.asarray(ref), "f64")  # an extremum is one of the inputs: exact


def test_amax_propagates_nan_and_refuses_an_empty_dimension(op: Op) -> None:
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    res = op("Amax", [T("self", "f32", x), out("out", "f32", (2,))], dim_attrs((1,), False))
    assert res.phase1 == 0, res.proc.stderr
    assert np.isnan(res.outputs["out"][0]) and res.outputs["out"][1] == 6.0
    res = op("Amin", [T("self", "f32", np.zeros((2, 0))), out("out", "f32", (2,))], dim_attrs((1,), False))
    assert res.phase1 == PARAM_INVALID, res.proc.stderr


@pytest.mark.parametrize(("dim", "keep"), [(0, False), (-1, True), (1, False)])
@pytest.mark.parametrize(("name", "pick"), [("MaxDim", np.argmax), ("MinDim", np.argmin)])
@pytest.mark.parametrize(("dt", "idt"), [("f32", "i64"), ("i32", "i32"), ("f16", "i64")])
def test_max_min_over_one_dimension(op: Op, name: str, pick, dt: str, idt: str, dim: int, keep: bool) -> None:
    rng = np.random.default_rng(13)
    x = np.trunc(rand(rng, (3, 4, 5), "f32", -4, 4))  # few values: ties, where the first position wins
    index = pick(x, axis=dim)  # numpy's argmax / argmin: the first position
    values = np.take_along_axis(x, np.expand_dims(index, dim), dim)
    shape = values.shape if keep else index.shape
    res = op(
        name,
        [T("self", dt, x), out("out", dt, shape), out("indices", idt, shape)],
        [f"int dim {dim}", f"int keepdim {int(keep)}"],
    )
    check(res, "out", values.reshape(shape), "f64")
    check(res, "indices", index.reshape(shape).astype(np.float64), "f64")


def test_max_dim_takes_the_first_nan(op: Op) -> None:
    x = np.array([[1.0, np.nan, 5.0, np.nan], [2.0, 7.0, 3.0, 7.0]])
    res = op(
        "MaxDim", [T("self", "f32", x), out("out", "f32", (2,)), out("indices", "i64", (2,))], ["int dim 1"]
    )
    assert res.phase1 == 0, res.proc.stderr
    assert np.isnan(res.outputs["out"][0]) and res.outputs["out"][1] == 7.0
    np.testing.assert_array_equal(res.outputs["indices"], [1, 1])


@pytest.mark.parametrize(("sdt", "odt"), [("f32", "f32"), ("i32", "i64"), ("f16", "f32")])
def test_prod_of_every_element(op: Op, sdt: str, odt: str) -> None:
    rng = np.random.default_rng(8)
    x = rng.integers(1, 4, size=(2, 3, 2)).astype(np.float64) * np.where(rng.random((2, 3, 2)) < 0.3, -1, 1)
    if sdt != "i32":
        x = x * 0.75
    res = op("Prod", [T("self", sdt, x), out("out", odt, ())], [f"int dtype {ACL[odt]}"])
    check(res, "out", np.asarray(np.prod(x)), odt if odt != "i64" else "f64")


@pytest.mark.parametrize(("dim", "keep"), [(0, False), (-1, True), (1, False)])
def test_prod_over_one_dimension(op: Op, dim: int, keep: bool) -> None:
    rng = np.random.default_rng(9)
    x = rand(rng, (3, 4, 2), "f32", 0.5, 1.5)
    ref = np.prod(x, axis=dim, keepdims=keep)
    res = op(
        "ProdDim",
        [T("self", "f32", x), out("out", "f32", ref.shape)],
        [f"int dim {dim}", f"int keepDim {int(keep)}", f"int dtype {ACL['f32']}"],
    )
    check(res, "out", ref, "f32")


@pytest.mark.parametrize(("dims", "keep"), [((), False), ((1,), True), ((0, 2), False)])
@pytest.mark.parametrize("correction", [0, 1, 2])
@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_var_and_std_with_a_correction(
    op: Op, dt: str, correction: int, dims: tuple[int, ...], keep: bool
) -> None:
    rng = np.random.default_rng(10)
    x = rand(rng, (3, 4, 5), dt)
    axis = dims if dims else None
    var = np.var(x, axis=axis, ddof=correction, keepdims=keep)
    mean = np.mean(x, axis=axis, keepdims=keep)
    attrs = [*dim_attrs(dims, keep, "keepdim"), f"int correction {correction}"]
    shape = np.shape(var)
    res = op("VarCorrection", [T("self", dt, x), out("out", dt, shape)], attrs)
    check(res, "out", np.asarray(var), dt)
    res = op("Std", [T("self", dt, x), out("out", dt, shape)], attrs)
    check(res, "out", np.sqrt(var), dt)
    res = op("VarMean", [T("self", dt, x), out("varOut", dt, shape), out("meanOut", dt, shape)], attrs)
    check(res, "varOut", np.asarray(var), dt)
    check(res, "meanOut", np.asarray(mean), dt)
    res = op(
        "StdMeanCorrection", [T("self", dt, x), out("stdOut", dt, shape), out("meanOut", dt, shape)], attrs
    )
    check(res, "stdOut", np.sqrt(var), dt)
    check(res, "meanOut", np.asarray(mean), dt)


@pytest.mark.parametrize("unbiased", [True, False])
def test_var_unbiased_flag(op: Op, unbiased: bool) -> None:
    rng = np.random.default_rng(11)
    x = rand(rng, (4, 6), "f32")
    ref = np.var(x, axis=1, ddof=int(unbiased))
    attrs = [*dim_attrs((1,), False, "keepdim"), f"int unbiased {int(unbiased)}"]
    check(op("Var", [T("self", "f32", x), out("out", "f32", ref.shape)], attrs), "out", ref, "f32")


@pytest.mark.parametrize(("dims", "keep"), [((), False), ((1,), True), ((0, 2), False)])
@pytest.mark.parametrize(("sdt", "odt"), [("f32", "f32"), ("bf16", "bf16"), ("i32", "f32")])
def test_logsumexp(op: Op, sdt: str, odt: str, dims: tuple[int, ...], keep: bool) -> None:
    rng = np.random.default_rng(12)
    x = rand(rng, (3, 4, 5), "f32", -30, 30)
    x = np.trunc(x) if sdt == "i32" else ops.quantize(x, sdt)
    x[0, 0, 0] = 80.0  # exp overflows float32 without the shift by the maximum
    axis = dims if dims else None
    m = np.max(x, axis=axis, keepdims=True)
    ref = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    ref = ref if keep else np.squeeze(ref, axis=axis)
    res = op("LogSumExp", [T("self", sdt, x), out("out", odt, np.shape(ref))], dim_attrs(dims, keep))
    check(res, "out", np.asarray(ref), odt)


def test_logsumexp_of_infinities(op: Op) -> None:
    x = np.array([[-np.inf, -np.inf], [np.inf, 1.0]])
    res = op("LogSumExp", [T("self", "f32", x), out("out", "f32", (2,))], dim_attrs((1,), False))
    assert res.phase1 == 0, res.proc.stderr
    np.testing.assert_array_equal(res.outputs["out"], [-np.inf, np.inf])


# --------------------------------------------------------------------------------------------------
# Bad input: CANN's code per class


def test_null_arguments_are_nullptr(op: Op) -> None:
    x = np.ones((2, 3))
    res = op("Amax", [T("self", "f32", x)], dim_attrs((1,), False))  # no out
    assert res.phase1 == PARAM_NULLPTR, res.proc.stderr
    res = op(
        "Std", [T("self", "f32", x), out("out", "f32", (2,))], ["int keepdim 0", "int correction 1"]
    )  # no dim
    assert res.phase1 == PARAM_NULLPTR, res.proc.stderr
    res = op(
        "VarMean", [T("self", "f32", x), out("varOut", "f32", (2,))], [*dim_attrs((1,), False, "keepdim")]
    )
    assert res.phase1 == PARAM_NULLPTR, res.proc.stderr


@pytest.mark.parametrize(
    ("name", "tensors", "attrs"),
    [
        # dtype: an out of another type than self's
        ("Amax", [T("self", "f32", np.ones((2, 3))), out("out", "f16", (2,))], dim_attrs((1,), False)),
        # dtype: variance of integers
        (
            "Std",
            [T("self", "i32", np.ones((2, 3))), out("out", "i32", (2,))],
            [*dim_attrs((1,), False, "keepdim")],
        ),
        # dtype: logsumexp into an integer out
        ("LogSumExp", [T("self", "f32", np.ones((2, 3))), out("out", "i32", (2,))], dim_attrs((1,), False)),
        # dtype: prod's out other than dtype
        ("Prod", [T("self", "f32", np.ones((2, 3))), out("out", "f16", ())], [f"int dtype {ACL['f32']}"]),
        # shape: an out of the wrong shape
        ("Amin", [T("self", "f32", np.ones((2, 3))), out("out", "f32", (3,))], dim_attrs((1,), False)),
        (
            "VarMean",
            [T("self", "f32", np.ones((2, 3))), out("varOut", "f32", (2,)), out("meanOut", "f32", (2, 1))],
            dim_attrs((1,), False, "keepdim"),
        ),
        # dtype: float indices
        (
            "MaxDim",
            [T("self", "f32", np.ones((2, 3))), out("out", "f32", (2,)), out("indices", "f32", (2,))],
            ["int dim 1"],
        ),
        # shape: indices of the wrong shape
        (
            "MinDim",
            [T("self", "f32", np.ones((2, 3))), out("out", "f32", (2,)), out("indices", "i64", (3,))],
            ["int dim 1"],
        ),
        # attribute: a dimension out of range, or named twice
        ("LogSumExp", [T("self", "f32", np.ones((2, 3))), out("out", "f32", (2,))], dim_attrs((2,), False)),
        (
            "VarCorrection",
            [T("self", "f32", np.ones((2, 3))), out("out", "f32", ())],
            dim_attrs((1, -1), False, "keepdim"),
        ),
        (
            "ProdDim",
            [T("self", "f32", np.ones((2, 3))), out("out", "f32", (2,))],
            ["int dim 3", "int keepDim 0", f"int dtype {ACL['f32']}"],
        ),
    ],
)
def test_bad_input_is_param_invalid(op: Op, name: str, tensors: list, attrs: list[str]) -> None:
    res = op(name, tensors, attrs)
    assert res.phase1 == PARAM_INVALID, res.proc.stderr
