"""aclnnIndexSelect, aclnnIndexAdd, aclnnIndexFillTensor (and in place), aclnnRoll and aclnnOneHot against
numpy, and CANN's code for each class of bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID, PARAM_NULLPTR = ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize(("dt", "idt"), [("f32", "i64"), ("i32", "i32"), ("bf16", "i64")])
def test_index_select(op: Op, dim: int, dt: str, idt: str) -> None:
    rng = np.random.default_rng(50)
    x = rand(rng, (3, 4, 5), dt, -9, 9)
    x = np.trunc(x) if dt == "i32" else x
    index = np.array([2, 0, -1, 2])  # a repeat and a negative index
    ref = np.take(x, index, axis=dim)
    res = op(
        "IndexSelect",
        [T("self", dt, x), T("index", idt, index * 1.0), out("out", dt, ref.shape)],
        [f"int dim {dim}"],
    )
    check(res, "out", ref, "f64")  # picked values are exact


@pytest.mark.parametrize("dim", [0, 2])
def test_index_add_accumulates_repeats(op: Op, dim: int) -> None:
    rng = np.random.default_rng(51)
    x = rand(rng, (3, 4, 3), "f32")
    index = np.array([1, 0, 1])
    shape = list(x.shape)
    shape[dim] = len(index)
    source = rand(rng, tuple(shape), "f32")
    ref = x.copy()
    for i, k in enumerate(index):
        sel = [slice(None)] * 3
        sel[dim] = k
        src = [slice(None)] * 3
        src[dim] = i
        ref[tuple(sel)] += 0.5 * source[tuple(src)]
    res = op(
        "IndexAdd",
        [
            T("self", "f32", x),
            T("index", "i64", index * 1.0),
            T("source", "f32", source),
            out("out", "f32", x.shape),
        ],
        [f"int dim {dim}", "scalar alpha 0 0.5"],
    )
    check(res, "out", ref, "f32")


def test_index_fill_and_in_place(op: Op) -> None:
    x = rand(np.random.default_rng(52), (4, 5), "f32")
    ref = x.copy()
    ref[:, [1, 4]] = -7.0
    attrs = ["int dim 1", "ints index 2 1 -1", "scalar value 0 -7"]
    check(op("IndexFillTensor", [T("self", "f32", x), out("out", "f32", x.shape)], attrs), "out", ref, "f32")
    check(op("InplaceIndexFillTensor", [T("selfRef", "f32", x, out=True)], attrs), "selfRef", ref, "f32")


@pytest.mark.parametrize(("shifts", "dims"), [((2,), ()), ((1, -2), (0, 2)), ((7,), (1,)), ((1, 1), (1, 1))])
def test_roll(op: Op, shifts: tuple[int, ...], dims: tuple[int, ...]) -> None:
    x = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    ref = np.roll(x, shifts, axis=dims) if dims else np.roll(x, shifts[0])
    attrs = [
        f"ints shifts {len(shifts)} {' '.join(map(str, shifts))}",
        f"ints dims {len(dims)} {' '.join(map(str, dims))}",
    ]
    check(
        op("Roll", [T("x", "f32", x), out("out", "f32", x.shape)], [a.rstrip() for a in attrs]),
        "out",
        ref,
        "f32",
    )


@pytest.mark.parametrize(("axis", "sdt", "odt"), [(-1, "i64", "i64"), (0, "i32", "f32"), (1, "u8", "i32")])
def test_one_hot(op: Op, axis: int, sdt: str, odt: str) -> None:
    labels = np.array([[0, 3, 1], [4, 4, 2]])
    classes = 5
    ref = (labels[..., None] == np.arange(classes)).astype(np.float64) * 2.0 - 1.0  # on 1, off -1
    ref = np.moveaxis(ref, -1, axis if axis != -1 else -1)
    res = op(
        "OneHot",
        [
            T("self", sdt, labels * 1.0),
            T("onValue", odt, np.array([1.0])),
            T("offValue", odt, np.array([-1.0])),
            out("out", odt, ref.shape),
        ],
        [f"int numClasses {classes}", f"int axis {axis}"],
    )
    check(res, "out", ref, "f64")


SELF, INDEX = T("self", "f32", np.ones((2, 3))), T("index", "i64", np.zeros(2))


@pytest.mark.parametrize(
    ("name", "tensors", "attrs", "code"),
    [
        ("IndexSelect", [SELF, out("out", "f32", (2, 2))], ["int dim 1"], PARAM_NULLPTR),
        # dtype: a float index
        (
            "IndexSelect",
            [SELF, T("index", "f32", np.zeros(2)), out("out", "f32", (2, 2))],
            ["int dim 1"],
            PARAM_INVALID,
        ),
        # shape: out of the wrong shape
        ("IndexSelect", [SELF, INDEX, out("out", "f32", (2, 3))], ["int dim 1"], PARAM_INVALID),
        # attribute: dim out of range
        ("IndexSelect", [SELF, INDEX, out("out", "f32", (2, 2))], ["int dim 2"], PARAM_INVALID),
        # shape: source not self's shape with index's length along dim
        (
            "IndexAdd",
            [SELF, INDEX, T("source", "f32", np.ones((2, 3))), out("out", "f32", (2, 3))],
            ["int dim 1", "scalar alpha 0 1"],
            PARAM_INVALID,
        ),
        # attribute: an index out of range
        (
            "IndexFillTensor",
            [SELF, out("out", "f32", (2, 3))],
            ["int dim 1", "ints index 1 3", "scalar value 0 1"],
            PARAM_INVALID,
        ),
        # dtype: float labels
        (
            "OneHot",
            [
                T("self", "f32", np.zeros(3)),
                T("onValue", "i64", np.ones(1)),
                T("offValue", "i64", np.zeros(1)),
                out("out", "i64", (3, 4)),
            ],
            ["int numClasses 4", "int axis -1"],
            PARAM_INVALID,
        ),
        # shape: out without the classes' dimension of numClasses
        (
            "OneHot",
            [
                T("self", "i64", np.zeros(3)),
                T("onValue", "i64", np.ones(1)),
                T("offValue", "i64", np.zeros(1)),
                out("out", "i64", (3, 5)),
            ],
            ["int numClasses 4", "int axis -1"],
            PARAM_INVALID,
        ),
        # attribute: shifts and dims of different lengths
        (
            "Roll",
            [T("x", "f32", np.ones((2, 3))), out("out", "f32", (2, 3))],
            ["ints shifts 2 1 1", "ints dims 1 0"],
            PARAM_INVALID,
        ),
    ],
)
def test_bad_input(op: Op, name: str, tensors: list, attrs: list[str], code: int) -> None:
    assert op(name, tensors, attrs).phase1 == code
