"""The raw data of one PROF_* directory, as libmsprofiler writes it (csrc/sim/msprofiler/prof_dir.h).

``host/data/collection.json`` (one JSON object: pid, devices, data_types, aicore_metrics) and
``host/data/mspti_records.jsonl`` (one msPTI record per line; with task time also each kernel's
task, ``kernel_task``; with task time and node launches each node basic info CANN reported,
``node_info``). Times are msPTI's: ns since the Unix epoch (CLOCK_REALTIME), host and
device alike. The AI Core PMU data of ``device_<n>/data`` is read by aicore_metrics.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

RAW_DIR = Path("host") / "data"
COLLECTION_FILE = RAW_DIR / "collection.json"
RECORDS_FILE = RAW_DIR / "mspti_records.jsonl"
API_KINDS = {"acl_api": "acl", "node_api": "node", "runtime_api": "runtime", "api": "api"}


class RawDataError(Exception):
    """A PROF_* directory without readable raw data."""


@dataclass(frozen=True)
class Kernel:
    start: int
    end: int
    device: int
    stream: int
    correlation: int
    type: str
    name: str


RecordKey = tuple[int, int, int, int, int]  # a device task's record: device, stream, start, end, correlation


class _DeviceRecord(Protocol):
    @property
    def device(self) -> int: ...
    @property
    def stream(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def correlation(self) -> int: ...


def record_key(r: _DeviceRecord) -> RecordKey:
    """The key that tells a KERNEL record (or a row made from one) apart from every other."""
    return (r.device, r.stream, r.start, r.end, r.correlation)


@dataclass(frozen=True)
class KernelTask:
    """The device task a KERNEL record was matched on (collected with task time): the record's own
    fields, its stream's task id and the device counts of its start and end, the key msprof joins the
    task's PMU records on, and the blockDim its task track reported (MsprofKernelInfo.numBlocks; 0:
    none, e.g. an AI CPU kernel)."""

    start: int
    end: int
    device: int
    stream: int
    correlation: int
    task: int
    start_count: int
    end_count: int
    block_dim: int = 0

    @property
    def record_key(self) -> RecordKey:
        return record_key(self)


@dataclass(frozen=True)
class NodeInfo:
    """A node basic info CANN reported (MsprofNodeBasicInfo): on thread `tid` at `time`, the end of
    the node launch it belongs to, the blockDim that launch's kernel ran with and msprof's task type."""

    time: int
    tid: int
    block_dim: int
    task_type: int


@dataclass(frozen=True)
class Api:
    level: str  # acl, node, runtime (CANN's api_statistic levels), or api
    start: int
    end: int
    pid: int
    tid: int
    correlation: int
    name: str


@dataclass(frozen=True)
class Copy:
    kind: str  # memcpy or memset
    start: int
    end: int
    device: int
    stream: int
    correlation: int
    bytes: int
    copy_kind: int = 0  # msPTI's msptiActivityMemcpyKind of a memcpy (0 unknown, and for a memset)


@dataclass(frozen=True)
class Communication:
    start: int
    end: int
    device: int
    stream: int
    correlation: int
    name: str
    comm: str
    alg: str
    count: int
    data_type: int


@dataclass(frozen=True)
class Memory:
    """An msPTI MEMORY record: one allocation (operation 0) or release (1) of `bytes` at `address`."""

    start: int
    device: int
    operation: int
    memory_kind: int  # msptiActivityMemoryKind: 1 device, 2 host, 3 managed
    address: int
    bytes: int
    pid: int


@dataclass(frozen=True)
class MemoryInUse:
    """The device memory the process held on `device` when the collection started or stopped
    (libmsprofiler reads the simulator's accounting; collected with task memory)."""

    start: int
    device: int
    bytes: int


# acl_prof.h's task-time switches: Level0 (ACL_PROF_TASK_TIME_L0) and the levels above it.
ACL_PROF_TASK_TIME = 0x0002
ACL_PROF_TASK_TIME_L0 = 0x0800
ACL_PROF_TASK_TIME_L2 = 0x2000
ACL_PROF_TASK_TIME_L3 = 0x8000


@dataclass
class Collection:
    path: Path
    pid: int
    devices: list[int]
    data_types: int
    aicore_metrics: int
    kernels: list[Kernel] = field(default_factory=list)
    kernel_tasks: list[KernelTask] = field(default_factory=list)
    node_infos: list[NodeInfo] = field(default_factory=list)
    apis: list[Api] = field(default_factory=list)
    copies: list[Copy] = field(default_factory=list)
    communications: list[Communication] = field(default_factory=list)
    memory: list[Memory] = field(default_factory=list)
    memory_in_use: list[MemoryInUse] = field(default_factory=list)

    @property
    def is_level0(self) -> bool:
        """Whether this is a Level0 collection (msprof's prof level l0: task time at level 0 only, as
        torch_npu's ProfilerLevel.Level0 asks), in which CANN collects no HCCL task."""
        above = ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L2 | ACL_PROF_TASK_TIME_L3
        return bool(self.data_types & ACL_PROF_TASK_TIME_L0) and not self.data_types & above


def is_collection(path: Path) -> bool:
    return (path / RECORDS_FILE).is_file() and (path / COLLECTION_FILE).is_file()


def load(path: Path) -> Collection:
    """Reads one PROF_* directory; raises RawDataError naming the file that is wrong."""
    try:
        meta = json.loads((path / COLLECTION_FILE).read_text(encoding="utf-8"))
        collection = Collection(
            path=path,
            pid=int(meta["pid"]),
            devices=[int(d) for d in meta["devices"]],
            data_types=int(meta["data_types"]),
            aicore_metrics=int(meta["aicore_metrics"]),
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise RawDataError(f"{path / COLLECTION_FILE}: {error}") from error
    records = path / RECORDS_FILE
    try:
        with records.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if line.strip():
                    _add(collection, json.loads(line), records, number)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise RawDataError(f"{records}: {error}") from error
    return collection


def _add(collection: Collection, r: dict[str, Any], records: Path, number: int) -> None:
    kind = str(r["kind"])
    start, end = int(r["start"]), int(r["end"])
    if kind == "kernel":
        collection.kernels.append(
            Kernel(
                start,
                end,
                int(r["device"]),
                int(r["stream"]),
                int(r["correlation"]),
                str(r["type"]),
                str(r["name"]),
            )
        )
    elif kind in API_KINDS:
        collection.apis.append(
            Api(
                API_KINDS[kind],
                start,
                end,
                int(r["pid"]),
                int(r["tid"]),
                int(r["correlation"]),
                str(r["name"]),
            )
        )
    elif kind in ("memcpy", "memset"):
        collection.copies.append(
            Copy(
                kind,
                start,
                end,
                int(r["device"]),
                int(r["stream"]),
                int(r["correlation"]),
                int(r["bytes"]),
                int(r.get("copy_kind", 0)),
            )
        )
    elif kind == "communication":
        collection.communications.append(
            Communication(
                start,
                end,
                int(r["device"]),
                int(r["stream"]),
                int(r["correlation"]),
                str(r["name"]),
                str(r["comm"]),
                str(r["alg"]),
                int(r["count"]),
                int(r["data_type"]),
            )
        )
    elif kind == "memory":
        collection.memory.append(
            Memory(
                start,
                int(r["device"]),
                int(r["operation"]),
                int(r["memory_kind"]),
                int(r["address"]),
                int(r["bytes"]),
                int(r["pid"]),
            )
        )
    elif kind == "kernel_task":
        collection.kernel_tasks.append(
            KernelTask(
                start,
                end,
                int(r["device"]),
                int(r["stream"]),
                int(r["correlation"]),
                int(r["task"]),
                int(r["start_count"]),
                int(r["end_count"]),
                int(r.get("block_dim", 0)),
            )
        )
    elif kind == "node_info":
        collection.node_infos.append(NodeInfo(end, int(r["tid"]), int(r["block_dim"]), int(r["task_type"])))
    elif kind == "memory_in_use":
        collection.memory_in_use.append(MemoryInUse(start, int(r["device"]), int(r["bytes"])))
    elif kind != "hccl":  # HCCL records repeat the communication records' operations
        raise ValueError(f"line {number}: unknown record kind {kind!r}")
