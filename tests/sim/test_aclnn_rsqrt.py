"""aclnnRsqrt and aclnnInplaceRsqrt against numpy (the reciprocal square root RMSNorm is built from):
float types, integer input computed as float32, and inf / nan at 0 and below."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand, FLOATS = ops.T, ops.check, ops.out, ops.rand, ops.FLOATS
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


@pytest.mark.parametrize("dt", FLOATS)
def test_rsqrt_and_in_place(op: Op, dt: str) -> None:
    rng = np.random.default_rng(95)
    x = rand(rng, (3, 6), dt, 0.01, 9)
    check(op("Rsqrt", [T("self", dt, x), out("out", dt, x.shape)]), "out", 1 / np.sqrt(x), dt)
    check(op("InplaceRsqrt", [T("selfRef", dt, x, out=True)]), "selfRef", 1 / np.sqrt(x), dt)


def test_rsqrt_of_integers_and_edges(op: Op) -> None:
    x = np.array([0.0, 1.0, 4.0, 9.0, -1.0])
    res = op("Rsqrt", [T("self", "i32", x), out("out", "f32", x.shape)])
    assert res.phase1 == 0 and res.phase2 == [0], res.proc.stderr
    got = res.outputs["out"]
    np.testing.assert_array_equal(got[:3], [np.inf, 1.0, 0.5])
    assert abs(got[3] - 1 / 3) < 1e-7 and np.isnan(got[4])
