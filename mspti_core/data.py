"""Data classes of activity records, as monitors and collectors deliver them.

Each class is a slotted dataclass whose fields follow the C record of its kind (snake_case). The
delivery machinery fills instances directly; they can also be built by hand, or with
:meth:`from_dict` from a dict with the C field names (``deviceId``, ``correlationId``, ...), the
form CANN's msPTI Python adapter produces.

Identifiers keep their C values: ``MSPTI_INVALID_DEVICE_ID`` / ``MSPTI_INVALID_STREAM_ID`` are
0xFFFFFFFF, except in :class:`MsptiObjectId`, where the pair that does not apply is -1.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from mspti_core.enums import (
    MsptiActivityFlag,
    MsptiActivityKind,
    MsptiActivityMemcpyKind,
    MsptiActivityMemoryKind,
    MsptiActivityMemoryOperationType,
    MsptiActivitySourceKind,
    MsptiCommunicationDataType,
    MsptiExternalCorrelationKind,
)

__all__ = [
    "ActivityData",
    "ApiData",
    "CommunicationData",
    "ExternalCorrelationData",
    "HcclData",
    "KernelData",
    "MarkerData",
    "MemcpyData",
    "MemoryData",
    "MemsetData",
    "MsptiObjectId",
    "RangeMarkerData",
    "data_class_for",
    "to_dict",
]

_Kind = MsptiActivityKind
T = TypeVar("T")

#: C field name -> Python field name, for from_dict / to_dict.
_C_NAMES: dict[str, str] = {
    "deviceId": "device_id",
    "streamId": "stream_id",
    "processId": "process_id",
    "threadId": "thread_id",
    "correlationId": "correlation_id",
    "sourceKind": "source_kind",
    "bandWidth": "bandwidth",
    "commName": "comm_name",
    "dataType": "data_type",
    "algType": "alg_type",
    "memoryOperationType": "memory_operation_type",
    "memoryKind": "memory_kind",
    "copyKind": "copy_kind",
    "isAsync": "is_async",
    "externalKind": "external_kind",
    "externalId": "external_id",
    "objectId": "object_id",
}
_PY_NAMES = {value: key for key, value in _C_NAMES.items()}


def _from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
    """An instance of ``cls`` from ``data`` (C or Python field names); missing fields keep defaults."""
    names = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for key, value in data.items():
        name = _C_NAMES.get(key, key)
        if name in names:
            values[name] = value
    if "object_id" in names and "object_id" not in values:
        ids = {k: data[c] for c, k in _C_NAMES.items() if c in data and k in _OBJECT_ID_FIELDS}
        ids.update({k: data[k] for k in _OBJECT_ID_FIELDS if k in data})
        if ids:
            values["object_id"] = MsptiObjectId(**ids)
    elif isinstance(values.get("object_id"), Mapping):
        values["object_id"] = _from_dict(MsptiObjectId, values["object_id"])
    hints = {f.name: f.type for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    for name, value in list(values.items()):
        enum = _ENUM_FIELDS.get(str(hints.get(name)))
        if enum is not None and isinstance(value, int) and not isinstance(value, enum):
            with contextlib.suppress(ValueError):
                values[name] = enum(value)
    return cls(**values)


def to_dict(record: Any, c_names: bool = False) -> dict[str, Any]:
    """A record as a dict (nested MsptiObjectId included); with ``c_names``, keyed like the C fields."""
    result = dataclasses.asdict(record)
    if c_names:
        result = {_PY_NAMES.get(k, k): v for k, v in result.items()}
        if "objectId" in result:
            result["objectId"] = {_PY_NAMES.get(k, k): v for k, v in result["objectId"].items()}
    return result


@dataclass(slots=True)
class MsptiObjectId:
    """Where a marker was taken: a process and thread (host) or a device and stream (device)."""

    process_id: int = -1
    thread_id: int = -1
    device_id: int = -1
    stream_id: int = -1


_OBJECT_ID_FIELDS = ("process_id", "thread_id", "device_id", "stream_id")


@dataclass(slots=True)
class KernelData:
    """A KERNEL record: one execution of a kernel on a device."""

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_KERNEL
    start: int = 0
    end: int = 0
    device_id: int = 0
    stream_id: int = 0
    correlation_id: int = 0
    type: str = ""
    name: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KernelData:
        return _from_dict(cls, data)


@dataclass(slots=True)
class HcclData:
    """An HCCL record: one HCCL operation on its stream; bandwidth in GB/s."""

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_HCCL
    start: int = 0
    end: int = 0
    device_id: int = 0
    stream_id: int = 0
    bandwidth: float = 0.0
    name: str = ""
    comm_name: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HcclData:
        return _from_dict(cls, data)


@dataclass(slots=True)
class CommunicationData:
    """A COMMUNICATION record: one communication operator on a device.

    ``data_type`` is a :class:`MsptiCommunicationDataType`, or the plain number for a value that is
    not one of its members.
    """

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_COMMUNICATION
    data_type: MsptiCommunicationDataType | int = MsptiCommunicationDataType.MSPTI_ACTIVITY_COMMUNICATION_INT8
    count: int = 0
    device_id: int = 0
    stream_id: int = 0
    start: int = 0
    end: int = 0
    alg_type: str = ""
    name: str = ""
    comm_name: str = ""
    correlation_id: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CommunicationData:
        return _from_dict(cls, data)


@dataclass(slots=True)
class MarkerData:
    """A MARKER record: an mstx mark or one end of a range, seen on the host or on a device."""

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_MARKER
    flag: MsptiActivityFlag = MsptiActivityFlag.MSPTI_ACTIVITY_FLAG_NONE
    source_kind: MsptiActivitySourceKind = MsptiActivitySourceKind.MSPTI_ACTIVITY_SOURCE_KIND_HOST
    timestamp: int = 0
    id: int = 0
    object_id: MsptiObjectId = field(default_factory=MsptiObjectId)
    name: str = ""
    domain: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MarkerData:
        return _from_dict(cls, data)


@dataclass(slots=True)
class RangeMarkerData:
    """An mstx range: the START and END records of one range id and source, put together.

    ``object_id``, ``name`` and ``domain`` come from the START record.
    """

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_MARKER
    source_kind: MsptiActivitySourceKind = MsptiActivitySourceKind.MSPTI_ACTIVITY_SOURCE_KIND_HOST
    id: int = 0
    object_id: MsptiObjectId = field(default_factory=MsptiObjectId)
    name: str = ""
    domain: str = ""
    start: int = 0
    end: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RangeMarkerData:
        return _from_dict(cls, data)


@dataclass(slots=True)
class ApiData:
    """An API, ACL_API, NODE_API or RUNTIME_API record: one host API call."""

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_API
    start: int = 0
    end: int = 0
    process_id: int = 0
    thread_id: int = 0
    correlation_id: int = 0
    name: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ApiData:
        return _from_dict(cls, data)


@dataclass(slots=True)
class MemoryData:
    """A MEMORY record: a device memory allocation or release."""

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_MEMORY
    memory_operation_type: MsptiActivityMemoryOperationType = (
        MsptiActivityMemoryOperationType.MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION
    )
    memory_kind: MsptiActivityMemoryKind = MsptiActivityMemoryKind.MSPTI_ACTIVITY_MEMORY_UNKNOWN
    correlation_id: int = 0
    start: int = 0
    end: int = 0
    address: int = 0
    bytes: int = 0
    process_id: int = 0
    device_id: int = 0
    stream_id: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MemoryData:
        return _from_dict(cls, data)


@dataclass(slots=True)
class MemsetData:
    """A MEMSET record."""

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_MEMSET
    value: int = 0
    bytes: int = 0
    start: int = 0
    end: int = 0
    device_id: int = 0
    stream_id: int = 0
    correlation_id: int = 0
    is_async: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MemsetData:
        return _from_dict(cls, data)


@dataclass(slots=True)
class MemcpyData:
    """A MEMCPY record."""

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_MEMCPY
    copy_kind: MsptiActivityMemcpyKind = MsptiActivityMemcpyKind.MSPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN
    bytes: int = 0
    start: int = 0
    end: int = 0
    device_id: int = 0
    stream_id: int = 0
    correlation_id: int = 0
    is_async: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MemcpyData:
        return _from_dict(cls, data)


@dataclass(slots=True)
class ExternalCorrelationData:
    """An EXTERNAL_CORRELATION record: links an msPTI correlation id to a client's id."""

    kind: MsptiActivityKind = _Kind.MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION
    external_kind: MsptiExternalCorrelationKind = (
        MsptiExternalCorrelationKind.MSPTI_EXTERNAL_CORRELATION_KIND_INVALID
    )
    external_id: int = 0
    correlation_id: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ExternalCorrelationData:
        return _from_dict(cls, data)


ActivityData = (
    KernelData
    | HcclData
    | CommunicationData
    | MarkerData
    | ApiData
    | MemoryData
    | MemsetData
    | MemcpyData
    | ExternalCorrelationData
)

_ENUM_FIELDS: dict[str, type] = {
    "MsptiActivityKind": MsptiActivityKind,
    "MsptiActivityFlag": MsptiActivityFlag,
    "MsptiActivitySourceKind": MsptiActivitySourceKind,
    "MsptiCommunicationDataType | int": MsptiCommunicationDataType,
    "MsptiActivityMemoryOperationType": MsptiActivityMemoryOperationType,
    "MsptiActivityMemoryKind": MsptiActivityMemoryKind,
    "MsptiActivityMemcpyKind": MsptiActivityMemcpyKind,
    "MsptiExternalCorrelationKind": MsptiExternalCorrelationKind,
}

_BY_KIND: dict[int, type] = {
    _Kind.MSPTI_ACTIVITY_KIND_MARKER: MarkerData,
    _Kind.MSPTI_ACTIVITY_KIND_KERNEL: KernelData,
    _Kind.MSPTI_ACTIVITY_KIND_API: ApiData,
    _Kind.MSPTI_ACTIVITY_KIND_HCCL: HcclData,
    _Kind.MSPTI_ACTIVITY_KIND_MEMORY: MemoryData,
    _Kind.MSPTI_ACTIVITY_KIND_MEMSET: MemsetData,
    _Kind.MSPTI_ACTIVITY_KIND_MEMCPY: MemcpyData,
    _Kind.MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: ExternalCorrelationData,
    _Kind.MSPTI_ACTIVITY_KIND_COMMUNICATION: CommunicationData,
    _Kind.MSPTI_ACTIVITY_KIND_ACL_API: ApiData,
    _Kind.MSPTI_ACTIVITY_KIND_NODE_API: ApiData,
    _Kind.MSPTI_ACTIVITY_KIND_RUNTIME_API: ApiData,
}


def data_class_for(kind: int) -> type:
    """The data class records of ``kind`` are delivered as; KeyError for kinds without records."""
    return _BY_KIND[int(kind)]


def _native_types() -> dict[str, type]:
    """What the delivery machinery builds records from (mspti_core._mspti.bind_types)."""
    return {
        "KernelData": KernelData,
        "HcclData": HcclData,
        "CommunicationData": CommunicationData,
        "MarkerData": MarkerData,
        "RangeMarkerData": RangeMarkerData,
        "ApiData": ApiData,
        "MemoryData": MemoryData,
        "MemsetData": MemsetData,
        "MemcpyData": MemcpyData,
        "ExternalCorrelationData": ExternalCorrelationData,
        "MsptiObjectId": MsptiObjectId,
        "MsptiActivityKind": MsptiActivityKind,
        "MsptiActivityFlag": MsptiActivityFlag,
        "MsptiActivitySourceKind": MsptiActivitySourceKind,
        "MsptiCommunicationDataType": MsptiCommunicationDataType,
        "MsptiActivityMemoryOperationType": MsptiActivityMemoryOperationType,
        "MsptiActivityMemoryKind": MsptiActivityMemoryKind,
        "MsptiActivityMemcpyKind": MsptiActivityMemcpyKind,
        "MsptiExternalCorrelationKind": MsptiExternalCorrelationKind,
    }
