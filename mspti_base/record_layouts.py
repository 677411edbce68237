"""The msPTI record layouts of the C ABI, read from ``record_layouts.toml`` beside this module.

One table serves every reader of raw records: the conformance ABI lock compares a target's
compiled headers with it, and the trace reader builds its decoders from it.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["FIELD_TYPES", "KIND_RECORD", "LAYOUTS", "FieldLayout", "RecordLayout", "record_size"]

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


@dataclass(frozen=True)
class RecordLayout:
    """A record (or ABI struct): C type name, sizeof, alignment and its fields in order."""

    type_name: str
    size: int
    align: int
    fields: tuple[FieldLayout, ...]
    #: The newer API the struct belongs to ("" = every msPTI has it).
    since: str = ""


def _field(struct: str, entry: Any) -> FieldLayout:
    if not (isinstance(entry, list) and len(entry) == 4):
        raise ValueError(
            f"{_TABLE.name}: a field of {struct} must be [name, offset, size, type], not {entry!r}"
        )
    name, offset, size, kind = entry
    if kind not in FIELD_TYPES:
        raise ValueError(f"{_TABLE.name}: field {struct}.{name} has unknown type {kind!r}")
    return FieldLayout(str(name), int(offset), int(size), str(kind))


def _load() -> tuple[dict[str, RecordLayout], dict[int, str]]:
    with _TABLE.open("rb") as stream:
        data = tomllib.load(stream)
    layouts: dict[str, RecordLayout] = {}
    for struct in data["struct"]:
        name = struct["name"]
        fields = tuple(_field(name, entry) for entry in struct["fields"])
        for field in fields:
            if field.offset + field.size > struct["size"]:
                raise ValueError(
                    f"{_TABLE.name}: field {name}.{field.name} ends past sizeof {struct['size']}"
                )
        layouts[name] = RecordLayout(
            name, int(struct["size"]), int(struct["align"]), fields, str(struct.get("since", ""))
        )
    kinds = {int(kind): str(struct) for kind, struct in data["kinds"].items()}
    unknown = sorted(set(kinds.values()) - set(layouts))
    if unknown:
        raise ValueError(f"{_TABLE.name}: [kinds] names structs that are not defined: {unknown}")
    return layouts, kinds


_LAYOUTS, _KIND_RECORD = _load()

#: C type name -> its layout, in the order of the table.
LAYOUTS: Mapping[str, RecordLayout] = _LAYOUTS
#: Activity kind value -> the record type that carries it.
KIND_RECORD: Mapping[int, str] = _KIND_RECORD


def record_size(kind: int) -> int:
    """sizeof the record type of ``kind`` (0 for a kind without a record type)."""
    type_name = KIND_RECORD.get(kind)
    return LAYOUTS[type_name].size if type_name else 0
