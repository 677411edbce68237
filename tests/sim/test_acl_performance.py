"""Launch throughput of the ACL runtime with profiling off.

The target is at least 1,000,000 aclrtLaunchKernel calls per second on one core in
virtual mode, for an optimised build; debug and sanitizer builds only get a sanity floor.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"
TARGET = 1_000_000
SANITY_FLOOR = 50_000


def optimised_build() -> bool:
    if os.environ.get("NPU_SIM_TEST_SANITIZE") or os.environ.get("NPU_SIM_TEST_COVERAGE"):
        return False
    build = os.environ.get("NPU_SIM_BUILD_DIR")
    if not build:
        return True  # the installed package is built as Release
    cache = Path(build) / "CMakeCache.txt"
    text = cache.read_text(encoding="utf-8", errors="replace") if cache.exists() else ""
    build_type = re.search(r"^CMAKE_BUILD_TYPE:\w+=(.*)$", text, re.M)
    sanitizer = re.search(r"^NPU_SIM_SANITIZE:\w+=(.+)$", text, re.M)
    return bool(
        build_type and build_type.group(1) in ("Release", "RelWithDebInfo", "MinSizeRel") and not sanitizer
    )


def test_launch_rate(programs: ProgramBuilder, native: NativeTree) -> None:
    exe = programs.build([PROGRAMS / "acl_launch_rate.c"], libs=["ascendcl"])
    result = run_program(exe, native.env(NPU_SIM_CLOCK="virtual"), ["300000"], timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    rate = float(re.search(r"^launches_per_s=(\S+)$", result.stdout, re.M).group(1))
    floor = TARGET if optimised_build() else SANITY_FLOOR
    assert rate >= floor, f"{rate:.0f} launches/s, expected at least {floor}"
