"""aclnnBaddbmm and aclnnAddbmm (and their in-place forms; torch's baddbmm / addbmm as op-plugin
routes them) against numpy in float64 from the same quantized inputs, and their error paths,
through programs/aclnn_runner.cpp as in test_aclnn_ops.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
FLOATS, PARAM_INVALID, PARAM_NULLPTR = ops.FLOATS, ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op

SCALARS = ["scalar beta 0 0.5", "scalar alpha 0 -1.5"]


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("self_shape", [(3, 4, 6), (6,), (4, 1)])
def test_baddbmm(op: Op, dt: str, self_shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(60)
    s, a, b = rand(rng, self_shape, dt), rand(rng, (3, 4, 40), dt), rand(rng, (3, 40, 6), dt)
    res = op(
        "Baddbmm",
        [T("self", dt, s), T("batch1", dt, a), T("batch2", dt, b), out("out", dt, (3, 4, 6))],
        SCALARS,
    )
    check(res, "out", 0.5 * s - 1.5 * (a @ b), dt, scale=4)


@pytest.mark.parametrize("dt", FLOATS)
def test_addbmm_sums_the_batches(op: Op, dt: str) -> None:
    rng = np.random.default_rng(61)
    s, a, b = rand(rng, (5,), dt), rand(rng, (4, 3, 16), dt), rand(rng, (4, 16, 5), dt)
    res = op(
        "Addbmm", [T("self", dt, s), T("batch1", dt, a), T("batch2", dt, b), out("out", dt, (3, 5))], SCALARS
    )
    check(res, "out", 0.5 * s - 1.5 * (a @ b).sum(axis=0), dt, scale=8)


def test_in_place_forms_and_beta_zero_ignore_self(op: Op) -> None:
    rng = np.random.default_rng(62)
    a, b = rand(rng, (2, 3, 8), "f32"), rand(rng, (2, 8, 4), "f32")
    s = rand(rng, (2, 3, 4), "f32")
    res = op(
        "InplaceBaddbmm",
        [T("selfRef", "f32", s, out=True), T("batch1", "f32", a), T("batch2", "f32", b)],
        SCALARS,
    )
    check(res, "selfRef", 0.5 * s - 1.5 * (a @ b), "f32", scale=4)
    s2 = rand(rng, (3, 4), "f32")
    res = op(
        "InplaceAddbmm",
        [T("selfRef", "f32", s2, out=True), T("batch1", "f32", a), T("batch2", "f32", b)],
        SCALARS,
    )
    check(res, "selfRef", 0.5 * s2 - 1.5 * (a @ b).sum(axis=0), "f32", scale=4)
    nan_self = np.full((2, 3, 4), np.nan)  # torch: with beta 0, self is not read
    res = op(
        "Baddbmm",
        [
            T("self", "f32", nan_self),
            T("batch1", "f32", a),
            T("batch2", "f32", b),
            out("out", "f32", (2, 3, 4)),
        ],
        ["scalar beta 0 0", "scalar alpha 0 1"],
    )
    check(res, "out", a @ b, "f32", scale=4)


def test_baddbmm_reads_a_transposed_batch(op: Op) -> None:
    rng = np.random.default_rng(63)
    a = rand(rng, (1, 5, 32), "f32")
    bt = rand(rng, (32, 3), "f32")
    s = rand(rng, (1, 5, 3), "f32")
    mat2 = T("batch2", "f32", bt[None], strides=(96, 1, 32))  # held in storage as its transpose
    res = op(
        "Baddbmm", [T("self", "f32", s), T("batch1", "f32", a), mat2, out("out", "f32", (1, 5, 3))], SCALARS
    )
    check(res, "out", 0.5 * s - 1.5 * (a @ bt), "f32", scale=4)


def test_baddbmm_and_addbmm_reject_bad_input(op: Op) -> None:
    rng = np.random.default_rng(64)
    a, b = rand(rng, (2, 3, 8), "f32"), rand(rng, (2, 8, 4), "f32")
    s = rand(rng, (2, 3, 4), "f32")
    res = op(
        "Baddbmm",
        [T("self", "f32", s), T("batch1", "f32", a), T("batch2", "f32", rand(rng, (3, 8, 4), "f32")),
         out("out", "f32", (2, 3, 4))],
        SCALARS,
    )  # fmt: skip
    assert res.phase1 == PARAM_INVALID and "batch sizes" in res.proc.stderr
    res = op(
        "Baddbmm",
        [T("self", "f32", s), T("batch1", "f32", a), T("batch2", "f32", rand(rng, (2, 7, 4), "f32")),
         out("out", "f32", (2, 3, 4))],
        SCALARS,
    )  # fmt: skip
    assert res.phase1 == PARAM_INVALID and "inner dimensions differ" in res.proc.stderr
    res = op(
        "Addbmm",
        [T("self", "f32", rand(rng, (5,), "f32")), T("batch1", "f32", a), T("batch2", "f32", b),
         out("out", "f32", (3, 4))],
        SCALARS,
    )  # fmt: skip
    assert res.phase1 == PARAM_INVALID and "does not broadcast" in res.proc.stderr
    res = op(
        "Addbmm",
        [T("self", "f32", rand(rng, (4,), "f32")), T("batch1", "f32", a), T("batch2", "f16", b),
         out("out", "f32", (3, 4))],
        SCALARS,
    )  # fmt: skip
    assert res.phase1 == PARAM_INVALID
    res = op("Baddbmm", [T("batch1", "f32", a), T("batch2", "f32", b), out("out", "f32", (2, 3, 4))], SCALARS)
    assert res.phase1 == PARAM_NULLPTR
