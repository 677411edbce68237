"""Operators op-plugin routes common ATen operators to (glu and its backward, cumprod, reflection and
replication padding, adaptive average pooling, sigmoid_ and tanh_ in place) against numpy references,
and CANN's code per bad-input class."""

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


def check_any(res: ops.Result, name: str, ref: np.ndarray, dt: str, scale: float = 1.0) -> None:
    """check() for a float type; exact equality for an integer one."""
    if dt in ops.TOL:
        check(res, name, ref, dt, scale=scale)
    else:
        assert res.phase1 == 0 and res.phase2 and all(s == 0 for s in res.phase2), res.proc.stderr
        np.testing.assert_array_equal(res.outputs[name], ref)


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-z))


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("dt", ["f32", "f16", "bf16"])
def test_glu_forward_and_backward(op: Op, dim: int, dt: str) -> None:
    rng = np.random.default_rng(50)
    x = rand(rng, (4, 6, 2), dt)
    a, b = np.split(x, 2, axis=dim)
    ref = a * sigmoid(b)
    res = op("Glu", [T("self", dt, x), out("out", dt, ref.shape)], [f"int dim {dim}"])
    check(res, "out", ref, dt, scale=4.0)
    g = rand(rng, ref.shape, dt)
    ref_grad = np.concatenate([g * sigmoid(b), g * a * sigmoid(b) * (1 - sigmoid(b))], axis=dim)
    res = op(
        "GluBackward", [T("gradOut", dt, g), T("self", dt, x), out("out", dt, x.shape)], [f"int dim {dim}"]
    )
    check(res, "out", ref_grad, dt, scale=4.0)


def test_glu_refusals(op: Op) -> None:
    x = np.ones((3, 4))
    res = op("Glu", [T("self", "f32", x), out("out", "f32", (3, 2))], ["int dim 0"])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # odd size along dim
    res = op("Glu", [T("self", "f32", x), out("out", "f32", (3, 2))], ["int dim 2"])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # dim out of range
    res = op("Glu", [T("self", "i32", x), out("out", "i32", (3, 2))], ["int dim 1"])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # not a float type
    res = op("Glu", [T("self", "f32", x), out("out", "f32", (3, 4))], ["int dim 1"])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # out's shape
    res = op("GluBackward", [T("self", "f32", x), out("out", "f32", x.shape)], ["int dim 1"])
    assert res.phase1 == PARAM_NULLPTR


@pytest.mark.parametrize(("dt", "out_dt"), [("f32", "f32"), ("i32", "i32"), ("f16", "f32")])
@pytest.mark.parametrize("dim", [0, 2, -2])
def test_cumprod(op: Op, dt: str, out_dt: str, dim: int) -> None:
    rng = np.random.default_rng(51)
    x = rand(rng, (3, 4, 2), dt, 0.5, 1.5) if dt != "i32" else rng.integers(-3, 4, size=(3, 4, 2))
    ref = np.cumprod(x.astype(np.float64), axis=dim)
    attrs = [f"scalar dim {ACL['i64']} {dim}", f"int dtype {ACL[out_dt]}"]
    res = op("Cumprod", [T("input", dt, x), out("out", out_dt, x.shape)], attrs)
    check_any(res, "out", ref, out_dt, scale=4.0)


def test_cumprod_refusals(op: Op) -> None:
    x = np.ones((2, 3))
    attrs = [f"scalar dim {ACL['i64']} 2", f"int dtype {ACL['f32']}"]
    assert op("Cumprod", [T("input", "f32", x), out("out", "f32", x.shape)], attrs).phase1 == PARAM_INVALID
    attrs = [f"scalar dim {ACL['i64']} 1", f"int dtype {ACL['f16']}"]
    assert op("Cumprod", [T("input", "f32", x), out("out", "f32", x.shape)], attrs).phase1 == PARAM_INVALID
    attrs = [f"int dtype {ACL['f32']}"]
    assert op("Cumprod", [T("input", "f32", x), out("out", "f32", x.shape)], attrs).phase1 == PARAM_NULLPTR


PADDING = (2, 1, 0, 3, 3, 1)  # left, right, top, bottom, front, back


@pytest.mark.parametrize(("kind", "mode"), [("Reflection", "reflect"), ("Replication", "edge")])
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize(("batched", "dt"), [(False, "f32"), (True, "f16"), (False, "i64")])
def test_pad(op: Op, kind: str, mode: str, k: int, batched: bool, dt: str) -> None:
    rng = np.random.default_rng(52)
    shape = (2, 3)[: 1 + batched] + (4, 5, 6)[3 - k :]
    x = rand(rng, shape, dt) if dt != "i64" else rng.integers(-50, 50, size=shape)
    padding = PADDING[: 2 * k]
    widths = [(0, 0)] * (len(shape) - k) + [(padding[2 * i], padding[2 * i + 1]) for i in reversed(range(k))]
    ref = np.pad(x, widths, mode=mode)
    attrs = [f"ints padding {2 * k} {' '.join(map(str, padding))}"]
    res = op(f"{kind}Pad{k}d", [T("self", dt, x), out("out", dt, ref.shape)], attrs)
    check_any(res, "out", ref.astype(np.float64), dt)


@pytest.mark.parametrize("name", ["ReflectionPad2d", "ReplicationPad2d"])
def test_pad2d_refusals(op: Op, name: str) -> None:
    x = np.ones((2, 3, 4))

    def phase1(padding: str, shape: tuple[int, ...], dt: str = "f32", values: np.ndarray = x) -> int:
        return op(name, [T("self", dt, values), out("out", dt, shape)], [padding]).phase1

    assert phase1("ints padding 3 1 1 1", (2, 5, 6)) == PARAM_INVALID  # three values
    assert phase1("ints padding 4 -1 1 1 1", (2, 5, 5)) == PARAM_INVALID  # negative
    assert phase1("ints padding 4 1 1 1 1", (2, 5, 5)) == PARAM_INVALID  # out's shape
    assert phase1("ints padding 4 1 1 1 1", (5, 6), values=np.ones((3, 4))) == PARAM_INVALID  # 2-D self
    assert phase1("ints padding 4 1 1 1 1", (2, 5, 6), dt="bool") == PARAM_INVALID
    assert op(name, [T("self", "f32", x), out("out", "f32", (2, 5, 6))]).phase1 == PARAM_NULLPTR


def test_reflection_pad_must_be_smaller_than_the_dimension(op: Op) -> None:
    x = np.ones((1, 3, 4))
    res = op(
        "ReflectionPad2d", [T("self", "f32", x), out("out", "f32", (1, 9, 4))], ["ints padding 4 0 0 3 3"]
    )
    assert res.phase1 == PARAM_INVALID, res.proc.stderr
    res = op(
        "ReplicationPad2d", [T("self", "f32", x), out("out", "f32", (1, 9, 4))], ["ints padding 4 0 0 3 3"]
    )
    check(res, "out", np.pad(x, [(0, 0), (3, 3), (0, 0)], mode="edge"), "f32")


def adaptive_avg_pool2d(x: np.ndarray, oh: int, ow: int) -> np.ndarray:
    h, w = x.shape[-2:]
    r = np.zeros((*x.shape[:-2], oh, ow))
    for i in range(oh):
        h0, h1 = i * h // oh, -(-(i + 1) * h // oh)
        for j in range(ow):
            w0, w1 = j * w // ow, -(-(j + 1) * w // ow)
            r[..., i, j] = x[..., h0:h1, w0:w1].mean(axis=(-2, -1))
    return r


@pytest.mark.parametrize(
    ("shape", "size"), [((2, 3, 7, 5), (3, 2)), ((3, 6, 6), (1, 1)), ((1, 2, 4, 4), (4, 4))]
)
@pytest.mark.parametrize("dt", ["f32", "bf16"])
def test_adaptive_avg_pool2d(op: Op, shape: tuple[int, ...], size: tuple[int, int], dt: str) -> None:
    x = rand(np.random.default_rng(53), shape, dt)
    ref = adaptive_avg_pool2d(x, *size)
    res = op(
        "AdaptiveAvgPool2d",
        [T("self", dt, x), out("out", dt, ref.shape)],
        [f"ints outputSize 2 {size[0]} {size[1]}"],
    )
    check(res, "out", ref, dt, scale=4.0)


def test_adaptive_avg_pool2d_refusals(op: Op) -> None:
    x = np.ones((2, 4, 4))

    def phase1(size: str, shape: tuple[int, ...], dt: str = "f32", values: np.ndarray = x) -> int:
        return op("AdaptiveAvgPool2d", [T("self", dt, values), out("out", dt, shape)], [size]).phase1

    assert phase1("ints outputSize 1 2", (2, 2, 2)) == PARAM_INVALID
    assert phase1("ints outputSize 2 0 2", (2, 0, 2)) == PARAM_INVALID
    assert phase1("ints outputSize 2 2 2", (2, 2, 3)) == PARAM_INVALID
    assert phase1("ints outputSize 2 2 2", (2, 2), values=np.ones((4, 4))) == PARAM_INVALID
    assert phase1("ints outputSize 2 2 2", (2, 2, 2), dt="i32") == PARAM_INVALID
    assert (
        op("AdaptiveAvgPool2d", [T("self", "f32", x), out("out", "f32", (2, 2, 2))]).phase1 == PARAM_NULLPTR
    )


@pytest.mark.parametrize(("name", "fn"), [("InplaceSigmoid", sigmoid), ("InplaceTanh", np.tanh)])
@pytest.mark.parametrize("dt", ["f32", "bf16"])
def test_in_place_sigmoid_and_tanh(op: Op, name: str, fn, dt: str) -> None:
    x = rand(np.random.default_rng(54), (3, 5), dt, -4, 4)
    check(op(name, [T("selfRef", dt, x, out=True)]), "selfRef", fn(x), dt, scale=4.0)
    assert op(name, [T("selfRef", "i32", np.ones(3), out=True)]).phase1 == PARAM_INVALID
    assert op(name, []).phase1 == PARAM_NULLPTR
