"""The CANN libraries programs reach without a header of the simulator's own: libms_tools_ext (mstx as
exports, for ctypes), libc_sec (securec.h) and libmsprofiler (acl/acl_prof.h: the functions it does not
collect for; its collection is tests/sim/test_msprof.py), called
through ctypes the way Python programs and C programs call them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder

PROGRAMS = Path(__file__).resolve().parent / "programs"
ACL_ERROR_FEATURE_UNSUPPORTED = 200006


def run_python(native: NativeTree, code: str, **env: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=native.env(**env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


@pytest.fixture(scope="module")
def injection_lib(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "mstx_injection_lib.c"], libs=[], extra_flags=["-shared", "-fPIC"])


def test_ms_tools_ext_forwards_each_call_to_the_injected_tool(
    native: NativeTree, injection_lib: Path
) -> None:
    out = run_python(
        native,
        f"""
        import ctypes
        lib = ctypes.CDLL("{native.sim_lib64}/libms_tools_ext.so")
        lib.mstxRangeStartA.restype = ctypes.c_uint64
        lib.mstxMarkA(b"hello", None)
        print("range", lib.mstxRangeStartA(b"work", ctypes.c_void_p(0x1234)))
        lib.mstxRangeEnd(ctypes.c_uint64(7))  # the tool fills no rangeEnd: a no-op
        tool = ctypes.c_uint64(5)
        lib.mstxGetToolId(ctypes.byref(tool))
        print("tool", tool.value)
        """,
        MSTX_INJECTION_PATH=str(injection_lib),
    )
    assert "init 1" in out  # attached once, on first use
    assert "lib markA hello stream=(nil)" in out
    assert "lib rangeStartA work stream=0x1234" in out
    assert "range 7" in out
    # C's and Python's stdout are buffered apart, so only membership is checked, not the order.
    assert "tool 0" in out  # no getToolId in the tool: the front end's answer


def test_ms_tools_ext_without_a_tool_is_a_no_op(native: NativeTree) -> None:
    out = run_python(
        native,
        f"""
        import ctypes
        lib = ctypes.CDLL("{native.sim_lib64}/libms_tools_ext.so")
        lib.mstxRangeStartA.restype = ctypes.c_uint64
        lib.mstxDomainCreateA.restype = ctypes.c_void_p
        lib.mstxMarkA(b"nobody", None)
        print(lib.mstxRangeStartA(b"r", None), lib.mstxDomainCreateA(b"d"))
        """,
        MSTX_INJECTION_PATH="",
    )
    assert out == ["0 None"]


def test_ms_tools_ext_exports_the_mstx_api(native: NativeTree) -> None:
    out = run_python(
        native,
        f"""
        import ctypes
        lib = ctypes.CDLL("{native.sim_lib64}/libms_tools_ext.so")
        names = ["mstxMarkA", "mstxRangeStartA", "mstxRangeEnd", "mstxGetToolId", "mstxDomainCreateA",
                 "mstxDomainDestroy", "mstxDomainMarkA", "mstxDomainRangeStartA", "mstxDomainRangeEnd"]
        print(all(hasattr(lib, name) for name in names))
        """,
    )
    assert out == ["True"]


def test_securec_bounds_and_return_codes(native: NativeTree) -> None:
    out = run_python(
        native,
        f"""
        import ctypes
        sec = ctypes.CDLL("{native.sim_lib64}/libc_sec.so")
        buf = ctypes.create_string_buffer(8)
        print(sec.strcpy_s(buf, 8, b"1234567"), buf.value)
        print(sec.strcpy_s(buf, 8, b"12345678"), buf.value)      # too long: ERANGE_AND_RESET, cleared
        print(sec.memcpy_s(buf, 4, b"abcdefgh", 8))               # count > destMax
        print(sec.strncpy_s(buf, 8, b"abcdef", 3), buf.value)
        print(sec.strcat_s(buf, 8, b"de"), buf.value)
        print(sec.strncat_s(buf, 8, b"fghij", 2), buf.value)
        print(sec.strncat_s(buf, 8, b"xyz", 3), buf.value)        # 7 + 3 does not fit
        print(sec.snprintf_s(buf, 8, 7, b"%d-%s", 42, b"ok"), buf.value)
        print(sec.snprintf_s(buf, 8, 3, b"%s", b"truncate"))      # more than count: -1
        print(sec.memset_s(buf, 8, 0x41, 3), buf.raw[:3])
        token = ctypes.create_string_buffer(b"a,b,,c")
        context = ctypes.c_char_p()
        sec.strtok_s.restype = ctypes.c_char_p
        words = [sec.strtok_s(token, b",", ctypes.byref(context))]
        while words[-1] is not None:
            words.append(sec.strtok_s(None, b",", ctypes.byref(context)))
        print(words[:-1])
        """,
    )
    assert out == [
        "0 b'1234567'",
        "162 b''",
        "162",
        "0 b'abc'",
        "0 b'abcde'",
        "0 b'abcdefg'",
        "162 b''",
        "5 b'42-ok'",
        "-1",
        "0 b'AAA'",
        "[b'a', b'b', b'c']",
    ]


def test_aclprof_functions_without_collection_report_the_feature_as_unsupported(native: NativeTree) -> None:
    out = run_python(
        native,
        f"""
        import ctypes
        prof = ctypes.CDLL("{native.sim_lib64}/libmsprofiler.so")
        prof.aclprofCreateSubscribeConfig.restype = ctypes.c_void_p
        prof.aclprofCreateStamp.restype = ctypes.c_void_p
        prof.aclprofGetOpStart.restype = ctypes.c_uint64
        print(prof.aclprofModelSubscribe(0, None), prof.aclprofPush(None), prof.aclprofMarkEx(b"m", 1, None))
        print(prof.aclprofCreateSubscribeConfig(0, 0, None), prof.aclprofCreateStamp())
        print(prof.aclprofGetOpStart(None, 0, 0), prof.aclprofGetOpFlag(None, 0, 0))
        """,
        NPU_SIM_LOG_LEVEL="warn",
    )
    code = str(ACL_ERROR_FEATURE_UNSUPPORTED)
    assert out == [f"{code} {code} {code}", "None None", "0 255"]


def test_aclprof_logs_once_per_process(native: NativeTree) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import ctypes; p = ctypes.CDLL('{native.sim_lib64}/libmsprofiler.so')\n"
            "for _ in range(3): p.aclprofRangeStop(0); p.aclprofPop()",
        ],
        env=native.env(NPU_SIM_LOG_LEVEL="warn"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "not collected by the simulator" in line]
    assert len(lines) == 1 and "aclprofRangeStop" in lines[0] and "msPTI" in lines[0]
