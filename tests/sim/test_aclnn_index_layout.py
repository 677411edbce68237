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
