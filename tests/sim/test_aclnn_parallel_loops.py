"""The loops libopapi splits across its math threads (csrc/sim/opapi/math_library.h, parallel_parts)
outside the matrix products: aclnnReduceSum / aclnnMean over a float32 view (the outputs divided
among the threads, each summed in row-major order) and aclnnLayerNorm / aclnnLayerNormBackward (rows,
and the weight and bias gradients by columns). The results are the same bits on one thread as on
two, and the sums are those of a sequential float64 sum in row-major order, rounded once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, out, rand, ACL = ops.T, ops.out, ops.rand, ops.ACL
runner, op = ops.runner, ops.op  # the fixtures
Op, Result = ops.Op, ops.Result

RNG = np.random.default_rng(58)


def outputs(res: Result) -> dict[str, np.ndarray]:
    assert res.phase1 == 0 and res.phase2 and all(s == 0 for s in res.phase2), res.proc.stderr
    return res.outputs


def on_one_and_two_threads(op: Op, name: str, tensors: list, attrs: list[str]) -> dict[str, np.ndarray]:
    one = outputs(op(name, tensors, attrs, OMP_NUM_THREADS="1"))
    two = outputs(op(name, tensors, attrs, OMP_NUM_THREADS="2"))
    assert one.keys() == two.keys()
    for key in one:
        np.testing.assert_array_equal(one[key], two[key], err_msg=key)
    return two


def sequential_sum(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """float64 sums in row-major order of the reduced axes (cumsum adds one element at a time)."""
    kept = [i for i in range(x.ndim) if i not in axes]
    moved = np.transpose(x, kept + list(axes)).reshape([x.shape[i] for i in kept] + [-1])
    return np.cumsum(moved, axis=-1)[..., -1]


@pytest.mark.parametrize(
    ("shape", "axes", "transposed"),
    [
        ((512, 384), (0,), False),
        ((384, 512), (0,), True),
        ((16, 64, 96), (0, 1), False),
        ((96, 1024), (1,), False),
    ],
)
def test_reduce_sum_and_mean_are_sequential_sums_on_any_thread_count(
    op: Op, shape: tuple[int, ...], axes: tuple[int, ...], transposed: bool
) -> None:
    x = rand(RNG, shape, "f32")
    t = ops.transposed_view("self", "f32", x) if transposed else T("self", "f32", x)
    kept = tuple(n for i, n in enumerate(shape) if i not in axes)
    dims = [f"ints dim {len(axes)} {' '.join(map(str, axes))}", "int keepDim 0", f"int dtype {ACL['f32']}"]
    total = sequential_sum(x, axes)
    got = on_one_and_two_threads(op, "ReduceSum", [t, out("out", "f32", kept)], dims)
    np.testing.assert_array_equal(got["out"], total.astype(np.float32).astype(np.float64))
    got = on_one_and_two_threads(op, "Mean", [t, out("out", "f32", kept)], dims)
    group = x.size // total.size
    np.testing.assert_array_equal(got["out"], (total / group).astype(np.float32).astype(np.float64))


def test_layer_norm_and_its_backward_give_the_same_bits_on_one_and_two_threads(op: Op) -> None:
    x, w, b = rand(RNG, (160, 512), "f32"), rand(RNG, (512,), "f32"), rand(RNG, (512,), "f32")
    fwd = on_one_and_two_threads(
        op,
        "LayerNorm",
        [
            T("input", "f32", x),
            T("weight", "f32", w),
            T("bias", "f32", b),
            out("out", "f32", x.shape),
            out("mean", "f32", (160, 1)),
            out("rstd", "f32", (160, 1)),
        ],
        ["ints normalizedShape 1 512", "float eps 1e-5"],
    )
    mu = x.mean(-1, keepdims=True)
    np.testing.assert_allclose(fwd["mean"], mu, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(
        fwd["out"], (x - mu) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * w + b, atol=2e-5
    )
    dy = rand(RNG, x.shape, "f32")
    grads = on_one_and_two_threads(
        op,
        "LayerNormBackward",
        [
            T("gradOut", "f32", dy),
            T("input", "f32", x),
            T("mean", "f32", fwd["mean"]),
            T("rstd", "f32", fwd["rstd"]),
            T("weight", "f32", w),
            out("gradInput", "f32", x.shape),
            out("gradWeight", "f32", (512,)),
            out("gradBias", "f32", (512,)),
        ],
        ["ints normalizedShape 1 512", "bools outputMask 3 1 1 1"],
    )
    np.testing.assert_array_equal(grads["gradBias"], sequential_sum(dy, (0,)).astype(np.float32))
    xhat = (x - fwd["mean"]) * fwd["rstd"]
    np.testing.assert_allclose(grads["gradWeight"], (dy * xhat).sum(0), rtol=1e-5, atol=1e-4)
