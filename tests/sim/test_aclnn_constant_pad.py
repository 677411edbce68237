"""aclnnConstantPadNd (torch's constant_pad_nd, which torch_npu also reaches in the list form of
all_gather) against numpy's np.pad, negative amounts (cropping) included."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
T, check, out = ops.T, ops.check, ops.out
PARAM_INVALID = ops.PARAM_INVALID
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op


def padded(x: np.ndarray, pad: list[int], value: float) -> np.ndarray:
    """torch's constant_pad_nd: pad lists (before, after) from the last dimension backwards."""
    widths = [(0, 0)] * x.ndim
    for k in range(len(pad) // 2):
        widths[x.ndim - 1 - k] = (pad[2 * k], pad[2 * k + 1])
    grown = np.pad(x, [(max(b, 0), max(a, 0)) for b, a in widths], constant_values=value)
    crop = tuple(slice(-min(b, 0), grown.shape[d] + min(a, 0)) for d, (b, a) in enumerate(widths))
    return grown[crop]


@pytest.mark.parametrize(
    "pad", [[0, 3], [1, 2], [2, 0, 1, 1], [-1, 2], [1, -2, 0, -1], [1, 1, 1, 1, 1, 1]], ids=str
)
@pytest.mark.parametrize("dt", ["f32", "f16", "i32", "bool"])
def test_constant_pad_matches_numpy(op: Op, dt: str, pad: list[int]) -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(2, 3, 4)).round(2)
    value = -2.5
    if dt == "bool":
        x, value = (x > 0).astype(np.float64), 1.0
    elif dt == "i32":
        x, value = (x * 10).round(), -2.0
    ref = padded(x, pad, value)
    attrs = [f"ints pad {len(pad)} {' '.join(map(str, pad))}", f"scalar value 0 {value}"]
    res = op("ConstantPadNd", [T("self", dt, x), out("out", dt, ref.shape)], attrs)
    check(res, "out", ref, dt if dt in ("f32", "f16") else "f64")


def test_constant_pad_refuses_odd_or_long_pads_and_a_wrong_out(op: Op) -> None:
    x = np.ones((2, 3))
    for pad, shape in [([1], (2, 4)), ([1, 1, 1, 1, 1, 1], (4, 5)), ([1, 1], (2, 4)), ([-2, -2], (2, 0))]:
        attrs = [f"ints pad {len(pad)} {' '.join(map(str, pad))}", "scalar value 0 0"]
        res = op("ConstantPadNd", [T("self", "f32", x), out("out", "f32", shape)], attrs)
        assert res.phase1 == PARAM_INVALID, (pad, res.proc.stderr)
