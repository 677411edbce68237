"""The element-wise operators of op_trigonometric, op_division, op_exponential, op_bitwise_or_xor and
op_shrink against numpy (torch's definitions), out of place, in place and with scalars, and CANN's code for
a bad data type and a bad broadcast."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID = ops.PARAM_INVALID
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op

# name -> (numpy function, the input range)
UNARY = {
    "Tan": (np.tan, (-1.2, 1.2)),
    "Asin": (np.arcsin, (-0.99, 0.99)),
    "Acos": (np.arccos, (-0.99, 0.99)),
    "Atan": (np.arctan, (-5, 5)),
    "Sinh": (np.sinh, (-3, 3)),
    "Cosh": (np.cosh, (-3, 3)),
    "Asinh": (np.arcsinh, (-5, 5)),
    "Acosh": (np.arccosh, (1, 5)),
    "Atanh": (np.arctanh, (-0.95, 0.95)),
    "Exp2": (np.exp2, (-4, 4)),
    "Frac": (lambda x: x - np.trunc(x), (-5, 5)),
}


# CANN's headers name these operators' argument input / inputRef, the others self / selfRef.
NAMED_INPUT = {"Acos", "Asinh", "Atan", "Atanh", "Frac"}


def input_name(name: str, inplace: bool = False) -> str:
    base = "input" if name in NAMED_INPUT else "self"
    return base + "Ref" if inplace else base


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(op: Op, name: str, dt: str) -> None:
    fn, (lo, hi) = UNARY[name]
    x = rand(np.random.default_rng(40), (3, 5), dt, lo, hi)
    check(op(name, [T(input_name(name), dt, x), out("out", dt, x.shape)]), "out", fn(x), dt)
    ref_name = input_name(name, inplace=True)
    res = op("Inplace" + name, [T(ref_name, dt, x, out=True)])
    check(res, ref_name, fn(x), dt)


@pytest.mark.parametrize("name", ["Tan", "Asinh", "Exp2"])
def test_unary_of_integers_is_float32(op: Op, name: str) -> None:
    fn, _ = UNARY[name]
    x = np.array([[-2.0, -1.0, 0.0], [1.0, 2.0, 3.0]])
    check(op(name, [T(input_name(name), "i32", x), out("out", "f32", x.shape)]), "out", fn(x), "f32")


def torch_remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r = np.fmod(a, b)
    return np.where((r != 0) & ((r < 0) != (b < 0)), r + b, r)


def torch_floor_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.floor_divide(a, b)


def logaddexp2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.logaddexp2(a, b)


# name -> (numpy function, dtypes, the first operand's range, the second's)
BINARY = {
    "Atan2": (np.arctan2, ["f32", "f16"], (-3, 3), (-3, 3)),
    "LogAddExp": (np.logaddexp, ["f32", "bf16"], (-30, 30), (-30, 30)),
    "LogAddExp2": (logaddexp2, ["f32"], (-30, 30), (-30, 30)),
    "PowTensorTensor": (np.power, ["f32", "f16"], (0.2, 3), (-2, 2)),
    "FmodTensor": (np.fmod, ["f32", "i32"], (-20, 20), (1, 6)),
    "RemainderTensorTensor": (torch_remainder, ["f32", "i32"], (-20, 20), (1, 6)),
    "FloorDivide": (torch_floor_divide, ["f32", "i32"], (-20, 20), (1, 6)),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_tensor_tensor(op: Op, name: str) -> None:
    fn, dts, ra, rb = BINARY[name]
    other_name = "exponent" if name == "PowTensorTensor" else "other"
    for dt in dts:
        rng = np.random.default_rng(41)
        a = rand(rng, (3, 4), dt, *ra)
        b = rand(rng, (4,), dt, *rb)
        if dt == "i32":
            a, b = np.trunc(a), np.trunc(b) * np.where(np.arange(4) % 2 == 0, 1, -1)
        ref = fn(a, np.broadcast_to(b, a.shape))
        res = op(name, [T("self", dt, a), T(other_name, dt, b), out("out", dt, a.shape)])
        check(res, "out", ref, dt if dt != "i32" else "f64")


@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("FmodScalar", np.fmod),
        ("RemainderTensorScalar", torch_remainder),
        ("FloorDivides", torch_floor_divide),
    ],
)
@pytest.mark.parametrize("divisor", [3.0, -2.5])
def test_binary_with_a_scalar(op: Op, name: str, fn, divisor: float) -> None:
    a = rand(np.random.default_rng(42), (2, 6), "f32", -10, 10)
    res = op(name, [T("self", "f32", a), out("out", "f32", a.shape)], [f"scalar other 0 {divisor}"])
    check(res, "out", fn(a, divisor), "f32")
    res = op("Inplace" + name, [T("selfRef", "f32", a, out=True)], [f"scalar other 0 {divisor}"])
    check(res, "selfRef", fn(a, divisor), "f32")


def test_remainder_of_a_scalar_by_a_tensor(op: Op) -> None:
    b = np.array([3.0, -3.0, 2.5, -0.75])
    res = op(
        "RemainderScalarTensor", [T("other", "f32", b), out("out", "f32", b.shape)], ["scalar self 0 7.5"]
    )
    check(res, "out", torch_remainder(np.full(4, 7.5), b), "f32")


@pytest.mark.parametrize(("name", "fn"), [("BitwiseOr", np.bitwise_or), ("BitwiseXor", np.bitwise_xor)])
@pytest.mark.parametrize("dt", ["i32", "i64", "bool"])
def test_bitwise_or_xor(op: Op, name: str, fn, dt: str) -> None:
    rng = np.random.default_rng(43)
    hi = 2 if dt == "bool" else 100
    a, b = rng.integers(0, hi, (3, 4)), rng.integers(0, hi, (4,))
    ref = fn(a, b).astype(np.float64)
    res = op(name + "Tensor", [T("self", dt, a * 1.0), T("other", dt, b * 1.0), out("out", dt, a.shape)])
    check(res, "out", ref, "f64")
    res = op("Inplace" + name + "Tensor", [T("selfRef", dt, a * 1.0, out=True), T("other", dt, b * 1.0)])
    check(res, "selfRef", ref, "f64")
    scalar, scalar_type = (1, ops.ACL["bool"]) if dt == "bool" else (37, ops.ACL["i64"])
    attrs = [f"scalar other {scalar_type} {scalar}"]
    res = op(name + "Scalar", [T("self", dt, a * 1.0), out("out", dt, a.shape)], attrs)
    check(res, "out", fn(a, scalar).astype(np.float64), "f64")


def test_logical_xor_to_bool(op: Op) -> None:
    a, b = np.array([[0.0, 1.5, -2.0, 0.0]]), np.array([0.0, 0.0, 3.0, 1.0])
    res = op("LogicalXor", [T("self", "f32", a), T("other", "i32", b), out("out", "bool", a.shape)])
    check(res, "out", np.logical_xor(a, b).astype(np.float64), "f64")


@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_shrinks_and_sigmoid_backward(op: Op, dt: str) -> None:
    rng = np.random.default_rng(44)
    x, g = rand(rng, (4, 5), dt, -2, 2), rand(rng, (4, 5), dt, -1, 1)
    lam = 0.5
    soft = np.where(x > lam, x - lam, np.where(x < -lam, x + lam, 0.0))
    hard = np.where(np.abs(x) > lam, x, 0.0)
    mask = np.abs(x) > lam
    check(
        op("Softshrink", [T("self", dt, x), out("out", dt, x.shape)], [f"scalar lambd 0 {lam}"]),
        "out",
        soft,
        dt,
    )
    check(
        op("Hardshrink", [T("self", dt, x), out("out", dt, x.shape)], [f"scalar lambd 0 {lam}"]),
        "out",
        hard,
        dt,
    )
    res = op(
        "SoftshrinkBackward",
        [T("gradOutput", dt, g), T("self", dt, x), out("gradInput", dt, x.shape)],
        [f"scalar lambda 0 {lam}"],
    )
    check(res, "gradInput", np.where(mask, g, 0.0), dt)
    res = op(
        "HardshrinkBackward",
        [T("gradOutput", dt, g), T("self", dt, x), out("gradInput", dt, x.shape)],
        [f"scalar lambd 0 {lam}"],
    )
    check(res, "gradInput", np.where(mask, g, 0.0), dt)
    y = ops.quantize(1 / (1 + np.exp(-x)), dt)
    res = op("SigmoidBackward", [T("gradOutput", dt, g), T("output", dt, y), out("gradInput", dt, x.shape)])
    check(res, "gradInput", g * (1 - y) * y, dt)


@pytest.mark.parametrize(
    ("name", "tensors", "attrs"),
    [
        # dtype: bitwise of floats
        (
            "BitwiseOrTensor",
            [T("self", "f32", np.ones(3)), T("other", "f32", np.ones(3)), out("out", "f32", (3,))],
            [],
        ),
        # dtype: a float result into an integer out
        ("Atan2", [T("self", "f32", np.ones(3)), T("other", "f32", np.ones(3)), out("out", "i32", (3,))], []),
        # broadcast
        (
            "FmodTensor",
            [T("self", "f32", np.ones((2, 3))), T("other", "f32", np.ones(2)), out("out", "f32", (2, 3))],
            [],
        ),
        # shape: out of another shape
        ("Tan", [T("self", "f32", np.ones(3)), out("out", "f32", (4,))], []),
        # dtype: an integer self for a float-only operator
        ("Softshrink", [T("self", "i32", np.ones(3)), out("out", "i32", (3,))], ["scalar lambd 0 0.5"]),
    ],
)
def test_bad_input_is_param_invalid(op: Op, name: str, tensors: list, attrs: list[str]) -> None:
    assert op(name, tensors, attrs).phase1 == PARAM_INVALID
