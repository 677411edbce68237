"""The aclnn operators a training step needs (docs/torch_npu.md): addmm / mm with strided
operands, the backward operators of GELU, SiLU, softmax, layer norm and embedding, the MSE loss and
its gradient,
the in-place and multi-tensor adds of an SGD step, cat and fill-with-one: numbers against numpy
(float64 from the same quantized inputs) and their error paths, through programs/aclnn_runner.cpp
as in test_aclnn_ops.py."""

from __future__ import annotations

from math import pi, sqrt
from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand, transposed_view = ops.T, ops.check, ops.out, ops.rand, ops.transposed_view
FLOATS, PARAM_INVALID, PARAM_NULLPTR = ops.FLOATS, ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


def gelu_grad(x: np.ndarray) -> np.ndarray:
    """The derivative of the tanh form of GELU, which CANN's GeluGrad computes."""
    t = np.tanh(sqrt(2 / pi) * (x + 0.044715 * x**3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * sqrt(2 / pi) * (1 + 3 * 0.044715 * x * x)


@pytest.mark.parametrize("dt", FLOATS)
def test_addmm_with_a_transposed_weight_and_a_row_bias(op: Op, dt: str) -> None:
    rng = np.random.default_rng(20)
    bias, x, w = rand(rng, (7,), dt), rand(rng, (5, 64), dt), rand(rng, (64, 7), dt)
    res = op(
        "Addmm",
        [T("self", dt, bias), T("mat1", dt, x), transposed_view("mat2", dt, w), out("out", dt, (5, 7))],
        ["scalar beta 0 0.5", "scalar alpha 0 2"],
    )
    check(res, "out", 0.5 * bias + 2 * (x @ w), dt, scale=4)


def test_mm_of_two_transposed_views(op: Op) -> None:
    rng = np.random.default_rng(21)
    a, b = rand(rng, (6, 32), "f32"), rand(rng, (32, 3), "f32")
    res = op(
        "Mm",
        [transposed_view("self", "f32", a), transposed_view("mat2", "f32", b), out("out", "f32", (6, 3))],
    )
    check(res, "out", a @ b, "f32", scale=4)


def test_addmm_and_mm_reject_bad_shapes(op: Op) -> None:
    rng = np.random.default_rng(22)
    a, b = rand(rng, (4, 8), "f32"), rand(rng, (7, 3), "f32")
    res = op("Mm", [T("self", "f32", a), T("mat2", "f32", b), out("out", "f32", (4, 3))])
    assert res.phase1 == PARAM_INVALID and "inner dimensions differ" in res.proc.stderr
    res = op(
        "Addmm",
        [T("self", "f32", rand(rng, (5,), "f32")), T("mat1", "f32", a),
         T("mat2", "f32", rand(rng, (8, 3), "f32")), out("out", "f32", (4, 3))],
        ["scalar beta 0 1", "scalar alpha 0 1"],
    )  # fmt: skip
    assert res.phase1 == PARAM_INVALID and "does not broadcast" in res.proc.stderr
    res = op(
        "Addmm", [T("mat1", "f32", a), T("mat2", "f32", rand(rng, (8, 3), "f32")), out("out", "f32", (4, 3))]
    )
    assert res.phase1 == PARAM_NULLPTR


@pytest.mark.parametrize("dt", FLOATS)
def test_gelu_backward(op: Op, dt: str) -> None:
    rng = np.random.default_rng(23)
    g, x = rand(rng, (4, 9), dt), rand(rng, (4, 9), dt, -4, 4)
    res = op("GeluBackward", [T("gradOutput", dt, g), T("self", dt, x), out("gradInput", dt, x.shape)])
    check(res, "gradInput", g * gelu_grad(x), dt, scale=2)


def silu_grad(x: np.ndarray) -> np.ndarray:
    s = 1 / (1 + np.exp(-x))
    return s * (1 + x * (1 - s))


@pytest.mark.parametrize("dt", FLOATS)
def test_silu_backward(op: Op, dt: str) -> None:
    rng = np.random.default_rng(36)
    g, x = rand(rng, (3, 2, 7), dt), rand(rng, (3, 2, 7), dt, -6, 6)
    res = op("SiluBackward", [T("gradOutput", dt, g), T("self", dt, x), out("gradInput", dt, x.shape)])
    check(res, "gradInput", g * silu_grad(x), dt, scale=2)


def test_silu_backward_reads_a_strided_view_and_rejects_bad_arguments(op: Op) -> None:
    rng = np.random.default_rng(37)
    g, x = rand(rng, (5, 4), "f32"), rand(rng, (5, 4), "f32", -4, 4)
    res = op(
        "SiluBackward",
        [transposed_view("gradOutput", "f32", g), T("self", "f32", x), out("gradInput", "f32", x.shape)],
    )
    check(res, "gradInput", g * silu_grad(x), "f32")
    res = op(
        "SiluBackward", [T("gradOutput", "f32", g[:4]), T("self", "f32", x), out("gradInput", "f32", x.shape)]
    )
    assert res.phase1 == PARAM_INVALID and "aclnnSiluBackward" in res.proc.stderr
    res = op(
        "SiluBackward", [T("gradOutput", "f32", g), T("self", "i32", x), out("gradInput", "f32", x.shape)]
    )
    assert res.phase1 == PARAM_INVALID
    assert op("SiluBackward", [T("self", "f32", x), out("gradInput", "f32", x.shape)]).phase1 == PARAM_NULLPTR


@pytest.mark.parametrize(("reduction", "shape"), [(0, (3, 5)), (1, ()), (2, ())])
def test_mse_loss_reductions(op: Op, reduction: int, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(24)
    x, t = rand(rng, (3, 5), "f32"), rand(rng, (5,), "f32")  # target broadcasts
    res = op(
        "MseLoss",
        [T("self", "f32", x), T("target", "f32", t), out("out", "f32", shape)],
        [f"int reduction {reduction}"],
    )
    sq = (x - t) ** 2
    check(res, "out", [sq, sq.mean(), sq.sum()][reduction].reshape(shape), "f32")


@pytest.mark.parametrize("reduction", [0, 1, 2])
def test_mse_loss_backward(op: Op, reduction: int) -> None:
    rng = np.random.default_rng(25)
    x, t = rand(rng, (4, 6), "f32"), rand(rng, (4, 6), "f32")
    g = rand(rng, (4, 6), "f32") if reduction == 0 else np.array(0.75)
    res = op(
        "MseLossBackward",
        [
            T("gradOutput", "f32", g),
            T("self", "f32", x),
            T("target", "f32", t),
            out("gradInput", "f32", x.shape),
        ],
        [f"int reduction {reduction}"],
    )
    norm = 2 / x.size if reduction == 1 else 2
    check(res, "gradInput", norm * (x - t) * g, "f32")


def test_mse_loss_rejects_an_unknown_reduction(op: Op) -> None:
    x = np.ones((2, 2))
    res = op(
        "MseLoss", [T("self", "f32", x), T("target", "f32", x), out("out", "f32", ())], ["int reduction 3"]
    )
    assert res.phase1 == PARAM_INVALID and "reduction 3" in res.proc.stderr


@pytest.mark.parametrize("dim", [-1, 0])
def test_softmax_backward(op: Op, dim: int) -> None:
    rng = np.random.default_rng(26)
    z, g = rand(rng, (3, 4, 5), "f32"), rand(rng, (3, 4, 5), "f32")
    y = np.exp(z) / np.exp(z).sum(axis=dim, keepdims=True)
    y = y.astype(np.float32).astype(np.float64)
    res = op(
        "SoftmaxBackward",
        [T("gradOutput", "f32", g), T("output", "f32", y), out("out", "f32", y.shape)],
        [f"int dim {dim}"],
    )
    check(res, "out", y * (g - (g * y).sum(axis=dim, keepdims=True)), "f32")


def layer_norm_grads(x: np.ndarray, w: np.ndarray, dy: np.ndarray, eps: float = 1e-5):
    mu = x.mean(-1, keepdims=True)
    rstd = 1 / np.sqrt(x.var(-1, keepdims=True) + eps)
    xhat = (x - mu) * rstd
    g = dy * w
    dx = rstd * (g - g.mean(-1, keepdims=True) - xhat * (g * xhat).mean(-1, keepdims=True))
    return mu, rstd, dx, (dy * xhat).reshape(-1, x.shape[-1]).sum(0), dy.reshape(-1, x.shape[-1]).sum(0)


@pytest.mark.parametrize("mask", ["1 1 1", "1 0 0", "0 1 1"])
def test_layer_norm_backward(op: Op, mask: str) -> None:
    rng = np.random.default_rng(27)
    x, w, dy = rand(rng, (2, 3, 8), "f32"), rand(rng, (8,), "f32"), rand(rng, (2, 3, 8), "f32")
    mu, rstd, dx, dw, db = layer_norm_grads(x, w, dy)
    mu, rstd = mu.astype(np.float32).astype(np.float64), rstd.astype(np.float32).astype(np.float64)
    wanted = [bool(int(v)) for v in mask.split()]
    tensors = [T("gradOut", "f32", dy), T("input", "f32", x), T("mean", "f32", mu), T("rstd", "f32", rstd),
               T("weight", "f32", w)]  # fmt: skip
    for name, shape, on in (("gradInput", x.shape, wanted[0]), ("gradWeight", (8,), wanted[1]),
                            ("gradBias", (8,), wanted[2])):  # fmt: skip
        if on:
            tensors.append(out(name, "f32", shape))
    res = op("LayerNormBackward", tensors, ["ints normalizedShape 1 8", f"bools outputMask 3 {mask}"])
    for name, ref, on in (
        ("gradInput", dx, wanted[0]),
        ("gradWeight", dw, wanted[1]),
        ("gradBias", db, wanted[2]),
    ):
        if on:
            check(res, name, ref, "f32", scale=4)
        else:
            assert name not in res.outputs


def test_layer_norm_backward_without_its_mask_is_rejected(op: Op) -> None:
    x = np.ones((2, 4))
    res = op(
        "LayerNormBackward",
        [T("gradOut", "f32", x), T("input", "f32", x), T("mean", "f32", np.ones((2, 1))),
         T("rstd", "f32", np.ones((2, 1))), out("gradInput", "f32", x.shape)],
        ["ints normalizedShape 1 4"],
    )  # fmt: skip
    assert res.phase1 == PARAM_NULLPTR


def test_inplace_add_with_alpha_writes_through_a_strided_view(op: Op) -> None:
    rng = np.random.default_rng(28)
    p, g = rand(rng, (4, 3), "f32"), rand(rng, (3,), "f32")  # other broadcasts to selfRef
    res = op(
        "InplaceAdd",
        [T("selfRef", "f32", p, strides=(1, 4), out=True), T("other", "f32", g)],
        ["scalar alpha 0 -0.1"],
    )
    check(res, "selfRef", p - 0.1 * g, "f32")


def test_inplace_muls_and_one(op: Op) -> None:
    p = rand(np.random.default_rng(29), (5,), "f32")
    check(
        op("InplaceMuls", [T("selfRef", "f32", p, out=True)], ["scalar other 0 3"]), "selfRef", 3 * p, "f32"
    )
    check(op("InplaceOne", [T("selfRef", "f32", p, out=True)]), "selfRef", np.ones(5), "f32")


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat(op: Op, dim: int) -> None:
    rng = np.random.default_rng(30)
    shapes = {0: [(1, 4, 2), (3, 4, 2)], 1: [(2, 1, 2), (2, 3, 2)], -1: [(2, 4, 1), (2, 4, 3)]}[dim]
    a, b = rand(rng, shapes[0], "f32"), rand(rng, shapes[1], "f32")
    ref = np.concatenate([a, b], axis=dim)
    res = op(
        "Cat",
        [T("a", "f32", a), T("b", "f32", b), out("out", "f32", ref.shape)],
        [f"int dim {dim}"],
        after=["list tensors 2 a b"],
    )
    check(res, "out", ref, "f32")


def test_cat_rejects_sizes_that_do_not_add_up(op: Op) -> None:
    a = np.ones((2, 3))
    res = op("Cat", [T("a", "f32", a), T("b", "f32", a), out("out", "f32", (5, 3))], ["int dim 0"],
             after=["list tensors 2 a b"])  # fmt: skip
    assert res.phase1 == PARAM_INVALID and "add up to 4" in res.proc.stderr


@pytest.mark.parametrize("form", ["ForeachAddList", "ForeachAddListV2"])
def test_foreach_add_list(op: Op, form: str) -> None:
    rng = np.random.default_rng(31)
    p1, p2, g1, g2 = (
        rand(rng, (3, 2), "f32"),
        rand(rng, (4,), "f32"),
        rand(rng, (3, 2), "f32"),
        rand(rng, (4,), "f32"),
    )
    tensors = [
        T("p1", "f32", p1, out=True),
        T("p2", "f32", p2, out=True),
        T("g1", "f32", g1),
        T("g2", "f32", g2),
    ]
    attrs = []
    if form == "ForeachAddList":
        tensors.append(T("alpha", "f32", np.array([-0.5])))
    else:
        attrs.append("scalar alpha 0 -0.5")
    res = op(form, tensors, attrs, after=["list x1 2 p1 p2", "list x2 2 g1 g2", "list out 2 p1 p2"])
    check(res, "p1", p1 - 0.5 * g1, "f32")
    check(res, "p2", p2 - 0.5 * g2, "f32")


def test_foreach_add_list_rejects_lists_of_different_lengths(op: Op) -> None:
    x = np.ones(3)
    res = op(
        "ForeachAddListV2",
        [T("a", "f32", x), T("b", "f32", x), T("c", "f32", x)],
        ["scalar alpha 0 1"],
        after=["list x1 2 a b", "list x2 1 c", "list out 0"],
    )
    assert res.phase1 == PARAM_INVALID and "x2 has 1 tensors; 2 expected" in res.proc.stderr


@pytest.mark.parametrize("dim", [-1, 0])
def test_log_softmax_and_its_backward(op: Op, dim: int) -> None:
    rng = np.random.default_rng(32)
    x, g = rand(rng, (4, 7), "f32", -5, 5), rand(rng, (4, 7), "f32")
    ref = x - x.max(axis=dim, keepdims=True)
    ref = ref - np.log(np.exp(ref).sum(axis=dim, keepdims=True))
    res = op("LogSoftmax", [T("self", "f32", x), out("out", "f32", x.shape)], [f"int dim {dim}"])
    check(res, "out", ref, "f32")
    y = ref.astype(np.float32).astype(np.float64)
    res = op(
        "LogSoftmaxBackward",
        [T("gradOutput", "f32", g), T("output", "f32", y), out("out", "f32", y.shape)],
        [f"int dim {dim}"],
    )
    check(res, "out", g - np.exp(y) * g.sum(axis=dim, keepdims=True), "f32")


@pytest.mark.parametrize("reduction", [0, 1, 2])
def test_nll_loss_with_weights_and_an_ignored_sample(op: Op, reduction: int) -> None:
    rng = np.random.default_rng(33)
    x, w = rand(rng, (5, 4), "f32"), rand(rng, (4,), "f32", 0.5, 2)
    target = np.array([0, 3, -100, 1, 3])  # the third sample is ignored
    keep = target != -100
    ws = np.where(keep, w[np.where(keep, target, 0)], 0.0)
    picked = x[np.arange(5), np.where(keep, target, 0)]
    loss = -ws * picked
    ref = [loss, loss.sum() / ws.sum(), loss.sum()][reduction]
    res = op(
        "NLLLoss",
        [T("self", "f32", x), T("target", "i64", target), T("weight", "f32", w),
         out("out", "f32", (5,) if reduction == 0 else ()), out("totalWeight", "f32", ())],
        [f"int reduction {reduction}"],
    )  # fmt: skip
    check(res, "out", np.asarray(ref), "f32")
    check(res, "totalWeight", np.asarray(ws.sum()), "f32")
    g = rand(rng, (5,), "f32") if reduction == 0 else np.array(0.5)
    res = op(
        "NLLLossBackward",
        [T("gradOutput", "f32", g), T("self", "f32", x), T("target", "i64", target), T("weight", "f32", w),
         T("totalWeight", "f32", np.asarray(ws.sum())), out("out", "f32", x.shape)],
        [f"int reduction {reduction}"],
    )  # fmt: skip
    scale = g if reduction == 0 else np.full(5, float(g) / (ws.sum() if reduction == 1 else 1.0))
    ref_grad = np.zeros_like(x)
    ref_grad[np.arange(5)[keep], target[keep]] = -ws[keep] * scale[keep]
    check(res, "out", ref_grad, "f32")


def test_nll_loss_rejects_a_float_target_and_skips_an_out_of_range_one(op: Op) -> None:
    x = np.zeros((2, 3))
    res = op(
        "NLLLoss",
        [
            T("self", "f32", x),
            T("target", "f32", np.zeros(2)),
            out("out", "f32", ()),
            out("totalWeight", "f32", ()),
        ],
    )
    assert res.phase1 == PARAM_INVALID and "int64, int32 or uint8 expected" in res.proc.stderr
    res = op(
        "NLLLoss",
        [T("self", "f32", x + 1), T("target", "i64", np.array([1, 7])), out("out", "f32", ()),
         out("totalWeight", "f32", ())],
        ["int reduction 2"],
    )  # fmt: skip
    check(res, "out", np.asarray(-1.0), "f32")  # only the first sample counts
    assert "target 7 is outside [0, 3)" in res.proc.stderr


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("exponent", [2, 3, 0.5])
def test_pow_tensor_scalar(op: Op, dt: str, exponent: float) -> None:
    x = rand(np.random.default_rng(34), (3, 4), dt, 0.1, 3)
    res = op(
        "PowTensorScalar", [T("self", dt, x), out("out", dt, x.shape)], [f"scalar exponent 0 {exponent}"]
    )
    check(res, "out", x**exponent, dt)


def test_max_of_a_strided_view_and_of_nothing(op: Op) -> None:
    x = rand(np.random.default_rng(35), (4, 5), "f32")
    res = op("Max", [transposed_view("self", "f32", x), out("out", "f32", ())])
    check(res, "out", np.asarray(x.max()), "f32")
    res = op("Max", [T("self", "f32", np.zeros((0,))), out("out", "f32", ())])
    assert res.phase1 == PARAM_INVALID and "self is empty" in res.proc.stderr


def embedding_grad(
    grad: np.ndarray, idx: np.ndarray, weights: int, padding: int = -1, scale: bool = False
) -> np.ndarray:
    rows, flat = grad.reshape(-1, grad.shape[-1]), idx.reshape(-1).astype(np.int64)
    ref = np.zeros((weights, grad.shape[-1]))
    np.add.at(ref, flat, rows)
    if scale:
        ref /= np.maximum(np.bincount(flat, minlength=weights), 1)[:, None]
    if 0 <= padding < weights:
        ref[padding] = 0
    return ref


def dense_backward(
    op: Op,
    grad: np.ndarray,
    idx: np.ndarray,
    weights: int,
    dt: str = "f32",
    it: str = "i64",
    attrs: tuple[str, ...] = (),
) -> ops.Result:
    return op(
        "EmbeddingDenseBackward",
        [T("grad", dt, grad), T("indices", it, idx), out("out", dt, (weights, grad.shape[-1]))],
        [f"int numWeights {weights}", *attrs],
    )


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("it", ["i32", "i64", "f32"])
def test_embedding_dense_backward_sums_the_rows_of_each_index(op: Op, dt: str, it: str) -> None:
    rng = np.random.default_rng(38)
    grad = rand(rng, (2, 5, 4), dt)
    idx = np.array([[3, 0, 3, 7, 3], [0, 1, 7, 3, 6]], dtype=np.float64)  # repeats; rows 2, 4, 5 unused
    res = dense_backward(op, grad, idx, 8, dt, it)
    check(res, "out", embedding_grad(grad, idx, 8), dt, scale=4)


@pytest.mark.parametrize(("padding", "scale"), [(3, False), (0, True), (-1, True), (8, False)])
def test_embedding_dense_backward_padding_and_scale_by_frequency(op: Op, padding: int, scale: bool) -> None:
    rng = np.random.default_rng(39)
    grad = rand(rng, (12, 6), "f32")
    idx = rng.integers(0, 8, size=12).astype(np.float64)
    idx[:3] = [3, 0, 3]  # the padding rows occur
    attrs = (f"int paddingIdx {padding}", f"int scaleGradByFreq {int(scale)}")
    res = dense_backward(op, grad, idx, 8, attrs=attrs)
    ref = embedding_grad(grad, idx, 8, padding, scale)
    check(res, "out", ref, "f32")
    if 0 <= padding < 8:
        assert not res.outputs["out"][padding].any()


def test_embedding_dense_backward_skips_an_index_outside_the_table(op: Op) -> None:
    grad = np.arange(12, dtype=np.float64).reshape(3, 4)
    res = dense_backward(op, grad, np.array([1.0, 9.0, -2.0]), 4, it="i32")
    check(res, "out", embedding_grad(grad[:1], np.array([1.0]), 4), "f32")  # only the first row counts
    assert "2 index(es) outside [0, 4) skipped (the first 9)" in res.proc.stderr
    res = dense_backward(op, grad, np.array([1.0, np.nan, 2.5]), 4, it="f32")
    check(res, "out", embedding_grad(grad[[0, 2]], np.array([1.0, 2.0]), 4), "f32")  # 2.5 truncates
    assert "1 index(es) outside [0, 4) skipped (the first nan)" in res.proc.stderr


def test_embedding_dense_backward_rejects_bad_arguments(op: Op) -> None:
    grad, idx = np.ones((3, 4)), np.array([0.0, 1.0, 2.0])
    cases = [
        (
            [T("grad", "f32", grad), T("indices", "i64", idx[:2]), out("out", "f32", (5, 4))],
            5,
            "holds 3 rows",
        ),
        ([T("grad", "f32", grad[0]), T("indices", "i64", idx[:1]), out("out", "f32", (5, 4))], 5, "grad"),
        ([T("grad", "f32", grad), T("indices", "i64", idx), out("out", "f32", (4, 4))], 5, "out"),
        ([T("grad", "f32", grad), T("indices", "i64", idx), out("out", "f16", (5, 4))], 5, "out"),
        ([T("grad", "i32", grad), T("indices", "i64", idx), out("out", "i32", (5, 4))], 5, "grad"),
        ([T("grad", "f32", grad), T("indices", "bf16", idx), out("out", "f32", (5, 4))], 5, "indices has"),
        ([T("grad", "f32", grad), T("indices", "i64", idx), out("out", "f32", (5, 4))], -1, "is too large"),
    ]
    for tensors, weights, message in cases:
        res = op("EmbeddingDenseBackward", tensors, [f"int numWeights {weights}"])
        assert res.phase1 == PARAM_INVALID and message in res.proc.stderr, (message, res.proc.stderr)
    res = op(
        "EmbeddingDenseBackward", [T("grad", "f32", grad), out("out", "f32", (5, 4))], ["int numWeights 5"]
    )
    assert res.phase1 == PARAM_NULLPTR


@pytest.mark.parametrize(
    ("fault", "phases"),
    [
        ("aclnnEmbeddingDenseBackwardGetWorkspaceSize:error=161002", (PARAM_INVALID, [])),
        ("aclnnEmbeddingDenseBackward:error=561000", (0, [561000])),
    ],
)
def test_embedding_dense_backward_fault_points(op: Op, fault: str, phases: tuple[int, list[int]]) -> None:
    grad = np.ones((2, 3))
    res = op(
        "EmbeddingDenseBackward",
        [T("grad", "f32", grad), T("indices", "i64", np.zeros(2)), out("out", "f32", (4, 3))],
        ["int numWeights 4"],
        NPU_SIM_FAULTS=fault,
    )
    assert (res.phase1, res.phase2) == phases


def test_silu_backward_fault_point(op: Op) -> None:
    x = np.ones((2, 2))
    tensors = [T("gradOutput", "f32", x), T("self", "f32", x), out("gradInput", "f32", x.shape)]
    res = op("SiluBackward", tensors, NPU_SIM_FAULTS="aclnnSiluBackward:error=561000")
    assert (res.phase1, res.phase2) == (0, [561000])
