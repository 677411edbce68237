"""The arrays nnopbase hands to its caller (aclGetViewShape, aclGetViewStrides, aclGetStorageShape) are
allocated as CANN's contract says the caller frees them: with delete[] (nnopbase's API reference, and
torch_npu's op-plugin after nonzero, masked_select and unique). A program built with AddressSanitizer
releases them so; ASan stops it on an allocation of another kind (alloc-dealloc-mismatch)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"
SANITIZER = os.environ.get("NPU_SIM_TEST_SANITIZE", "")


@pytest.mark.skipif(
    SANITIZER not in ("", "address"), reason=f"built with -fsanitize={SANITIZER}, which excludes ASan"
)
def test_handed_out_arrays_are_released_with_delete_brackets(
    programs: ProgramBuilder, native: NativeTree
) -> None:
    flags = [] if SANITIZER else ["-fsanitize=address"]
    exe = programs.build([PROGRAMS / "view_shape_release.cpp"], libs=["nnopbase"], extra_flags=flags)
    env = native.env(ASAN_OPTIONS="alloc_dealloc_mismatch=1:detect_leaks=1")
    res = run_program(exe, env)
    assert "alloc-dealloc-mismatch" not in res.stderr, res.stderr
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.splitlines() == [
        "view_shape 0 2 3 4",
        "view_strides 0 12 4 1",
        "storage_shape 0 24",
        "scalar_view_shape 0",
    ]
