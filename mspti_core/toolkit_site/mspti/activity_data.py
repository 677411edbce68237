"""The data classes monitors hand to their callbacks, with the fields of CANN's msPTI package.

As in CANN's package, ``KernelData``, ``HcclData``, ``CommunicationData``, ``MarkerData`` and
``MsptiObjectId`` are built from a dict keyed like the C record (``deviceId``, ``correlationId``,
...; a MarkerData's object id from the same flat dict: ``processId``, ``threadId``, ``deviceId``,
``streamId``), missing keys taking the package's defaults. Each class names its keys in upper-case
class attributes (``KernelData.DEVICE_ID == "deviceId"``). Enum fields are converted on
construction, so a value outside the enum raises ValueError. Fields may also be given by name:
``KernelData(name="k", start=1)``. ``RangeMarkerData()`` takes no dict.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, TypeVar

from mspti.constant import (
    MsptiActivityFlag,
    MsptiActivityKind,
    MsptiActivitySourceKind,
    MsptiCommunicationDataType,
)

__all__ = ["CommunicationData", "HcclData", "KernelData", "MarkerData", "MsptiObjectId", "RangeMarkerData"]

E = TypeVar("E", bound=Enum)


def _member(cls: type[E], value: Any) -> E:
    """``value`` (a member of any enum, or a number) as a member of ``cls``; ValueError if none."""
    if isinstance(value, cls):
        return value
    return cls(value.value if isinstance(value, Enum) else value)


def _squash(name: str) -> str:
    return name.replace("_", "").upper()


@functools.cache
def _layout(cls: type) -> tuple[tuple[str, str | None, type | None], ...]:
    """(field, dict key, enum or nested data class) per field of ``cls``; the key is the value of
    the class constant named like the field (``device_id`` -> ``DEVICE_ID``, ``comm_name`` ->
    ``COMMNAME``)."""
    constants = {_squash(n): v for n, v in vars(cls).items() if n.isupper() and isinstance(v, str)}
    hints = typing.get_type_hints(cls)
    layout = []
    for item in dataclasses.fields(cls):
        kind = hints.get(item.name)
        special = kind if isinstance(kind, type) and issubclass(kind, (Enum, _FromDict)) else None
        layout.append((item.name, constants.get(_squash(item.name)), special))
    return tuple(layout)


class _FromDict:
    """The constructor of the dict-built data classes: ``Cls(origin_data=None, /, **fields)``."""

    def __init__(self, origin_data: Mapping[str, Any] | None = None, /, **values: Any) -> None:
        if origin_data is None:
            origin_data = {}
        elif not isinstance(origin_data, Mapping):
            raise TypeError(f"{type(self).__name__} is built from a dict, not {type(origin_data).__name__}")
        defaults = {item.name: item for item in dataclasses.fields(self)}  # type: ignore[arg-type]
        for name, key, special in _layout(type(self)):
            if name in values:
                value = values.pop(name)
            elif special is not None and issubclass(special, _FromDict):
                value = special(origin_data)
            elif key is not None and key in origin_data:
                value = origin_data[key]
            else:
                value = defaults[name].default
            if special is not None and issubclass(special, Enum):
                value = _member(special, value)
            setattr(self, name, value)
        if values:
            raise TypeError(f"{type(self).__name__} has no field(s) {', '.join(sorted(values))}")


@dataclass(init=False)
class MsptiObjectId(_FromDict):
    """Where a marker was taken: process and thread (host) or device and stream (device).

    Delivered markers carry -1 in the pair that does not apply; keys missing from the dict give
    -1 for the process and thread and 0 for the device and stream.
    """

    PROCESS_ID: ClassVar[str] = "processId"
    THREAD_ID: ClassVar[str] = "threadId"
    DEVICE_ID: ClassVar[str] = "deviceId"
    STREAM_ID: ClassVar[str] = "streamId"

    process_id: int = -1
    thread_id: int = -1
    device_id: int = 0
    stream_id: int = 0


@dataclass(init=False)
class KernelData(_FromDict):
    """One kernel execution; times in ns."""

    KIND: ClassVar[str] = "kind"
    START: ClassVar[str] = "start"
    END: ClassVar[str] = "end"
    DEVICE_ID: ClassVar[str] = "deviceId"
    STREAM_ID: ClassVar[str] = "streamId"
    CORRELATION_ID: ClassVar[str] = "correlationId"
    TYPE: ClassVar[str] = "type"
    NAME: ClassVar[str] = "name"

    kind: MsptiActivityKind = MsptiActivityKind.MSPTI_ACTIVITY_KIND_INVALID
    start: int = 0
    end: int = 0
    device_id: int = 0
    stream_id: int = 0
    correlation_id: int = 0
    type: str = ""
    name: str = ""


@dataclass(init=False)
class MarkerData(_FromDict):
    """One mstx mark (what mark_cb receives); ``flag`` defaults to INSTANTANEOUS."""

    KIND: ClassVar[str] = "kind"
    FLAG: ClassVar[str] = "flag"
    SOURCE_KIND: ClassVar[str] = "sourceKind"
    TIMESTAMP: ClassVar[str] = "timestamp"
    ID: ClassVar[str] = "id"
    NAME: ClassVar[str] = "name"
    DOMAIN: ClassVar[str] = "domain"

    kind: MsptiActivityKind = MsptiActivityKind.MSPTI_ACTIVITY_KIND_INVALID
    flag: MsptiActivityFlag = MsptiActivityFlag.MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS
    source_kind: MsptiActivitySourceKind = MsptiActivitySourceKind.MSPTI_ACTIVITY_SOURCE_KIND_HOST
    timestamp: int = 0
    id: int = 0
    object_id: MsptiObjectId = field(default_factory=MsptiObjectId)
    name: str = ""
    domain: str = ""


@dataclass
class RangeMarkerData:
    """One mstx range (what range_cb receives): the START record's source, id, object id, name and
    domain, with the timestamps of its START (``start``) and END (``end``)."""

    kind: MsptiActivityKind = MsptiActivityKind.MSPTI_ACTIVITY_KIND_MARKER
    source_kind: MsptiActivitySourceKind = MsptiActivitySourceKind.MSPTI_ACTIVITY_SOURCE_KIND_HOST
    id: int = 0
    object_id: MsptiObjectId = field(default_factory=MsptiObjectId)
    name: str = ""
    domain: str = ""
    start: int = 0
    end: int = 0


@dataclass(init=False)
class HcclData(_FromDict):
    """One HCCL operation; ``bandwidth`` in GB/s."""

    KIND: ClassVar[str] = "kind"
    START: ClassVar[str] = "start"
    END: ClassVar[str] = "end"
    DEVICE_ID: ClassVar[str] = "deviceId"
    STREAM_ID: ClassVar[str] = "streamId"
    BANDWIDTH: ClassVar[str] = "bandWidth"
    NAME: ClassVar[str] = "name"
    COMMNAME: ClassVar[str] = "commName"

    kind: MsptiActivityKind = MsptiActivityKind.MSPTI_ACTIVITY_KIND_INVALID
    start: int = 0
    end: int = 0
    device_id: int = 0
    stream_id: int = 0
    bandwidth: float = 0.0
    name: str = ""
    comm_name: str = ""


@dataclass(init=False)
class CommunicationData(_FromDict):
    """One communication operator; a ``dataType`` outside MsptiCommunicationDataType raises
    ValueError (a monitor then skips the record and prints the error)."""

    KIND: ClassVar[str] = "kind"
    DATA_TYPE: ClassVar[str] = "dataType"
    COUNT: ClassVar[str] = "count"
    DEVICE_ID: ClassVar[str] = "deviceId"
    STREAM_ID: ClassVar[str] = "streamId"
    START: ClassVar[str] = "start"
    END: ClassVar[str] = "end"
    ALG_TYPE: ClassVar[str] = "algType"
    NAME: ClassVar[str] = "name"
    COMMNAME: ClassVar[str] = "commName"
    CORRELATION_ID: ClassVar[str] = "correlationId"

    kind: MsptiActivityKind = MsptiActivityKind.MSPTI_ACTIVITY_KIND_INVALID
    data_type: MsptiCommunicationDataType = MsptiCommunicationDataType.MSPTI_ACTIVITY_COMMUNICATION_INT8
    count: int = 0
    device_id: int = 0
    stream_id: int = 0
    start: int = 0
    end: int = 0
    alg_type: str = ""
    name: str = ""
    comm_name: str = ""
    correlation_id: int = 0
