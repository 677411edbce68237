"""msprof's database export (``msprof --export=on --type=db``): ``<PROF_*>/msprof_<time>.db``.

The file name, tables and columns follow msprof's ``MsprofDB`` and ``DBAssembler`` in Ascend/msprof
024471cf (``analysis/csrc/application/database/msprof_db.cpp``, ``db_assembler.cpp``,
``db_constant.h``): strings are stored once in ``STRING_IDS`` and referenced by id, times are ns,
an id msprof has no value for is 4294967295 (UINT32_MAX, its default for an unset task field). A
table msprof fills from data that was not collected is not written, as msprof skips it.

The rows are the text export's: the device tasks come from ``summaries.device_tasks`` (the rows of
op_summary, task_time and the timeline), the launching call of each task from
``summaries.launching_apis``, the overlap intervals from ``overlap.analysis`` (the timeline's
Overlap Analysis). torch_npu's analysis moves this file to ``ascend_pytorch_profiler_<rank>.db`` and
adds its own tables (docs/msprof.md).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from sim_runtime.msprof import aicore_metrics, device_info, memory, overlap
from sim_runtime.msprof.block_num import block_dims
from sim_runtime.msprof.raw import Collection, record_key
from sim_runtime.msprof.summaries import (
    MODEL_ID_NONE,
    NA,
    device_tasks,
    launching_apis,
)

DB_PREFIX = "msprof_"
INVALID_ID = 4294967295  # UINT32_MAX: msprof's value of an unset id (context, task, block numbers)
HOST_DIR_INFO = ("host/start_info", "host/end_info")

INTEGER, TEXT, NUMERIC = "INTEGER", "TEXT", "NUMERIC"
Columns = Sequence[tuple[str, str] | tuple[str, str, bool]]

#: The tables written, with msprof_db.cpp's columns (a third item True: the primary key).
TABLES: dict[str, Columns] = {
    "STRING_IDS": [("id", INTEGER, True), ("value", TEXT)],
    "SESSION_TIME_INFO": [("startTimeNs", INTEGER), ("endTimeNs", INTEGER)],
    "NPU_INFO": [("id", INTEGER), ("name", TEXT)],
    "RANK_DEVICE_MAP": [("rankId", INTEGER), ("deviceId", INTEGER)],
    "TASK": [
        ("startNs", INTEGER), ("endNs", INTEGER), ("deviceId", INTEGER), ("connectionId", INTEGER),
        ("globalTaskId", INTEGER), ("globalPid", INTEGER), ("taskType", INTEGER), ("contextId", INTEGER),
        ("streamId", INTEGER), ("taskId", INTEGER), ("modelId", INTEGER),
    ],
    "COMPUTE_TASK_INFO": [
        ("name", INTEGER), ("globalTaskId", INTEGER, True), ("blockNum", INTEGER), ("mixBlockNum", INTEGER),
        ("taskType", INTEGER), ("opType", INTEGER), ("inputFormats", INTEGER), ("inputDataTypes", INTEGER),
        ("inputShapes", INTEGER), ("outputFormats", INTEGER), ("outputDataTypes", INTEGER),
        ("outputShapes", INTEGER), ("attrInfo", INTEGER), ("opState", INTEGER), ("hf32Eligible", INTEGER),
        ("gridDim", INTEGER), ("blockDim", INTEGER),
    ],
    "COMMUNICATION_OP": [
        ("opName", INTEGER), ("startNs", INTEGER), ("endNs", INTEGER), ("connectionId", INTEGER),
        ("groupName", INTEGER), ("opId", INTEGER, True), ("relay", INTEGER), ("retry", INTEGER),
        ("dataType", INTEGER), ("algType", INTEGER), ("count", NUMERIC), ("opType", INTEGER),
        ("deviceId", INTEGER), ("rankSize", INTEGER),
    ],
    "CANN_API": [
        ("startNs", INTEGER), ("endNs", INTEGER), ("type", INTEGER), ("globalTid", INTEGER),
        ("connectionId", INTEGER, True), ("name", INTEGER),
    ],
    "MEMCPY_INFO": [("globalTaskId", NUMERIC), ("size", NUMERIC), ("memcpyOperation", NUMERIC)],
    "OVERLAP_ANALYSIS": [
        ("id", INTEGER, True), ("deviceId", INTEGER), ("startNs", NUMERIC), ("endNs", NUMERIC),
        ("type", INTEGER),
    ],
    "NPU_MEM": [
        ("type", INTEGER), ("ddr", NUMERIC), ("hbm", NUMERIC), ("timestampNs", INTEGER),
        ("deviceId", INTEGER),
    ],
    "TASK_PMU_INFO": [("globalTaskId", INTEGER), ("name", INTEGER), ("value", NUMERIC)],
    "META_DATA": [("name", TEXT), ("value", TEXT)],
}  # fmt: skip
ENUM_COLUMNS: Columns = [("id", INTEGER, True), ("name", TEXT)]

# db_constant.h's enumerations, written as msprof writes them (ENUM_* tables).
API_LEVELS = {"acl": 20000, "model": 15000, "node": 10000, "communication": 5500, "runtime": 5000}
HCCL_DATA_TYPES = {
    "INT8": 0, "INT16": 1, "INT32": 2, "FP16": 3, "FP32": 4, "INT64": 5, "UINT64": 6, "UINT8": 7, "UINT16": 8,
    "UINT32": 9, "FP64": 10, "BFP16": 11, "INT128": 12, "HIF8": 14, "FP8E4M3": 15, "FP8E5M2": 16,
    "FP8E8M0": 17, "RESERVED": 255, NA: 65534, "INVALID_TYPE": 65535,
}  # fmt: skip
HCCL_LINK_TYPES = {
    "ON_CHIP": 0, "HCCS": 1, "PCIE": 2, "ROCE": 3, "SIO": 4, "HCCS_SW": 5, "STANDARD_ROCE": 6, "UB": 7,
    "UBoE": 8, "RESERVED": 255, NA: 65534, "INVALID_TYPE": 65535,
}  # fmt: skip
HCCL_TRANSPORT_TYPES = {
    "SDMA": 0, "RDMA": 1, "LOCAL": 2, "UB": 3, "ROCE": 4, "RESERVED": 255, NA: 65534, "INVALID_TYPE": 65535,
}  # fmt: skip
HCCL_RDMA_TYPES = {
    "RDMA_SEND_NOTIFY": 0, "RDMA_SEND_PAYLOAD": 1, "RESERVED": 255, NA: 65534, "INVALID_TYPE": 65535,
}  # fmt: skip
MSTX_EVENT_TYPES = {"marker": 0, "push/pop": 1, "start/end": 2, "marker_ex": 3}
MEMCPY_OPERATIONS = {
    "host to host": 0, "host to device": 1, "device to host": 2, "device to device": 3, "managed memory": 4,
    "addr device to device": 5, "host to device ex": 6, "device to host ex": 7, "other": 65535,
}  # fmt: skip
OVERLAY_TYPES = {"COMPUTE": 0, "COMMUNICATION": 1, "COMM_NOT_OVERLAP_COMP": 2, "FREE": 3, "RESERVE": 65535}
ENUMS = {
    "ENUM_API_TYPE": API_LEVELS,
    "ENUM_HCCL_DATA_TYPE": HCCL_DATA_TYPES,
    "ENUM_HCCL_LINK_TYPE": HCCL_LINK_TYPES,
    "ENUM_HCCL_TRANSPORT_TYPE": HCCL_TRANSPORT_TYPES,
    "ENUM_HCCL_RDMA_TYPE": HCCL_RDMA_TYPES,
    "ENUM_MSTX_EVENT_TYPE": MSTX_EVENT_TYPES,
    "ENUM_MEMCPY_OPERATION": MEMCPY_OPERATIONS,
    "ENUM_OVERLAY_ANALYSIS_TYPE": OVERLAY_TYPES,
}
SCHEMA_VERSION = ("1", "2", "0")  # db_constant.h's META_DATA
# The overlap tracks (overlap.TRACKS) as OVERLAY_TYPES names them.
OVERLAP_TYPES = dict(
    zip(overlap.TRACKS, ("COMPUTE", "COMMUNICATION", "COMM_NOT_OVERLAP_COMP", "FREE"), strict=True)
)
# CANN's node-level API that launches an operator is named "launch" (the name torch_npu looks up to
# link its operators to their kernels); every node record the simulator reports is such a launch.
NODE_LAUNCH = "launch"
# msPTI's memcpy directions (its record's copyKind, written by libmsprofiler) as msprof names them.
COPY_KINDS = {1: "host to host", 2: "host to device", 3: "device to host", 4: "device to device"}


class StringIds:
    """STRING_IDS: each distinct string once, numbered from 0 in first-use order (msprof's IdPool)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def __call__(self, value: str) -> int:
        return self.ids.setdefault(value, len(self.ids))


def _create(db: sqlite3.Connection, table: str, columns: Columns, rows: Iterable[Sequence[object]]) -> None:
    parts = [f"{c[0]} {c[1]}" + (" PRIMARY KEY" if len(c) > 2 and c[2] else "") for c in columns]
    db.execute(f"CREATE TABLE {table} ({', '.join(parts)})")
    db.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns))})", rows)


def _session_time(prof: Path) -> tuple[int, int] | None:
    """The collection's wall-clock start and end in ns, from host/start_info and end_info."""
    try:
        begin = json.loads((prof / HOST_DIR_INFO[0]).read_text(encoding="utf-8"))["collectionTimeBegin"]
        end = json.loads((prof / HOST_DIR_INFO[1]).read_text(encoding="utf-8"))["collectionTimeEnd"]
        return int(begin) * 1000, int(end) * 1000
    except (OSError, ValueError, KeyError, TypeError):
        return None


def global_tid(pid: int, tid: int) -> int:
    """msprof's globalTid: the pid in the high 32 bits, the thread id in the low ones."""
    return (pid << 32) | (tid & 0xFFFFFFFF)


def task_pmu_value(metric: tuple[str, float]) -> tuple[str, float]:
    """A metric as TASK_PMU_INFO holds it (msprof's UnifiedPmuProcessor::UpdateColumnName): the name
    without ``_extra``, a time (``*_time``) in ns instead of us."""
    name, value = metric
    if name.endswith("_time"):
        return name, value * 1000
    return name.removesuffix("_extra"), value


def tables(collection: Collection) -> dict[str, list[tuple[object, ...]]]:
    """The rows of each table (those with rows), the strings last; what the file holds."""
    sid = StringIds()
    out: dict[str, list[tuple[object, ...]]] = {}
    tasks = device_tasks(collection)
    launches = launching_apis(collection)
    # TASK: every device task; globalTaskId numbers them in order (msprof's IdPool over the task key).
    metrics = aicore_metrics.kernel_metrics(collection)
    keys = [
        (t.device, t.stream, t.start, t.end, t.correlation) if t.kind == "kernel" else None for t in tasks
    ]
    task_ids = [metrics.tasks[k].task if k in metrics.tasks else INVALID_ID for k in keys]
    out["TASK"] = [
        (t.start, t.end, t.device, t.correlation, number, collection.pid, sid(t.task_type), INVALID_ID,
         t.stream, task_ids[number], int(MODEL_ID_NONE))
        for number, t in enumerate(tasks)
    ]  # fmt: skip
    # TASK_PMU_INFO: a kernel's AI Core metrics, one row per metric of msprof's metric summary
    # (aicore_metrics.KernelMetrics.pmu: the modelled ones), as db_assembler.cpp's SaveTaskPmuData.
    out["TASK_PMU_INFO"] = [
        (number, sid(name), value)
        for number, key in enumerate(keys)
        if key is not None
        for name, value in map(task_pmu_value, metrics.pmu.get(key, []))
    ]
    # blockNum: the kernel's launch's blockDim (op_summary's Block Num), else unset.
    blocks = block_dims(collection)
    out["COMPUTE_TASK_INFO"] = [
        (
            sid(t.name),
            number,
            blocks.get(record_key(t), INVALID_ID),
            INVALID_ID,
            sid(t.task_type),
            sid(t.op_type),
            *[sid(NA)] * 11,
        )
        for number, t in enumerate(tasks)
        if t.kind == "kernel"
    ]
    out["MEMCPY_INFO"] = [
        (number, t.bytes, MEMCPY_OPERATIONS[COPY_KINDS.get(t.copy_kind, "other")])
        for number, t in enumerate(tasks)
        if t.kind == "memcpy"
    ]
    communications = [t for t in tasks if t.kind == "communication"]
    records = {(c.device, c.start, c.correlation): c for c in collection.communications}
    out["COMMUNICATION_OP"] = []
    for op_id, t in enumerate(communications):
        c = records[(t.device, t.start, t.correlation)]
        out["COMMUNICATION_OP"].append(
            (sid(c.name), c.start, c.end, c.correlation, sid(c.comm), op_id, 0, 0, c.data_type, sid(c.alg),
             c.count, sid(c.name), c.device, 0)
        )  # fmt: skip
    # CANN_API: connectionId is the table's key; the call that launched a task has the task's id,
    # every other call a fresh one above all correlation ids.
    fresh = max([a.correlation for a in collection.apis] + [t.correlation for t in tasks], default=0) + 1
    out["CANN_API"] = []
    for api in sorted(collection.apis, key=lambda a: (a.start, a.correlation)):
        if api.level not in API_LEVELS:
            continue
        if launches.get(api.correlation) is api:
            connection = api.correlation
        else:
            connection, fresh = fresh, fresh + 1
        name = NODE_LAUNCH if api.level == "node" else api.name
        out["CANN_API"].append(
            (
                api.start,
                api.end,
                API_LEVELS[api.level],
                global_tid(collection.pid, api.tid),
                connection,
                sid(name),
            )
        )
    out["OVERLAP_ANALYSIS"] = []
    for device in sorted({t.device for t in tasks}):
        computing = [(t.start, t.end) for t in tasks if t.device == device and t.kind == "kernel"]
        communication = [(t.start, t.end) for t in communications if t.device == device]
        for track, intervals in overlap.analysis(computing, communication).items():
            for start, end in intervals:
                row = (len(out["OVERLAP_ANALYSIS"]), device, start, end, OVERLAY_TYPES[OVERLAP_TYPES[track]])
                out["OVERLAP_ANALYSIS"].append(row)
    # NPU_MEM: the type is the string "app" (db_assembler.cpp's SaveNpuMemData), sizes in bytes.
    out["NPU_MEM"] = [
        (sid("app"), m.ddr, m.hbm, m.timestamp, m.device) for m in memory.app_samples(collection)
    ]
    out = {name: rows for name, rows in out.items() if rows}
    out["NPU_INFO"] = [
        (device, device_info.read(collection.path, device).chip_name) for device in collection.devices
    ] or [(-1, device_info.UNKNOWN)]
    out["RANK_DEVICE_MAP"] = [(-1, device) for device in collection.devices] or [(-1, -1)]
    session = _session_time(collection.path)
    if session is not None:
        out["SESSION_TIME_INFO"] = [session]
    names = ("SCHEMA_VERSION", "SCHEMA_VERSION_MAJOR", "SCHEMA_VERSION_MINOR", "SCHEMA_VERSION_MICRO")
    out["META_DATA"] = list(zip(names, (".".join(SCHEMA_VERSION), *SCHEMA_VERSION), strict=True))
    out["STRING_IDS"] = [(number, value) for value, number in sid.ids.items()]
    return out


def write(collection: Collection) -> Path:
    """Writes <PROF_*>/msprof_<YYYYMMDDhhmmss>.db (a previous export's file is replaced); returns it."""
    for old in collection.path.glob(f"{DB_PREFIX}*.db"):
        old.unlink()
    path = collection.path / f"{DB_PREFIX}{time.strftime('%Y%m%d%H%M%S')}.db"
    partial = path.with_suffix(".db.partial")
    partial.unlink(missing_ok=True)
    db = sqlite3.connect(partial)
    try:
        with db:
            for table, rows in tables(collection).items():
                _create(db, table, TABLES[table], rows)
            for table, values in ENUMS.items():
                _create(db, table, ENUM_COLUMNS, [(number, name) for name, number in values.items()])
    finally:
        db.close()
    partial.replace(path)  # a reader never sees a half-written database (torch_npu polls for it)
    return path
