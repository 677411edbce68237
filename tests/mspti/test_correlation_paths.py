"""Correlation ids however the program reached the launch: linked, dlopen + dlsym, ctypes.

A launch that bypasses msPTI's interposer (the program calls libascendcl's own
aclrtLaunchKernel) is still reported by the runtime itself (its task track and its API report,
on the launching thread), and msPTI correlates from those reports: one distinct id per launch,
never the id of another call (the interposed memsets and synchronisations in between).
"""

from __future__ import annotations

import textwrap

import pytest
from mspti_harness import KIND

from support.native import python_subprocess_env, run_program

LAUNCHES = 12


def mask(*kinds: str) -> str:
    return hex(sum(1 << KIND[k] for k in kinds))


def other_call_ids(run) -> set[int]:
    return {c["corr"] for c in run.callbacks if c["name"] != "aclrtLaunchKernel"}


@pytest.mark.parametrize("how", ["dlsym", "linked"])
@pytest.mark.parametrize("kinds", [("KERNEL",), ("KERNEL", "RUNTIME_API"), ("KERNEL", "MEMSET", "ACL_API")])
def test_each_launch_gets_its_own_id(mspti_programs, how: str, kinds: tuple[str, ...]) -> None:
    run = mspti_programs.run(
        "kernels_dlsym.c", libs=("mspti", "ascendcl"), preload=True, args=[str(LAUNCHES), how, mask(*kinds)]
    ).check()
    kernels = [k for k in run.of("KERNEL") if k["name"] == "add_custom"]
    assert len(kernels) == LAUNCHES
    ids = [k["correlationId"] for k in kernels]
    assert len(set(ids)) == LAUNCHES, f"one id per launch, got {ids}"
    assert 0 not in ids
    assert not set(ids) & other_call_ids(run), "a kernel carries the id of another call"
    for r in run.records:
        if r["kind"] == KIND["MEMSET"]:
            assert r["correlationId"] not in ids
    if how == "linked":
        enter = [c["corr"] for c in run.callbacks if c["name"] == "aclrtLaunchKernel" and c["site"] == 0]
        assert sorted(ids) == sorted(enter)
    if "RUNTIME_API" in kinds:
        # The runtime's own report of each launch carries the kernel's id.
        launches = [r for r in run.of("RUNTIME_API") if r["name"] == "KernelLaunch"]
        assert sorted(r["correlationId"] for r in launches) == sorted(ids)


CTYPES_SCRIPT = textwrap.dedent(
    """
    import ctypes, json, sys
    from mspti_core import KernelMonitor
    got = []
    mon = KernelMonitor()
    mon.start(lambda data: got.append(data.correlation_id))
    acl = ctypes.CDLL("libascendcl.so")
    assert acl.aclInit(None) == 0
    assert acl.aclrtSetDevice(0) == 0
    stream = ctypes.c_void_p()
    assert acl.aclrtCreateStream(ctypes.byref(stream)) == 0
    image = b"simulated kernel image"
    binh, fn = ctypes.c_void_p(), ctypes.c_void_p()
    assert acl.aclrtBinaryLoadFromData(image, len(image) + 1, None, ctypes.byref(binh)) == 0
    assert acl.aclrtBinaryGetFunction(binh, b"add_custom", ctypes.byref(fn)) == 0
    args = (ctypes.c_uint64 * 4)()
    for i in range(int(sys.argv[1])):
        assert acl.aclrtLaunchKernel(fn, 8, args, ctypes.sizeof(args), stream) == 0
        if i % 2:
            assert acl.aclrtSynchronizeStream(stream) == 0
    assert acl.aclrtSynchronizeStream(stream) == 0
    mon.stop()
    print(json.dumps(got))
    """
)


def test_ctypes_launches_get_one_distinct_id_each(native, tmp_path) -> None:
    script = tmp_path / "ctypes_launch.py"
    script.write_text(CTYPES_SCRIPT)
    import sys

    env = python_subprocess_env(native.env(preload_mspti=False, NPU_SIM_CLOCK="virtual"))
    result = run_program(sys.executable, env, [str(script), str(LAUNCHES)], timeout=120)  # type: ignore[arg-type]
    assert result.returncode == 0, result.stderr[-3000:]
    ids = __import__("json").loads(result.stdout.strip().splitlines()[-1])
    assert len(ids) == LAUNCHES
    assert len(set(ids)) == LAUNCHES and 0 not in ids
