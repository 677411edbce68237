"""The header-only mstx front end (csrc/sim/include/mstx): injection through MSTX_INJECTION_PATH,
the table layout handed to InitInjectionMstx, routing through libprofapi to a registered tool,
no-ops without a tool, and a thread-safe one-time initialisation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"
HEADER = Path(__file__).resolve().parents[2] / "csrc" / "sim" / "include" / "mstx" / "ms_tools_ext.h"


@pytest.fixture(scope="module")
def frontend(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "mstx_frontend.c"], libs=["profapi"])


@pytest.fixture(scope="module")
def injection_lib(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "mstx_injection_lib.c"], libs=[], extra_flags=["-shared", "-fPIC"])


def run(exe: Path, native: NativeTree, mode: str, **env: str) -> list[str]:
    environment = native.env(**env)
    if env.get("MSTX_INJECTION_PATH") == "":
        del environment["MSTX_INJECTION_PATH"]
    res = run_program(exe, environment, [mode])
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout.splitlines()


def test_calls_reach_the_tool_registered_with_libprofapi(frontend: Path, native: NativeTree) -> None:
    out = run(frontend, native, "tool")
    assert out == [
        "tool markA first stream=(nil)",
        "tool markA on-stream stream=0x1234",
        "tool rangeStartA range stream=(nil)",
        "range id 42",
        "tool rangeEnd 42",
        "tool domainCreateA dom",
        "domain handle",
        "tool domainMarkA dom dmark stream=(nil)",
        "tool domainRangeStartA dom drange stream=0x1234",
        "domain range id 77",
        "tool domainRangeEnd dom 77",
        "tool domainDestroy dom",
        "tool id 0",  # libprofapi installs no getToolId: the front end's no-op answers
        "marks 2",  # the mark after ProfEnableMstxFunc(1) reached nobody
        "end",
    ]


def expect_no_ops(out: list[str], domain: str) -> None:
    assert out == ["range id 0", f"domain {domain}", "domain range id 0", "tool id 0", "end"]


def test_without_a_tool_every_call_is_a_no_op(frontend: Path, native: NativeTree) -> None:
    # libprofapi is injected but nobody is attached to its current module.
    expect_no_ops(run(frontend, native, "plain"), "handle")


@pytest.mark.parametrize("path", ["", "/nonexistent/libnothing.so", "/dev/null"])
def test_unset_or_bad_injection_path_is_harmless(frontend: Path, native: NativeTree, path: str) -> None:
    expect_no_ops(run(frontend, native, "plain", MSTX_INJECTION_PATH=path), "null")
    # A tool registered with libprofapi is unreachable: the front end never loaded the hub.
    assert not [
        line
        for line in run(frontend, native, "tool", MSTX_INJECTION_PATH=path)
        if line.startswith("tool ") and not line.startswith("tool id")
    ]


def test_a_library_without_the_entry_point_is_harmless(frontend: Path, native: NativeTree) -> None:
    libc = next(
        p
        for p in (
            Path("/lib/x86_64-linux-gnu/libm.so.6"),
            Path("/lib64/libm.so.6"),
            Path("/usr/lib/libm.so.6"),
        )
        if p.exists()
    )
    expect_no_ops(run(frontend, native, "plain", MSTX_INJECTION_PATH=str(libc)), "null")


def test_injection_tables_and_partial_filling(
    frontend: Path, injection_lib: Path, native: NativeTree
) -> None:
    out = run(frontend, native, "plain", MSTX_INJECTION_PATH=str(injection_lib))
    assert out == [
        "init 1",
        # pointer-to-slot arrays: entry 0 and entry `size` are NULL, slots 1..size-1 start empty
        "module 1 rc 0 size 5 first null last null slots empty",
        "module 2 rc 0 size 6 first null last null slots empty",
        "module 3 rc 0 size 6 first null last null slots empty",
        "module 9 rc 1",
        "lib markA first stream=(nil)",
        "lib markA on-stream stream=0x1234",
        "lib rangeStartA range stream=(nil)",
        "range id 7",
        "domain null",  # slots the library left alone are no-ops
        "domain range id 0",
        "tool id 0",
        "end",
    ]


def test_racing_first_calls_initialise_once_and_lose_nothing(frontend: Path, native: NativeTree) -> None:
    out = run(frontend, native, "threads")
    assert out[-1] == "marks 1600"


def test_header_compiles_as_c_and_cpp_and_declarations_only(programs: ProgramBuilder, tmp_path: Path) -> None:
    src = tmp_path / "decl.cpp"
    src.write_text(
        '#define MSTX_NO_IMPL\n#include "mstx/ms_tools_ext.h"\n'
        "int main() { return sizeof(mstxRangeId) == 8 && MSTX_API_CORE_SIZE == 5 ? 0 : 1; }\n"
    )
    programs.build([src], libs=[])
    src_c = tmp_path / "both.c"
    src_c.write_text(
        '#include "acl/acl_base.h"\n#include "mstx/ms_tools_ext.h"\n#include "seam/mstx_table.h"\n'
        'int main(void) { mstxMarkA("x", 0); return MSTX_API_CORE2_SIZE == 6 ? 0 : 1; }\n'
    )
    programs.build([src_c], libs=[])
    assert HEADER.exists()
