"""aclnnUnique, aclnnUnique2 and aclnnUniqueConsecutive: data-dependent output lengths against numpy
(the run writes the front of the outputs and sets their view shapes, which the runner prints from
aclGetViewShape), and their bad-input codes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from support.sibling import load_sibling

ops = load_sibling(Path(__file__).resolve().parent, "test_aclnn_ops")
nonzero = load_sibling(Path(__file__).resolve().parent, "test_aclnn_nonzero")
T, out, check = ops.T, ops.out, ops.check
PARAM_INVALID, PARAM_NULLPTR = ops.PARAM_INVALID, ops.PARAM_NULLPTR
runner, op = ops.runner, ops.op  # the fixtures
Op = ops.Op
result = nonzero.result

VALUES = np.array([[3.0, 1.0, 2.0, 3.0], [1.0, 5.0, 5.0, 0.0], [0.0, 0.0, 2.0, -1.0]])


@pytest.mark.parametrize("dt", ["f32", "i32", "bf16"])
def test_unique2_sorts_counts_and_inverts(op: Op, dt: str) -> None:
    ref, inverse, counts = np.unique(VALUES, return_inverse=True, return_counts=True)
    n = VALUES.size
    res = op(
        "Unique2",
        [
            T("self", dt, VALUES),
            out("values", dt, (n,)),
            out("inverse", "i64", VALUES.shape),
            out("counts", "i64", (n,)),
        ],
        ["int returnInverse 1", "int returnCounts 1"],
    )
    np.testing.assert_array_equal(result(res, "values"), ref)
    np.testing.assert_array_equal(result(res, "counts"), counts)
    np.testing.assert_array_equal(res.outputs["inverse"], inverse.reshape(VALUES.shape))
    res = op("Unique", [T("self", dt, VALUES), out("values", dt, (n,))])
    np.testing.assert_array_equal(result(res, "values"), ref)


def test_unique_consecutive_flat_and_along_a_dimension(op: Op) -> None:
    flat = VALUES.ravel()
    change = np.r_[True, flat[1:] != flat[:-1]]
    ref, inverse = flat[change], np.cumsum(change) - 1
    counts = np.diff(np.r_[np.flatnonzero(change), flat.size])
    n = flat.size
    res = op(
        "UniqueConsecutive",
        [T("self", "f32", VALUES), out("values", "f32", (n,)), out("inverse", "i64", VALUES.shape),
         out("counts", "i64", (n,))],
        ["int returnInverse 1", "int returnCounts 1"],
    )  # fmt: skip
    np.testing.assert_array_equal(result(res, "values"), ref)
    np.testing.assert_array_equal(result(res, "counts"), counts)
    np.testing.assert_array_equal(res.outputs["inverse"], inverse.reshape(VALUES.shape))
    # rows 0 and 1 equal, then row 2: along dim 0 two slices
    x = np.array([[1.0, 2.0], [1.0, 2.0], [1.0, 3.0]])
    res = op(
        "UniqueConsecutive",
        [
            T("self", "f32", x),
            out("values", "f32", x.shape),
            out("inverse", "i64", (3,)),
            out("counts", "i64", (3,)),
        ],
        ["int returnInverse 1", "int returnCounts 1", "int dim 0"],
    )
    np.testing.assert_array_equal(result(res, "values"), x[1:])
    np.testing.assert_array_equal(result(res, "counts"), [2, 1])
    np.testing.assert_array_equal(res.outputs["inverse"], [0, 0, 1])


def test_unique_refusals(op: Op) -> None:
    n = VALUES.size

    def phase1(name: str, tensors: list, lines: list[str]) -> int:
        return op(name, [T("self", "f32", VALUES), *tensors], lines).phase1

    inverse = out("inverse", "i64", VALUES.shape)
    assert phase1("Unique2", [out("values", "f32", (n,)), inverse], ["int returnInverse 1"]) == 0
    assert phase1("Unique2", [out("values", "f32", (n - 1,)), inverse], []) == PARAM_INVALID  # too small
    assert phase1("Unique2", [out("values", "i32", (n,))], []) == PARAM_INVALID  # value type
    assert phase1("Unique2", [out("values", "f32", (n,)), out("inverse", "i32", VALUES.shape)],
                  ["int returnInverse 1"]) == PARAM_INVALID  # fmt: skip
    assert phase1("Unique2", [out("values", "f32", (n,))], ["int returnInverse 1"]) == PARAM_NULLPTR
    assert phase1("UniqueConsecutive", [out("values", "f32", VALUES.shape)], ["int dim 2"]) == PARAM_INVALID
