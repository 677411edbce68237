"""msPTI activity kinds and the packed record layouts as numpy structured dtypes.

The layouts are those of the public headers (csrc/mspti/include/mspti/mspti_activity.h): every
record is packed and its size rounded up to 8. In a capture every ``const char *`` field holds a
string id instead of a pointer (0 = NULL), so those fields are read as ``uint64``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

import numpy as np

from mspti_base.record_layouts import ENUMS, KIND_RECORD, LAYOUTS, RecordLayout, python_name

__all__ = [
    "API_KINDS",
    "DEVICE_OP_KINDS",
    "DTYPES",
    "INVALID_STREAM",
    "KIND_NAMES",
    "RECORD_SIZES",
    "STRING_FIELDS",
    "ActivityKind",
    "MarkerFlag",
    "kind_from_name",
]


def _activity_kinds() -> list[tuple[str, int]]:
    """The kinds with a record type that every msPTI has (OVERHEAD, of a newer API, is not traced)."""
    return [
        (member.name.removeprefix("MSPTI_ACTIVITY_KIND_"), member.value)
        for member in ENUMS["msptiActivityKind"].members
        if not member.since and member.value in KIND_RECORD
    ]


def _marker_flags() -> list[tuple[str, int]]:
    return [
        (member.name.removeprefix("MSPTI_ACTIVITY_FLAG_MARKER_"), member.value)
        for member in ENUMS["msptiActivityFlag"].members
        if member.value
    ]


#: The activity kinds, named without the MSPTI_ACTIVITY_KIND_ prefix (from the record schema).
ActivityKind = enum.IntEnum("ActivityKind", _activity_kinds(), module=__name__)  # type: ignore[misc]
#: The marker flags, named without the MSPTI_ACTIVITY_FLAG_MARKER_ prefix.
MarkerFlag = enum.IntFlag("MarkerFlag", _marker_flags(), module=__name__)  # type: ignore[misc]


#: The kinds that share the msptiActivityApi layout.
API_KINDS: tuple[ActivityKind, ...] = tuple(
    kind for kind in ActivityKind if KIND_RECORD[kind] == "msptiActivityApi"
)
#: Device-side operations that a host API launches (joined to it by correlation id).
DEVICE_OP_KINDS: tuple[ActivityKind, ...] = (
    ActivityKind.KERNEL,
    ActivityKind.MEMCPY,
    ActivityKind.MEMSET,
    ActivityKind.COMMUNICATION,
)

#: The names the collector and ``--kinds`` use.
KIND_NAMES: Mapping[ActivityKind, str] = {kind: kind.name.lower() for kind in ActivityKind}


def kind_from_name(name: str) -> ActivityKind:
    """``"kernel"`` -> ActivityKind.KERNEL (case-insensitive); ValueError for an unknown name."""
    try:
        return ActivityKind[name.strip().upper()]
    except KeyError:
        known = ", ".join(KIND_NAMES.values())
        raise ValueError(f"unknown activity kind {name!r}; expected one of: {known}") from None


#: Column names that are not the Python name of the C member (mspti_base.record_layouts.python_name).
_COLUMN_NAMES: Mapping[str, str] = {"memoryOperationType": "operation_type"}
#: msptiObjectId is read as two columns: processId/deviceId, then threadId/streamId.
_OBJECT_ID_COLUMNS = (("object_a", 0), ("object_b", 4))
_FORMATS: Mapping[tuple[str, int], str] = {
    ("uint", 1): "u1",
    ("uint", 4): "<u4",
    ("uint", 8): "<u8",
    ("bool", 1): "u1",
    ("float", 8): "<f8",
    ("string", 8): "<u8",  # a string id in a capture (0 = NULL), not a pointer
    ("pointer", 8): "<u8",
}


def _column(c_name: str) -> str:
    return _COLUMN_NAMES.get(c_name.rsplit(".", 1)[-1]) or python_name(c_name)


def _dtype(layout: RecordLayout) -> np.dtype:
    names: list[str] = []
    formats: list[str] = []
    offsets: list[int] = []
    for field in layout.fields:
        if field.type == "msptiObjectId":
            for column, delta in _OBJECT_ID_COLUMNS:
                names.append(column)
                formats.append("<u4")
                offsets.append(field.offset + delta)
            continue
        names.append(_column(field.name))
        formats.append(_FORMATS[field.type, field.size])
        offsets.append(field.offset)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": layout.size})


#: Activity kind -> the packed record as a numpy structured dtype (from mspti_core.layouts).
DTYPES: Mapping[ActivityKind, np.dtype] = {
    kind: _dtype(LAYOUTS[KIND_RECORD[int(kind)]]) for kind in ActivityKind
}

RECORD_SIZES: Mapping[ActivityKind, int] = {kind: dtype.itemsize for kind, dtype in DTYPES.items()}

#: The fields that hold string ids in a capture.
STRING_FIELDS: Mapping[ActivityKind, tuple[str, ...]] = {
    kind: names
    for kind in ActivityKind
    if (
        names := tuple(
            _column(field.name) for field in LAYOUTS[KIND_RECORD[int(kind)]].fields if field.type == "string"
        )
    )
}

INVALID_STREAM = 0xFFFFFFFF
