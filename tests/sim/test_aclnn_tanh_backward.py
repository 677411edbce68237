"""aclnnTanhBackward (the backward of tanh from its output, e.g. GPT-2's gelu_new) against numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID = ops.PARAM_INVALID
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16"])
def test_tanh_backward(op: Op, dt: str) -> None:
    rng = np.random.default_rng(12)
    grad, y = rand(rng, (4, 6), dt), rand(rng, (4, 6), dt, -1.0, 1.0)
    tensors = [T("gradOutput", dt, grad), T("output", dt, y), out("gradInput", dt, y.shape)]
    check(op("TanhBackward", tensors), "gradInput", grad * (1 - y * y), dt)


def test_tanh_backward_refuses_integers(op: Op) -> None:
    x = np.ones((2, 2))
    tensors = [T("gradOutput", "i32", x), T("output", "i32", x), out("gradInput", "i32", x.shape)]
    res = op("TanhBackward", tensors)
    assert res.phase1 == PARAM_INVALID, res.proc.stderr
