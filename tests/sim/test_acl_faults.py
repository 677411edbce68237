"""Fault plans (NPU_SIM_FAULTS) on the ACL runtime: which calls fail, and call counting."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def faults_exe(programs: ProgramBuilder) -> Path:
    # Links the simulator core as well, to read its per-function call counters.
    return programs.build(
        [PROGRAMS / "acl_faults.cpp"], libs=["ascendcl", "npusim"], extra_flags=[f"-I{REPO / 'csrc' / 'sim'}"]
    )


def run(exe: Path, native: NativeTree, plan: str | None, *args: str) -> dict[str, str]:
    env = native.env(NPU_SIM_CLOCK="virtual", **({"NPU_SIM_FAULTS": plan} if plan is not None else {}))
    result = run_program(exe, env, list(args))
    assert result.returncode == 0, result.stdout + result.stderr
    out: dict[str, str] = {}
    for line in result.stdout.splitlines():
        words = line.split()
        out[" ".join(words[:-1])] = words[-1]
    return out


def test_without_a_plan_calls_succeed_and_nothing_is_counted(faults_exe: Path, native: NativeTree) -> None:
    out = run(faults_exe, native, None)
    results = {k: v for k, v in out.items() if not k.startswith(("calls", "soc", "counting"))}
    assert set(results.values()) == {"0"}
    assert out["counting"] == "0"  # idle fault points: one load each, no count
    assert {v for k, v in out.items() if k.startswith("calls")} == {"0"}


def test_without_a_plan_calls_are_counted_on_request(faults_exe: Path, native: NativeTree) -> None:
    out = run(faults_exe, native, None, "count")
    results = {k: v for k, v in out.items() if not k.startswith(("calls", "soc", "counting"))}
    assert set(results.values()) == {"0"}
    assert out["counting"] == "1"
    assert out["calls aclrtMalloc"] == "4"
    assert out["calls aclrtFree"] == "4"
    assert out["calls aclrtLaunchKernel"] == "6"
    assert out["calls aclrtSetDevice"] == "1"
    assert out["calls aclrtGetDevice"] == "0"


def test_only_the_second_malloc_fails(faults_exe: Path, native: NativeTree) -> None:
    out = run(faults_exe, native, "aclrtMalloc:error=207001@2")
    assert [out[f"malloc {i}"] for i in range(1, 5)] == ["0", "207001", "0", "0"]
    assert out["counting"] == "1"  # a plan turns counting on from the first call
    assert out["calls aclrtMalloc"] == "4"  # failed calls are counted too
    assert out["calls aclrtFree"] == "3"
    assert all(out[f"launch {i}"] == "0" for i in range(1, 7))


def test_every_other_launch_fails(faults_exe: Path, native: NativeTree) -> None:
    out = run(faults_exe, native, "aclrtLaunchKernel:error=507000@every=2")
    assert [out[f"launch {i}"] for i in range(1, 7)] == ["0", "507000", "0", "507000", "0", "507000"]
    assert out["synchronize"] == "0"


def test_a_failed_set_device_leaves_the_thread_without_a_device(faults_exe: Path, native: NativeTree) -> None:
    out = run(faults_exe, native, "aclrtSetDevice:error=107001")
    assert out["set_device"] == "107001"
    assert out["malloc 1"] == "107002"  # ACL_ERROR_RT_CONTEXT_NULL
    assert out["load"] == "107002"


def test_a_name_returning_call_fails_with_null(faults_exe: Path, native: NativeTree) -> None:
    assert run(faults_exe, native, "aclrtGetSocName:error=1")["soc"] == "(null)"


def test_the_client_surface_calls_have_fault_points(faults_exe: Path, native: NativeTree) -> None:
    assert {k: v for k, v in run(faults_exe, native, None).items() if k in CLIENT_CALLS} == dict.fromkeys(
        CLIENT_CALLS, "0"
    )
    plan = (
        "aclrtStreamQuery:error=507000;aclrtGetErrorVerbose:error=507001;aclrtResetDeviceForce:error=107001"
    )
    out = run(faults_exe, native, plan)
    assert [out[k] for k in CLIENT_CALLS] == ["507000", "507001", "107001"]


CLIENT_CALLS = ("stream_query", "error_verbose", "reset_force")
