"""aclnnGridSampler2D and its backward against a numpy reference of torch's grid_sample (bilinear and
nearest; zeros, border and reflection padding; align_corners or not): the forward directly, the input
gradient as the adjoint of the (linear) forward, the grid gradient by central differences; and the
bad-input codes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out, rand = ops.T, ops.check, ops.out, ops.rand
PARAM_INVALID, PARAM_NULLPTR = ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


def reflect(v: float, low2: float, high2: float) -> float:
    if low2 == high2:
        return 0.0
    low, span = low2 / 2, (high2 - low2) / 2
    v = abs(v - low)
    extra, flips = math.fmod(v, span), math.floor(v / span)
    return extra + low if flips % 2 == 0 else span - extra + low


def position(coord: float, size: int, padding: int, align: bool) -> float:
    c = (coord + 1) / 2 * (size - 1) if align else ((coord + 1) * size - 1) / 2
    if padding == 2:
        c = reflect(c, 0, 2 * (size - 1)) if align else reflect(c, -1, 2 * size - 1)
    if padding in (1, 2):
        c = min(size - 1, max(c, 0.0))
    return c


def sample(x: np.ndarray, grid: np.ndarray, mode: int, padding: int, align: bool) -> np.ndarray:
    n, c, h, w = x.shape
    ho, wo = grid.shape[1:3]
    y = np.zeros((n, c, ho, wo))
    for b, i, j in np.ndindex(n, ho, wo):
        ix = position(grid[b, i, j, 0], w, padding, align)
        iy = position(grid[b, i, j, 1], h, padding, align)
        if mode == 1:
            taps = [(round(iy), round(ix), 1.0)]  # Python rounds half to even, as nearbyint
        else:
            x0, y0 = math.floor(ix), math.floor(iy)
            fx, fy = ix - x0, iy - y0
            taps = [(y0, x0, (1 - fx) * (1 - fy)), (y0, x0 + 1, fx * (1 - fy)), (y0 + 1, x0, (1 - fx) * fy),
                    (y0 + 1, x0 + 1, fx * fy)]  # fmt: skip
        for r, s, weight in taps:
            if 0 <= r < h and 0 <= s < w:
                y[b, :, i, j] += weight * x[b, :, r, s]
    return y


CASES = [(0, 0, False), (0, 1, True), (0, 2, False), (0, 2, True), (1, 0, False), (1, 1, True)]


@pytest.mark.parametrize(("mode", "padding", "align"), CASES)
def test_grid_sampler_and_its_backward_match_the_reference(
    op: Op, mode: int, padding: int, align: bool
) -> None:
    rng = np.random.default_rng(31)
    x = rand(rng, (2, 3, 4, 5), "f32")
    grid = rand(rng, (2, 3, 4, 2), "f32", -1.3, 1.3)  # some points outside [-1, 1]
    lines = [f"int interpolationMode {mode}", f"int paddingMode {padding}", f"int alignCorners {int(align)}"]
    ref = sample(x, grid, mode, padding, align)
    res = op(
        "GridSampler2D", [T("input", "f32", x), T("grid", "f32", grid), out("out", "f32", ref.shape)], lines
    )
    check(res, "out", ref, "f32")
    g = rand(rng, ref.shape, "f32")
    grad_x = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        basis = np.zeros_like(x)
        basis[idx] = 1.0
        grad_x[idx] = (sample(basis, grid, mode, padding, align) * g).sum()
    grad_grid = np.zeros_like(grid)
    if mode == 0:
        eps = 1e-6
        for idx in np.ndindex(grid.shape):
            up, down = grid.copy(), grid.copy()
            up[idx] += eps
            down[idx] -= eps
            diff = sample(x, up, mode, padding, align) - sample(x, down, mode, padding, align)
            grad_grid[idx] = (diff * g).sum() / (2 * eps)
    res = op(
        "GridSampler2DBackward",
        [T("gradOutput", "f32", g), T("input", "f32", x), T("grid", "f32", grid),
         out("inputGrad", "f32", x.shape), out("gridGrad", "f32", grid.shape)],
        [*lines, "bools outputMask 2 1 1"],
    )  # fmt: skip
    check(res, "inputGrad", grad_x, "f32")
    np.testing.assert_allclose(res.outputs["gridGrad"], grad_grid, rtol=1e-4, atol=1e-5)


def test_grid_sampler_refusals(op: Op) -> None:
    x, grid = np.ones((1, 2, 3, 3)), np.zeros((1, 2, 2, 2))

    def phase1(
        lines: list[str], grid_values: np.ndarray = grid, shape: tuple[int, ...] = (1, 2, 2, 2)
    ) -> int:
        tensors = [T("input", "f32", x), T("grid", "f32", grid_values), out("out", "f32", shape)]
        return op("GridSampler2D", tensors, lines).phase1

    assert phase1([]) == 0
    assert phase1(["int interpolationMode 2"]) == PARAM_INVALID  # bicubic: not modelled
    assert phase1(["int paddingMode 3"]) == PARAM_INVALID
    assert phase1([], grid_values=np.zeros((1, 2, 2, 3))) == PARAM_INVALID  # grid's last dimension
    assert phase1([], shape=(1, 2, 2, 3)) == PARAM_INVALID  # out's shape
    assert (
        op("GridSampler2D", [T("input", "f32", x), out("out", "f32", (1, 2, 2, 2))]).phase1 == PARAM_NULLPTR
    )
    res = op(
        "GridSampler2DBackward",
        [T("gradOutput", "f32", np.ones((1, 2, 2, 2))), T("input", "f32", x), T("grid", "f32", grid),
         out("inputGrad", "f32", x.shape)],
        ["bools outputMask 2 1 1"],
    )  # fmt: skip
    assert res.phase1 == PARAM_NULLPTR  # gridGrad asked for, not given
