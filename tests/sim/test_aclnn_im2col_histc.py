"""aclnnIm2col / aclnnIm2colBackward (nn.Unfold, nn.Fold) and aclnnHistc (torch.histc) against numpy
references, and their bad-input codes."""

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


def unfold(
    x: np.ndarray, k: tuple[int, int], d: tuple[int, int], p: tuple[int, int], s: tuple[int, int]
) -> np.ndarray:
    """torch's im2col of [N, C, H, W]: [N, C * kH * kW, L]."""
    n, c, h, w = x.shape
    padded = np.pad(x, [(0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])])
    oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    cols = np.zeros((n, c, k[0], k[1], oh, ow))
    for i in range(k[0]):
        for j in range(k[1]):
            rows = slice(i * d[0], i * d[0] + s[0] * (oh - 1) + 1, s[0])
            columns = slice(j * d[1], j * d[1] + s[1] * (ow - 1) + 1, s[1])
            cols[:, :, i, j] = padded[:, :, rows, columns]
    return cols.reshape(n, c * k[0] * k[1], oh * ow)


def window_lines(k, d, p, s) -> list[str]:
    return [f"ints {name} 2 {v[0]} {v[1]}" for name, v in
            [("kernelSize", k), ("dilation", d), ("padding", p), ("stride", s)]]  # fmt: skip


GEOMETRIES = [((2, 2), (1, 1), (0, 0), (1, 1)), ((3, 2), (2, 1), (1, 2), (2, 1))]


@pytest.mark.parametrize(("k", "d", "p", "s"), GEOMETRIES)
@pytest.mark.parametrize("batched", [True, False])
def test_im2col_and_its_backward_match_numpy(op: Op, k, d, p, s, batched: bool) -> None:
    x = rand(np.random.default_rng(21), (2, 3, 6, 7), "f32")
    ref = unfold(x, k, d, p, s)
    xs, refs = (x, ref) if batched else (x[0], ref[0])
    res = op("Im2col", [T("self", "f32", xs), out("out", "f32", refs.shape)], window_lines(k, d, p, s))
    check(res, "out", refs, "f32")
    # The backward is the adjoint: <unfold(x), g> == <x, fold(g)> for every x, so fold(g) is the
    # gradient of sum(unfold(x) * g); numpy's reference sums g over the positions each element fed.
    g = rand(np.random.default_rng(22), ref.shape, "f32")
    grad = np.zeros_like(x)
    basis = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        basis[idx] = 1.0
        grad[idx] = (unfold(basis, k, d, p, s) * g).sum()
        basis[idx] = 0.0
    gs, grads = (g, grad) if batched else (g[0], grad[0])
    res = op(
        "Im2colBackward",
        [T("gradOutput", "f32", gs), out("out", "f32", grads.shape)],
        ["ints inputSize 2 6 7", *window_lines(k, d, p, s)],
    )
    check(res, "out", grads, "f32")


def test_im2col_refusals(op: Op) -> None:
    x = np.ones((1, 2, 4, 4))
    good = window_lines((2, 2), (1, 1), (0, 0), (1, 1))

    def phase1(lines: list[str], shape: tuple[int, ...], dt: str = "f32", values: np.ndarray = x) -> int:
        return op("Im2col", [T("self", dt, values), out("out", dt, shape)], lines).phase1

    assert phase1(good, (1, 8, 9)) == 0
    assert phase1(good, (1, 8, 8)) == PARAM_INVALID  # out's shape
    assert (
        phase1(window_lines((5, 2), (1, 1), (0, 0), (1, 1)), (1, 8, 9)) == PARAM_INVALID
    )  # window too large
    assert phase1(window_lines((2, 2), (1, 1), (0, 0), (0, 1)), (1, 8, 9)) == PARAM_INVALID  # stride 0
    assert phase1(["ints kernelSize 1 2", *good[1:]], (1, 8, 9)) == PARAM_INVALID  # one value
    assert phase1(good, (1, 8, 9), dt="i32") == PARAM_INVALID  # data type
    assert phase1(good, (4, 9), values=np.ones((4, 4))) == PARAM_INVALID  # rank 2
    assert phase1(good[1:], (1, 8, 9)) == PARAM_NULLPTR  # no kernelSize
    res = op(
        "Im2colBackward",
        [T("gradOutput", "f32", np.ones((1, 7, 9))), out("out", "f32", (1, 2, 4, 4))],
        ["ints inputSize 2 4 4", *good],
    )
    assert res.phase1 == PARAM_INVALID  # 7 rows are not C * 4


def histc(x: np.ndarray, bins: int, low: float, high: float) -> np.ndarray:
    edges = np.linspace(low, high, bins + 1)
    inside = x[(x >= low) & (x <= high)]
    return np.clip(np.searchsorted(edges, inside, side="right") - 1, 0, bins - 1).astype(np.int64)


@pytest.mark.parametrize(("bins", "low", "high"), [(5, -2.0, 2.0), (7, -1.0, 0.5), (1, -3.0, 3.0)])
def test_histc_counts_like_numpy(op: Op, bins: int, low: float, high: float) -> None:
    x = rand(np.random.default_rng(23), (4, 50), "f32")
    x[0, :3] = [low, high, np.nan]  # both edges count, NaN does not
    ref = np.bincount(histc(x.ravel(), bins, low, high), minlength=bins).astype(np.float64)
    res = op(
        "Histc",
        [T("self", "f32", x), out("out", "f32", (bins,))],
        [f"int bins {bins}", f"scalar min 0 {low}", f"scalar max 0 {high}"],
    )
    check(res, "out", ref, "f32")


def test_histc_refusals(op: Op) -> None:
    x = np.ones((3, 4))

    def phase1(bins: int, low: float, high: float, shape: tuple[int, ...], dt: str = "f32") -> int:
        lines = [f"int bins {bins}", f"scalar min 0 {low}", f"scalar max 0 {high}"]
        return op("Histc", [T("self", dt, x), out("out", dt, shape)], lines).phase1

    assert phase1(4, 0, 1, (4,)) == 0
    assert phase1(0, 0, 1, (0,)) == PARAM_INVALID  # bins
    assert phase1(4, 1, 0, (4,)) == PARAM_INVALID  # min above max
    assert phase1(4, 0, 1, (5,)) == PARAM_INVALID  # out's shape
    assert phase1(4, 0, 1, (4,), dt="i32") == PARAM_INVALID  # data type
    res = op("Histc", [T("self", "f32", x), out("out", "f32", (4,))], ["int bins 4", "scalar max 0 1"])
    assert res.phase1 == PARAM_NULLPTR  # no min


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("int32", [False, True])
def test_searchsorted_matches_numpy(op: Op, right: bool, int32: bool) -> None:
    seq = np.array([-1.0, 0.0, 0.0, 0.5, 2.0, 3.0])
    values = np.array([[-2.0, 0.0, 0.25], [2.0, 3.0, 9.0]])
    side = "right" if right else "left"
    odt = "i32" if int32 else "i64"
    flags = [f"int right {int(right)}", f"int outInt32 {int(int32)}"]
    res = op(
        "SearchSorted",
        [T("sortedSequence", "f32", seq), T("self", "f32", values), out("out", odt, (2, 3))],
        flags,
    )
    check(res, "out", np.searchsorted(seq, values, side=side).astype(np.float64), "f64")
    # rows: each row of values searches its own row of the sequence; sorter gives the row's order
    rows = np.array([[3.0, 1.0, 2.0, 0.0], [5.0, 7.0, 6.0, 4.0]])
    sorter = np.argsort(rows, axis=1)
    vals = np.array([[1.0, 2.5], [6.0, 9.0]])
    ref = np.array([np.searchsorted(np.sort(r), v, side=side) for r, v in zip(rows, vals, strict=True)])
    res = op(
        "SearchSorted",
        [
            T("sortedSequence", "f32", rows),
            T("self", "f32", vals),
            T("sorter", "i64", sorter),
            out("out", odt, (2, 2)),
        ],
        flags,
    )
    check(res, "out", ref.astype(np.float64), "f64")
    res = op(
        "SearchSorteds", [T("sortedSequence", "f32", seq), out("out", odt, ())], [*flags, "scalar self 0 0.0"]
    )
    check(res, "out", np.array(np.searchsorted(seq, 0.0, side=side), dtype=np.float64), "f64")


def test_searchsorted_refusals(op: Op) -> None:
    seq, rows = np.arange(4.0), np.arange(8.0).reshape(2, 4)

    def phase1(tensors: list, lines: list[str] | None = None) -> int:
        return op("SearchSorted", tensors, lines or []).phase1

    vals = T("self", "f32", np.zeros((2, 3)))
    assert phase1([T("sortedSequence", "f32", seq), vals, out("out", "i64", (2, 3))]) == 0
    assert phase1([T("sortedSequence", "f32", seq), vals, out("out", "i32", (2, 3))]) == PARAM_INVALID  # type
    assert (
        phase1([T("sortedSequence", "f32", seq), vals, out("out", "i64", (3, 2))]) == PARAM_INVALID
    )  # shape
    bad_rows = T("sortedSequence", "f32", np.arange(12.0).reshape(3, 4))
    assert phase1([bad_rows, vals, out("out", "i64", (2, 3))]) == PARAM_INVALID  # leading dimensions
    sorter = T("sorter", "i32", np.zeros((2, 4)))
    assert (
        phase1([T("sortedSequence", "f32", rows), vals, sorter, out("out", "i64", (2, 3))]) == PARAM_INVALID
    )
    assert phase1([vals, out("out", "i64", (2, 3))]) == PARAM_NULLPTR  # no sequence


def lower_median(values: np.ndarray) -> float:
    """torch's median: the lower of the two middle elements."""
    return float(np.sort(values.ravel())[(values.size - 1) // 2])


@pytest.mark.parametrize("dt", ["f32", "i32"])
def test_medians_of_every_element(op: Op, dt: str) -> None:
    x = np.random.default_rng(24).permutation(20).reshape(4, 5).astype(np.float64) - 7
    res = op("Median", [T("self", dt, x), out("out", dt, ())])
    check(res, "out", np.array(lower_median(x)), "f32" if dt == "f32" else "f64")
    if dt == "f32":
        with_nan = x.copy()
        with_nan[1, 2] = np.nan
        res = op("Median", [T("self", dt, with_nan), out("out", dt, ())])
        assert res.phase1 == 0 and np.isnan(res.outputs["out"]), res.proc.stderr  # median propagates nan
        res = op("NanMedian", [T("self", dt, with_nan), out("out", dt, ())])
        check(res, "out", np.array(lower_median(with_nan[~np.isnan(with_nan)])), "f32")


@pytest.mark.parametrize(("dim", "keep"), [(0, False), (1, True), (-1, False)])
@pytest.mark.parametrize("name", ["MedianDim", "NanMedianDim"])
def test_medians_along_a_dimension(op: Op, name: str, dim: int, keep: bool) -> None:
    x = np.random.default_rng(25).permutation(24).reshape(4, 6).astype(np.float64)
    if name == "NanMedianDim":
        x[0, 1] = x[2, 0] = np.nan
    moved = np.moveaxis(x, dim, -1)
    values, indices = np.zeros(moved.shape[:-1]), np.zeros(moved.shape[:-1])
    for idx in np.ndindex(moved.shape[:-1]):
        row = moved[idx]
        kept = np.flatnonzero(~np.isnan(row)) if name == "NanMedianDim" else np.arange(row.size)
        pick = kept[np.argsort(row[kept], kind="stable")[(kept.size - 1) // 2]]
        values[idx], indices[idx] = row[pick], pick
    if keep:
        values, indices = np.expand_dims(values, dim), np.expand_dims(indices, dim)
    res = op(
        name,
        [T("self", "f32", x), out("values", "f32", values.shape), out("indices", "i64", indices.shape)],
        [f"int dim {dim}", f"int keepDim {int(keep)}"],
    )
    check(res, "values", values, "f32")
    check(res, "indices", indices, "f64")


def test_median_refusals(op: Op) -> None:
    x = np.ones((3, 4))

    def dim_phase1(dim: int, shape: tuple[int, ...], idt: str = "i64") -> int:
        tensors = [T("self", "f32", x), out("values", "f32", shape), out("indices", idt, shape)]
        return op("MedianDim", tensors, [f"int dim {dim}"]).phase1

    assert dim_phase1(1, (3,)) == 0
    assert dim_phase1(2, (3,)) == PARAM_INVALID  # dim out of range
    assert dim_phase1(1, (4,)) == PARAM_INVALID  # shape
    assert dim_phase1(1, (3,), idt="i32") == PARAM_INVALID  # indices type
    assert op("Median", [T("self", "bool", x), out("out", "bool", ())]).phase1 == PARAM_INVALID
    assert op("Median", [T("self", "f32", np.ones((0, 3))), out("out", "f32", ())]).phase1 == PARAM_INVALID
    assert op("Median", [T("self", "f32", x)]).phase1 == PARAM_NULLPTR


@pytest.mark.parametrize(("dims", "keep"), [((), False), ((1,), True), ((0, 2), False)])
def test_aminmax_matches_numpy(op: Op, dims: tuple[int, ...], keep: bool) -> None:
    x = rand(np.random.default_rng(26), (3, 4, 5), "f32")
    axes = dims or None
    low, high = x.min(axis=axes, keepdims=keep), x.max(axis=axes, keepdims=keep)
    if not dims and keep:
        low, high = low.reshape(1, 1, 1), high.reshape(1, 1, 1)
    res = op(
        "Aminmax",
        [T("self", "f32", x), out("minOut", "f32", np.shape(low)), out("maxOut", "f32", np.shape(high))],
        [f"ints dim {len(dims)} {' '.join(map(str, dims))}", f"int keepDim {int(keep)}"],
    )
    check(res, "minOut", np.asarray(low), "f32")
    check(res, "maxOut", np.asarray(high), "f32")


def test_aminmax_refusals(op: Op) -> None:
    x = np.ones((3, 4))

    def phase1(dims: str, shape: tuple[int, ...], max_dt: str = "f32") -> int:
        tensors = [T("self", "f32", x), out("minOut", "f32", shape), out("maxOut", max_dt, shape)]
        return op("Aminmax", tensors, [dims]).phase1

    assert phase1("ints dim 1 1", (3,)) == 0
    assert phase1("ints dim 1 2", (3,)) == PARAM_INVALID  # dim out of range
    assert phase1("ints dim 1 1", (4,)) == PARAM_INVALID  # shape
    assert phase1("ints dim 1 1", (3,), max_dt="i32") == PARAM_INVALID  # maxOut's type
    res = op("Aminmax", [T("self", "f32", x), out("minOut", "f32", (3,))], ["ints dim 1 1"])
    assert res.phase1 == PARAM_NULLPTR  # no maxOut
