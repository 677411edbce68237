"""What the ACL runtime reports to libprofapi while a profiler has switched it on.

programs/acl_prof_reports.c registers report callbacks directly with libprofapi
(API 9, compact 4, type names 11), sends START for device 0 with ACL_API | TASK_TIME |
RUNTIME_API, launches three kernels (plus a marker and an async copy, and one kernel on
an unstarted device), sends STOP, launches once more, and prints every record received.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"


@dataclass(frozen=True)
class Api:
    phase: int
    level: int
    type: int
    thread: int
    begin: int
    end: int
    callback_thread: int


@dataclass(frozen=True)
class Track:
    phase: int
    level: int
    type: int
    thread: int
    timestamp: int
    device: int
    stream: int
    task: int
    task_type: int
    hash: int
    callback_thread: int


@dataclass(frozen=True)
class MemcpyInfo:
    phase: int
    level: int
    type: int
    thread: int
    timestamp: int
    bytes: int
    max_bytes: int
    direction: int
    callback_thread: int


@dataclass(frozen=True)
class Run:
    names: dict[tuple[int, int], str]
    apis: list[Api]
    tracks: list[Track]
    memcpy_infos: list[MemcpyInfo]
    # Every compact report in arrival order: ("track" | "memcpy", index into its list).
    compact_order: list[tuple[str, int]]
    values: dict[str, int]
    device_events: list[str]

    def name(self, level: int, type_id: int) -> str:
        return self.names.get((level, type_id), "")

    def apis_named(self, name: str, level: int = 20000, phase: int = 1) -> list[Api]:
        return [
            a for a in self.apis if a.phase == phase and a.level == level and self.name(level, a.type) == name
        ]


@pytest.fixture(scope="module")
def reports(programs: ProgramBuilder, native: NativeTree) -> Run:
    exe = programs.build([PROGRAMS / "acl_prof_reports.c"], libs=["ascendcl", "profapi"])
    result = run_program(exe, native.env(NPU_SIM_CLOCK="virtual"))
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    names: dict[tuple[int, int], str] = {}
    apis: list[Api] = []
    tracks: list[Track] = []
    memcpy_infos: list[MemcpyInfo] = []
    order: list[tuple[str, int]] = []
    values: dict[str, int] = {}
    device_events: list[str] = []
    for line in result.stdout.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "reg":
            level, type_id, name = rest.split(" ", 2)
            names[(int(level), int(type_id))] = name
        elif kind == "api":
            apis.append(Api(*map(int, rest.split())))
        elif kind == "track":
            order.append(("track", len(tracks)))
            tracks.append(Track(*map(int, rest.split())))
        elif kind == "memcpy":
            order.append(("memcpy", len(memcpy_infos)))
            memcpy_infos.append(MemcpyInfo(*map(int, rest.split())))
        elif kind in ("device", "reset"):
            device_events.append(line)
        elif "=" in line:
            key, value = line.split("=", 1)
            values[key] = int(value)
        else:
            pytest.fail(f"unexpected output line: {line}")
    return Run(names, apis, tracks, memcpy_infos, order, values, device_events)


def test_type_names_are_registered(reports: Run) -> None:
    assert reports.name(20000, 0x030000 + 1) == "aclInit"
    acl_names = {name for (level, _), name in reports.names.items() if level == 20000}
    assert {"aclrtLaunchKernel", "aclrtSetDevice", "aclrtMemcpyAsync", "aclrtProfTrace"} <= acl_names
    assert all(type_id >> 16 == 0x03 for (level, type_id) in reports.names if level == 20000)
    assert reports.name(5000, 0) == "KERNEL_AICORE"
    assert reports.name(5000, 66) == "KERNEL_AIVEC"
    assert reports.name(5000, 26) == "PROFILER_TRACE_EX"
    assert reports.name(5000, 1003) == "KernelLaunch"
    assert reports.name(5000, 1020) == "MemCopySync"


def test_nothing_is_reported_while_profiling_is_off(reports: Run) -> None:
    assert not [a for a in reports.apis if a.phase != 1]
    assert not [t for t in reports.tracks if t.phase != 1]


def test_one_acl_api_record_per_launch(reports: Run) -> None:
    launches = reports.apis_named("aclrtLaunchKernel")
    assert len(launches) == 4  # three on device 0, one on device 1 (API records are per process)
    for api in launches:
        assert api.begin <= api.end
        assert api.thread == reports.values["tid"] == api.callback_thread


def test_runtime_api_records_accompany_acl_records(reports: Run) -> None:
    runtime = reports.apis_named("KernelLaunch", level=5000)
    acl = reports.apis_named("aclrtLaunchKernel")
    assert [(a.begin, a.end) for a in runtime] == [(a.begin, a.end) for a in acl]
    assert len(reports.apis_named("MemcpyAsync", level=5000)) == 2
    assert len(reports.apis_named("MemsetAsync", level=5000)) == 1
    # Every API record of the started phase has a registered name.
    assert all(reports.name(a.level, a.type) for a in reports.apis)


def test_task_track_per_kernel_inside_its_api(reports: Run) -> None:
    kernels = [t for t in reports.tracks if reports.name(5000, t.task_type).startswith("KERNEL_")]
    launches = reports.apis_named("aclrtLaunchKernel")[:3]
    assert len(kernels) == 3
    for track, api in zip(kernels, launches, strict=True):
        assert (track.level, track.type) == (5000, 802)
        assert api.begin <= track.timestamp <= api.end
        assert track.thread == reports.values["tid"] == track.callback_thread
        assert track.device == 0
        assert track.stream == reports.values["stream"]
        assert track.hash == reports.values["hash"]  # MsprofGetHashId("kern_alpha")
    assert [t.task for t in kernels] == sorted({t.task for t in kernels})


def test_other_tasks_are_tracked_with_their_types(reports: Run) -> None:
    by_type = {reports.name(5000, t.task_type): t for t in reports.tracks}
    assert set(by_type) == {"KERNEL_AIVEC", "PROFILER_TRACE_EX", "MEMCPY_ASYNC", "MEMSET_ASYNC"}
    trace = by_type["PROFILER_TRACE_EX"]
    api = reports.apis_named("aclrtProfTrace")[0]
    assert api.begin <= trace.timestamp <= api.end
    assert trace.hash == 0


def test_copies_report_memcpy_info_before_their_track(reports: Run) -> None:
    # Each copy, asynchronous or synchronous: a 5000/801 memcpy info (bytes, runtime copy kind) on the
    # copying thread, then its MEMCPY_ASYNC task track, inside the call. The fill reports no memcpy info.
    assert [(m.bytes, m.max_bytes, m.direction) for m in reports.memcpy_infos] == [
        (4096, 4096, 1),
        (1000, 1000, 2),
        (64, 64, 2),
    ]
    copy_api = [*reports.apis_named("aclrtMemcpyAsync"), *reports.apis_named("aclrtMemcpy")]
    assert len(copy_api) == 3
    for index, info in enumerate(reports.memcpy_infos):
        assert (info.level, info.type, info.phase) == (5000, 801, 1)
        assert info.thread == reports.values["tid"] == info.callback_thread
        assert copy_api[index].begin <= info.timestamp <= copy_api[index].end
        position = reports.compact_order.index(("memcpy", index))
        kind, track_index = reports.compact_order[position + 1]
        assert kind == "track"
        track = reports.tracks[track_index]
        assert reports.name(5000, track.task_type) == "MEMCPY_ASYNC"
        assert track.thread == info.thread
    fills = [t for t in reports.tracks if reports.name(5000, t.task_type) == "MEMSET_ASYNC"]
    assert len(fills) == 1 and fills[0].stream == reports.values["stream"]


def test_unstarted_devices_report_no_tasks(reports: Run) -> None:
    assert {t.device for t in reports.tracks} == {0}


def test_device_opens_and_closes_are_notified(reports: Run) -> None:
    # Chip type 5 (910B3). Opens are counted: device 0 was set twice, so only its second reset closes it.
    assert reports.device_events == [
        "device 5 0 1",
        "device 5 1 1",
        "device 5 1 0",
        "reset 0 of 2",
        "reset 0 of 2",
        "device 5 0 0",
    ]
