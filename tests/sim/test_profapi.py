"""The simulated libprofapi: callback routing, replay, hashes, control commands, the mstx hub, faults.

Every scenario is a small C/C++ program linked against libprofapi that prints what its
callbacks receive; the tests assert on that output. Each program runs in its own process,
since libprofapi's state is process-global.
"""

from __future__ import annotations

import re
import struct
import subprocess
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"
REPO = Path(__file__).resolve().parents[2]
INTERNAL_FLAGS = [f"-I{REPO / 'csrc' / 'sim'}"]  # profapi/profapi_internal.h and core/export.h

MAGIC = 0x5A5A


@pytest.fixture(scope="module")
def callbacks_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "profapi_callbacks.c"], libs=["profapi"])


@pytest.fixture(scope="module")
def commands_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "profapi_commands.c"], libs=["profapi"])


@pytest.fixture(scope="module")
def mstx_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "profapi_mstx.c"], libs=["profapi"])


def run(exe: Path, native: NativeTree, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    result = run_program(exe, native.env(**env), list(args))
    assert result.returncode == 0, (
        f"exit {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    )
    return result


def lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return result.stdout.splitlines()


def value(out: list[str], prefix: str) -> str:
    """The rest of the one line that starts with `prefix`."""
    found = [line[len(prefix) :] for line in out if line.startswith(prefix)]
    assert len(found) == 1, f"{prefix!r} occurs {len(found)} times in:\n" + "\n".join(out)
    return found[0]


def section(out: list[str], start: str, end: str) -> list[str]:
    return out[out.index(start) + 1 : out.index(end)]


# ---------------------------------------------------------------- report callbacks


def test_each_report_reaches_only_its_callback_with_exact_bytes(
    callbacks_exe: Path, native: NativeTree
) -> None:
    out = lines(run(callbacks_exe, native, "routing"))
    tid = int(value(out, "tid="))
    assert value(out, "reg=") == "0 0 0 0"

    api = struct.pack("<HHIIIQQQ", MAGIC, 5000, 1003, tid, 0, 111, 222, 0xABCDEF)
    event = struct.pack("<HHIIIQQQ", MAGIC, 20000, 0x030001, tid, 9, 333, 2**64 - 1, 44)
    track = struct.pack("<HHIQQ16x", 1, 2, 3, 0, 0x1122334455667788)
    compact = struct.pack("<HHIIIQ", MAGIC, 5000, 802, tid, 40, 444) + track
    additional = struct.pack("<HHIIIQ", MAGIC, 10000, 1, tid, 3, 555) + b"\x01\x02\x03" + bytes(229)
    assert (len(api), len(event), len(compact), len(additional)) == (40, 40, 64, 256)

    # Delivered synchronously: the callback sees the caller's own buffer on the caller's thread.
    assert out[2:14] == [
        "api aging=1 same_ptr=1 tid_ok=1",
        f"api-bytes {api.hex()}",
        "rc api=0",
        "event aging=0 same_ptr=1 tid_ok=1",
        f"event-bytes {event.hex()}",
        "rc event=0",
        "compact aging=1 len=64 same_ptr=1 tid_ok=1",
        f"compact-bytes {compact.hex()}",
        "rc compact=0",
        "additional aging=0 len=256 same_ptr=1 tid_ok=1",
        f"additional-bytes {additional.hex()}",
        "rc additional=0",
    ]
    assert value(out, "rc api-with-7=") == "7"  # the callback's result is the report's result
    assert value(out, "calls ") == "api=2 event=1 compact=1 additional=1"


def test_null_callback_unregisters(callbacks_exe: Path, native: NativeTree) -> None:
    out = lines(run(callbacks_exe, native, "unregister"))
    assert value(out, "unreg=") == "0 0"
    after = out[out.index("unreg=0 0") + 1 :]
    assert after == [
        "rc api=0",
        "rc event=0",
        "rc compact=0",
        "rc additional=0",
        "calls api=1 event=0 compact=1 additional=0",
    ]


def test_bad_registrations_and_report_lengths_are_rejected(callbacks_exe: Path, native: NativeTree) -> None:
    out = lines(run(callbacks_exe, native, "lengths"))
    assert out == [
        "reg len=4 -> 5",
        "reg len=16 -> 5",
        "reg type=-1 -> 5",
        "reg type=17 -> 5",
        "reg type=0 -> 0",
        "reg type=16 null -> 0",
        "api null -> 5",
        "event null -> 5",
        "compact null -> 5",
        "compact 63 -> 5",
        "compact 65 -> 5",
        "compact 256 -> 5",
        "additional null -> 5",
        "additional 255 -> 5",
        "additional 64 -> 5",
        "calls api=0 event=0 compact=0 additional=0",  # rejected reports never reach a callback
    ]


# ---------------------------------------------------------------- device states


def test_device_state_callback_replays_open_devices(callbacks_exe: Path, native: NativeTree) -> None:
    out = lines(run(callbacks_exe, native, "devices"))
    assert value(out, "notify dev=64 -> ") == "5"
    # Devices 0, 3 and 63 are open (1 was opened and closed): replayed at registration, in id order.
    assert section(out, "-- register 16", "-- live") == [
        "dev cb=1 chip=5 dev=0 open=1 len=12",
        "dev cb=1 chip=5 dev=3 open=1 len=12",
        "dev cb=1 chip=7 dev=63 open=1 len=12",
        "reg=0",
    ]
    assert section(out, "-- live", "-- profRegDeviceStateCallback") == [
        "dev cb=1 chip=5 dev=2 open=1 len=12",
        "dev cb=1 chip=5 dev=3 open=0 len=12",
    ]
    # profRegDeviceStateCallback is the same registration: it replaces callback 16 and replays.
    assert section(out, "-- profRegDeviceStateCallback", "-- live2") == [
        "dev cb=2 chip=5 dev=0 open=1 len=12",
        "dev cb=2 chip=5 dev=2 open=1 len=12",
        "dev cb=2 chip=7 dev=63 open=1 len=12",
        "reg2=0",
    ]
    # The profiler's failure (cb 2 returns 5) does not fail the runtime's notification.
    assert section(out, "-- live2", "-- unregister") == ["dev cb=2 chip=5 dev=4 open=1 len=12", "notify=0"]
    assert section(out, "-- unregister", "-- end") == []


# ---------------------------------------------------------------- type names


def test_type_names_are_forwarded_and_replayed(callbacks_exe: Path, native: NativeTree) -> None:
    out = lines(run(callbacks_exe, native, "typeinfo"))
    assert value(out, "before=") == "0"
    assert value(out, "null name -> ") == "5"
    recorded = [
        "type level=5000 id=0x0 name=KERNEL_AICORE_V2 len=16",  # re-registration replaced the name in place
        "type level=20000 id=0x30001 name=aclrtSetDevice len=14",
        "type level=5000 id=0x1 name=KERNEL_AICPU len=12",
    ]
    assert section(out, "-- register 11", "-- live") == [*recorded, "reg=0"]
    master = "type level=5500 id=0x10001 name=master len=6"
    assert section(out, "-- live", "-- again") == [master, "live=3"]  # the callback's result is returned
    assert section(out, "-- again", "-- unregister") == [*recorded, master]
    assert section(out, "-- unregister", "-- end") == ["after=0"]


# ---------------------------------------------------------------- hash ids


def test_own_hash_is_stable_and_distinct(callbacks_exe: Path, native: NativeTree) -> None:
    first = lines(run(callbacks_exe, native, "hash"))
    second = lines(run(callbacks_exe, native, "hash"))
    assert first == second  # deterministic across processes
    # Every id handed out maps back to its string, through a pointer that stays the same.
    assert value(first, "id2str hello=") == "hello stable=1"
    assert value(first, "id2str hell=") == "hell"
    assert value(first, "id2str unknown=") == "(null) zero=(null)"
    ids = {
        name: int(value(first, f"own {name}=")) for name in ("hello-again", "world", "hell", "a-nul-b", "a")
    }
    hello = int(first[0].removeprefix("own hello="))
    assert ids["hello-again"] == hello
    assert int(value(first, "str2id hello=")) == hello
    distinct = [hello, ids["world"], ids["hell"], ids["a-nul-b"], ids["a"]]
    assert len(set(distinct)) == len(distinct) and 0 not in distinct  # embedded NULs count
    assert value(first, "null=") == "0 empty=0"


def test_hash_callback_chooses_the_id(callbacks_exe: Path, native: NativeTree) -> None:
    out = lines(run(callbacks_exe, native, "hash"))
    assert section(out, "-- register 12", "-- unregister") == [
        "hash cb len=3",
        "fwd abc=1003 same_ptr=1",
        "hash cb len=6",
        "fwd str2id=1006",
        "fwd null=0",  # invalid input never reaches the callback
        "id2str fwd=abc",
    ]
    # Unregistered again: back to libprofapi's own id.
    assert out[-1] == out[0]


# ---------------------------------------------------------------- time


def test_sys_cycle_time_is_monotonic_raw_in_wall_mode(callbacks_exe: Path, native: NativeTree) -> None:
    out = lines(run(callbacks_exe, native, "time"))
    assert value(out, "monotonic=") == "1"
    t, raw = (int(x) for x in re.fullmatch(r"time=(\d+) raw=(\d+)", out[-1]).groups())
    assert raw <= t < raw + 1_000_000_000  # read right after CLOCK_MONOTONIC_RAW


def test_sys_cycle_time_is_the_virtual_clock_in_virtual_mode(callbacks_exe: Path, native: NativeTree) -> None:
    out = lines(run(callbacks_exe, native, "time", NPU_SIM_CLOCK="virtual"))
    assert value(out, "monotonic=") == "1"
    assert re.fullmatch(r"time=(\d+) raw=\d+", out[-1]).group(1) == "1000000000"  # nothing advanced it


# ---------------------------------------------------------------- control commands


def test_commands_reach_every_module_in_id_order(commands_exe: Path, native: NativeTree) -> None:
    result = run(commands_exe, native, "dispatch")
    out = lines(result)
    assert section(out, "none:", "start:") == ["rc=0", "reg=0 0"]
    start = "ctrl=1 len=5424 same_ptr=1 cmd=1 switch=0x4000800 devs=1 list=0 model=0xffffffff"
    assert section(out, "start:", "bad length:") == [f"runtime-a {start}", f"acl {start}", "rc=0"]
    assert section(out, "bad length:", "too many devices:") == ["rc=5", "rc=5", "rc=5"]
    assert section(out, "too many devices:", "first failure wins:") == ["rc=5"]
    stop = "ctrl=1 len=5424 same_ptr=1 cmd=2 switch=0x800 devs=1 list=0 model=0xffffffff"
    assert section(out, "first failure wins:", "replace:") == [f"runtime-a {stop}", f"acl {stop}", "rc=9"]
    init = "ctrl=1 len=5424 same_ptr=1 cmd=0 switch=0x0 devs=0 model=0xffffffff"
    assert section(out, "replace:", "remove:") == [f"runtime-b {init}", f"acl {init}", "rc=0"]
    assert section(out, "remove:", "end") == [
        "acl ctrl=1 len=5424 same_ptr=1 cmd=3 switch=0x0 devs=0 model=0xffffffff",
        "rc=0",
    ]
    # A rejected command is logged.
    assert "length 5423 (expected 5424)" in result.stderr
    assert "devNums 65" in result.stderr


def test_late_module_receives_start_for_started_devices(commands_exe: Path, native: NativeTree) -> None:
    out = lines(run(commands_exe, native, "late"))
    replay = "ctrl=1 len=5424 same_ptr=0 cmd=1"
    # Device 0 was stopped; 2 keeps its first START, 5 its later one: one START per device.
    assert section(out, "late hixl:", "stop 2:") == [
        f"hixl {replay} switch=0x801 devs=1 list=2 model=0xffffffff",
        f"hixl {replay} switch=0x821 devs=1 list=5 model=0xffffffff",
        "reg=0",
    ]
    stop2 = "ctrl=1 len=5424 same_ptr=1 cmd=2 switch=0x801 devs=1 list=2 model=0xffffffff"
    assert section(out, "stop 2:", "late hccl:") == [f"hixl {stop2}", f"acl {stop2}", "rc=0"]
    assert section(out, "late hccl:", "finalize:") == [
        f"hccl {replay} switch=0x821 devs=1 list=5 model=0xffffffff"
    ]
    assert len(section(out, "finalize:", "late runtime:")) == 4  # hccl, hixl, acl, rc
    assert section(out, "late runtime:", "end") == []  # FINALIZE stopped every device


# ---------------------------------------------------------------- mstx hub


def test_mstx_calls_route_to_the_enabled_tool(mstx_exe: Path, native: NativeTree) -> None:
    out = lines(run(mstx_exe, native, "routing"))
    assert out[:3] == ["inject=0", "slots core=111 tool_id=0 domain=11111", "inject null=1"]
    # No tool anywhere: every call is a no-op, range starts answer 0, domains still get handles.
    assert section(out, "-- no tool", "-- attach mspti") == ["range=0", "d1 set=1", "drange=0"]
    # Attaching fills the tool's table at once; msprof is still current, so nothing is routed.
    assert section(out, "-- attach mspti", "-- enable mspti") == ["mspti init", "mspti other module -> 1"]
    assert section(out, "-- enable mspti", "-- enable msprof (no tool)") == [
        "mspti markA m2 0x10",
        "mspti rangeStartA r2 (nil) -> 100",
        "range=100",
        "mspti rangeEnd 100",
        "mspti domainCreateA d1 -> mspti:d1",  # created lazily on first use in this module
        "mspti domainMarkA mspti:d1 dm2 0x10",
        "mspti domainRangeStartA mspti:d1 dr2 (nil) -> 101",
        "mspti domainRangeEnd mspti:d1 101",
        "mspti domainCreateA d2 -> mspti:d2",
        "d2 distinct=1",
        "mspti domainCreateA default -> (null)",
        "mspti domainMarkA (null) dm-default (nil)",  # the tool's own null handle is passed back
        "mspti domainMarkA (null) dm-null (nil)",
        "mspti domainDestroy mspti:d2",
        # destroyed, foreign and forged handles are ignored (no call, range 0, no crash)
        "drange destroyed=0",
        "mspti domainCreateA d3 -> mspti:d3",
        "d3 differs from d2=1",
        "mspti domainMarkA mspti:d3 dm3 (nil)",
    ]
    assert section(out, "-- enable msprof (no tool)", "-- attach msprof") == ["range=0"]


def test_mstx_domain_handles_stay_per_module(mstx_exe: Path, native: NativeTree) -> None:
    out = lines(run(mstx_exe, native, "routing"))
    assert section(out, "-- attach msprof", "-- back to mspti") == [
        "msprof init",
        "msprof other module -> 1",
        "msprof markA m4 (nil)",
        "msprof domainCreateA d1 -> msprof:d1",  # its own handle, never mspti's
        "msprof domainMarkA msprof:d1 dm4 (nil)",
        "msprof domainMarkA msprof:d1 dm4b (nil)",
    ]
    assert section(out, "-- back to mspti", "-- msprof after destroy") == [
        "mspti domainMarkA mspti:d1 dm5 (nil)",
        "mspti domainDestroy mspti:d1",
    ]
    assert section(out, "-- msprof after destroy", "-- invalid modules") == []


def test_mstx_invalid_modules_are_ignored(mstx_exe: Path, native: NativeTree) -> None:
    result = run(mstx_exe, native, "routing")
    out = lines(result)
    # Invalid module ids change nothing; a null init function keeps the module's table.
    assert section(out, "-- invalid modules", "-- replace mspti with a mark-only tool") == [
        "msprof markA m7 (nil)",
        "mspti markA m8 (nil)",
    ]
    assert "never init" not in out
    assert "ProfEnableMstxFunc: unknown module 3" in result.stderr
    # A re-registration replaces the whole table: slots the new tool leaves empty are no-ops.
    assert section(out, "-- replace mspti with a mark-only tool", "-- end") == [
        "markonly markA m9 (nil)",
        "range=0",
        "markonly domainMarkA (null) dm9-null (nil)",
    ]


# ---------------------------------------------------------------- faults


@pytest.fixture(scope="module")
def faults_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "profapi_faults.c"], libs=["profapi"])


def test_without_a_plan_nothing_fails(faults_exe: Path, native: NativeTree) -> None:
    out = lines(run(faults_exe, native))
    assert [line for line in out if "rc=" in line] == [
        "report 1 rc=0",
        "report 2 rc=0",
        "report 3 rc=0",
        "regtype 1 rc=0",
        "regtype 2 rc=0",
        "regtype 3 rc=0",
    ]
    assert value(out, "delivered=") == "3"


def test_fault_plan_fails_only_the_chosen_call(faults_exe: Path, native: NativeTree) -> None:
    clean = lines(run(faults_exe, native))
    out = lines(
        run(faults_exe, native, NPU_SIM_FAULTS="MsprofReportApi:error=5@2;MsprofRegTypeInfo:error=7@1")
    )
    assert [line for line in out if "rc=" in line] == [
        "report 1 rc=0",
        "report 2 rc=5",
        "report 3 rc=0",
        "regtype 1 rc=7",
        "regtype 2 rc=0",
        "regtype 3 rc=0",
    ]
    assert value(out, "delivered=") == "2"  # the failed report never reached the profiler
    assert value(out, "hash=") == value(clean, "hash=")  # functions outside the plan are untouched


# ---------------------------------------------------------------- threads and the internal API


def test_reports_from_many_threads_are_counted_exactly(programs: ProgramBuilder, native: NativeTree) -> None:
    exe = programs.build([PROGRAMS / "profapi_threads.cpp"], libs=["profapi"], extra_flags=INTERNAL_FLAGS)
    out = lines(run(exe, native))
    per_kind = 8 * 100_000 // 4
    assert value(out, "bare failures=") == "0"
    assert (
        value(out, "bare uncollected ")
        == f"api={per_kind} event={per_kind} compact={per_kind} additional={per_kind}"
    )
    assert value(out, "traced failures=") == "0"
    assert value(out, "traced uncollected ") == "api=0 event=0 compact=0 additional=0"
    assert value(out, "traced delivered ") == (
        f"api={per_kind} event={per_kind} compact={per_kind} additional={per_kind} wrong_thread=0"
    )


def test_internal_api_observes_the_hub(programs: ProgramBuilder, native: NativeTree) -> None:
    exe = programs.build(
        [PROGRAMS / "profapi_internal.cpp"], libs=["profapi", "npusim"], extra_flags=INTERNAL_FLAGS
    )
    out = lines(run(exe, native))
    assert out == [
        "callback none=1",
        "callback api=1 device=1 out_of_range=1",
        "open 0=0 1=1 2=0 64=0",
        "modules=7,48",
        "started 1=1 switch=0x801 3=0 switch=0x0",
        "types count=2 5000/0=KERNEL_AIVEC 20000/0x30001=aclrtSetDevice unknown=''",
        "hash same=1 empty=0",
        "uncollected api=2 event=0",
        "after reset api=0",
        "mstx current=1 attached1=0 attached2=0",
        "mstx current=2 attached1=0 attached2=1",
        "calls report=3 enable=1 register_mstx=1 id2str=0",
    ]


# ---------------------------------------------------------------- exports


PROFAPI_EXPORTS = {
    "MsprofRegisterProfileCallback",
    "MsprofRegisterCallback",
    "profSetProfCommand",
    "MsprofReportApi",
    "MsprofReportEvent",
    "MsprofReportCompactInfo",
    "MsprofReportAdditionalInfo",
    "MsprofRegTypeInfo",
    "MsprofGetHashId",
    "MsprofStr2Id",
    "MsprofId2Str",
    "MsprofSysCycleTime",
    "MsprofNotifySetDevice",
    "profRegDeviceStateCallback",
    "ProfRegisterMstxFunc",
    "ProfEnableMstxFunc",
    "InitInjectionMstx",
}


def defined_exports(library: Path) -> set[str]:
    result = subprocess.run(
        ["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True, check=True
    )
    return {line.split()[-1] for line in result.stdout.splitlines() if line.split()[-2:-1] == ["T"]}


def test_profapi_exports_the_cann_functions_with_c_linkage(native: NativeTree) -> None:
    exported = defined_exports(native.sim_lib64 / "libprofapi.so")
    assert exported >= PROFAPI_EXPORTS
    # Beyond the C API, the only functions it defines are the internal C++ view (npusim::profapi).
    assert all(name in PROFAPI_EXPORTS or name.startswith("_ZN6npusim7profapi") for name in exported), (
        exported
    )
