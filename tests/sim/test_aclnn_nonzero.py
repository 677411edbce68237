"""aclnnNonzero, aclnnNonzeroV2 and aclnnMaskedSelect: data-dependent output shapes against numpy; and
aclnnInplaceMaskedScatter, masked_select's backward.

The caller allocates the output at its largest; the run writes the result to its front and sets the
aclTensor's view shape, which the runner prints ("view NAME DIMS...") from aclGetViewShape.
"""

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


def view_shape(res, name: str) -> tuple[int, ...]:
    for line in res.proc.stdout.splitlines():
        words = line.split()
        if words[:2] == ["view", name]:
            return tuple(int(w) for w in words[2:])
    raise AssertionError(f"no view line for {name}: {res.proc.stdout}")


def result(res, name: str) -> np.ndarray:
    """The front of the output, in its view shape after the run."""
    assert res.phase1 == 0 and res.phase2 == [0], res.proc.stderr
    shape = view_shape(res, name)
    return res.outputs[name].reshape(-1)[: int(np.prod(shape))].reshape(shape)


@pytest.mark.parametrize("dt", ["f32", "bool", "i32", "bf16"])
@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4)])
def test_nonzero(op: Op, dt: str, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(20)
    x = np.where(rng.random(shape) < 0.4, rng.integers(1, 5, size=shape), 0).astype(np.float64)
    ref = np.argwhere(x)
    n, d = x.size, len(shape)
    res = op("Nonzero", [T("self", dt, x), out("out", "i64", (n, d))])
    np.testing.assert_array_equal(result(res, "out"), ref)
    res = op("NonzeroV2", [T("self", dt, x), out("out", "i64", (d, n))])
    np.testing.assert_array_equal(result(res, "out"), ref.T)


def test_nonzero_of_a_view_and_of_all_zeros(op: Op) -> None:
    values = np.array([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]])
    res = op("Nonzero", [ops.transposed_view("self", "f32", values), out("out", "i64", (6, 2))])
    np.testing.assert_array_equal(result(res, "out"), np.argwhere(values))
    res = op("Nonzero", [T("self", "f32", np.zeros((2, 3))), out("out", "i64", (6, 2))])
    assert result(res, "out").shape == (0, 2)


@pytest.mark.parametrize(("sshape", "mshape"), [((3, 4), (3, 4)), ((3, 4), (4,)), ((1, 4), (3, 1))])
@pytest.mark.parametrize(("dt", "mdt"), [("f32", "bool"), ("i64", "bool"), ("f16", "u8")])
def test_masked_select(op: Op, dt: str, mdt: str, sshape: tuple[int, ...], mshape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(21)
    x = (
        ops.quantize(rng.integers(-100, 100, size=sshape) / 4.0, dt)
        if dt != "i64"
        else rng.integers(-9, 9, sshape) * 1.0
    )
    mask = (rng.random(mshape) < 0.5).astype(np.float64)
    shape = np.broadcast_shapes(sshape, mshape)
    ref = np.broadcast_to(x, shape)[np.broadcast_to(mask, shape).astype(bool)]
    res = op("MaskedSelect", [T("self", dt, x), T("mask", mdt, mask), out("out", dt, (int(np.prod(shape)),))])
    np.testing.assert_array_equal(result(res, "out"), ref)


@pytest.mark.parametrize(("dt", "mshape"), [("f32", (3, 4)), ("i32", (4,)), ("bf16", (3, 1))])
def test_masked_scatter(op: Op, dt: str, mshape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(22)
    x = (
        ops.quantize(rng.integers(-50, 50, size=(3, 4)) / 2.0, dt)
        if dt != "i32"
        else rng.integers(-9, 9, (3, 4)) * 1.0
    )
    mask = (rng.random(mshape) < 0.5).astype(np.float64)
    source = ops.quantize(rng.integers(-50, 50, size=(13,)) / 4.0, dt) if dt != "i32" else np.arange(13.0)
    full = np.broadcast_to(mask, x.shape).astype(bool)
    ref = x.copy()
    ref[full] = source[: int(full.sum())]
    res = op(
        "InplaceMaskedScatter",
        [T("selfRef", dt, x, out=True), T("mask", "bool", mask), T("source", dt, source)],
    )
    assert res.phase1 == 0 and res.phase2 == [0], res.proc.stderr
    np.testing.assert_array_equal(res.outputs["selfRef"], ref)


@pytest.mark.parametrize(
    ("name", "tensors"),
    [
        ("Nonzero", [T("self", "f32", np.ones((2, 3))), out("out", "i32", (6, 2))]),  # dtype: out not int64
        ("Nonzero", [T("self", "f32", np.ones((2, 3))), out("out", "i64", (5, 2))]),  # shape: too few rows
        ("NonzeroV2", [T("self", "f32", np.ones((2, 3))), out("out", "i64", (6, 2))]),  # shape: (N, D) for V2
        (
            "MaskedSelect",
            [T("self", "f32", np.ones((2, 3))), T("mask", "f32", np.ones(3)), out("out", "f32", (6,))],
        ),
        (
            "MaskedSelect",
            [T("self", "f32", np.ones((2, 3))), T("mask", "bool", np.ones(2)), out("out", "f32", (6,))],
        ),
        (
            "MaskedSelect",
            [T("self", "f32", np.ones((2, 3))), T("mask", "bool", np.ones(3)), out("out", "f16", (6,))],
        ),
    ],
)
def test_bad_input_is_param_invalid(op: Op, name: str, tensors: list) -> None:
    res = op(name, tensors)
    assert res.phase1 == PARAM_INVALID, res.proc.stderr


def test_null_mask_is_nullptr(op: Op) -> None:
    res = op("MaskedSelect", [T("self", "f32", np.ones((2, 3))), out("out", "f32", (6,))])
    assert res.phase1 == PARAM_NULLPTR, res.proc.stderr
