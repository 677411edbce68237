"""The msPTI enumerations as :class:`enum.IntEnum` types, built from the record schema.

Each type is named like its C enumeration with a capital first letter (``msptiActivityKind`` ->
``MsptiActivityKind``) and has the C enumerators as members, with their values, in the order of the
schema (``mspti_base/record_layouts.toml``, which tests check against the compiled C headers).
"""

from __future__ import annotations

from enum import IntEnum

from mspti_base.record_layouts import ENUMS

__all__ = [
    "MsptiActivityAttribute",
    "MsptiActivityFlag",
    "MsptiActivityKind",
    "MsptiActivityMemcpyKind",
    "MsptiActivityMemoryKind",
    "MsptiActivityMemoryOperationType",
    "MsptiActivityObjectKind",
    "MsptiActivityOverheadKind",
    "MsptiActivitySourceKind",
    "MsptiCommunicationDataType",
    "MsptiDropReason",
    "MsptiExternalCorrelationKind",
    "MsptiResult",
    "python_enum_name",
    "result",
]


def python_enum_name(c_name: str) -> str:
    """``msptiActivityKind`` -> ``MsptiActivityKind``."""
    return c_name[:1].upper() + c_name[1:]


def _int_enum(c_name: str) -> type[IntEnum]:
    schema = ENUMS[c_name]
    name = python_enum_name(c_name)
    members = [(member.name, member.value) for member in schema.members]
    enum = IntEnum(name, members, module=__name__, qualname=name)  # type: ignore[misc]
    enum.__doc__ = f"``{c_name}`` of the C API" + (" (mspti_ext.h, an extension)." if schema.ext else ".")
    return enum


MsptiResult = _int_enum("msptiResult")
MsptiActivityKind = _int_enum("msptiActivityKind")
MsptiActivityFlag = _int_enum("msptiActivityFlag")
MsptiActivitySourceKind = _int_enum("msptiActivitySourceKind")
MsptiCommunicationDataType = _int_enum("msptiCommunicationDataType")
MsptiDropReason = _int_enum("msptiDropReason")
MsptiExternalCorrelationKind = _int_enum("msptiExternalCorrelationKind")
MsptiActivityMemoryOperationType = _int_enum("msptiActivityMemoryOperationType")
MsptiActivityMemoryKind = _int_enum("msptiActivityMemoryKind")
MsptiActivityMemcpyKind = _int_enum("msptiActivityMemcpyKind")
MsptiActivityOverheadKind = _int_enum("msptiActivityOverheadKind")
MsptiActivityObjectKind = _int_enum("msptiActivityObjectKind")
MsptiActivityAttribute = _int_enum("msptiActivityAttribute")

#: Every enum type above by its C name.
BY_C_NAME: dict[str, type[IntEnum]] = {
    c_name: globals()[python_enum_name(c_name)] for c_name in ENUMS if python_enum_name(c_name) in globals()
}


def result(code: int) -> IntEnum | int:
    """``code`` as an :class:`MsptiResult` member, or the plain number if it is none."""
    try:
        return MsptiResult(code)
    except ValueError:
        return code
