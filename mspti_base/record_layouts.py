"""The msPTI record schema of the C ABI, read from ``record_layouts.toml`` beside this module.

One table serves every view of the records: the record layouts (the conformance ABI lock compares a
target's compiled headers with them, the trace reader builds its decoders from them), the
enumerations (mspti_core's enum types, and through them the vendor-compatible ``mspti`` package's),
which Python data class carries each record and the Python name of each field (mspti_core.data
builds its classes from them), and the C++ table of record structs (``record_layouts_cpp``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "ENUMS",
    "FIELD_TYPES",
    "KIND_RECORD",
    "LAYOUTS",
    "EnumMember",
    "EnumSchema",
    "FieldLayout",
    "RecordLayout",
    "python_name",
    "record_size",
]

#: The field types the table uses (see the header of record_layouts.toml).
FIELD_TYPES = frozenset({"uint", "float", "bool", "string", "pointer", "msptiObjectId"})

_TABLE = Path(__file__).with_name("record_layouts.toml")


@dataclass(frozen=True)
class FieldLayout:
    """One field: dotted name as C spells the member, offset and size in bytes, and its type."""

    name: str
    offset: int
    size: int
    type: str = "uint"
    #: The enumeration (a key of ENUMS) whose values the field holds ("" for none).
    enum: str = ""

    @property
    def leaf(self) -> str:
        """The member's own name: ``ds.deviceId`` -> ``deviceId``."""
        return self.name.rpartition(".")[2]


@dataclass(frozen=True)
class RecordLayout:
    """A record (or ABI struct): C type name, sizeof, alignment and its fields in order."""

    type_name: str
    size: int
    align: int
    fields: tuple[FieldLayout, ...]
    #: The newer API the struct belongs to ("" = every msPTI has it).
    since: str = ""
    #: The mspti_core data class of its records ("" = none) and that class's docstring.
    python: str = ""
    doc: str = ""
    #: The default of the Python class's integer fields.
    python_default: int = 0


@dataclass(frozen=True)
class EnumMember:
    """One enumerator: C name, value, the newer API that added it ("" = every msPTI has it) and,
    for one whose value that API changed, the value before it (None otherwise)."""

    name: str
    value: int
    since: str = ""
    older: int | None = None


@dataclass(frozen=True)
class EnumSchema:
    """An enumeration: C type name, its enumerators in the header's order, and whether it is one of
    this project's extensions (mspti_ext.h) rather than CANN's."""

    name: str
    members: tuple[EnumMember, ...]
    ext: bool = False

    def values(self, since: str | None = None) -> dict[str, int]:
        """C name -> value of every enumerator (the current values); with ``since=""`` the enumerators
        every msPTI has, with their older values; with ``since="overhead"`` those that API added or
        changed, with their new values."""
        if since is None:
            return {m.name: m.value for m in self.members}
        chosen: dict[str, int] = {}
        for m in self.members:
            if m.since == since:
                chosen[m.name] = m.value
            elif not since and m.older is not None:
                chosen[m.name] = m.older
        return chosen


def _field(struct: str, entry: Any, enums: Mapping[str, EnumSchema]) -> FieldLayout:
    if not (isinstance(entry, list) and len(entry) in (4, 5)):
        raise ValueError(
            f"{_TABLE.name}: a field of {struct} must be [name, offset, size, type(, enum)], not {entry!r}"
        )
    name, offset, size, kind = entry[:4]
    enum = str(entry[4]) if len(entry) == 5 else ""
    if kind not in FIELD_TYPES:
        raise ValueError(f"{_TABLE.name}: field {struct}.{name} has unknown type {kind!r}")
    if enum and enum not in enums:
        raise ValueError(f"{_TABLE.name}: field {struct}.{name} names an unknown enum {enum!r}")
    return FieldLayout(str(name), int(offset), int(size), str(kind), enum)


def _member(enum: str, entry: Any) -> EnumMember:
    if not (isinstance(entry, list) and 2 <= len(entry) <= 4):
        raise ValueError(
            f"{_TABLE.name}: a member of {enum} must be [name, value(, since(, older))], not {entry!r}"
        )
    older = int(entry[3]) if len(entry) == 4 else None
    return EnumMember(str(entry[0]), int(entry[1]), str(entry[2]) if len(entry) > 2 else "", older)


def _enums(data: Mapping[str, Any]) -> dict[str, EnumSchema]:
    return {
        name: EnumSchema(name, tuple(_member(name, m) for m in table["members"]), bool(table.get("ext")))
        for name, table in data.get("enum", {}).items()
    }


def _load() -> tuple[dict[str, RecordLayout], dict[int, str], dict[str, EnumSchema], dict[str, str]]:
    with _TABLE.open("rb") as stream:
        data = tomllib.load(stream)
    enums = _enums(data)
    layouts: dict[str, RecordLayout] = {}
    for struct in data["struct"]:
        name = struct["name"]
        fields = tuple(_field(name, entry, enums) for entry in struct["fields"])
        for field in fields:
            if field.offset + field.size > struct["size"]:
                raise ValueError(
                    f"{_TABLE.name}: field {name}.{field.name} ends past sizeof {struct['size']}"
                )
        layouts[name] = RecordLayout(
            name,
            int(struct["size"]),
            int(struct["align"]),
            fields,
            str(struct.get("since", "")),
            str(struct.get("python", "")),
            str(struct.get("doc", "")),
            int(struct.get("python_default", 0)),
        )
    kinds = {int(kind): str(struct) for kind, struct in data["kinds"].items()}
    unknown = sorted(set(kinds.values()) - set(layouts))
    if unknown:
        raise ValueError(f"{_TABLE.name}: [kinds] names structs that are not defined: {unknown}")
    names = {str(c): str(p) for c, p in data.get("python_names", {}).items()}
    return layouts, kinds, enums, names


_LAYOUTS, _KIND_RECORD, _ENUMS, _PYTHON_NAMES = _load()

#: C type name -> its layout, in the order of the table.
LAYOUTS: Mapping[str, RecordLayout] = _LAYOUTS
#: Activity kind value -> the record type that carries it.
KIND_RECORD: Mapping[int, str] = _KIND_RECORD
#: C enum type name -> its enumerators.
ENUMS: Mapping[str, EnumSchema] = _ENUMS


def python_name(c_name: str) -> str:
    """The Python (mspti_core) name of a C field: ``ds.deviceId`` -> ``device_id``, ``kind`` -> ``kind``;
    the table's [python_names] where the snake_case rule does not give it."""
    leaf = c_name.rpartition(".")[2]
    if leaf in _PYTHON_NAMES:
        return _PYTHON_NAMES[leaf]
    return re.sub(r"(?<!^)(?=[A-Z])", "_", leaf).lower()


def record_size(kind: int) -> int:
    """sizeof the record type of ``kind`` (0 for a kind without a record type)."""
    type_name = KIND_RECORD.get(kind)
    return LAYOUTS[type_name].size if type_name else 0
