"""Fault injection at every seam function msPTI depends on.

For each function of the seam (reference/cann-seam.md §1.2 and §7.2: what msPTI calls in
libprofapi, libascend_hal, libascendcl and libhccl, plus the profapi report functions through
which CANN reaches msPTI) and each fault (error on every call, error on the 3rd call, a 5 ms
delay; short and garbled reads for the functions that return device data; a 10 s stall for a
few blocking ones), programs/fault_workload.cpp runs a real workload (allocations, copies,
fills, host and device markers, external correlation, kernel launches; HCCL collectives on two
ranks for the HCCL functions) under LD_PRELOAD msPTI with every activity kind enabled, and the
fault planned through NPU_SIM_FAULTS. Checked:

* the process survives (exit 0; every CANN failure is tolerated by the workload);
* every msPTI call returns its documented result;
* callbacks pair (ENTER/EXIT);
* host-side records are accounted: MEMORY / MEMCPY / MEMSET delivered + dropped equal the
  successful calls, EXTERNAL_CORRELATION and host MARKER records at least what the workload
  caused (markers only when the fault is not on the path that routes mstx to msPTI);
* the fault was injected at least once (a case whose function is never reached is skipped and
  says so).

The default run takes a small subset; the whole matrix is marked slow (`pytest -m slow
tests/reliability`). Per-run figures go to build/reliability/fault_campaign.jsonl.
"""

from __future__ import annotations

import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from reliability_support import DROP_REASONS, Figures, ReliabilityPrograms

from support.native import run_program
from support.two_hosts import two_hosts

# Functions of the seam, by library (cann-seam.md §1.2, §7.2).
PROFAPI = (
    "MsprofRegisterProfileCallback",
    "profSetProfCommand",
    "ProfRegisterMstxFunc",
    "ProfEnableMstxFunc",
    "MsprofSysCycleTime",
    # CANN's side of the seam: how the runtime and HCCL reach msPTI.
    "MsprofReportApi",
    "MsprofReportCompactInfo",
    "MsprofRegTypeInfo",
    "MsprofGetHashId",
    "MsprofNotifySetDevice",
    "InitInjectionMstx",
)
HAL = (
    "drvGetDevNum",
    "drvGetDevIDs",
    "halGetDeviceInfo",
    "halGetAPIVersion",
    "prof_drv_get_channels",
    "prof_drv_start",
    "prof_stop",
    "prof_channel_poll",
    "prof_channel_read",
    "halProfDataFlush",
)
ACL = (
    "aclrtSetDevice",
    "aclrtResetDevice",
    "aclrtCreateContext",
    "aclrtDestroyContext",
    "aclrtCreateStream",
    "aclrtDestroyStream",
    "aclrtSynchronizeStream",
    "aclrtLaunchKernel",
    "aclrtLaunchKernelV2",
    "aclrtLaunchKernelWithConfig",
    "aclrtLaunchKernelWithHostArgs",
    "aclrtMalloc",
    "aclrtMallocWithCfg",
    "aclrtMallocForTaskScheduler",
    "aclrtMallocCached",
    "aclrtFree",
    "aclrtMallocHost",
    "aclrtFreeHost",
    "aclrtMemFlush",
    "aclrtMemInvalidate",
    "aclrtMemcpy",
    "aclrtMemcpyAsync",
    "aclrtMemcpy2d",
    "aclrtMemcpy2dAsync",
    "aclrtMemset",
    "aclrtMemsetAsync",
    "aclrtGetMemInfo",
    "aclrtReserveMemAddress",
    "aclrtReleaseMemAddress",
    "aclrtMallocPhysical",
    "aclrtFreePhysical",
    "aclrtMemExportToShareableHandle",
    "aclrtMemImportFromShareableHandle",
    "aclrtMemSetPidToShareableHandle",
    # helpers msPTI calls itself
    "aclrtGetDevice",
    "aclrtStreamGetId",
    "aclrtProfTrace",
)
HCCL = (
    "HcclAllReduce",
    "HcclBroadcast",
    "HcclAllGather",
    "HcclReduceScatter",
    "HcclReduce",
    "HcclAlltoAll",
    "HcclAlltoAllV",
    "HcclBarrier",
    "HcclScatter",
    "HcclSend",
    "HcclRecv",
    "HcclBatchSendRecv",
    "HcclGetCommName",
    "HcclGetRankSize",
)
# libascendalog (CheckLogLevelForC, DlogInnerForC) has no fault points in the simulator.
ALOG_WITHOUT_FAULT_POINTS = ("CheckLogLevelForC", "DlogInnerForC")

ERROR_CODE = {**dict.fromkeys(PROFAPI, 5), **dict.fromkeys(HAL, 7), **dict.fromkeys(ACL, 507899)}
ERROR_CODE.update(dict.fromkeys(HCCL, 4))
ERROR_CODE.update(
    {"prof_channel_poll": -1, "prof_channel_read": -1, "MsprofSysCycleTime": 0, "MsprofGetHashId": 0}
)
# Functions that return device data honour short= and garble; a few blocking ones are stalled.
DATA_FUNCTIONS = ("prof_channel_read",)
STALL = {
    "prof_channel_poll": 2,
    "prof_channel_read": 1,
    "halProfDataFlush": 1,
    "prof_stop": 1,
    "drvGetDevNum": 1,
}
# Faults here can keep mstx from reaching msPTI at all: host markers are not owed then.
MSTX_ROUTE = (
    "MsprofRegisterProfileCallback",
    "ProfRegisterMstxFunc",
    "ProfEnableMstxFunc",
    "InitInjectionMstx",
)
# The mstx front end is compiled into the application and asks libprofapi's InitInjectionMstx for its
# tool once. Refused, it keeps every mstx call a no-op (mstx's documented behaviour with no tool): the
# marks reach neither libprofapi nor msPTI and no record of them is ever made, so none is owed.
FRONT_END_REFUSED = ("InitInjectionMstx",)
# Called only on msPTI's own reader thread: stalling them must not block the application's msPTI calls
# (FlushAll waits at most 50 ms for the driver, docs/mspti-deviations.md §1).
READER_THREAD = ("prof_channel_poll", "prof_channel_read")
BLOCKING_LIMIT_MS = 2000
# Open findings pinned as xfail(strict=True) cases: (function, action) -> reason. Empty since F-2's fix.
KNOWN_FAILURES: dict[tuple[str, str], str] = {}

DEFAULT_SUBSET = {
    ("prof_channel_read", "short"),
    ("prof_channel_read", "garble"),
    ("prof_channel_poll", "error"),
    ("halProfDataFlush", "delay"),
    ("drvGetDevNum", "error"),
    ("MsprofRegisterProfileCallback", "error"),
    ("aclrtMalloc", "error@3"),
    ("aclrtMemcpyAsync", "error"),
    ("MsprofReportCompactInfo", "error@3"),
}

HOST_KINDS_EXACT = {5: "MEMORY", 6: "MEMSET", 7: "MEMCPY"}
HOST_KINDS_AT_LEAST = {8: "EXTERNAL_CORRELATION", 1: "MARKER"}
# Device kinds whose produced count the workload knows (successful launches and collectives), and
# device MARKER halves ("M" line): produced, delivered, dropped by reason and unaccounted per plan.
DEVICE_KINDS = {2: "KERNEL", 4: "HCCL", 9: "COMMUNICATION"}


def plan_for(function: str, action: str) -> str:
    if action == "error":
        return f"{function}:error={ERROR_CODE[function]}"
    if action == "error@3":
        return f"{function}:error={ERROR_CODE[function]}@3"
    if action == "short":
        return f"{function}:short=7"
    if action == "garble":
        return f"{function}:garble"
    if action == "delay":
        return f"{function}:delay=5ms"
    if action == "stall":
        return f"{function}:stall@{STALL[function]}"
    raise ValueError(action)


def cases() -> list[object]:
    out = []
    for function in (*PROFAPI, *HAL, *ACL, *HCCL):
        actions = ["error", "error@3", "delay"]
        if function in DATA_FUNCTIONS:
            actions += ["short", "garble"]
        if function in STALL:
            actions.append("stall")
        for action in actions:
            marks: list[pytest.MarkDecorator] = (
                [] if (function, action) in DEFAULT_SUBSET else [pytest.mark.slow]
            )
            if (function, action) in KNOWN_FAILURES:
                marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[function, action]))
            out.append(pytest.param(function, action, marks=marks, id=f"{function}-{action}"))
    return out


@dataclass
class WorkloadRun:
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    def lines(self, tag: str) -> list[str]:
        return [line[2:] for line in self.stdout.splitlines() if line.startswith(tag + " ")]

    def fields(self, tag: str) -> list[dict[str, str]]:
        return [dict(item.split("=", 1) for item in line.split() if "=" in item) for line in self.lines(tag)]


@pytest.fixture(scope="module")
def workload(reliability_programs: ReliabilityPrograms) -> Path:
    return reliability_programs.fault_workload()


def run_workload(
    programs: ReliabilityPrograms,
    exe: Path,
    function: str,
    plan: str,
    sessions: int = 1,
    hccl: bool | None = None,
) -> WorkloadRun:
    """The fault workload under ``plan``; the HCCL part runs for the HCCL functions unless ``hccl`` says."""
    hccl = function in HCCL if hccl is None else hccl
    env = programs.native.env(
        preload_mspti=True,
        NPU_SIM_FAULTS=plan,
        NPU_SIM_CLOCK="virtual",
        NPU_SIM_LOG_LEVEL="off",
        NPU_SIM_DEVICES="2" if hccl else "1",
        HCCL_CONNECT_TIMEOUT="10",
        HCCL_EXEC_TIMEOUT="3",
    )
    started = time.monotonic()
    try:
        proc = run_program(exe, env, args=[function, "1" if hccl else "0", str(sessions)], timeout=90)
    except subprocess.TimeoutExpired as hang:
        pytest.fail(f"{plan}: the workload hung (killed after {hang.timeout} s)\n{hang.stdout!r}")
    return WorkloadRun(proc.returncode, proc.stdout, proc.stderr, round(time.monotonic() - started, 2))


def test_seam_lists_match_the_reference() -> None:
    # 67 functions of cann-seam.md §7.2 minus libprofapi's 4 + alog's 2 gives the listed ones.
    required = {*PROFAPI[:4], *HAL, *ACL, *HCCL, *ALOG_WITHOUT_FAULT_POINTS}
    assert len(required) == 67


@pytest.mark.parametrize(("function", "action"), cases())
def test_fault(
    reliability_programs: ReliabilityPrograms, workload: Path, figures: Figures, function: str, action: str
) -> None:
    plan = plan_for(function, action)
    # Three sessions (subscribe ... unsubscribe) for a fault on the 3rd call, so that functions
    # called once per session reach it; functions called once per process still do not.
    sessions = 3 if action == "error@3" else 1
    run = run_workload(reliability_programs, workload, function, plan, sessions)
    context = f"plan {plan!r}\nstdout:\n{run.stdout[-3000:]}\nstderr:\n{run.stderr[-3000:]}"
    assert run.returncode == 0, f"the process did not survive (exit {run.returncode})\n{context}"

    fault = run.fields("F")
    assert fault, f"no fault figures\n{context}"
    calls, injected = int(fault[0]["calls"]), int(fault[0]["injected"])
    kinds = {int(k["kind"]): k for k in run.fields("K")}
    assert len(kinds) == 13, context
    host_expected = host_accounted = 0
    problems = [f"undocumented msPTI result: {line}" for line in run.lines("A")]
    for kind, name in {**HOST_KINDS_EXACT, **HOST_KINDS_AT_LEAST}.items():
        if kind == 1 and function in MSTX_ROUTE:
            continue
        k = kinds[kind]
        expected, accounted = int(k["expected"]), int(k["delivered"]) + int(k["dropped"])
        host_expected += expected
        host_accounted += accounted
        if accounted < expected or (kind in HOST_KINDS_EXACT and accounted != expected):
            problems.append(
                f"{name}: produced {expected}, delivered {k['delivered']} + dropped {k['dropped']}"
            )
    markers = run.fields("M")[0]
    if function in FRONT_END_REFUSED and action.startswith("error") and injected:
        markers["expected"] = "0"
    accounting = device_accounting(kinds, markers)
    for name, figures_of_kind in accounting.items():
        if figures_of_kind["unaccounted"] != 0:
            problems.append(f"{name}: {figures_of_kind}")
    blocked = {line.rsplit(" ", 1)[0]: int(line.rsplit(" ", 1)[1]) for line in run.lines("T")}
    longest = max(blocked.items(), key=lambda item: item[1], default=("-", 0))
    if function in READER_THREAD and longest[1] > BLOCKING_LIMIT_MS:
        problems.append(
            f"{longest[0]} blocked the application for {longest[1]} ms while the reader was stalled"
        )
    callbacks = run.fields("C")[0]
    if callbacks["enter"] != callbacks["exit"] or callbacks["unpaired"] != "0":
        problems.append(f"callbacks do not pair: {callbacks}")

    figures.add(
        {
            "function": function,
            "action": action,
            "plan": plan,
            "sessions": sessions,
            "exit": run.returncode,
            "seconds": run.seconds,
            "calls": calls,
            "injected": injected,
            "host_expected": host_expected,
            "host_accounted": host_accounted,
            "delivered_total": sum(int(k["delivered"]) for k in kinds.values()),
            "dropped_total": sum(int(k["dropped"]) for k in kinds.values()),
            "delivered": {k: int(v["delivered"]) for k, v in kinds.items()},
            "dropped": {k: int(v["dropped"]) for k, v in kinds.items()},
            "device_accounting": accounting,
            "cann_failures_tolerated": len(run.lines("W")),
            "longest_mspti_call_ms": longest[1],
            "longest_mspti_call": longest[0],
            "problems": problems,
        }
    )
    print(f"\n{plan}: device records {accounting}")
    print(
        f"\n{plan}: exit 0 in {run.seconds} s, {calls} calls, {injected} injected, host records owed "
        f"{host_expected} accounted {host_accounted}, "
        f"delivered {sum(int(k['delivered']) for k in kinds.values())}, CANN failures tolerated "
        f"{len(run.lines('W'))}, longest msPTI call {longest[0]} {longest[1]} ms"
    )
    assert not problems, "\n".join(problems) + "\n" + context
    if injected == 0:
        pytest.skip(f"{function} is called {calls} time(s) per process: the planned call never happens")


def device_accounting(
    kinds: dict[int, dict[str, str]], markers: dict[str, str]
) -> dict[str, dict[str, object]]:
    """Per device kind: produced, delivered, dropped by reason and unaccounted (produced - delivered -
    dropped). Device MARKER halves are the marks with a stream: their drops are MARKER drops for the
    reasons of a device half (the workload's host marks cannot be dropped for those)."""
    out: dict[str, dict[str, object]] = {}
    for kind, name in DEVICE_KINDS.items():
        k = kinds[kind]
        by_reason = {DROP_REASONS[r]: int(k[f"r{r}"]) for r in DROP_REASONS if int(k[f"r{r}"])}
        produced, delivered, dropped = int(k["expected"]), int(k["delivered"]), int(k["dropped"])
        out[name] = {
            "produced": produced,
            "delivered": delivered,
            "dropped": by_reason,
            "unaccounted": produced - delivered - dropped,
        }
    marker = kinds[1]
    halves = {DROP_REASONS[r]: int(marker[f"r{r}"]) for r in (3, 4, 5, 6) if int(marker[f"r{r}"])}
    produced, delivered = int(markers["expected"]), int(markers["delivered"])
    out["device MARKER"] = {
        "produced": produced,
        "delivered": delivered,
        "dropped": halves,
        "unaccounted": produced - delivered - sum(halves.values()),
    }
    return out


def test_error_codes_reach_the_workload(reliability_programs: ReliabilityPrograms, workload: Path) -> None:
    """A failing CANN call's error is returned to the application untouched by the interposer."""
    run = run_workload(reliability_programs, workload, "aclrtMalloc", "aclrtMalloc:error=507899@2")
    assert run.returncode == 0, run.stderr
    assert "aclrtMalloc 507899" in run.lines("W"), run.stdout
    assert re.search(r"^F function=aclrtMalloc calls=\d+ injected=1$", run.stdout, re.MULTILINE), run.stdout


# msPTI counts a kernel whose device half never came as dropped once it is older than its age limit
# (kernel_matcher.cpp, one minute): this kernel runs longer, so after it every earlier launch is old.
OUTLIVE_COSTS = """
[[kernel]]
pattern = "outlives_age_limit"
duration_ns = 61000000000

[[kernel]]
pattern = "*"
duration_ns = 3000
"""


def lost_records(
    programs: ReliabilityPrograms, rounds: int, faults: str, outlive: bool, costs: Path
) -> dict[str, dict[str, int]]:
    exe = programs.build("lost_device_records.c", ["ascendcl", "mspti"])
    costs.write_text(OUTLIVE_COSTS)
    env = programs.native.env(
        NPU_SIM_FAULTS=faults,
        NPU_SIM_CLOCK="virtual",
        NPU_SIM_LOG_LEVEL="off",
        NPU_SIM_KERNEL_COSTS=str(costs),
    )
    proc = run_program(exe, env, args=[str(rounds), str(int(outlive))], timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    phases: dict[str, dict[str, int]] = {}
    for line in proc.stdout.splitlines():
        if line.startswith("S phase="):
            fields = dict(item.split("=", 1) for item in line[2:].split())
            phase = fields.pop("phase")
            phases[phase] = {k: int(v) for k, v in fields.items()}
    print(f"\n{faults or 'no faults'}, {rounds} rounds of 4 kernels: {phases}")
    return phases


def accounted(phase: dict[str, int]) -> bool:
    return phase["delivered"] + phase["dropped"] == phase["launched"]


def test_lost_device_records_are_counted_when_collection_stops(
    reliability_programs: ReliabilityPrograms, tmp_path: Path
) -> None:
    phases = lost_records(
        reliability_programs, 500, "prof_channel_read:garble", False, tmp_path / "costs.toml"
    )
    assert phases["unsubscribed"]["launched"] == 2000
    assert accounted(phases["unsubscribed"])


def test_lost_device_records_are_counted_while_collecting(
    reliability_programs: ReliabilityPrograms, tmp_path: Path
) -> None:
    """F-5: every device record garbled, so no kernel of the stream ever ends; the age limit counts them."""
    phases = lost_records(
        reliability_programs, 500, "prof_channel_read:garble", True, tmp_path / "costs.toml"
    )
    aged = phases["aged"]
    assert aged["launched"] == 2001
    assert accounted(aged)
    # Until the age limit nothing ends on the stream, so nothing tells msPTI they are lost (unless
    # collection stops): the ordering rule needs a later kernel whose device half arrives.
    assert phases["collecting"]["dropped"] == 0, phases


def test_kernels_overtaken_on_their_stream_are_counted_at_the_next_flush(
    reliability_programs: ReliabilityPrograms, tmp_path: Path
) -> None:
    """Reads 5-40 garbled, the rest clean: a lost kernel is overtaken by later ones of its stream, so
    each FlushAll accounts for every launch without waiting for the age limit, and no good one is lost."""
    phases = lost_records(
        reliability_programs, 200, "prof_channel_read:garble@5-40", False, tmp_path / "costs.toml"
    )
    collecting = phases["collecting"]
    assert collecting["launched"] == 800
    assert accounted(collecting)
    assert collecting["dropped"] > 0 and collecting["delivered"] > 700


def test_no_kernel_is_dropped_across_the_task_id_wrap(
    reliability_programs: ReliabilityPrograms, tmp_path: Path
) -> None:
    """70,000 launches on one stream (16-bit task ids wrap) with a FlushAll after every 4: the rules that
    count lost kernels run at each flush and must not take a good one for lost."""
    phases = lost_records(reliability_programs, 17_500, "", True, tmp_path / "costs.toml")
    aged = phases["aged"]
    assert aged["launched"] == 70_001
    assert aged["delivered"] == 70_001 and aged["dropped"] == 0


def lost_markers(
    programs: ReliabilityPrograms, rounds: int, faults: str, sync: str = "stream"
) -> dict[str, dict[str, int]]:
    exe = programs.build("lost_device_markers.c", ["ascendcl", "mspti"])
    env = programs.native.env(
        preload_mspti=True, NPU_SIM_FAULTS=faults, NPU_SIM_CLOCK="virtual", NPU_SIM_LOG_LEVEL="off"
    )
    proc = run_program(exe, env, args=[str(rounds), sync], timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    phases: dict[str, dict[str, int]] = {}
    for line in proc.stdout.splitlines():
        if line.startswith("S phase="):
            fields = dict(item.split("=", 1) for item in line[2:].split())
            phase = fields.pop("phase")
            phases[phase] = {k: int(v) for k, v in fields.items()}
    print(f"\n{faults}, {rounds} rounds of 5 kernels and 5 device marks, sync {sync}: {phases}")
    return phases


def markers_accounted(phase: dict[str, int]) -> bool:
    kernels = phase["kernel_delivered"] + phase["kernel_dropped"] == phase["launched"]
    device_markers = phase["device_marker_delivered"] + phase["marker_dropped"] == phase["marks"]
    return kernels and device_markers and phase["host_marker_delivered"] == phase["marks"]


@pytest.mark.parametrize("faults", ["prof_channel_read:garble", "prof_channel_read:error=-1"])
def test_lost_device_marker_halves_are_counted_at_flush(
    reliability_programs: ReliabilityPrograms, faults: str
) -> None:
    """F-17: every device half lost (garbled, or every read failing): once FlushAll returns, every kernel
    and device marker of the synchronised stream is delivered or counted as dropped (DEVICE_HALF_LOST)."""
    phases = lost_markers(reliability_programs, 10, faults)
    for name in ("flushed", "unsubscribed"):
        assert markers_accounted(phases[name]), name
    assert (
        phases["flushed"]["lost_halves"]
        == phases["flushed"]["kernel_dropped"] + phases["flushed"]["marker_dropped"]
    )


@pytest.mark.parametrize("sync", ["timeout", "device", "event"])
def test_every_synchronisation_makes_lost_halves_owed_at_flush(
    reliability_programs: ReliabilityPrograms, sync: str
) -> None:
    """The rule of F-17 for the other synchronisations: after aclrtSynchronizeStreamWithTimeout,
    aclrtSynchronizeDevice, or aclrtRecordEvent + aclrtSynchronizeEvent, FlushAll(1) delivers or counts
    every kernel and device marker of the completed work (every read garbled: all counted)."""
    phases = lost_markers(reliability_programs, 10, "prof_channel_read:garble", sync)
    flushed = phases["flushed"]
    assert flushed["launched"] == flushed["marks"] == 50
    assert markers_accounted(flushed), flushed
    assert flushed["lost_halves"] == flushed["kernel_dropped"] + flushed["marker_dropped"] == 100
    assert markers_accounted(phases["unsubscribed"])


def test_one_bad_read_does_not_desynchronise_the_parser(reliability_programs: ReliabilityPrograms) -> None:
    """A read that returns 5 bytes it never wrote (the 1st, 2nd, 3rd or 5th read of the process, on
    whichever channel it falls): the parser skips them and finds the next record, so every kernel and
    device marker is still delivered, but the one record the 5 bytes may have split (counted as dropped).
    (F-18: which of them desynchronised the old parser depended on what the reader thread had read by
    then; in every run at least one did.)"""
    for when in (1, 2, 3, 5):
        phases = lost_markers(reliability_programs, 60, f"prof_channel_read:error=5@{when}")
        flushed = phases["flushed"]
        assert flushed["launched"] == flushed["marks"] == 300, when
        assert markers_accounted(flushed), (when, flushed)
        lost = flushed["kernel_dropped"] + flushed["marker_dropped"]
        assert lost <= 1, (when, flushed)


START_FAILURES = [
    "prof_drv_start:error=-1",
    "prof_drv_get_channels:error=-1",
    "halGetDeviceInfo:error=-1",
    "drvGetDevNum:error=-1",
]


@pytest.mark.parametrize("order", ["open-first", "enable-first"])
@pytest.mark.parametrize("faults", START_FAILURES)
def test_collection_that_cannot_start_is_reported(
    reliability_programs: ReliabilityPrograms, faults: str, order: str
) -> None:
    """Enable returns MSPTI_ERROR_DEVICE_OFFLINE (4) when the device is open and its collection fails
    at the call; otherwise it succeeds. Either way every kernel and every device marker half is counted
    as dropped with reason COLLECTION_FAILED by the time FlushAll returns (docs/mspti-deviations.md §5)."""
    exe = reliability_programs.build("start_failure.c", ["ascendcl", "mspti"])
    env = reliability_programs.native.env(
        preload_mspti=True, NPU_SIM_FAULTS=faults, NPU_SIM_CLOCK="virtual", NPU_SIM_LOG_LEVEL="off"
    )
    proc = run_program(exe, env, args=[order], timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("S "))
    got = {k: int(v) for k, v in (item.split("=", 1) for item in line[2:].split())}
    print(f"\n{faults} {order}: {got}")
    expected_enable = 4 if order == "open-first" else 0
    assert got["enable_kernel"] == expected_enable and got["enable_marker"] == expected_enable
    assert got["kernel_delivered"] == 0 and got["kernel_dropped"] == got["kernel_collection_failed"] == 50
    assert got["host_marker_delivered"] == 10 and got["device_marker_delivered"] == 0
    assert got["marker_dropped"] == got["marker_collection_failed"] == 10


def collective_accounting(
    programs: ReliabilityPrograms, workload: Path, plan: str
) -> dict[str, dict[str, object]]:
    """The fault workload with its collectives on two ranks under ``plan``: per device kind, produced,
    delivered, dropped by reason and unaccounted (device_accounting)."""
    run = run_workload(programs, workload, plan.split(":")[0], plan, hccl=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    kinds = {int(k["kind"]): k for k in run.fields("K")}
    accounting = device_accounting(kinds, run.fields("M")[0])
    print(f"\n{plan}: {accounting}")
    return accounting


@pytest.mark.parametrize("plan", START_FAILURES)
def test_collectives_of_a_device_whose_collection_failed_are_counted(
    reliability_programs: ReliabilityPrograms, workload: Path, plan: str
) -> None:
    """F-19 for COMMUNICATION and HCCL: the 12 collectives on two ranks while the devices' collection
    cannot start; every HCCL and COMMUNICATION record is delivered or counted (COLLECTION_FAILED)."""
    accounting = collective_accounting(reliability_programs, workload, plan)
    for name in ("HCCL", "COMMUNICATION"):
        assert accounting[name]["produced"] > 0, (name, accounting[name])
        assert accounting[name]["unaccounted"] == 0, (name, accounting[name])


# Faults on CANN's report route (D1/D2 of issue 33): registration, the device notice, the START command
# and the reports themselves, each failing alone while the 12 collectives run on two ranks.
REPORT_ROUTE_FAILURES = [
    "MsprofRegisterProfileCallback:error=-1",
    "MsprofNotifySetDevice:error=-1",
    "MsprofReportApi:error=-1",
    "MsprofReportCompactInfo:error=-1",
    "MsprofReportCompactInfo:error=-1@every=2",
    "profSetProfCommand:error=-1",
]


@pytest.mark.parametrize("plan", REPORT_ROUTE_FAILURES)
def test_collectives_are_accounted_whatever_part_of_the_report_route_fails(
    reliability_programs: ReliabilityPrograms, workload: Path, plan: str
) -> None:
    """Every HCCL and COMMUNICATION record of a collective the interposer saw is delivered or counted as
    dropped with reason COLLECTION_FAILED (the report route, not the device, lost it); kernels and device
    markers stay accounted too."""
    accounting = collective_accounting(reliability_programs, workload, plan)
    for name in ("HCCL", "COMMUNICATION"):
        assert accounting[name]["produced"] == 20, (name, accounting[name])
    for name, figures_of_kind in accounting.items():
        assert figures_of_kind["unaccounted"] == 0, (plan, name, accounting)
    for name in ("HCCL", "COMMUNICATION"):
        dropped = accounting[name]["dropped"]
        assert isinstance(dropped, dict)
        assert set(dropped) <= {"COLLECTION_FAILED"}, (name, dropped)


@pytest.mark.parametrize("work", ["collective", "queued"])
def test_a_failed_synchronize_leaves_no_collective_reading_freed_memory(
    reliability_programs: ReliabilityPrograms, work: str
) -> None:
    """D3 of issue 33: rank 0's aclrtSynchronizeStream fails while its HcclAllReduce waits for the peer;
    rank 0 frees the buffers and reuses the memory; then the peer arrives. The collective must neither
    read nor write the freed blocks (under ASan: no heap-use-after-free; in any build: the blocks
    allocated after the free keep what rank 0 wrote into them). `queued`: an asynchronous copy, a fill
    and an aclnnAdd issued behind the collective (queued behind its hold) and their buffers freed
    likewise."""
    exe = reliability_programs.build(
        "freed_collective_buffers.cpp", ["hccl", "ascendcl", "opapi", "nnopbase"]
    )
    env = reliability_programs.native.env(
        NPU_SIM_FAULTS="aclrtSynchronizeStream:error=507000@1",
        NPU_SIM_CLOCK="virtual",
        NPU_SIM_LOG_LEVEL="off",
        NPU_SIM_DEVICES="2",
        HCCL_CONNECT_TIMEOUT="10",
        HCCL_EXEC_TIMEOUT="10",
    )
    proc = run_program(exe, env, args=[work], timeout=60)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert not [x for x in proc.stdout.splitlines() if x.startswith("W ")], proc.stdout
    line = next(x for x in proc.stdout.splitlines() if x.startswith("S "))
    got = {k: int(v) for k, v in (item.split("=", 1) for item in line[2:].split())}
    print(f"\nfailed synchronize, freed buffers: {got}")
    assert got == {"sync0": 507000, "sync1": 0, "reused_intact": 1}


@pytest.mark.parametrize("hosts", ["one host", "two hosts"])
@pytest.mark.parametrize("work", ["collective", "queued"])
def test_a_failed_synchronize_leaves_no_collective_reading_freed_memory_across_processes(
    reliability_programs: ReliabilityPrograms, work: str, hosts: str, tmp_path: Path
) -> None:
    """D3 with the ranks as processes, whose collective data moves peer to peer (through shared
    memory on one host; over a socket between two loopback hosts): rank 0's buffers, freed after its
    failed synchronize, are neither read nor written when rank 1 arrives (the plan fails rank 0's
    first synchronize only)."""
    exe = reliability_programs.build(
        "freed_collective_buffers.cpp", ["hccl", "ascendcl", "opapi", "nnopbase"]
    )
    with two_hosts(prefer_netns=False) as pair:
        host_env = pair.env if hosts == "two hosts" else ({}, {})
        outs = run_freed_buffer_ranks(reliability_programs, exe, work, host_env, tmp_path)
    line = "over sockets to" if hosts == "two hosts" else "moves collective data through shared memory"
    assert all(line in err for _, err in outs), [err[-3000:] for _, err in outs]
    assert [out for out, _ in outs] == ["S sync0=507000 reused_intact=1", "S sync1=0"], outs


def run_freed_buffer_ranks(
    reliability_programs: ReliabilityPrograms,
    exe: Path,
    work: str,
    host_env: tuple[dict[str, str], dict[str, str]],
    tmp_path: Path,
) -> list[tuple[str, str]]:
    """Ranks 0 and 1 of freed_collective_buffers.cpp as processes: each one's summary line and stderr."""
    procs = []
    for rank in (0, 1):
        env = reliability_programs.native.env(
            **host_env[rank],
            NPU_SIM_CLOCK="virtual",
            NPU_SIM_LOG_LEVEL="debug",
            NPU_SIM_DEVICES="2",
            HCCL_CONNECT_TIMEOUT="30",
            HCCL_EXEC_TIMEOUT="30",
            FREED_RANK=str(rank),
            FREED_DIR=str(tmp_path),
        )
        if rank == 0:
            env["NPU_SIM_FAULTS"] = "aclrtSynchronizeStream:error=507000@1"
        procs.append(
            subprocess.Popen(
                [str(exe), work], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
        )
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, out[-3000:] + err[-3000:]
        assert not [x for x in out.splitlines() if x.startswith("W ")], out
        outs.append((next(x for x in out.splitlines() if x.startswith("S ")), err))
    return outs
