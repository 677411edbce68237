"""The point-wise losses (aclnnL1Loss, SmoothL1Loss, BinaryCrossEntropy, BinaryCrossEntropyWithLogits, KlDiv
and their backwards) against numpy references written from torch's definitions, and CANN's code per bad
input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID, PARAM_NULLPTR = ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op

NONE, MEAN, SUM = 0, 1, 2
BETA = 0.5


def softplus(z: np.ndarray) -> np.ndarray:
    return np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-z))


# name -> (loss(x, t, w, pw), d loss / d x, the self values' range, the target's)
LOSSES: dict[str, tuple[Callable, Callable, tuple[float, float], tuple[float, float]]] = {
    "L1Loss": (lambda x, t, w, p: np.abs(x - t), lambda x, t, w, p: np.sign(x - t), (-2, 2), (-2, 2)),
    "SmoothL1Loss": (
        lambda x, t, w, p: np.where(
            np.abs(x - t) < BETA, 0.5 * (x - t) ** 2 / BETA, np.abs(x - t) - 0.5 * BETA
        ),
        lambda x, t, w, p: np.where(np.abs(x - t) < BETA, (x - t) / BETA, np.sign(x - t)),
        (-2, 2),
        (-2, 2),
    ),
    "BinaryCrossEntropy": (
        lambda x, t, w, p: -w * (t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log(1 - x), -100)),
        lambda x, t, w, p: w * (x - t) / np.maximum((1 - x) * x, 1e-12),
        (0.05, 0.95),
        (0, 1),
    ),
    "BinaryCrossEntropyWithLogits": (
        lambda x, t, w, p: w * ((1 - t) * x + (1 + (p - 1) * t) * softplus(-x)),
        lambda x, t, w, p: w * ((1 - t) - (1 + (p - 1) * t) * sigmoid(-x)),
        (-4, 4),
        (0, 1),
    ),
    "KlDiv": (
        lambda x, t, w, p: np.where(t > 0, t * (np.log(np.where(t > 0, t, 1)) - x), 0.0),
        lambda x, t, w, p: -t,
        (-3, 0),
        (0, 1),
    ),
}


def loss_attrs(name: str, reduction: int) -> list[str]:
    attrs = [f"int reduction {reduction}"]
    if name.startswith("SmoothL1Loss"):
        attrs.append(f"float beta {BETA}")
    return attrs


def out_name(name: str, backward: bool) -> str:
    if name == "SmoothL1Loss":
        return "gradInput" if backward else "result"
    if name in ("L1Loss",):
        return "gradInput" if backward else "out"
    return "out"


def grad_name(name: str) -> str:
    return "gradOut" if name == "SmoothL1Loss" else "gradOutput"


@pytest.mark.parametrize("reduction", [NONE, MEAN, SUM])
@pytest.mark.parametrize("dt", ["f32", "f16"])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_forward_and_backward(op: Op, name: str, dt: str, reduction: int) -> None:
    loss, grad, xr, tr = LOSSES[name]
    rng = np.random.default_rng(30)
    x = rand(rng, (3, 4), dt, *xr)
    t = rand(rng, (4,), dt, *tr)  # broadcast against self
    t[0] = 0.0  # KlDiv's target 0, BCE's hard label
    weighted = name.startswith("BinaryCrossEntropy")
    w = rand(rng, (3, 1), dt, 0.5, 1.5) if weighted else np.ones(1)
    p = rand(rng, (4,), dt, 0.5, 2.0) if name == "BinaryCrossEntropyWithLogits" else np.ones(1)
    extra = [T("weight", dt, w)] if weighted else []
    if name == "BinaryCrossEntropyWithLogits":
        extra.append(T("posWeight", dt, p))
    per = loss(x, np.broadcast_to(t, x.shape), w, p)
    ref = per if reduction == NONE else (per.mean() if reduction == MEAN else per.sum())
    res = op(
        name,
        [T("self", dt, x), T("target", dt, t), *extra, out(out_name(name, False), dt, np.shape(ref))],
        loss_attrs(name, reduction),
    )
    check(res, out_name(name, False), np.asarray(ref), dt, scale=4.0)
    g = rand(rng, x.shape, dt, -1, 1) if reduction == NONE else rand(rng, (), dt, -1, 1)
    ref_grad = grad(x, np.broadcast_to(t, x.shape), w, p) * g / (x.size if reduction == MEAN else 1)
    res = op(
        name + "Backward",
        [
            T(grad_name(name), dt, g),
            T("self", dt, x),
            T("target", dt, t),
            *extra,
            out(out_name(name, True), dt, x.shape),
        ],
        loss_attrs(name, reduction),
    )
    check(res, out_name(name, True), ref_grad, dt, scale=4.0)


@pytest.mark.parametrize("reduction", [NONE, SUM])
def test_kl_div_with_a_log_target(op: Op, reduction: int) -> None:
    rng = np.random.default_rng(31)
    x, t = rand(rng, (2, 5), "f32", -3, 0), rand(rng, (2, 5), "f32", -3, 0)
    per = np.exp(t) * (t - x)
    ref = per if reduction == NONE else per.sum()
    attrs = [f"int reduction {reduction}", "int logTarget 1"]
    res = op("KlDiv", [T("self", "f32", x), T("target", "f32", t), out("out", "f32", np.shape(ref))], attrs)
    check(res, "out", np.asarray(ref), "f32")
    g = np.ones(x.shape) if reduction == NONE else np.ones(())
    res = op(
        "KlDivBackward",
        [T("gradOutput", "f32", g), T("self", "f32", x), T("target", "f32", t), out("out", "f32", x.shape)],
        attrs,
    )
    check(res, "out", -np.exp(t) * 1.0, "f32")


def test_mse_loss_is_the_same_primitive(op: Op) -> None:
    rng = np.random.default_rng(32)
    x, t = rand(rng, (3, 4), "f32"), rand(rng, (3, 4), "f32")
    res = op(
        "MseLoss", [T("self", "f32", x), T("target", "f32", t), out("out", "f32", ())], ["int reduction 1"]
    )
    check(res, "out", np.asarray(((x - t) ** 2).mean()), "f32")


@pytest.mark.parametrize(
    ("name", "tensors", "attrs", "code"),
    [
        # null: no target
        (
            "L1Loss",
            [T("self", "f32", np.ones((2, 3))), out("out", "f32", ())],
            ["int reduction 1"],
            PARAM_NULLPTR,
        ),
        # null: no gradient
        (
            "KlDivBackward",
            [T("self", "f32", np.ones(3)), T("target", "f32", np.ones(3)), out("out", "f32", (3,))],
            ["int reduction 0"],
            PARAM_NULLPTR,
        ),
        # dtype: integer self
        (
            "SmoothL1Loss",
            [T("self", "i32", np.ones(3)), T("target", "f32", np.ones(3)), out("result", "f32", ())],
            ["int reduction 1", "float beta 1"],
            PARAM_INVALID,
        ),
        # broadcast: self and target
        (
            "L1Loss",
            [T("self", "f32", np.ones((2, 3))), T("target", "f32", np.ones(2)), out("out", "f32", ())],
            ["int reduction 2"],
            PARAM_INVALID,
        ),
        # broadcast: a weight that widens the shape
        (
            "BinaryCrossEntropy",
            [
                T("self", "f32", np.full(3, 0.5)),
                T("target", "f32", np.ones(3)),
                T("weight", "f32", np.ones((2, 3))),
                out("out", "f32", ()),
            ],
            ["int reduction 1"],
            PARAM_INVALID,
        ),
        # shape: out not a scalar under a reduction
        (
            "KlDiv",
            [T("self", "f32", np.ones(3)), T("target", "f32", np.ones(3)), out("out", "f32", (3,))],
            ["int reduction 1"],
            PARAM_INVALID,
        ),
        # attribute: reduction out of range
        (
            "BinaryCrossEntropyWithLogits",
            [T("self", "f32", np.ones(3)), T("target", "f32", np.ones(3)), out("out", "f32", ())],
            ["int reduction 3"],
            PARAM_INVALID,
        ),
    ],
)
def test_bad_input(op: Op, name: str, tensors: list, attrs: list[str], code: int) -> None:
    res = op(name, tensors, attrs)
    assert res.phase1 == code, res.proc.stderr
