"""msprof's timeline (mindstudio_profiler_output/msprof_<time>.json) from one collection.

Chrome trace events as CANN 8.x's msprof writes them and torch_npu's analysis reads them
(torch_npu/profiler/analysis/prof_parse/_cann_file_parser.py): "ts" a string of us with three
decimals, "dur" a number of us; a "CANN" process with the host API calls per thread, an
"Ascend Hardware" process per device with its tasks per stream (args "Task Type", "Stream Id"),
a HostToDevice flow ("s" at the launching call, "f" at the task, same "id") per device task, a
"Communication" process per device with communication operations (a "Group <communicator>
Communication" thread per communicator holding its operations, as msprof's hccl_assembler.cpp writes
them; no "Plane" threads: msPTI has no HCCL task records), and an "Overlap Analysis" process per
device labelled "NPU <device>" (overlap.py).
"""

from __future__ import annotations

from typing import Any

from sim_runtime.msprof import overlap
from sim_runtime.msprof.database import HCCL_DATA_TYPES
from sim_runtime.msprof.raw import Collection
from sim_runtime.msprof.summaries import device_tasks, launching_apis, us

# Process ids of the timeline's processes: distinct from any real pid of the host, so the rows
# do not merge with the framework's when torch_npu adds its own events.
CANN_PID_BASE = 1 << 30
HARDWARE_PID_BASE = (1 << 30) + (1 << 20)
OVERLAP_PID_BASE = (1 << 30) + (2 << 20)
COMMUNICATION_PID_BASE = (1 << 30) + (3 << 20)
HCCL_DATA_TYPE_NAMES = {value: name for name, value in HCCL_DATA_TYPES.items()}
# The prefix of a host API event's name per level, as CANN's timeline names them (torch_npu's Level0
# prunes the events by these prefixes).
LEVEL_PREFIXES = {"acl": "AscendCL", "node": "Node", "runtime": "Runtime", "api": "CANN"}


def _meta(pid: int, name: str, sort_index: int) -> list[dict[str, Any]]:
    return [
        {"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": name}},
        {"name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0, "args": {"sort_index": sort_index}},
    ]


def _event(name: str, pid: int, tid: int, start: int, end: int, args: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "pid": pid,
        "tid": tid,
        "ts": us(start),
        "dur": (end - start) / 1000,
        "ph": "X",
        "args": args,
    }


def events(collection: Collection) -> list[dict[str, Any]]:
    cann_pid = CANN_PID_BASE + collection.pid % (1 << 20)
    out: list[dict[str, Any]] = _meta(cann_pid, "CANN", 5)
    for api in collection.apis:
        args = {"Thread Id": api.tid, "Mode": api.level, "level": api.level, "connection_id": api.correlation}
        out.append(
            _event(f"{LEVEL_PREFIXES[api.level]}@{api.name}", cann_pid, api.tid, api.start, api.end, args)
        )
    launches = launching_apis(collection)
    devices = sorted(
        {k.device for k in collection.kernels}
        | {c.device for c in collection.copies}
        | set(collection.devices)
    )
    for device in devices:
        out += _meta(HARDWARE_PID_BASE + device, "Ascend Hardware", 10 + device)
    for t in device_tasks(collection):
        pid = HARDWARE_PID_BASE + t.device
        args = {
            "Model Id": 4294967295,
            "Task Type": t.task_type,
            "Stream Id": t.stream,
            "connection_id": t.correlation,
        }
        out.append(_event(t.name, pid, t.stream, t.start, t.end, args))
        launch = launches.get(t.correlation)
        if launch is None:
            continue
        flow = {"name": "HostToDevice", "cat": "HostToDevice", "id": str(t.correlation)}
        out.append({**flow, "ph": "s", "pid": cann_pid, "tid": launch.tid, "ts": us(launch.start)})
        out.append({**flow, "ph": "f", "bp": "e", "pid": pid, "tid": t.stream, "ts": us(t.start)})
    for device in sorted({c.device for c in collection.communications}):
        out += _communication_rows(collection, device)
    for device in devices:
        out += _overlap_rows(collection, device)
    return out


def _communication_rows(collection: Collection, device: int) -> list[dict[str, Any]]:
    """msprof's Communication process of one device: a thread per communicator, named
    "Group <communicator> Communication", with one event per COMMUNICATION record (its name, times
    and args as hccl_assembler.cpp's HcclOpTraceEvent). The operation's HostToDevice flow ends at its
    row in Ascend Hardware (one end per flow id, which torch_npu's flow join expects), not here as well.
    rank_size is not in the record: 0, as the database's rankSize; relay and retry "no" (the
    simulator neither borrows links nor re-executes)."""
    pid = COMMUNICATION_PID_BASE + device
    rows = _meta(pid, "Communication", 100 + device)
    rows.append(
        {"name": "process_labels", "ph": "M", "pid": pid, "tid": 0, "args": {"labels": f"NPU {device}"}}
    )
    ops = sorted((c for c in collection.communications if c.device == device), key=lambda c: c.start)
    groups = list(dict.fromkeys(c.comm for c in ops))
    for tid, group in enumerate(groups):
        thread = {"ph": "M", "pid": pid, "tid": tid}
        rows.append({**thread, "name": "thread_name", "args": {"name": f"Group {group} Communication"}})
        rows.append({**thread, "name": "thread_sort_index", "args": {"sort_index": tid}})
    for c in ops:
        tid = groups.index(c.comm)
        args = {
            "rank_size": 0,
            "connection_id": c.correlation,
            "model id": 4294967295,
            "data_type": HCCL_DATA_TYPE_NAMES.get(c.data_type, "INVALID_TYPE"),
            "alg_type": c.alg,
            "count": c.count,
            "relay": "no",
            "retry": "no",
        }
        rows.append(_event(c.name, pid, tid, c.start, c.end, args))
    return rows


def _overlap_rows(collection: Collection, device: int) -> list[dict[str, Any]]:
    pid = OVERLAP_PID_BASE + device
    rows = _meta(pid, "Overlap Analysis", 1000 + device)
    rows.append(
        {"name": "process_labels", "ph": "M", "pid": pid, "tid": 0, "args": {"labels": f"NPU {device}"}}
    )
    computing = [(k.start, k.end) for k in collection.kernels if k.device == device]
    communication = [(c.start, c.end) for c in collection.communications if c.device == device]
    for tid, (name, intervals) in enumerate(overlap.analysis(computing, communication).items()):
        rows += [_event(name, pid, tid, start, end, {}) for start, end in intervals]
    return rows
