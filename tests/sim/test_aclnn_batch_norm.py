"""aclnnBatchNorm (training with running statistics, eval) and aclnnBatchNormBackward
(csrc/sim/opapi/op_batch_norm.cpp) against a numpy reference of torch's formulas, with their
bad-input classes."""

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

RNG = np.random.default_rng(36)
EPS, MOMENTUM = 1e-5, 0.1


def axes(x: np.ndarray) -> tuple[int, ...]:
    return (0, *range(2, x.ndim))


def per_channel(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    return v.reshape((1, -1) + (1,) * (x.ndim - 2))


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (2, 3, 4, 4)])
def test_training_normalises_and_moves_the_running_statistics(op: Op, shape: tuple[int, ...]) -> None:
    c = shape[1]
    x, w, b = rand(RNG, shape, "f32"), rand(RNG, (c,), "f32"), rand(RNG, (c,), "f32")
    rm, rv = rand(RNG, (c,), "f32"), rand(RNG, (c,), "f32", 0.5, 2)
    res = op(
        "BatchNorm",
        [
            T("input", "f32", x),
            T("weight", "f32", w),
            T("bias", "f32", b),
            T("runningMean", "f32", rm, out=True),
            T("runningVar", "f32", rv, out=True),
            out("output", "f32", shape),
            out("saveMean", "f32", (c,)),
            out("saveInvstd", "f32", (c,)),
        ],
        ["int training 1", f"float momentum {MOMENTUM}", f"float eps {EPS}"],
    )
    mean, var = x.mean(axis=axes(x)), x.var(axis=axes(x))
    m = x.size // c
    invstd = 1 / np.sqrt(var + EPS)
    ref = (x - per_channel(mean, x)) * per_channel(invstd * w, x) + per_channel(b, x)
    check(res, "output", ref, "f32")
    check(res, "saveMean", mean, "f32")
    check(res, "saveInvstd", invstd, "f32")
    check(res, "runningMean", (1 - MOMENTUM) * rm + MOMENTUM * mean, "f32")
    check(res, "runningVar", (1 - MOMENTUM) * rv + MOMENTUM * var * m / (m - 1), "f32")


def test_eval_uses_the_running_statistics(op: Op) -> None:
    x = rand(RNG, (2, 3, 4), "f32")
    rm, rv = rand(RNG, (3,), "f32"), rand(RNG, (3,), "f32", 0.5, 2)
    res = op(
        "BatchNorm",
        [
            T("input", "f32", x),
            T("runningMean", "f32", rm, out=True),
            T("runningVar", "f32", rv, out=True),
            out("output", "f32", x.shape),
            out("saveMean", "f32", (3,)),
            out("saveInvstd", "f32", (3,)),
        ],
        ["int training 0", f"float momentum {MOMENTUM}", f"float eps {EPS}"],
    )
    check(res, "output", (x - per_channel(rm, x)) / np.sqrt(per_channel(rv, x) + EPS), "f32")
    check(res, "runningMean", rm, "f32")  # unchanged in eval


def reference_backward(g, x, w, training, rm, rv):
    ax = axes(x)
    m = x.size // x.shape[1]
    mean = x.mean(axis=ax) if training else rm
    invstd = 1 / np.sqrt((x.var(axis=ax) if training else rv) + EPS)
    xhat = (x - per_channel(mean, x)) * per_channel(invstd, x)
    db, dw = g.sum(axis=ax), (g * xhat).sum(axis=ax)
    if training:
        dx = per_channel(w * invstd, x) * (g - per_channel(db, x) / m - xhat * per_channel(dw, x) / m)
    else:
        dx = per_channel(w * invstd, x) * g
    return dx, dw, db, mean, invstd


@pytest.mark.parametrize("training", [1, 0])
def test_backward_matches_the_formulas(op: Op, training: int) -> None:
    x, g = rand(RNG, (3, 2, 5), "f32"), rand(RNG, (3, 2, 5), "f32")
    w, rm, rv = rand(RNG, (2,), "f32"), rand(RNG, (2,), "f32"), rand(RNG, (2,), "f32", 0.5, 2)
    dx, dw, db, mean, invstd = reference_backward(g, x, w, training, rm, rv)
    res = op(
        "BatchNormBackward",
        [
            T("gradOut", "f32", g),
            T("input", "f32", x),
            T("weight", "f32", w),
            T("runningMean", "f32", rm),
            T("runningVar", "f32", rv),
            T("saveMean", "f32", ops.quantize(mean, "f32")),
            T("saveInvstd", "f32", ops.quantize(invstd, "f32")),
            out("gradInput", "f32", x.shape),
            out("gradWeight", "f32", (2,)),
            out("gradBias", "f32", (2,)),
        ],
        [f"int training {training}", f"float eps {EPS}", "bools outputMask 3 1 1 1"],
    )
    check(res, "gradInput", dx, "f32", scale=5)
    check(res, "gradWeight", dw, "f32", scale=5)
    check(res, "gradBias", db, "f32")


def test_backward_writes_only_the_selected_gradients(op: Op) -> None:
    x, g = rand(RNG, (4, 2), "f32"), rand(RNG, (4, 2), "f32")
    dx, _, db, mean, invstd = reference_backward(g, x, np.ones(2), 1, None, None)
    res = op(
        "BatchNormBackward",
        [
            T("gradOut", "f32", g),
            T("input", "f32", x),
            T("saveMean", "f32", mean),
            T("saveInvstd", "f32", invstd),
            out("gradInput", "f32", x.shape),
            out("gradBias", "f32", (2,)),
        ],
        ["int training 1", f"float eps {EPS}", "bools outputMask 3 1 0 1"],
    )
    check(res, "gradInput", dx, "f32", scale=5)
    check(res, "gradBias", db, "f32")


def test_bad_inputs_get_canns_codes(op: Op) -> None:
    x = np.ones((2, 3, 4))
    common = [out("output", "f32", (2, 3, 4)), out("saveMean", "f32", (3,)), out("saveInvstd", "f32", (3,))]
    attrs = ["int training 1", "float momentum 0.1", "float eps 1e-5"]
    assert op("BatchNorm", common, attrs).phase1 == PARAM_NULLPTR  # null input
    wrong_channels = op("BatchNorm", [T("input", "f32", x), T("weight", "f32", np.ones(4)), *common], attrs)
    assert wrong_channels.phase1 == PARAM_INVALID  # shape
    assert op("BatchNorm", [T("input", "i32", x), *common], attrs).phase1 == PARAM_INVALID  # dtype
    assert op("BatchNorm", [T("input", "f32", np.ones(3)), *common], attrs).phase1 == PARAM_INVALID  # rank
    eval_without_stats = op("BatchNorm", [T("input", "f32", x), *common], ["int training 0"])
    assert eval_without_stats.phase1 == PARAM_NULLPTR  # eval needs the running statistics
    bad_mask = op(
        "BatchNormBackward",
        [
            T("gradOut", "f32", x),
            T("input", "f32", x),
            T("saveMean", "f32", np.ones(3)),
            T("saveInvstd", "f32", np.ones(3)),
            out("gradInput", "f32", x.shape),
        ],
        ["int training 1", "bools outputMask 2 1 1"],
    )
    assert bad_mask.phase1 == PARAM_INVALID  # attribute
