"""The normalisation and loss entry points op-plugin routes beside the common ones: aclnnFastLayerNorm
(torch_npu's layer_norm in compatible mode), aclnnNLLLoss2d and its backward (nll_loss2d), aclnnNorm
(at::norm) — against numpy references, and CANN's code per bad-input class."""

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

norms = load_sibling(Path(__file__).resolve().parent, "test_aclnn_norms_amp")


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16"])
def test_fast_layer_norm_is_layer_norm(op: Op, dt: str) -> None:
    rng = np.random.default_rng(40)
    x, w, b = rand(rng, (3, 2, 8), dt), rand(rng, (2, 8), dt), rand(rng, (2, 8), dt)
    mu = x.reshape(3, -1).mean(axis=1)
    var = x.reshape(3, -1).var(axis=1)
    rstd = 1 / np.sqrt(var + 1e-5)
    ref = ((x - mu[:, None, None]) * rstd[:, None, None]) * w + b
    res = op(
        "FastLayerNorm",
        [T("input", dt, x), T("weight", dt, w), T("bias", dt, b), out("out", dt, x.shape),
         out("mean", "f32", (3, 1, 1)), out("rstd", "f32", (3, 1, 1))],
        ["ints normalizedShape 2 2 8"],
    )  # fmt: skip
    check(res, "out", ref, dt, scale=4.0)
    check(res, "mean", mu.reshape(3, 1, 1), "f32", scale=4.0)
    check(res, "rstd", rstd.reshape(3, 1, 1), "f32", scale=4.0)


def test_fast_layer_norm_refusals(op: Op) -> None:
    x = np.ones((2, 4))
    assert op("FastLayerNorm", [T("input", "f32", x), out("out", "f32", x.shape)]).phase1 == PARAM_NULLPTR
    res = op(
        "FastLayerNorm", [T("input", "f32", x), out("out", "f32", x.shape)], ["ints normalizedShape 1 3"]
    )
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # not the input's tail
    res = op(
        "FastLayerNorm", [T("input", "i32", x), out("out", "i32", x.shape)], ["ints normalizedShape 1 4"]
    )
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # not a float type


def nll2d_reference(
    x: np.ndarray, target: np.ndarray, w: np.ndarray, ignore: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel losses [N, H, W] and weights."""
    keep = target != ignore
    cls = np.where(keep, target, 0)
    ws = np.where(keep, w[cls], 0.0)
    n, h, ww = np.indices(target.shape)
    return -ws * x[n, cls, h, ww], ws


@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_nll_loss2d_forward_and_backward(op: Op, reduction: int, dt: str) -> None:
    rng = np.random.default_rng(41)
    x, w = rand(rng, (2, 3, 4, 5), dt), rand(rng, (3,), dt, 0.5, 2)
    target = rng.integers(0, 3, size=(2, 4, 5))
    target[0, 1, 2] = target[1, 3, 4] = 7  # ignored samples
    loss, ws = nll2d_reference(x, target, w, 7)
    ref = [loss, loss.sum() / ws.sum(), loss.sum()][reduction]
    attrs = [f"int reduction {reduction}", "int ignoreIndex 7"]
    res = op(
        "NLLLoss2d",
        [T("self", dt, x), T("target", "i64", target), T("weight", dt, w),
         out("out", dt, target.shape if reduction == 0 else ()), out("totalWeight", dt, ())],
        attrs,
    )  # fmt: skip
    check(res, "out", np.asarray(ref), dt, scale=4.0)
    check(res, "totalWeight", np.asarray(ws.sum()), dt, scale=4.0)
    g = rand(rng, target.shape, dt) if reduction == 0 else np.array(0.5)
    res = op(
        "NLLLoss2dBackward",
        [T("gradOutput", dt, g), T("self", dt, x), T("target", "i64", target), T("weight", dt, w),
         T("totalWeight", dt, np.asarray(ws.sum())), out("out", dt, x.shape)],
        attrs,
    )  # fmt: skip
    scale = g if reduction == 0 else np.full(target.shape, float(g) / (ws.sum() if reduction == 1 else 1.0))
    ref_grad = np.zeros_like(x)
    n, h, ww = np.nonzero(target != 7)
    ref_grad[n, target[n, h, ww], h, ww] = -ws[n, h, ww] * scale[n, h, ww]
    check(res, "out", ref_grad, dt, scale=4.0)


@pytest.mark.parametrize(
    ("self_shape", "target_shape", "target_dt"),
    [((2, 3, 4), (2, 4), "i64"), ((2, 3, 4, 5), (2, 4, 4), "i64"), ((2, 3, 4, 5), (2, 4, 5), "f32")],
    ids=["self-not-4d", "target-shape", "target-float"],
)
def test_nll_loss2d_refusals(
    op: Op, self_shape: tuple[int, ...], target_shape: tuple[int, ...], target_dt: str
) -> None:
    res = op(
        "NLLLoss2d",
        [T("self", "f32", np.zeros(self_shape)), T("target", target_dt, np.zeros(target_shape)),
         out("out", "f32", ()), out("totalWeight", "f32", ())],
    )  # fmt: skip
    assert res.phase1 == PARAM_INVALID, res.proc.stderr


def test_nll_loss2d_null_self(op: Op) -> None:
    res = op(
        "NLLLoss2d",
        [T("target", "i64", np.zeros((1, 2, 2))), out("out", "f32", ()), out("totalWeight", "f32", ())],
    )
    assert res.phase1 == PARAM_NULLPTR


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, np.inf, 0.0], ids=str)
@pytest.mark.parametrize(("dims", "keep"), [((), False), ((1,), True), ((0, 2), False)], ids=str)
def test_norm(op: Op, p: float, dims: tuple[int, ...], keep: bool) -> None:
    x = rand(np.random.default_rng(42), (3, 4, 5), "f32")
    x[1, 1, :3] = 0.0
    ref = np.asarray(norms.vector_norm(x, p, dims or None, keep), dtype=np.float64)
    attrs = [
        f"scalar p 0 {p}",
        f"ints dim {len(dims)} {' '.join(map(str, dims))}".rstrip(),
        f"int keepdim {int(keep)}",
    ]
    check(op("Norm", [T("self", "f32", x), out("out", "f32", ref.shape)], attrs), "out", ref, "f32")


def test_norm_in_float16_into_float32_and_its_refusals(op: Op) -> None:
    x = rand(np.random.default_rng(43), (4, 6), "f16")
    res = op("Norm", [T("self", "f16", x), out("out", "f32", (4,))], ["scalar p 0 2", "ints dim 1 -1"])
    check(res, "out", np.sqrt((x * x).sum(axis=-1)), "f32")
    res = op("Norm", [T("self", "f16", x), out("out", "f32", (6,))], ["scalar p 0 2", "ints dim 1 -1"])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # out's shape
    res = op("Norm", [T("self", "f16", x), out("out", "f32", (4,))], ["scalar p 0 2", "ints dim 1 2"])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # a dimension outside self
    res = op("Norm", [T("self", "i32", x), out("out", "i32", (4,))], ["scalar p 0 2", "ints dim 1 -1"])
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # not a float type
    assert (
        op("Norm", [T("self", "f32", x), out("out", "f32", (4,))], ["ints dim 1 -1"]).phase1 == PARAM_NULLPTR
    )
