"""The include graph of the shipped headers, as CANN's public clients rely on it: securec.h makes the C
library's <stdlib.h>, <string.h> and <stdio.h> visible (CANN's securectype.h includes them), and
hccl/hccl.h includes acl/acl.h. Each program unit includes only that one header."""

from __future__ import annotations

from pathlib import Path

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"


def test_securec_and_hccl_headers_alone_are_enough(programs: ProgramBuilder, native: NativeTree) -> None:
    exe = programs.build(
        [PROGRAMS / "cann_include_hccl.cpp", PROGRAMS / "cann_include_securec.cpp"],
        libs=["hccl", "ascendcl", "c_sec"],
    )
    result = run_program(exe, native.env(NPU_SIM_CLOCK="virtual"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == ["securec_user ok"]
