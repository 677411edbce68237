"""Data classes of activity records, as monitors and collectors deliver them.

Each class is a slotted dataclass built from the record schema (``mspti_base/record_layouts.toml``):
one field per field of the C record of its kind, in the same order, named in snake_case
(``ds.deviceId`` -> ``device_id``, ``bandWidth`` -> ``bandwidth``), typed with the mspti_core enum of
an enumerated field. The delivery machinery fills instances directly; they can also be built by hand,
or with :meth:`from_dict` from a dict with the C field names (``deviceId``, ``correlationId``, ...),
the form CANN's msPTI Python adapter produces. An enumerated field holds the plain number for a value
outside its enum (a COMMUNICATION record's ``data_type`` may).

Defaults: ``kind`` is the record's kind, an enumerated field the member with value 0, numbers 0,
strings "". Identifiers keep their C values: ``MSPTI_INVALID_DEVICE_ID`` / ``MSPTI_INVALID_STREAM_ID``
are 0xFFFFFFFF, except in :class:`MsptiObjectId`, where the pair that does not apply is -1 and every
field defaults to -1 ("does not apply"; the vendor-compatible ``mspti`` package differs, see
docs/python.md).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, TypeVar

from mspti_base.record_layouts import KIND_RECORD, LAYOUTS, RecordLayout, python_name
from mspti_core.enums import (
    BY_C_NAME,
    MsptiActivityKind,
    MsptiActivitySourceKind,
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
    "c_field_name",
    "data_class_for",
    "to_dict",
]

T = TypeVar("T")

_FIELD_TYPES: dict[str, type] = {"uint": int, "float": float, "bool": bool, "string": str, "pointer": int}
_FIELD_DEFAULTS: dict[str, Any] = {"uint": 0, "float": 0.0, "bool": False, "string": "", "pointer": 0}

#: C field name -> Python field name and back, for from_dict / to_dict (every record's fields).
_C_NAMES: dict[str, str] = {
    item.leaf: python_name(item.name)
    for layout in LAYOUTS.values()
    if layout.python
    for item in layout.fields
}
_PY_NAMES = {value: key for key, value in _C_NAMES.items()}
#: Python class name -> {field: its enum type}.
_ENUM_FIELDS: dict[str, dict[str, type[IntEnum]]] = {}


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
    for name, enum in _ENUM_FIELDS.get(cls.__name__, {}).items():
        value = values.get(name)
        if isinstance(value, int) and not isinstance(value, enum):
            with contextlib.suppress(ValueError):
                values[name] = enum(value)
    return cls(**values)


def c_field_name(name: str) -> str:
    """The C record's name of a data class field: ``device_id`` -> ``deviceId``."""
    return _PY_NAMES.get(name, name)


def to_dict(record: Any, c_names: bool = False) -> dict[str, Any]:
    """A record as a dict (nested MsptiObjectId included); with ``c_names``, keyed like the C fields."""
    result = dataclasses.asdict(record)
    if c_names:
        result = {_PY_NAMES.get(k, k): v for k, v in result.items()}
        if "objectId" in result:
            result["objectId"] = {_PY_NAMES.get(k, k): v for k, v in result["objectId"].items()}
    return result


def _record_kind(layout: RecordLayout) -> int:
    """The first activity kind whose records have this layout (ApiData: API)."""
    return min((kind for kind, name in KIND_RECORD.items() if name == layout.type_name), default=0)


def _data_class(layout: RecordLayout, classes: Mapping[str, type]) -> type:
    """The slotted dataclass of ``layout``: one field per C field (a union's views each once)."""
    specs: list[tuple[str, Any, Any]] = []
    enums: dict[str, type[IntEnum]] = {}
    kind = _record_kind(layout)
    for item in layout.fields:
        name = python_name(item.name)
        if any(name == spec[0] for spec in specs):
            continue
        kind_type: Any
        if item.type == "msptiObjectId":
            nested = classes["MsptiObjectId"]
            specs.append((name, nested, field(default_factory=nested)))
            continue
        if item.enum:
            enum = BY_C_NAME[item.enum]
            enums[name] = enum
            kind_type = enum
            default: Any = enum(kind) if name == "kind" else enum(0)
        else:
            kind_type = _FIELD_TYPES[item.type]
            default = layout.python_default if item.type == "uint" else _FIELD_DEFAULTS[item.type]
        specs.append((name, kind_type, field(default=default)))
    cls = dataclasses.make_dataclass(
        layout.python,
        specs,
        slots=True,
        namespace={"from_dict": classmethod(_from_dict)},
    )
    cls.__module__ = __name__
    cls.__doc__ = layout.doc
    _ENUM_FIELDS[layout.python] = enums
    return cls


def _data_classes() -> dict[str, type]:
    classes: dict[str, type] = {}
    # The object id first: records nest it.
    for layout in sorted(LAYOUTS.values(), key=lambda layout: layout.type_name != "msptiObjectId"):
        if layout.python:
            classes[layout.python] = _data_class(layout, classes)
    return classes


_CLASSES = _data_classes()
MsptiObjectId: Any = _CLASSES["MsptiObjectId"]
KernelData: Any = _CLASSES["KernelData"]
HcclData: Any = _CLASSES["HcclData"]
CommunicationData: Any = _CLASSES["CommunicationData"]
MarkerData: Any = _CLASSES["MarkerData"]
ApiData: Any = _CLASSES["ApiData"]
MemoryData: Any = _CLASSES["MemoryData"]
MemsetData: Any = _CLASSES["MemsetData"]
MemcpyData: Any = _CLASSES["MemcpyData"]
ExternalCorrelationData: Any = _CLASSES["ExternalCorrelationData"]

_OBJECT_ID_FIELDS = tuple(f.name for f in dataclasses.fields(MsptiObjectId))


@dataclass(slots=True)
class RangeMarkerData:
    """An mstx range: the START and END records of one range id and source, put together.

    ``object_id``, ``name`` and ``domain`` come from the START record.
    """

    kind: MsptiActivityKind = MsptiActivityKind.MSPTI_ACTIVITY_KIND_MARKER
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

_BY_KIND: dict[int, type] = {
    kind: _CLASSES[LAYOUTS[name].python] for kind, name in KIND_RECORD.items() if LAYOUTS[name].python
}


def data_class_for(kind: int) -> type:
    """The data class records of ``kind`` are delivered as; KeyError for kinds without records."""
    return _BY_KIND[int(kind)]


#: A field of the delivery engine's table: (slot name, source, offset, size, enum type or None,
#: selector offset, selector value); see csrc/bindings/mspti/objects.h.
_Slot = tuple[str, str, int, int, Any, int, int]


def _slots(layout: RecordLayout) -> list[_Slot]:
    """Where each field of ``layout``'s data class is in its C record, from the schema."""
    slots: list[_Slot] = []
    for item in layout.fields:
        name = python_name(item.name)
        if any(slot[0] == name for slot in slots):
            continue  # a union's views: the object id handles them
        if item.type == "msptiObjectId":
            # The record's source kind names the view of its object id (device: ds, host: pt).
            selector = next(f for f in layout.fields if f.enum == "msptiActivitySourceKind")
            device = int(MsptiActivitySourceKind.MSPTI_ACTIVITY_SOURCE_KIND_DEVICE)
            slots.append((name, "object_id", item.offset, item.size, None, selector.offset, device))
        elif item.enum:
            slots.append((name, "enum", item.offset, item.size, BY_C_NAME[item.enum], 0, 0))
        else:
            slots.append((name, item.type, item.offset, item.size, None, 0, 0))
    return slots


def _range_slots(marker: list[_Slot]) -> list[_Slot]:
    """RangeMarkerData's fields: the START marker's, its timestamp as ``start``, the END's as ``end``."""
    by_name = {slot[0]: slot for slot in marker}
    slots: list[_Slot] = []
    for item in dataclasses.fields(RangeMarkerData):
        if item.name == "end":
            slots.append(("end", "range_end", 0, 0, None, 0, 0))
        else:
            source = by_name["timestamp" if item.name == "start" else item.name]
            slots.append((item.name, *source[1:]))
    return slots


def _native_types() -> dict[str, Any]:
    """What the delivery machinery builds records from (mspti_core._mspti.bind_types), derived from
    the record schema: each kind's data class and where its fields are in the C record, the assembled
    range's, and the object id's (a field of the device view has selector value 1) with the default
    of the view that does not apply."""
    object_id = LAYOUTS["msptiObjectId"]
    return {
        "kinds": {kind: (cls, _slots(LAYOUTS[KIND_RECORD[kind]])) for kind, cls in _BY_KIND.items()},
        "range": (
            RangeMarkerData,
            _range_slots(_slots(LAYOUTS[KIND_RECORD[MsptiActivityKind.MSPTI_ACTIVITY_KIND_MARKER]])),
        ),
        "object_id": (
            MsptiObjectId,
            [
                (python_name(f.name), "uint", f.offset, f.size, None, 0, int(f.name.startswith("ds.")))
                for f in object_id.fields
            ],
            object_id.python_default,
        ),
    }
