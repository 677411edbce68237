"""Gathers, scatters and building copies (csrc/sim/opapi/op_gather_scatter.cpp, op_stack_repeat.cpp,
op_arange.cpp): aclnnGather, aclnnScatterAdd, aclnnStack, aclnnRepeat and aclnnArange against numpy,
with their bad-input classes."""

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

RNG = np.random.default_rng(38)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather_along_a_dimension(op: Op, dim: int) -> None:
    x = rand(RNG, (3, 4, 5), "f32")
    size = x.shape[dim]
    index = RNG.integers(-size, size, size=(2, 3, 4)).astype(np.float64)
    ref = np.zeros(index.shape)
    for at in np.ndindex(*index.shape):
        source = list(at)
        source[dim] = int(index[at]) % size  # a negative index counts from the end
        ref[at] = x[tuple(source)]
    res = op(
        "Gather",
        [T("self", "f32", x), T("index", "i64", index), out("out", "f32", index.shape)],
        [f"int dim {dim}"],
    )
    check(res, "out", ref, "f32")


def test_scatter_add(op: Op) -> None:
    x = rand(RNG, (3, 5), "f32")
    src = rand(RNG, (3, 4), "f32")
    index = RNG.integers(0, 5, size=(3, 4)).astype(np.float64)
    ref = x.copy()
    for i, j in np.ndindex(*index.shape):
        ref[i, int(index[i, j])] += src[i, j]
    res = op(
        "ScatterAdd",
        [T("self", "f32", x), T("index", "i64", index), T("src", "f32", src), out("out", "f32", x.shape)],
        ["int dim 1"],
    )
    check(res, "out", ref, "f32")


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_stack(op: Op, dim: int) -> None:
    a, b, c = (rand(RNG, (2, 3), "f32") for _ in range(3))
    ref = np.stack([a, b, c], axis=dim)
    res = op(
        "Stack",
        [T("a", "f32", a), T("b", "f32", b), T("c", "f32", c), out("out", "f32", ref.shape)],
        [f"int dim {dim}"],
        ["list tensors 3 a b c"],
    )
    check(res, "out", ref, "f32")


@pytest.mark.parametrize("repeats", [(2, 1), (1, 3), (2, 2, 2)])
def test_repeat(op: Op, repeats: tuple[int, ...]) -> None:
    x = rand(RNG, (2, 3), "f32")
    ref = np.tile(x, repeats)
    res = op(
        "Repeat",
        [T("self", "f32", x), out("out", "f32", ref.shape)],
        [f"ints repeats {len(repeats)} {' '.join(map(str, repeats))}"],
    )
    check(res, "out", ref, "f32")


@pytest.mark.parametrize(
    ("start", "end", "step", "dt"), [(0, 5, 1, "i64"), (1.0, 2.0, 0.25, "f32"), (5, -3, -2, "i32")]
)
def test_arange(op: Op, start: float, end: float, step: float, dt: str) -> None:
    ref = np.arange(start, end, step)
    kind = ACL["f32"] if isinstance(step, float) else ACL["i64"]
    res = op(
        "Arange",
        [out("out", dt, ref.shape)],
        [f"scalar start {kind} {start}", f"scalar end {kind} {end}", f"scalar step {kind} {step}"],
    )
    assert res.phase1 == 0, res.proc.stderr
    np.testing.assert_array_equal(res.outputs["out"], ref)


def test_bad_inputs(op: Op) -> None:
    x = np.ones((2, 3))
    assert (
        op("Gather", [T("self", "f32", x), out("out", "f32", (2, 3))], ["int dim 0"]).phase1 == PARAM_NULLPTR
    )
    float_index = op(
        "Gather", [T("self", "f32", x), T("index", "f32", x), out("out", "f32", (2, 3))], ["int dim 0"]
    )
    assert float_index.phase1 == PARAM_INVALID  # dtype
    bad_dim = op(
        "Gather", [T("self", "f32", x), T("index", "i64", x * 0), out("out", "f32", (2, 3))], ["int dim 2"]
    )
    assert bad_dim.phase1 == PARAM_INVALID  # attribute
    mismatched = op(
        "Stack",
        [T("a", "f32", x), T("b", "f32", np.ones((3, 2))), out("out", "f32", (2, 2, 3))],
        ["int dim 0"],
        ["list tensors 2 a b"],
    )
    assert mismatched.phase1 == PARAM_INVALID  # shape
    empty = op("Arange", [out("out", "i64", (3,))], ["scalar start 9 0", "scalar end 9 3", "scalar step 9 0"])
    assert empty.phase1 == PARAM_INVALID  # a zero step


# --------------------------------------------------------------------------------------------------
# Sort, top-k and advanced indexing (op_sort.cpp, op_index.cpp)


def sort_key(v: float, descending: int) -> tuple[bool, float]:
    # nan is the largest value; Python's sort is stable, so equal values keep their order
    nan = bool(np.isnan(v))
    return (not nan, -v if not nan else 0.0) if descending else (nan, v if not nan else 0.0)


@pytest.mark.parametrize("descending", [0, 1])
def test_sort_is_stable_with_nan_largest(op: Op, descending: int) -> None:
    x = np.array([[3.0, 1.0, np.nan, 1.0, 2.0], [0.5, 0.5, -1.0, 4.0, 0.5]])
    order = np.array([sorted(range(5), key=lambda j, r=r: sort_key(x[r, j], descending)) for r in range(2)])
    res = op(
        "Sort",
        [T("self", "f32", x), out("valuesOut", "f32", x.shape), out("indicesOut", "i64", x.shape)],
        ["int stable 1", "int dim -1", f"int descending {descending}"],
    )
    assert res.phase1 == 0, res.proc.stderr
    np.testing.assert_array_equal(res.outputs["indicesOut"], order)
    np.testing.assert_array_equal(res.outputs["valuesOut"], np.take_along_axis(x, order, axis=1))


@pytest.mark.parametrize("largest", [0, 1])
def test_topk(op: Op, largest: int) -> None:
    x = rand(RNG, (4, 9), "f32")
    order = np.argsort(-x if largest else x, axis=0, kind="stable")[:3]
    res = op(
        "Topk",
        [T("self", "f32", x), out("valuesOut", "f32", (3, 9)), out("indicesOut", "i64", (3, 9))],
        ["int k 3", "int dim 0", f"int largest {largest}", "int sorted 1"],
    )
    assert res.phase1 == 0, res.proc.stderr
    np.testing.assert_array_equal(res.outputs["indicesOut"], order)
    check(res, "valuesOut", np.take_along_axis(x, order, axis=0), "f32")


def test_topk_refuses_k_above_the_length(op: Op) -> None:
    x = np.ones((2, 3))
    res = op(
        "Topk",
        [T("self", "f32", x), out("valuesOut", "f32", (2, 4)), out("indicesOut", "i64", (2, 4))],
        ["int k 4", "int dim 1", "int largest 1", "int sorted 1"],
    )
    assert res.phase1 == PARAM_INVALID


def test_index_adjacent_and_split_dimensions(op: Op) -> None:
    x = rand(RNG, (4, 5, 6), "f32")
    i0 = np.array([[0, 3], [-1, 2]], dtype=np.float64)
    i2 = np.array([5, 0], dtype=np.float64)
    # x[i0] (one leading dimension): [2, 2, 5, 6]
    res = op(
        "Index",
        [T("self", "f32", x), T("a", "i64", i0), out("out", "f32", (2, 2, 5, 6))],
        after=["list indices 1 a"],
    )
    check(res, "out", x[i0.astype(int)], "f32")
    # x[:, i1] with an empty first index tensor: [4, 2, 2, 6] (the indexed dimension replaced in place)
    res = op(
        "Index",
        [
            T("self", "f32", x),
            T("e", "i64", np.zeros((0,))),
            T("a", "i64", i0 % 5),
            out("out", "f32", (4, 2, 2, 6)),
        ],
        after=["list indices 2 e a"],
    )
    check(res, "out", x[:, (i0 % 5).astype(int)], "f32")
    # x[i0, :, i2] (dimensions not adjacent): the broadcast shape [2, 2] goes in front
    res = op(
        "Index",
        [T("self", "f32", x), T("a", "i64", i0), T("e", "i64", np.zeros((0,))), T("c", "i64", i2),
         out("out", "f32", (2, 2, 5))],
        after=["list indices 3 a e c"],
    )  # fmt: skip
    check(res, "out", x[i0.astype(int), :, i2.astype(int)], "f32")


@pytest.mark.parametrize("accumulate", [0, 1])
def test_index_put(op: Op, accumulate: int) -> None:
    x = rand(RNG, (5, 3), "f32")
    rows = np.array([0, 2, 2, 4], dtype=np.float64)
    values = rand(RNG, (4, 3), "f32")
    ref = x.copy()
    if accumulate:
        np.add.at(ref, rows.astype(int), values)
    else:
        ref[rows.astype(int)] = values  # the last of the repeated row wins, as here
    res = op(
        "IndexPutImpl",
        [T("selfRef", "f32", x, out=True), T("a", "i64", rows), T("values", "f32", values)],
        [f"int accumulate {accumulate}"],
        ["list indices 1 a"],
    )
    check(res, "selfRef", ref, "f32")


def test_index_bad_inputs(op: Op) -> None:
    x = np.ones((3, 4))
    float_index = op(
        "Index",
        [T("self", "f32", x), T("a", "f32", np.zeros(2)), out("out", "f32", (2, 4))],
        after=["list indices 1 a"],
    )
    assert float_index.phase1 == PARAM_INVALID
    wrong_shape = op(
        "Index",
        [T("self", "f32", x), T("a", "i64", np.zeros(2)), out("out", "f32", (2, 3))],
        after=["list indices 1 a"],
    )
    assert wrong_shape.phase1 == PARAM_INVALID


def test_inplace_random_integers(op: Op) -> None:
    def draw(seed: int) -> np.ndarray:
        res = op(
            "InplaceRandom",
            [T("selfRef", "i64", np.zeros(2000), out=True)],
            ["int from -3", "int to 7", f"int seed {seed}", "int offset 0"],
        )
        assert res.phase1 == 0 and res.phase2 == [0], res.proc.stderr
        return res.outputs["selfRef"]

    a = draw(5)
    assert set(np.unique(a)) == set(range(-3, 7))
    counts = np.bincount((a + 3).astype(int), minlength=10)
    assert np.all(
        np.abs(counts - 200) < 4 * np.sqrt(200 * 0.9)
    )  # each value 1/10 of the draws, within 4 sigma
    np.testing.assert_array_equal(a, draw(5))
    assert not np.array_equal(a, draw(6))


@pytest.mark.parametrize("reduce", [0, 1, 2])
def test_scatter_write_add_multiply(op: Op, reduce: int) -> None:
    x = rand(RNG, (3, 4), "f32")
    src = rand(RNG, (2, 4), "f32")
    index = np.array([[2, 0, 1, 2], [0, 0, 2, 1]], dtype=np.float64)
    ref = x.copy()
    for i, j in np.ndindex(*index.shape):
        k = int(index[i, j])
        ref[k, j] = (ref[k, j], ref[k, j] + src[i, j], ref[k, j] * src[i, j])[reduce] if reduce else src[i, j]
    res = op(
        "Scatter",
        [T("self", "f32", x), T("index", "i64", index), T("src", "f32", src), out("out", "f32", x.shape)],
        ["int dim 0", f"int reduce {reduce}"],
    )
    check(res, "out", ref, "f32")
    res = op(
        "InplaceScatter",
        [T("selfRef", "f32", x, out=True), T("index", "i64", index), T("src", "f32", src)],
        ["int dim 0", f"int reduce {reduce}"],
    )
    check(res, "selfRef", ref, "f32")
    bad = op(
        "Scatter",
        [T("self", "f32", x), T("index", "i64", index), T("src", "f32", src), out("out", "f32", x.shape)],
        ["int dim 0", "int reduce 3"],
    )
    assert bad.phase1 == PARAM_INVALID
