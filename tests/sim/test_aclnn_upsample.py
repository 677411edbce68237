"""aclnnUpsampleNearest2d (and V2 with scale factors), aclnnUpsampleBilinear2d (alignCorners or not)
and their backward against numpy references of torch's CPU index rules, and their bad-input codes."""

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


def step(size_in: int, size_out: int, scale: float) -> np.float32:
    """torch's compute_scales_value<float>: 1 / scale when given (> 0), else in / out."""
    return np.float32(1.0 / scale) if scale > 0 else np.float32(size_in) / np.float32(size_out)


def nearest_weights(size_in: int, size_out: int, scale: float = 0.0) -> np.ndarray:
    """[size_out, size_in]: row i has 1 at the input index nearest upsampling reads."""
    m = np.zeros((size_out, size_in))
    for i in range(size_out):
        if size_out == size_in:
            src = i
        elif size_out == 2 * size_in:
            src = i // 2
        else:
            src = min(int(np.floor(np.float32(i) * step(size_in, size_out, scale))), size_in - 1)
        m[i, src] = 1.0
    return m


def bilinear_weights(size_in: int, size_out: int, align: bool, scale: float = 0.0) -> np.ndarray:
    m = np.zeros((size_out, size_in))
    if align:
        s = np.float32(size_in - 1) / np.float32(size_out - 1) if size_out > 1 else np.float32(0)
    else:
        s = step(size_in, size_out, scale)
    for i in range(size_out):
        real = s * np.float32(i) if align else max(s * (np.float32(i) + np.float32(0.5)) - np.float32(0.5), 0)
        i0 = min(int(np.floor(real)), size_in - 1)
        lam = np.float32(min(max(real - np.float32(i0), 0), 1))
        m[i, i0] += 1 - lam
        m[i, i0 + (1 if i0 < size_in - 1 else 0)] += lam
    return m


def resample(x: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    return np.einsum("ih,nchw,jw->ncij", rows, x, cols)


def resample_backward(g: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    return np.einsum("ih,ncij,jw->nchw", rows, g, cols)


SIZES = [((2, 3, 4, 5), (8, 10)), ((1, 2, 5, 3), (7, 4)), ((1, 1, 6, 6), (4, 3))]


@pytest.mark.parametrize(("shape", "size"), SIZES)
@pytest.mark.parametrize("dt", ["f32", "bf16"])
def test_nearest_matches_the_index_rule(
    op: Op, shape: tuple[int, ...], size: tuple[int, int], dt: str
) -> None:
    x = rand(np.random.default_rng(11), shape, dt)
    rows, cols = nearest_weights(shape[2], size[0]), nearest_weights(shape[3], size[1])
    ref = resample(x, rows, cols)
    res = op(
        "UpsampleNearest2d",
        [T("self", dt, x), out("out", dt, ref.shape)],
        [f"ints outputSize 2 {size[0]} {size[1]}"],
    )
    check(res, "out", ref, dt)
    g = rand(np.random.default_rng(12), ref.shape, dt)
    res = op(
        "UpsampleNearest2dBackward",
        [T("gradOut", dt, g), out("out", dt, shape)],
        [f"ints outputSize 2 {size[0]} {size[1]}", f"ints inputSize 4 {' '.join(map(str, shape))}"],
    )
    check(res, "out", resample_backward(g, rows, cols), dt, scale=4.0)


def test_nearest_v2_takes_the_scale_factors(op: Op) -> None:
    # 5 rows to 8 with scale factor 1.5 (step 1/1.5) reads other rows than the step 5/8.
    x = rand(np.random.default_rng(13), (1, 2, 5, 4), "f32")
    rows, cols = nearest_weights(5, 8, 1.5), nearest_weights(4, 9, 2.3)
    assert not np.array_equal(rows, nearest_weights(5, 8))
    ref = resample(x, rows, cols)
    res = op(
        "UpsampleNearest2dV2",
        [T("self", "f32", x), out("out", "f32", ref.shape)],
        ["ints outputSize 2 8 9", "float scalesH 1.5", "float scalesW 2.3"],
    )
    check(res, "out", ref, "f32")


@pytest.mark.parametrize(("shape", "size"), SIZES)
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("dt", ["f32", "f16"])
def test_bilinear_matches_the_interpolation(
    op: Op, shape: tuple[int, ...], size: tuple[int, int], align: bool, dt: str
) -> None:
    x = rand(np.random.default_rng(14), shape, dt)
    rows, cols = bilinear_weights(shape[2], size[0], align), bilinear_weights(shape[3], size[1], align)
    ref = resample(x, rows, cols)
    sizes = [f"ints outputSize 2 {size[0]} {size[1]}", f"int alignCorners {int(align)}"]
    res = op("UpsampleBilinear2d", [T("self", dt, x), out("out", dt, ref.shape)], sizes)
    check(res, "out", ref, dt, scale=2.0)
    g = rand(np.random.default_rng(15), ref.shape, dt)
    res = op(
        "UpsampleBilinear2dBackward",
        [T("gradOut", dt, g), out("out", dt, shape)],
        [*sizes, f"ints inputSize 4 {' '.join(map(str, shape))}"],
    )
    check(res, "out", resample_backward(g, rows, cols), dt, scale=4.0)


def test_bilinear_takes_the_scale_factors(op: Op) -> None:
    x = rand(np.random.default_rng(16), (1, 1, 4, 4), "f32")
    rows, cols = bilinear_weights(4, 6, False, 1.7), bilinear_weights(4, 6, False, 1.7)
    ref = resample(x, rows, cols)
    res = op(
        "UpsampleBilinear2d",
        [T("self", "f32", x), out("out", "f32", ref.shape)],
        ["ints outputSize 2 6 6", "float scalesH 1.7", "float scalesW 1.7"],
    )
    check(res, "out", ref, "f32")


@pytest.mark.parametrize("name", ["UpsampleNearest2d", "UpsampleBilinear2d"])
def test_forward_refusals(op: Op, name: str) -> None:
    x = np.ones((1, 2, 3, 3))

    def phase1(lines: list[str], shape: tuple[int, ...], dt: str = "f32", values: np.ndarray = x) -> int:
        return op(name, [T("self", dt, values), out("out", dt, shape)], lines).phase1

    assert phase1(["ints outputSize 1 6"], (1, 2, 6, 6)) == PARAM_INVALID  # one size
    assert phase1(["ints outputSize 2 0 6"], (1, 2, 0, 6)) == PARAM_INVALID  # not positive
    assert phase1(["ints outputSize 2 6 6"], (1, 2, 6, 5)) == PARAM_INVALID  # out's shape
    assert phase1(["ints outputSize 2 6 6"], (2, 6, 6), values=np.ones((2, 3, 3))) == PARAM_INVALID  # 3-D
    assert phase1(["ints outputSize 2 6 6"], (1, 2, 6, 6), dt="bool") == PARAM_INVALID  # data type
    assert op(name, [T("self", "f32", x), out("out", "f32", (1, 2, 6, 6))]).phase1 == PARAM_NULLPTR


@pytest.mark.parametrize("name", ["UpsampleNearest2dBackward", "UpsampleBilinear2dBackward"])
def test_backward_refusals(op: Op, name: str) -> None:
    g = np.ones((1, 2, 6, 6))

    def phase1(lines: list[str], shape: tuple[int, ...], dt: str = "f32") -> int:
        return op(
            name, [T("gradOut", dt, g), out("out", dt, shape)], ["ints outputSize 2 6 6", *lines]
        ).phase1

    assert phase1(["ints inputSize 4 1 2 3 3"], (1, 2, 3, 3)) == 0
    assert phase1(["ints inputSize 3 2 3 3"], (1, 2, 3, 3)) == PARAM_INVALID  # three sizes
    assert phase1(["ints inputSize 4 1 2 3 3"], (1, 2, 3, 4)) == PARAM_INVALID  # out's shape
    assert phase1(["ints inputSize 4 1 3 3 3"], (1, 3, 3, 3)) == PARAM_INVALID  # gradOut's shape
    assert phase1(["ints inputSize 4 1 2 3 3"], (1, 2, 3, 3), dt="i32") == PARAM_INVALID  # data type
    assert phase1([], (1, 2, 3, 3)) == PARAM_NULLPTR  # no inputSize
