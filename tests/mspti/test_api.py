"""The public API surface: layouts, exported symbols, error codes for every bad input."""

import subprocess

import pytest


def test_layout_c_and_cpp(mspti_programs):
    for program in ("layout_c.c", "layout_cpp.cpp"):
        run = mspti_programs.run(program)
        assert run.returncode == 0, run.stdout + run.stderr


def test_layout_cpp14(mspti_programs):
    run = mspti_programs.run("layout_cpp.cpp", extra_flags=["-std=c++14"])
    assert run.returncode == 0, run.stdout + run.stderr


def test_exported_symbols(native):
    out = subprocess.run(
        ["nm", "-D", "--defined-only", str(native.mspti_library)], capture_output=True, text=True, check=True
    ).stdout
    names = {line.split()[-1] for line in out.splitlines() if line.strip()}
    public = {n for n in names if n.startswith("mspti")}
    assert public == {
        "msptiSubscribe",
        "msptiUnsubscribe",
        "msptiEnableCallback",
        "msptiEnableDomain",
        "msptiActivityRegisterCallbacks",
        "msptiActivityEnable",
        "msptiActivityDisable",
        "msptiActivityIsEnabled",
        "msptiActivityEnableMarkerDomain",
        "msptiActivityDisableMarkerDomain",
        "msptiActivityGetNextRecord",
        "msptiActivityFlushAll",
        "msptiActivityFlushPeriod",
        "msptiActivityPushExternalCorrelationId",
        "msptiActivityPopExternalCorrelationId",
        # CANN's newer functions (mspti_activity.h, mspti_result.h)
        "msptiGetVersion",
        "msptiGetTimestamp",
        "msptiActivityGetStructSize",
        "msptiActivityGetEnabledKinds",
        "msptiActivityGetNumDroppedRecords",
        "msptiActivityRegisterTimestampCallback",
        "msptiActivitySetAttribute",
        "msptiActivityGetAttribute",
        "msptiGetResultString",
        # extensions (mspti_ext.h)
        "msptiResultGetString",
        "msptiActivityGetDroppedRecords",
        "msptiActivityGetDroppedRecordsByReason",
    }
    # The 34 interposed functions of the seam, and 4 msPTI interposes only to note synchronisations.
    noted = {
        "aclrtSynchronizeStreamWithTimeout",
        "aclrtSynchronizeDevice",
        "aclrtRecordEvent",
        "aclrtSynchronizeEvent",
    }
    assert noted <= names
    assert len([n for n in names if n.startswith("aclrt")]) == 34 + len(noted)
    assert len([n for n in names if n.startswith("Hccl")]) == 12
    # libmsprofiler's entry (docs/msprof.md, *Copies and the interposer*): not msPTI's API.
    private = {
        "npusim_mspti_enable_for_msprof",
        "npusim_mspti_observe_kernel_tasks",
        "npusim_mspti_observe_node_info",
    }
    assert private <= names
    assert names == public | private | {n for n in names if n.startswith(("aclrt", "Hccl"))}, (
        "nothing else is exported"
    )


def test_no_runpath_and_no_cann_dependency(native):
    out = subprocess.run(
        ["readelf", "-d", str(native.mspti_library)], capture_output=True, text=True, check=True
    ).stdout
    assert "RUNPATH" not in out and "RPATH" not in out
    for lib in ("libascendcl", "libprofapi", "libascend_hal", "libhccl", "libascendalog"):
        assert lib not in out


@pytest.mark.parametrize(
    ("libs", "preload", "modes"),
    [
        # Nothing else defines aclrtMalloc / HcclAllReduce: the process resolves ours.
        (("mspti",), False, ["interposed", "interposed"]),
        # The real runtime comes first: no aclrt interposition (nothing defines HcclAllReduce but us).
        (("ascendcl", "mspti"), False, ["plain", "interposed"]),
        # LD_PRELOAD puts ours first.
        (("ascendcl", "mspti"), True, ["interposed", "interposed"]),
        # Linked ahead of the runtime.
        (("mspti", "ascendcl"), False, ["interposed", "interposed"]),
    ],
)
def test_error_codes(mspti_programs, libs, preload, modes):
    flags = ["-DUSE_ACL"] if "ascendcl" in libs else []
    run = mspti_programs.run(
        "api_errors.c", libs=libs, preload=preload, args=modes, extra_flags=flags
    ).check()
    assert run.facts["done"] == "1"
    assert run.facts["version"] == "260200"


def test_works_without_any_cann_library(mspti_programs, native, tmp_path):
    """CANN's msPTI aborts at load when libascendalog/libprofapi are missing; ours loads and answers."""
    import shutil

    from mspti_harness import parse

    from support.native import run_program

    lib = tmp_path / "lib"
    lib.mkdir()
    shutil.copy(native.mspti_library, lib / "libmspti.so")
    exe = mspti_programs.build("api_errors.c")
    env = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": str(lib)}
    run = parse(run_program(exe, env, args=["interposed", "interposed"])).check()
    assert run.facts["done"] == "1"
