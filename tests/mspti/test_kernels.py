"""KERNEL and API-family records, runtime callbacks and 1:N correlation on the simulated runtime."""

import itertools

import pytest
from mspti_harness import KIND

LAUNCH_NAMES = {
    0: "aclrtLaunchKernel",
    1: "aclrtLaunchKernelV2",
    2: "aclrtLaunchKernelWithHostArgs",
    3: "aclrtLaunchKernelWithConfig",
}
TOLERANCE = 1_000_000  # ns: device and host clocks are aligned to within the reference measurement


def run_kernels(mspti_programs, launches=4, variant=0, subscribe_first=1, mask=None, buffers="normal", **env):
    if mask is None:
        mask = sum(1 << KIND[k] for k in ("KERNEL", "API", "ACL_API", "NODE_API", "RUNTIME_API"))
    args = [str(launches), str(variant), str(subscribe_first), hex(mask), buffers]
    return mspti_programs.run(
        "kernels_e2e.c", libs=("mspti", "ascendcl"), preload=True, args=args, **env
    ).check()


@pytest.mark.parametrize("variant", [0, 1, 2, 3])
def test_kernel_records_and_launch_callbacks(mspti_programs, variant):
    n = 5
    run = run_kernels(mspti_programs, n, variant)
    kernels = run.of("KERNEL")
    assert len(kernels) == n
    stream, t0, t1 = int(run.facts["stream"]), int(run.facts["t0"]), int(run.facts["t1"])
    for k in kernels:
        assert k["type"].startswith("KERNEL_") and k["name"] == "add_custom"
        assert (k["deviceId"], k["streamId"]) == (0, stream)
        assert k["start"] < k["end"]
        assert t0 - TOLERANCE <= k["start"] and k["end"] <= t1 + TOLERANCE
    # One stream executes in order: no overlap.
    ordered = sorted(kernels, key=lambda k: k["start"])
    assert all(a["end"] <= b["start"] for a, b in itertools.pairwise(ordered))
    # Each kernel carries its launch call's id, which the callbacks saw at ENTER and EXIT.
    name = LAUNCH_NAMES[variant]
    enter = [c for c in run.callbacks if c["name"] == name and c["site"] == 0]
    leave = [c for c in run.callbacks if c["name"] == name and c["site"] == 1]
    assert [c["cbid"] for c in enter] == [10] * n
    assert sorted(k["correlationId"] for k in kernels) == [c["corr"] for c in enter]
    assert [c["symbol"] for c in enter] == [None] * n and [c["symbol"] for c in leave] == ["add_custom"] * n
    assert all(c["ret"] == 0 and c["shared"] == 1 for c in leave)


def test_one_id_per_call_shared_by_api_records_and_kernels(mspti_programs):
    run = run_kernels(mspti_programs, 3)
    kernels = run.of("KERNEL")
    for k in kernels:
        same = [r for r in run.records if r.get("correlationId") == k["correlationId"] and r is not k]
        kinds = {r["kind"] for r in same}
        assert {KIND["ACL_API"], KIND["RUNTIME_API"]} <= kinds
        names = {r["name"] for r in same}
        assert "aclrtLaunchKernel" in names
        launch = next(r for r in same if r["name"] == "aclrtLaunchKernel")
        assert launch["start"] <= k["start"] + TOLERANCE  # the call began before the kernel ran
    apis = run.of("ACL_API") + run.of("RUNTIME_API")
    pid = int(run.facts["pid"])
    assert all(
        a["processId"] == pid and a["threadId"] == pid and a["start"] <= a["end"] and a["name"] for a in apis
    )


def test_kinds_are_independent(mspti_programs):
    run = run_kernels(mspti_programs, 2, mask=1 << KIND["ACL_API"])
    assert run.records and {r["kind"] for r in run.records} == {KIND["ACL_API"]}
    run = run_kernels(mspti_programs, 2, mask=1 << KIND["KERNEL"])
    assert {r["kind"] for r in run.records} == {KIND["KERNEL"]} and len(run.records) == 2


def test_device_opened_before_subscribe(mspti_programs):
    run = run_kernels(mspti_programs, 3, subscribe_first=0)
    assert len(run.of("KERNEL")) == 3


def test_virtual_clock(mspti_programs):
    run = run_kernels(mspti_programs, 6, NPU_SIM_CLOCK="virtual")
    kernels = run.of("KERNEL")
    assert len(kernels) == 6
    launches = {r["correlationId"]: r for r in run.of("ACL_API") if r["name"] == "aclrtLaunchKernel"}
    for k in kernels:
        # One clock for host and device: the kernel runs after its launch call began.
        assert launches[k["correlationId"]]["start"] <= k["start"] < k["end"]


@pytest.mark.parametrize(
    ("buffers", "lost"), [("small", 0), ("decline2", None), ("null", "all"), ("tiny", "all")]
)
def test_device_records_are_delivered_or_counted(mspti_programs, buffers, lost):
    n = 40
    run = run_kernels(mspti_programs, n, mask=1 << KIND["KERNEL"], buffers=buffers)
    delivered, dropped = len(run.of("KERNEL")), int(run.facts["dropped_kernels"])
    assert delivered + dropped == n
    if lost == "all":
        assert delivered == 0
    elif lost is None:
        assert 0 < dropped <= 2
    else:
        assert dropped == lost


@pytest.mark.parametrize("soc", ["Ascend910_9382", "Ascend950PR_9599"])
def test_other_chips(mspti_programs, soc):
    """A3 (chip type 5 formats) and 950 (chip type 15: 32-byte STARS logs, 32-bit task ids, no stream
    in the matching key)."""
    run = run_kernels(mspti_programs, 4, NPU_SIM_SOC=soc)
    kernels = run.of("KERNEL")
    assert len(kernels) == 4
    launches = {r["correlationId"]: r for r in run.of("ACL_API") if r["name"] == "aclrtLaunchKernel"}
    stream = int(run.facts["stream"])
    for k in kernels:
        assert k["streamId"] == stream and k["start"] < k["end"]
        assert launches[k["correlationId"]]["start"] <= k["start"] + TOLERANCE


@pytest.mark.parametrize("variant", [0, 1, 2, 3])
def test_a_task_track_lost_inside_cann_is_counted_by_its_launch(mspti_programs, variant):
    # The 3rd runtime report fails (the 3rd launch's task track): CANN goes on, the track never
    # reaches msPTI, and the launch that returned without one counts its KERNEL record.
    n = 5
    run = run_kernels(mspti_programs, n, variant, NPU_SIM_FAULTS="MsprofReportCompactInfo:error=5@3")
    kernels = run.of("KERNEL")
    assert len(kernels) == n - 1
    assert int(run.facts["dropped_kernels"]) == 1
    name = LAUNCH_NAMES[variant]
    enter = [c["corr"] for c in run.callbacks if c["name"] == name and c["site"] == 0]
    assert len(enter) == n
    # The others keep their own launches' ids; the lost one is the 3rd launch's.
    assert sorted(k["correlationId"] for k in kernels) == enter[:2] + enter[3:]
