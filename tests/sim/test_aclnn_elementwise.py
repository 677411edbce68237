"""The operators declared on the element-wise primitive (csrc/sim/opapi/elementwise.h): type promotion
over float, integer and bool tensors, fills of every type, lerp / addcmul / addcdiv / sqrt, the foreach
operators of torch's Adam and AdamW, and one test per class of bad input. Numbers against numpy
(float64 from the same quantized inputs), through programs/aclnn_runner.cpp as in test_aclnn_ops.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand, transposed_view = ops.T, ops.check, ops.out, ops.rand, ops.transposed_view
FLOATS, PARAM_INVALID, PARAM_NULLPTR, ACL = ops.FLOATS, ops.PARAM_INVALID, ops.PARAM_NULLPTR, ops.ACL
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


def ok(res) -> None:
    assert res.phase1 == 0 and res.phase2 and all(s == 0 for s in res.phase2), res.proc.stderr


def lerp(a: np.ndarray, b: np.ndarray, w: np.ndarray | float) -> np.ndarray:
    w = np.broadcast_to(np.asarray(w, dtype=np.float64), np.broadcast(a, b, w).shape)
    return np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w))


# --------------------------------------------------------------------------------------------------
# Fills and integer / bool tensors


@pytest.mark.parametrize(("dt", "shape"), [("bool", (4, 4)), ("i32", (3,)), ("i64", (2, 3)), ("f16", (5,))])
def test_inplace_one_fills_every_type(op: Op, dt: str, shape: tuple[int, ...]) -> None:
    # torch builds the causal mask of scaled_dot_product_attention as ones(L, S, dtype=bool).tril().
    res = op("InplaceOne", [T("selfRef", dt, np.zeros(shape), out=True)])
    ok(res)
    np.testing.assert_array_equal(res.outputs["selfRef"], np.ones(shape))


def test_inplace_fill_scalar_truncates_into_an_integer_tensor(op: Op) -> None:
    res = op("InplaceFillScalar", [T("selfRef", "i32", np.zeros((2, 2)), out=True)], ["scalar value 0 -2.75"])
    ok(res)
    np.testing.assert_array_equal(res.outputs["selfRef"], np.full((2, 2), -2))


def test_adds_on_int64_stays_integer(op: Op) -> None:
    # GPT-2's position ids: arange(...) + past_length on an int64 tensor.
    x = np.array([[0, 1, 2], [2**40, -7, 5]], dtype=np.float64)
    res = op(
        "Adds",
        [T("self", "i64", x), out("out", "i64", (2, 3))],
        [f"scalar other {ACL['i64']} 3", f"scalar alpha {ACL['i64']} 2"],
    )
    ok(res)
    np.testing.assert_array_equal(res.outputs["out"], x + 6)


def test_a_float_scalar_lifts_an_integer_tensor_to_float32(op: Op) -> None:
    x = np.array([1, 2, -3], dtype=np.float64)
    res = op("Muls", [T("self", "i32", x), out("out", "f32", (3,))], ["scalar other 0 0.5"])
    ok(res)
    np.testing.assert_array_equal(res.outputs["out"], x * 0.5)
    # ... and an integer output cannot hold that float result.
    res = op("Muls", [T("self", "i32", x), out("out", "i32", (3,))], ["scalar other 0 0.5"])
    assert res.phase1 == PARAM_INVALID and "cannot be stored" in res.proc.stderr


@pytest.mark.parametrize(
    ("a_dt", "b_dt", "out_dt"),
    [("u8", "i8", "i32"), ("i32", "f16", "f16"), ("bool", "i32", "i32"), ("bool", "bool", "bool")],
)
def test_tensor_types_promote_as_torch(op: Op, a_dt: str, b_dt: str, out_dt: str) -> None:
    a = np.array([[0, 1, 1], [0, 1, 0]], dtype=np.float64) * (1 if a_dt == "bool" else 100)
    b = np.array([1, 0, 1], dtype=np.float64) * (1 if b_dt == "bool" else -100)
    res = op("Mul", [T("self", a_dt, a), T("other", b_dt, b), out("out", out_dt, (2, 3))])
    ok(res)
    np.testing.assert_array_equal(res.outputs["out"], a * b)


def test_integer_division_is_true_division(op: Op) -> None:
    a, b = np.array([7, -7, 1], dtype=np.float64), np.array([2, 2, 3], dtype=np.float64)
    res = op("Div", [T("self", "i64", a), T("other", "i64", b), out("out", "f32", (3,))])
    check(res, "out", a / b, "f32")


# --------------------------------------------------------------------------------------------------
# Ternary and unary operators


@pytest.mark.parametrize("dt", FLOATS)
def test_lerp_with_a_broadcast_weight_tensor(op: Op, dt: str) -> None:
    rng = np.random.default_rng(40)
    a, b = rand(rng, (3, 4), dt), rand(rng, (4,), dt)
    w = rand(rng, (3, 1), dt, -0.5, 1.5)
    res = op("Lerp", [T("self", dt, a), T("end", dt, b), T("weight", dt, w), out("out", dt, (3, 4))])
    check(res, "out", lerp(a, b, w), dt, scale=2)


@pytest.mark.parametrize(("name", "weight"), [("Lerps", 0.1), ("InplaceLerps", 0.9), ("InplaceLerp", None)])
def test_lerp_scalar_and_in_place_forms(op: Op, name: str, weight: float | None) -> None:
    rng = np.random.default_rng(41)
    a, b = rand(rng, (2, 5), "f32"), rand(rng, (2, 5), "f32")
    inplace = name.startswith("Inplace")
    tensors = [T("selfRef" if inplace else "self", "f32", a, out=inplace), T("end", "f32", b)]
    attrs = []
    if weight is None:
        weight = 0.25
        tensors.append(T("weight", "f32", np.array([weight])))
    else:
        attrs.append(f"scalar weight 0 {weight}")
    if not inplace:
        tensors.append(out("out", "f32", a.shape))
    res = op(name, tensors, attrs)
    check(res, "selfRef" if inplace else "out", lerp(a, b, weight), "f32")


@pytest.mark.parametrize("dt", FLOATS)
def test_addcmul_and_addcdiv(op: Op, dt: str) -> None:
    rng = np.random.default_rng(42)
    s, t1, t2 = rand(rng, (3, 4), dt), rand(rng, (4,), dt), rand(rng, (3, 1), dt, 0.5, 2)
    tensors = [T("self", dt, s), T("tensor1", dt, t1), T("tensor2", dt, t2), out("out", dt, (3, 4))]
    check(op("Addcmul", tensors, ["scalar value 0 -0.5"]), "out", s - 0.5 * t1 * t2, dt, scale=2)
    check(op("Addcdiv", tensors, ["scalar value 0 0.25"]), "out", s + 0.25 * t1 / t2, dt, scale=2)


def test_inplace_addcdiv_writes_through_a_strided_view(op: Op) -> None:
    rng = np.random.default_rng(43)
    p, g, d = rand(rng, (4, 3), "f32"), rand(rng, (4, 3), "f32"), rand(rng, (4, 3), "f32", 0.5, 2)
    res = op(
        "InplaceAddcdiv",
        [transposed_view("selfRef", "f32", p, out=True), T("tensor1", "f32", g), T("tensor2", "f32", d)],
        ["scalar value 0 -0.01"],
    )
    check(res, "selfRef", p - 0.01 * g / d, "f32")


@pytest.mark.parametrize(("dt", "out_dt"), [("f32", "f32"), ("bf16", "bf16"), ("i32", "f32")])
def test_sqrt(op: Op, dt: str, out_dt: str) -> None:
    x = np.array([0.0, 1.0, 4.0, 9.0, 2.0, 30.0])
    check(op("Sqrt", [T("self", dt, x), out("out", out_dt, x.shape)]), "out", np.sqrt(x), out_dt)
    res = op("InplaceSqrt", [T("selfRef", "f32", x, out=True)])
    check(res, "selfRef", np.sqrt(x), "f32")


@pytest.mark.parametrize(("name", "attrs", "fn"), [
    ("InplaceDivs", ["scalar other 0 4"], lambda a, b: a / 4),
    ("InplaceDiv", [], lambda a, b: a / b),
    ("InplaceSubs", ["scalar other 0 1.5", "scalar alpha 0 2"], lambda a, b: a - 3),
    ("InplaceSub", ["scalar alpha 0 0.5"], lambda a, b: a - 0.5 * b),
])  # fmt: skip
def test_in_place_division_and_subtraction(op: Op, name: str, attrs: list[str], fn) -> None:
    # torch's Adam (foreach) divides each tensor in place by its bias correction.
    rng = np.random.default_rng(45)
    a, b = rand(rng, (3, 4), "f32"), rand(rng, (4,), "f32", 0.5, 2)
    tensors = [T("selfRef", "f32", a, out=True)] + ([T("other", "f32", b)] if not name.endswith("s") else [])
    check(op(name, tensors, attrs), "selfRef", fn(a, b), "f32")


@pytest.mark.parametrize(
    ("name", "diagonal", "dt"), [("Triu", 1, "bool"), ("Tril", 0, "f32"), ("Triu", -1, "i64")]
)
def test_triangles(op: Op, name: str, diagonal: int, dt: str) -> None:
    x = np.arange(1, 2 * 4 * 5 + 1, dtype=np.float64).reshape(2, 4, 5) % (2 if dt == "bool" else 1000)
    res = op(name, [T("self", dt, x), out("out", dt, x.shape)], [f"int diagonal {diagonal}"])
    ok(res)
    ref = np.triu(x, diagonal) if name == "Triu" else np.tril(x, diagonal)
    np.testing.assert_array_equal(res.outputs["out"], ref)


@pytest.mark.parametrize(("name", "dt", "out_dt"), [("NeScalar", "f32", "bool"), ("EqScalar", "i64", "bool"),
                                                   ("NeTensor", "f16", "f32")])  # fmt: skip
def test_comparisons_write_truth_values(op: Op, name: str, dt: str, out_dt: str) -> None:
    x = np.array([[0.0, 1.0, -2.0], [2.0, 0.0, 3.0]])
    if name == "NeTensor":
        other = np.array([0.0, 1.0, 5.0])
        res = op(name, [T("self", dt, x), T("other", dt, other), out("out", out_dt, x.shape)])
        ref = x != other
    else:
        res = op(name, [T("self", dt, x), out("out", out_dt, x.shape)], ["scalar other 0 2"])
        ref = x != 2 if name == "NeScalar" else x == 2
    ok(res)
    np.testing.assert_array_equal(res.outputs["out"], ref.astype(np.float64))


def test_logical_not_of_a_bool_mask(op: Op) -> None:
    m = np.array([[1, 0, 1], [0, 0, 1]], dtype=np.float64)
    res = op("LogicalNot", [T("self", "bool", m), out("out", "bool", m.shape)])
    ok(res)
    np.testing.assert_array_equal(res.outputs["out"], 1 - m)


@pytest.mark.parametrize("dt", FLOATS)
def test_threshold_backward_passes_the_gradient_where_self_exceeds_the_threshold(op: Op, dt: str) -> None:
    rng = np.random.default_rng(46)
    g, x = rand(rng, (4, 6), dt), rand(rng, (4, 6), dt)
    res = op(
        "ThresholdBackward",
        [T("gradOutput", dt, g), T("self", dt, x), out("out", dt, g.shape)],
        ["scalar threshold 0 0"],
    )
    check(res, "out", np.where(x > 0, g, 0.0), dt)


# --------------------------------------------------------------------------------------------------
# Foreach (torch.optim.Adam / AdamW with foreach=True)


def foreach(op: Op, name: str, lists: dict[str, list[np.ndarray]], attrs: list[str], dt: str = "f32"):
    """Runs `name` with out = the first list (in place, as torch_npu calls these)."""
    tensors, after = [], []
    first = next(iter(lists))
    for lname, arrays in lists.items():
        names = [f"{lname}_{i}" for i in range(len(arrays))]
        tensors += [T(n, dt, a, out=lname == first) for n, a in zip(names, arrays, strict=True)]
        after.append(f"list {lname} {len(names)} {' '.join(names)}")
    after.append(f"list out {len(lists[first])} {' '.join(f'{first}_{i}' for i in range(len(lists[first])))}")
    res = op(name, tensors, attrs, after=after)
    ok(res)
    return [res.outputs[f"{first}_{i}"] for i in range(len(lists[first]))]


@pytest.mark.parametrize(
    ("name", "n", "attrs", "fn"),
    [
        ("ForeachMulScalarV2", 1, ["scalar scalar 0 0.999"], lambda x: x[0] * 0.999),
        ("ForeachAddScalarV2", 1, ["scalar scalar 0 1e-8"], lambda x: x[0] + 1e-8),
        ("ForeachDivScalarV2", 1, ["scalar scalar 0 -3"], lambda x: x[0] / -3),
        ("ForeachSqrt", 1, [], lambda x: np.sqrt(np.abs(x[0]))),
        ("ForeachLerpScalar", 2, ["scalar weight 0 0.1"], lambda x: lerp(x[0], x[1], 0.1)),
        ("ForeachAddcmulScalarV2", 3, ["scalar scalar 0 0.001"], lambda x: x[0] + 0.001 * x[1] * x[2]),
        ("ForeachAddcdivScalarV2", 3, ["scalar scalar 0 -0.01"], lambda x: x[0] - 0.01 * x[1] / x[2]),
    ],
)
@pytest.mark.parametrize("dt", ["f32", "bf16"])
def test_foreach_operators(op: Op, name: str, n: int, attrs: list[str], fn, dt: str) -> None:
    rng = np.random.default_rng(44)
    shapes = [(3, 2), (5,), (1, 1, 4)]
    lists = {}
    for k, lname in enumerate(["x1", "x2", "x3"][:n] if n > 1 else ["x"]):
        low = 0.5 if k == 2 else -2.0  # the divisor of addcdiv stays away from zero
        lists[lname] = [rand(rng, s, dt, low, 2.0) for s in shapes]
    if name == "ForeachSqrt":
        lists["x"] = [np.abs(a) for a in lists["x"]]
    got = foreach(op, name, lists, attrs, dt)
    for i in range(len(shapes)):
        ref = fn([arrays[i] for arrays in lists.values()])
        rtol, atol = ops.TOL[dt]
        np.testing.assert_allclose(got[i], ops.quantize(ref, dt), rtol=2 * rtol, atol=2 * atol)


# --------------------------------------------------------------------------------------------------
# Bad input, one class at a time: CANN's codes


def test_null_arguments_are_param_nullptr(op: Op) -> None:
    x = np.ones((2, 2))
    assert (
        op("Lerps", [T("self", "f32", x), T("end", "f32", x), out("out", "f32", (2, 2))]).phase1
        == PARAM_NULLPTR
    )
    assert (
        op(
            "Addcmul",
            [T("self", "f32", x), T("tensor1", "f32", x), out("out", "f32", (2, 2))],
            ["scalar value 0 1"],
        ).phase1
        == PARAM_NULLPTR
    )
    res = op("ForeachMulScalarV2", [T("a", "f32", x)], after=["list x 1 a", "list out 1 a"])
    assert res.phase1 == PARAM_NULLPTR


def test_a_data_type_outside_the_set_is_param_invalid(op: Op) -> None:
    x = np.ones((2, 2))
    res = op(
        "Lerps", [T("self", "i32", x), T("end", "i32", x), out("out", "i32", (2, 2))], ["scalar weight 0 1"]
    )
    assert res.phase1 == PARAM_INVALID and "int32" in res.proc.stderr


def test_shapes_that_do_not_broadcast_are_param_invalid(op: Op) -> None:
    res = op(
        "Addcdiv",
        [
            T("self", "f32", np.ones((2, 3))),
            T("tensor1", "f32", np.ones((4,))),
            T("tensor2", "f32", np.ones(1)),
            out("out", "f32", (2, 3)),
        ],
        ["scalar value 0 1"],
    )
    assert res.phase1 == PARAM_INVALID and "broadcast" in res.proc.stderr


def test_an_out_of_another_shape_is_param_invalid(op: Op) -> None:
    # In place: other must broadcast to selfRef, not the other way round.
    res = op(
        "InplaceLerps",
        [T("selfRef", "f32", np.ones((3,)), out=True), T("end", "f32", np.ones((2, 3)))],
        ["scalar weight 0 0.5"],
    )
    assert res.phase1 == PARAM_INVALID


def test_foreach_items_of_different_shapes_are_param_invalid(op: Op) -> None:
    res = op(
        "ForeachLerpScalar",
        [T("a", "f32", np.ones((2, 3)), out=True), T("b", "f32", np.ones((3,)))],
        ["scalar weight 0 0.5"],
        after=["list x1 1 a", "list x2 1 b", "list out 1 a"],
    )
    assert res.phase1 == PARAM_INVALID
