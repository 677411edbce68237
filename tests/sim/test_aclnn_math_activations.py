"""Element-wise mathematical functions (csrc/sim/opapi/op_math_unary.cpp), piecewise activations and
their backward (op_activation_piecewise.cpp), ordering comparisons, logical and/or, maximum/minimum
and where (op_compare_order.cpp): numbers against numpy (float64 from the same quantized inputs)
through programs/aclnn_runner.cpp, and the bad-input classes of the operators with arguments of
their own (GeluV2's approximate, GeluBackwardV2's string)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand, quantize = ops.T, ops.check, ops.out, ops.rand, ops.quantize
PARAM_INVALID, PARAM_NULLPTR, ACL = ops.PARAM_INVALID, ops.PARAM_NULLPTR, ops.ACL
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op

RNG = np.random.default_rng(34)
Fn = Callable[[np.ndarray], np.ndarray]
erf: Fn = np.vectorize(math.erf)

# name -> (numpy reference, input range)
UNARY: dict[str, tuple[Fn, tuple[float, float]]] = {
    "Abs": (np.abs, (-3, 3)),
    "Sign": (np.sign, (-3, 3)),
    "Log": (np.log, (0.1, 5)),
    "Log2": (np.log2, (0.1, 5)),
    "Log10": (np.log10, (0.1, 5)),
    "Log1p": (np.log1p, (-0.5, 5)),
    "Expm1": (np.expm1, (-3, 3)),
    "Sin": (np.sin, (-4, 4)),
    "Cos": (np.cos, (-4, 4)),
    "Erf": (erf, (-3, 3)),
    "Reciprocal": (np.reciprocal, (0.5, 4)),
    "Floor": (np.floor, (-5, 5)),
    "Ceil": (np.ceil, (-5, 5)),
    "Round": (np.round, (-5, 5)),  # numpy rounds halves to even, as torch
    "Trunc": (np.trunc, (-5, 5)),
    "Hardswish": (lambda x: x * np.clip(x + 3, 0, 6) / 6, (-5, 5)),
    "Hardsigmoid": (lambda x: np.clip(x / 6 + 0.5, 0, 1), (-5, 5)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_unary_matches_numpy(op: Op, name: str, dt: str) -> None:
    fn, (lo, hi) = UNARY[name]
    x = rand(RNG, (3, 5), dt, lo, hi)
    if name in ("Round", "Floor", "Ceil", "Trunc"):
        x[0, :3] = [2.5, -0.5, 1.5]  # halves: to even for Round
    # CANN names aclnnCos's input "input" and aclnnSign's output "result".
    x_name, out_name = {"Cos": "input"}.get(name, "self"), {"Sign": "result"}.get(name, "out")
    res = op(name, [T(x_name, dt, x), out(out_name, dt, x.shape)])
    check(res, out_name, fn(x), dt)


@pytest.mark.parametrize("name", ["Log", "Sin", "Floor", "Round", "Reciprocal", "Hardswish", "LeakyRelu"])
def test_in_place_forms_write_self(op: Op, name: str) -> None:
    x = rand(RNG, (4, 3), "f32", 0.25, 3)
    ref = {"LeakyRelu": lambda v: v}.get(name, UNARY.get(name, (None,))[0])
    ref_name = "self" if name in ("Hardswish",) else "selfRef"
    attrs = ["scalar negativeSlope 0 0.1"] if name == "LeakyRelu" else []
    res = op(f"Inplace{name}", [T(ref_name, "f32", x, out=True)], attrs)
    assert ref is not None
    check(res, ref_name, ref(x), "f32")


def test_integer_inputs_compute_as_float32(op: Op) -> None:
    x = np.array([1, 2, 4, 8], dtype=np.float64)
    res = op("Log2", [T("self", "i32", x), out("out", "f32", (4,))])
    check(res, "out", np.log2(x), "f32")
    res = op("Abs", [T("self", "i64", -x), out("out", "i64", (4,))])
    np.testing.assert_array_equal(res.outputs["out"], x)


def test_round_decimals(op: Op) -> None:
    x = np.array([1.2345, -2.5551, 123.456, 0.125], dtype=np.float64)
    res = op("RoundDecimals", [T("self", "f32", x), out("out", "f32", (4,))], ["int decimals 2"])
    check(res, "out", np.round(quantize(x, "f32"), 2), "f32")
    res = op("RoundDecimals", [T("self", "f32", x), out("out", "f32", (4,))], ["int decimals -1"])
    check(res, "out", np.round(quantize(x, "f32"), -1), "f32")


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def gelu_erf(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


@pytest.mark.parametrize(("mode", "ref"), [(0, gelu_erf), (1, gelu_tanh)])
def test_gelu_v2_both_forms(op: Op, mode: int, ref: Fn) -> None:
    x = rand(RNG, (4, 6), "f32", -4, 4)
    res = op("GeluV2", [T("x", "f32", x), out("y", "f32", x.shape)], [f"int approximate {mode}"])
    check(res, "y", ref(x), "f32")


@pytest.mark.parametrize(("mode", "ref"), [("none", gelu_erf), ("tanh", gelu_tanh)])
def test_gelu_backward_v2_is_the_derivative(op: Op, mode: str, ref: Fn) -> None:
    x = rand(RNG, (3, 4), "f32", -3, 3)
    g = rand(RNG, (3, 4), "f32")
    h = 1e-6
    numeric = (ref(x + h) - ref(x - h)) / (2 * h)
    res = op(
        "GeluBackwardV2",
        [T("gradOutput", "f32", g), T("self", "f32", x), out("gradInput", "f32", x.shape)],
        [f"str approximate {mode}"],
    )
    check(res, "gradInput", g * numeric, "f32", scale=5)


def test_gelu_v2_refuses_an_unknown_approximation(op: Op) -> None:
    x = np.ones((2,))
    res = op("GeluV2", [T("x", "f32", x), out("y", "f32", (2,))], ["int approximate 2"])
    assert res.phase1 == PARAM_INVALID and "approximate" in res.proc.stderr
    res = op(
        "GeluBackwardV2",
        [T("gradOutput", "f32", x), T("self", "f32", x), out("gradInput", "f32", (2,))],
        ["str approximate erf"],
    )
    assert res.phase1 == PARAM_INVALID


def test_parametrised_activations(op: Op) -> None:
    x = rand(RNG, (5, 4), "f32", -3, 3)
    res = op("LeakyRelu", [T("self", "f32", x), out("out", "f32", x.shape)], ["scalar negativeSlope 0 0.2"])
    check(res, "out", np.where(x > 0, x, 0.2 * x), "f32")
    res = op(
        "Elu",
        [T("self", "f32", x), out("out", "f32", x.shape)],
        ["scalar alpha 0 1.5", "scalar scale 0 1.0507", "scalar inputScale 0 0.5"],
    )
    check(res, "out", 1.0507 * np.where(x > 0, x, 1.5 * np.expm1(0.5 * x)), "f32")
    res = op(
        "Hardtanh",
        [T("self", "f32", x), out("out", "f32", x.shape)],
        ["scalar clipValueMin 0 -1", "scalar clipValueMax 0 0.5"],
    )
    check(res, "out", np.clip(x, -1, 0.5), "f32")


def test_activation_backward(op: Op) -> None:
    x = rand(RNG, (6, 5), "f32", -5, 5)
    x[0, :4] = [-3, 3, 0, -1]
    g = rand(RNG, (6, 5), "f32")
    ins = [T("gradOutput", "f32", g), T("self", "f32", x), out("out", "f32", x.shape)]
    res = op("HardswishBackward", ins)
    check(res, "out", np.where(x < -3, 0, np.where(x <= 3, g * (x / 3 + 0.5), g)), "f32")
    res = op("HardsigmoidBackward", ins)
    check(res, "out", np.where((x > -3) & (x < 3), g / 6, 0), "f32")
    res = op("LeakyReluBackward", ins, ["scalar negativeSlope 0 0.01", "int selfIsResult 0"])
    check(res, "out", np.where(x > 0, g, 0.01 * g), "f32")
    res = op("HardtanhBackward", ins, ["scalar min 0 -1", "scalar max 0 1"])
    check(res, "out", np.where((x > -1) & (x < 1), g, 0), "f32")


CMP = {"Gt": np.greater, "Lt": np.less, "Ge": np.greater_equal, "Le": np.less_equal}


@pytest.mark.parametrize("name", sorted(CMP))
def test_comparisons_broadcast_and_write_truth_values(op: Op, name: str) -> None:
    a = np.array([[1, 2, 3], [3, 2, 1]], dtype=np.float64)
    b = np.array([2, 2, 2], dtype=np.float64)
    res = op(f"{name}Tensor", [T("self", "f32", a), T("other", "i32", b), out("out", "bool", (2, 3))])
    np.testing.assert_array_equal(res.outputs["out"], CMP[name](a, b))
    res = op(f"{name}Scalar", [T("self", "i64", a), out("out", "bool", (2, 3))], ["scalar other 0 2.5"])
    np.testing.assert_array_equal(res.outputs["out"], CMP[name](a, 2.5))
    res = op(f"Inplace{name}Scalar", [T("selfRef", "f32", a, out=True)], ["scalar other 0 2"])
    np.testing.assert_array_equal(res.outputs["selfRef"], CMP[name](a, 2).astype(np.float64))


def test_logical_maximum_minimum_where(op: Op) -> None:
    a = np.array([[0, 1, 2], [-1, 0, 3]], dtype=np.float64)
    b = np.array([1, 0, 5], dtype=np.float64)
    for name, ref in [("LogicalAnd", np.logical_and), ("LogicalOr", np.logical_or)]:
        res = op(name, [T("self", "i32", a), T("other", "bool", b), out("out", "bool", (2, 3))])
        np.testing.assert_array_equal(res.outputs["out"], ref(a, b))
    x = np.array([[1.0, np.nan, -2.0], [4.0, 0.5, -0.0]])
    res = op("Maximum", [T("self", "f32", x), T("other", "f32", b), out("out", "f32", (2, 3))])
    np.testing.assert_array_equal(res.outputs["out"], np.maximum(x, b))
    res = op("Minimum", [T("self", "f32", x), T("other", "f32", b), out("out", "f32", (2, 3))])
    np.testing.assert_array_equal(res.outputs["out"], np.minimum(x, b))
    cond = np.array([[1, 0, 1], [0, 0, 1]], dtype=np.float64)
    res = op(
        "SWhere",
        [T("condition", "bool", cond), T("self", "f32", x), T("other", "f16", b), out("out", "f32", (2, 3))],
    )
    np.testing.assert_array_equal(res.outputs["out"], np.where(cond != 0, x, b))


# --------------------------------------------------------------------------------------------------
# Bad input: the element-wise primitive's classes reach every operator declared on it


def test_bad_inputs_get_canns_codes(op: Op) -> None:
    x = np.ones((2, 3))
    assert op("Sin", [out("out", "f32", (2, 3))]).phase1 == PARAM_NULLPTR  # self NULL
    assert op("Erf", [T("self", "f32", x), out("out", "f32", (3, 2))]).phase1 == PARAM_INVALID  # shape
    assert op("Hardswish", [T("self", "i32", x), out("out", "i32", (2, 3))]).phase1 == PARAM_INVALID  # dtype
    assert (
        op(
            "Maximum", [T("self", "f32", x), T("other", "f32", np.ones((4,))), out("out", "f32", (2, 3))]
        ).phase1
        == PARAM_INVALID
    )  # broadcast
    assert (
        op("LeakyRelu", [T("self", "f32", x), out("out", "f32", (2, 3))]).phase1 == PARAM_NULLPTR
    )  # attribute
    assert (
        op("Log", [T("self", "f32", x), out("out", "i32", (2, 3))]).phase1 == PARAM_INVALID
    )  # float into int


def test_celu_elu_backward_and_hardswish_backward_v2(op: Op) -> None:
    x = rand(RNG, (4, 5), "f32", -3, 3)
    g = rand(RNG, (4, 5), "f32")
    res = op("Celu", [T("self", "f32", x), out("out", "f32", x.shape)], ["scalar alpha 0 0.7"])
    check(res, "out", np.maximum(x, 0) + np.minimum(0, 0.7 * np.expm1(x / 0.7)), "f32")
    alpha, scale, input_scale = 1.3, 1.05, 0.5
    elu = {"scalar alpha 0 1.3", "scalar scale 0 1.05", "scalar inputScale 0 0.5"}
    res = op(
        "EluBackward",
        [T("gradOutput", "f32", g), T("selfOrResult", "f32", x), out("gradInput", "f32", x.shape)],
        [*sorted(elu), "int isResult 0"],
    )
    check(
        res,
        "gradInput",
        g * np.where(x > 0, scale, alpha * scale * input_scale * np.exp(x * input_scale)),
        "f32",
    )
    y = quantize(np.where(x > 0, scale * x, scale * alpha * np.expm1(x * input_scale)), "f32")
    res = op(
        "EluBackward",
        [T("gradOutput", "f32", g), T("selfOrResult", "f32", y), out("gradInput", "f32", x.shape)],
        [*sorted(elu), "int isResult 1"],
    )
    check(res, "gradInput", g * np.where(y > 0, scale, input_scale * (y + alpha * scale)), "f32")
    res = op(
        "HardswishBackwardV2", [T("gradOutput", "f32", g), T("self", "f32", x), out("out", "f32", x.shape)]
    )
    check(res, "out", np.where(x < -3, 0, np.where(x <= 3, g * (x / 3 + 0.5), g)), "f32")


def test_clamp_forms(op: Op) -> None:
    x = np.array([[-3.0, -0.5, 0.0], [0.5, 2.0, np.nan]])
    lo, hi = np.array([-1.0, 0.0, -1.0]), np.array([[1.0], [0.25]])
    res = op(
        "Clamp", [T("self", "f32", x), out("out", "f32", x.shape)], ["scalar clipValueMax 0 1"]
    )  # no min
    np.testing.assert_array_equal(res.outputs["out"], np.minimum(x, 1))
    res = op("ClampMin", [T("self", "f32", x), out("out", "f32", x.shape)], ["scalar clipValueMin 0 -1"])
    np.testing.assert_array_equal(res.outputs["out"], np.maximum(x, -1))
    res = op(
        "ClampTensor",
        [
            T("self", "f32", x),
            T("clipValueMin", "f32", lo),
            T("clipValueMax", "f32", hi),
            out("out", "f32", x.shape),
        ],
    )
    np.testing.assert_array_equal(res.outputs["out"], np.minimum(np.maximum(x, lo), hi))  # nan stays nan
    res = op("InplaceClampMaxTensor", [T("selfRef", "f32", x, out=True), T("max", "f32", hi)])
    np.testing.assert_array_equal(res.outputs["selfRef"], np.minimum(x, hi))
    ints = np.array([-5, 0, 7], dtype=np.float64)
    res = op(
        "Clamp",
        [T("self", "i64", ints), out("out", "i64", (3,))],
        ["scalar clipValueMin 9 -1", "scalar clipValueMax 9 3"],
    )
    np.testing.assert_array_equal(res.outputs["out"], np.clip(ints, -1, 3))


def test_eq_tensor(op: Op) -> None:
    a, b = np.array([[1, 2, 3], [3, 2, 1]], dtype=np.float64), np.array([3, 2, 1], dtype=np.float64)
    res = op("EqTensor", [T("self", "f32", a), T("other", "i32", b), out("out", "bool", (2, 3))])
    np.testing.assert_array_equal(res.outputs["out"], a == b)
    res = op("InplaceEqTensor", [T("selfRef", "f32", a, out=True), T("other", "f32", b)])
    np.testing.assert_array_equal(res.outputs["selfRef"], (a == b).astype(np.float64))


def test_elu_backward_bad_inputs(op: Op) -> None:
    x = np.ones((2, 3))
    attrs = ["scalar alpha 0 1", "scalar scale 0 1", "scalar inputScale 0 1", "int isResult 0"]
    shape = op(
        "EluBackward",
        [
            T("gradOutput", "f32", x),
            T("selfOrResult", "f32", np.ones((3, 2))),
            out("gradInput", "f32", (2, 3)),
        ],
        attrs,
    )
    assert shape.phase1 == PARAM_INVALID
    null = op("EluBackward", [T("gradOutput", "f32", x), out("gradInput", "f32", (2, 3))], attrs)
    assert null.phase1 == PARAM_NULLPTR
