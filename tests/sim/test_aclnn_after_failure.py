"""Operators after a failed one compute (docs/torch_npu.md, "After an operator error"): in one process
and on one stream, a first phase refused for bad input, a second phase whose kernel launch fails and
an aclop type that is not implemented leave no state behind: x + 1 and cumsum(x) that follow compute
their values and the stream synchronises without error (programs/aclnn_after_failure.c)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"


@pytest.fixture(scope="module")
def after_failure(programs: ProgramBuilder) -> Path:
    return programs.build(
        [PROGRAMS / "aclnn_after_failure.c"], libs=["ascendcl", "opapi", "nnopbase", "acl_op_compiler"]
    )


def test_later_operators_compute_after_failed_ones(after_failure: Path, native: NativeTree) -> None:
    env = native.env(NPU_SIM_CLOCK="virtual", NPU_SIM_FAULTS="aclrtLaunchKernelWithHostArgs:error=507000@1")
    res = run_program(after_failure, env)
    assert res.returncode == 0, res.stdout + res.stderr
    got = dict(line.split(" ", 1) for line in res.stdout.splitlines())
    assert got == {
        "bad_input": "161002",  # ACLNN_ERR_PARAM_INVALID
        "failed_launch": "361001",  # ACLNN_ERR_RUNTIME_ERROR
        "unknown_aclop": "200006",  # ACL_ERROR_FEATURE_UNSUPPORTED
        "add": "0",
        "cumsum": "0",
        "sync": "0",
        "y": "2 3 4 5",
        "z": "1 3 6 10",
    }
