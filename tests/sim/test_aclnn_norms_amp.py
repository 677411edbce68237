"""The operators clip_grad_norm_ and torch.amp.GradScaler reach on device npu, against numpy:
aclnnLinalgVectorNorm, aclnnForeachNorm, aclnnForeachNonFiniteCheckAndUnscale and aclnnAmpUpdateScale
(torch's _amp_update_scale_ rule). (aclnnStack, which clip_grad_norm_ reaches too, is tested with the
layout operators.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID = ops.PARAM_INVALID
ACL = ops.ACL
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


def vector_norm(x: np.ndarray, p: float, axis: tuple[int, ...] | None, keep: bool) -> np.ndarray:
    a = np.abs(x)
    if p == np.inf:
        return a.max(axis=axis, keepdims=keep)
    if p == -np.inf:
        return a.min(axis=axis, keepdims=keep)
    if p == 0:
        return (a != 0).sum(axis=axis, keepdims=keep).astype(np.float64)
    return (a**p).sum(axis=axis, keepdims=keep) ** (1 / p)


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, np.inf, -np.inf, 0.0], ids=str)
@pytest.mark.parametrize(("dims", "keep"), [((), False), ((1,), False), ((0, 2), True)], ids=str)
def test_linalg_vector_norm(op: Op, p: float, dims: tuple[int, ...], keep: bool) -> None:
    x = rand(np.random.default_rng(3), (3, 4, 5), "f32")
    x[0, 0, :2] = 0.0  # zeros for the order-0 count
    ref = np.asarray(vector_norm(x, p, dims or None, keep), dtype=np.float64)
    attrs = [f"scalar ord 0 {p}", f"ints dims {len(dims)} {' '.join(map(str, dims))}".rstrip(),
             f"int keepDims {int(keep)}", f"int dtype {ACL['f32']}"]  # fmt: skip
    check(
        op("LinalgVectorNorm", [T("self", "f32", x), out("out", "f32", ref.shape)], attrs), "out", ref, "f32"
    )


def test_linalg_vector_norm_in_float16_and_its_refusals(op: Op) -> None:
    x = rand(np.random.default_rng(4), (4, 6), "f16")
    attrs = ["scalar ord 0 2", "ints dims 1 -1", "int keepDims 0", f"int dtype {ACL['f16']}"]
    res = op("LinalgVectorNorm", [T("self", "f16", x), out("out", "f16", (4,))], attrs)
    check(res, "out", np.sqrt((x * x).sum(axis=-1)), "f16")
    for dims, shape in [("ints dims 1 2", (4,)), ("ints dims 1 1", (6,)), ("ints dims 2 1 1", (4,))]:
        attrs = ["scalar ord 0 2", dims, "int keepDims 0", f"int dtype {ACL['f16']}"]
        res = op("LinalgVectorNorm", [T("self", "f16", x), out("out", "f16", shape)], attrs)
        assert res.phase1 == PARAM_INVALID, (dims, res.proc.stderr)
    attrs = ["scalar ord 0 2", "ints dims 0", "int keepDims 0", f"int dtype {ACL['f32']}"]
    res = op("LinalgVectorNorm", [T("self", "f16", x), out("out", "f16", ())], attrs)
    assert res.phase1 == PARAM_INVALID, res.proc.stderr  # dtype is not out's type


@pytest.mark.parametrize("p", [2.0, 1.0, np.inf], ids=str)
def test_foreach_norm(op: Op, p: float) -> None:
    rng = np.random.default_rng(5)
    a, b = rand(rng, (3, 4), "f32"), rand(rng, (7,), "f32")
    tensors = [T("a", "f32", a), T("b", "f32", b), out("na", "f32", ()), out("nb", "f32", ())]
    res = op("ForeachNorm", tensors, [f"scalar scalar 0 {p}"], after=["list x 2 a b", "list out 2 na nb"])
    check(res, "na", np.asarray(vector_norm(a, p, None, False)), "f32")
    check(res, "nb", np.asarray(vector_norm(b, p, None, False)), "f32")


def test_foreach_norm_refuses_an_out_of_more_than_one_element(op: Op) -> None:
    a = np.ones((2, 2))
    res = op("ForeachNorm", [T("a", "f32", a), out("na", "f32", (2,))], ["scalar scalar 0 2"],
             after=["list x 1 a", "list out 1 na"])  # fmt: skip
    assert res.phase1 == PARAM_INVALID, res.proc.stderr


@pytest.mark.parametrize("bad", [None, np.inf, np.nan])
def test_foreach_non_finite_check_and_unscale(op: Op, bad: float | None) -> None:
    rng = np.random.default_rng(7)
    a, b = rand(rng, (3, 4), "f32"), rand(rng, (5,), "f16")
    if bad is not None:
        b[2] = bad
    found, inv = T("foundInf", "f32", np.zeros(1), out=True), T("invScale", "f32", np.array([0.125]))
    tensors = [T("a", "f32", a, out=True), T("b", "f16", b, out=True), found, inv]
    res = op("ForeachNonFiniteCheckAndUnscale", tensors, after=["list scaledGrads 2 a b"])
    check(res, "a", a * 0.125, "f32")
    assert res.outputs["foundInf"].tolist() == [0.0 if bad is None else 1.0]
    finite = np.isfinite(b)
    np.testing.assert_allclose(res.outputs["b"][finite], (b * 0.125)[finite], rtol=2e-3)
    assert np.array_equal(np.isfinite(res.outputs["b"]), finite)


def torch_update(
    scale: float, tracker: int, found: float, growth: float, backoff: float, interval: int
) -> tuple[float, int]:
    """torch's _amp_update_scale_ (aten/src/ATen/native/cuda/AmpKernels.cu)."""
    if found:
        return scale * backoff, 0
    if tracker + 1 == interval:
        with np.errstate(over="ignore"):  # float32's overflow to inf is the case tested
            grown = float(np.float32(scale * growth))
        return (grown if np.isfinite(grown) else scale), 0
    return scale, tracker + 1


@pytest.mark.parametrize(
    ("scale", "tracker", "found"),
    [(1024.0, 0, 0.0), (1024.0, 0, 1.0), (1024.0, 1, 0.0), (3.0e38, 1, 0.0), (65536.0, 1, 1.0)],
    ids=["clean", "inf", "grows", "growth-overflows", "inf-at-interval"],
)
def test_amp_update_scale(op: Op, scale: float, tracker: int, found: float) -> None:
    tensors = [T("currentScale", "f32", np.array([scale])), T("growthTracker", "i32", np.array([tracker])),
               T("foundInf", "f32", np.array([found])), out("updatedScale", "f32", (1,)),
               out("updatedGrowthTracker", "i32", (1,))]  # fmt: skip
    attrs = ["float growthFactor 2.0", "float backoffFactor 0.5", "int growthInterval 2"]
    res = op("AmpUpdateScale", tensors, attrs)
    want_scale, want_tracker = torch_update(float(np.float32(scale)), tracker, found, 2.0, 0.5, 2)
    check(res, "updatedScale", np.array([want_scale]), "f32")
    assert res.outputs["updatedGrowthTracker"].tolist() == [want_tracker]


def test_amp_update_scale_refuses_a_float_tracker_and_a_zero_interval(op: Op) -> None:
    def run(tracker_dt: str, interval: int) -> int:
        tensors = [T("currentScale", "f32", np.array([8.0])), T("growthTracker", tracker_dt, np.array([0.0])),
                   T("foundInf", "f32", np.array([0.0])), out("updatedScale", "f32", (1,)),
                   out("updatedGrowthTracker", tracker_dt, (1,))]  # fmt: skip
        attrs = ["float growthFactor 2.0", "float backoffFactor 0.5", f"int growthInterval {interval}"]
        return op("AmpUpdateScale", tensors, attrs).phase1

    assert run("f32", 2) == PARAM_INVALID
    assert run("i32", 0) == PARAM_INVALID
