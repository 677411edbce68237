"""The msPTI record schema of the C ABI: the public C headers' structs and enumerations (read by
``record_header`` at build time) joined with ``record_layouts.toml`` beside this module (what the
headers cannot say: which struct carries which kind, Python names, meanings, the newer API's additions).

The headers' facts come from ``record_header.json`` beside this module (the build writes it and the
wheel ships it), from the file ``MSPTI_RECORD_HEADER`` names (the build, while it generates), or in a
source checkout without either, from the checkout's headers, read on first import and cached under
``build/`` until a header changes.

One schema serves every view of the records: the record layouts (the conformance ABI lock compares a
target's compiled headers with them, the trace reader builds its decoders from them), the
enumerations (mspti_core's enum types, and through them the vendor-compatible ``mspti`` package's),
which Python data class carries each record and the Python name of each field (mspti_core.data
builds its classes from them), and the C++ table of record structs (``record_layouts_cpp``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
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
    "log_name",
    "python_name",
    "record_fields",
    "record_size",
]

#: The field types of the schema (see the header of record_layouts.toml).
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
    #: What the field holds, where its name does not say (record_layouts.toml's meanings; "" for none).
    meaning: str = ""

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


_HEADER_FACTS = Path(__file__).with_name("record_header.json")


def _checkout_facts() -> dict[str, Any]:
    """The facts of a source checkout's headers, cached by the headers' digest under ``build/``."""
    from mspti_base import record_header

    include = record_header.checkout_include_dir()
    if include is None:
        raise RuntimeError(
            f"{_HEADER_FACTS.name} is missing beside {__name__} and this is no source checkout: "
            "reinstall mspti-sim (pip install .)"
        )
    digest = hashlib.sha256()
    for header in sorted((include / "mspti").glob("*.h")):
        digest.update(header.name.encode() + b"\0" + header.read_bytes())
    digest.update(Path(record_header.__file__).read_bytes())
    cache = include.parents[2] / "build" / "schema-cache" / f"record_header-{digest.hexdigest()[:16]}.json"
    if cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    facts = record_header.read_headers(include)
    with contextlib.suppress(OSError):  # a read-only checkout reads the headers every time
        cache.parent.mkdir(parents=True, exist_ok=True)
        for stale in cache.parent.glob("record_header-*.json"):
            stale.unlink()
        cache.write_text(json.dumps(facts), encoding="utf-8")
    return facts


def _header_facts() -> dict[str, Any]:
    named = os.environ.get("MSPTI_RECORD_HEADER")
    path = Path(named) if named else _HEADER_FACTS
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    return _checkout_facts()


def _field_type(
    c_type: str, c_name: str, types: Mapping[str, str], enums: Mapping[str, EnumSchema]
) -> tuple[str, str]:
    """(schema type, enumeration) of a field from its C type, unless [field_types] names it."""
    if c_name in types:
        kind = types[c_name]
        if kind not in FIELD_TYPES:
            raise ValueError(f"{_TABLE.name}: [field_types] {c_name} has unknown type {kind!r}")
        return kind, ""
    if c_type.endswith("*"):
        return ("string" if c_type.removeprefix("const ").startswith("char") else "pointer"), ""
    if c_type in ("double", "float"):
        return "float", ""
    if c_type in enums:
        return "uint", c_type
    if c_type == "msptiObjectId":
        return "msptiObjectId", ""
    return "uint", ""


def _enums(
    data: Mapping[str, Any], header: Mapping[str, list[list[Any]]], table: str
) -> dict[str, EnumSchema]:
    enums: dict[str, EnumSchema] = {}
    for name, table in data.get("enum", {}).items():
        if name not in header:
            raise ValueError(f"{table}: [enum.{name}] is not an enumeration of the msPTI headers")
        values = {str(member): int(value) for member, value in header[name]}
        since = {str(m): str(api) for api, members in table.get("since", {}).items() for m in members}
        older = {str(m): int(v) for m, v in table.get("older", {}).items()}
        unknown = sorted((set(since) | set(older)) - set(values))
        if unknown:
            raise ValueError(f"{table}: [enum.{name}] names enumerators the headers lack: {unknown}")
        members = tuple(EnumMember(m, v, since.get(m, ""), older.get(m)) for m, v in values.items())
        enums[name] = EnumSchema(name, members, bool(table.get("ext")))
    return enums


def _flat_fields(layout: RecordLayout, object_id: RecordLayout | None) -> tuple[FieldLayout, ...]:
    """``layout``'s fields with each object id (a union) replaced by the words of its first view at
    their offsets in the record (``objectId`` -> ``objectId.pt.processId``, ``objectId.pt.threadId``)."""
    if object_id is None:
        return layout.fields
    flat: list[FieldLayout] = []
    for f in layout.fields:
        if f.type != "msptiObjectId":
            flat.append(f)
            continue
        seen: set[int] = set()
        for word in object_id.fields:
            if word.offset not in seen:
                seen.add(word.offset)
                flat.append(
                    FieldLayout(f"{f.name}.{word.name}", f.offset + word.offset, word.size, word.type)
                )
    return tuple(flat)


def _load(
    table: Path = _TABLE, header: Mapping[str, Any] | None = None
) -> tuple[dict[str, RecordLayout], dict[int, str], dict[str, EnumSchema], dict[str, str], dict[str, str]]:
    """The schema from ``table`` (record_layouts.toml) and the headers' facts (record_header's): the
    layouts, the kinds' structs, the enumerations, [python_names] and [log_names]."""
    with table.open("rb") as stream:
        data = tomllib.load(stream)
    if header is None:
        header = _header_facts()
    enums = _enums(data, header["enums"], table.name)
    names = {str(c): str(p) for c, p in data.get("python_names", {}).items()}
    types = {str(c): str(t) for c, t in data.get("field_types", {}).items()}
    layouts: dict[str, RecordLayout] = {}
    for struct in data["struct"]:
        name = struct["name"]
        facts = header["structs"].get(name)
        if facts is None:
            raise ValueError(f"{table.name}: struct {name} is not declared by the msPTI headers")
        meanings = {str(c): str(text) for c, text in struct.get("meanings", {}).items()}
        fields = []
        for c_name, offset, size, c_type in facts["fields"]:
            leaf = c_name.rpartition(".")[2]
            kind, enum = _field_type(c_type, leaf, types, enums)
            fields.append(FieldLayout(c_name, int(offset), int(size), kind, enum, meanings.get(c_name, "")))
        lacking = sorted(set(meanings) - {f.name for f in fields})
        if lacking:
            raise ValueError(f"{table.name}: meanings of {name} name fields the header lacks: {lacking}")
        layouts[name] = RecordLayout(
            name,
            int(facts["size"]),
            int(facts["align"]),
            tuple(fields),
            str(struct.get("since", "")),
            str(struct.get("python", "")),
            str(struct.get("doc", "")),
            int(struct.get("python_default", 0)),
        )
    kinds = {int(kind): str(struct) for kind, struct in data["kinds"].items()}
    unknown = sorted(set(kinds.values()) - set(layouts))
    if unknown:
        raise ValueError(f"{table.name}: [kinds] names structs that are not defined: {unknown}")
    leaves = {f.leaf for layout in layouts.values() for f in layout.fields}
    for section, named in (("python_names", names), ("field_types", types)):
        lacking = sorted(set(named) - leaves)
        if lacking:
            raise ValueError(f"{table.name}: [{section}] names fields the headers lack: {lacking}")
    log_names = {str(c): str(n) for c, n in data.get("log_names", {}).items()}
    object_id = layouts.get("msptiObjectId")
    logged = {f.name for s in set(kinds.values()) for f in _flat_fields(layouts[s], object_id)}
    lacking = sorted(set(log_names) - logged)
    if lacking:
        raise ValueError(f"{table.name}: [log_names] names fields no record has: {lacking}")
    return layouts, kinds, enums, names, log_names


_LAYOUTS, _KIND_RECORD, _ENUMS, _PYTHON_NAMES, _LOG_NAMES = _load()

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


def record_fields(kind: int) -> tuple[FieldLayout, ...]:
    """The fields of the record of ``kind`` as a flat list of scalars, in offset order: an object id
    (a union of two views) is the words of its first view, named by their dotted path
    (``objectId.pt.processId``); () for a kind without a record."""
    type_name = KIND_RECORD.get(kind)
    if type_name is None:
        return ()
    return _flat_fields(LAYOUTS[type_name], LAYOUTS.get("msptiObjectId"))


def log_name(c_name: str) -> str:
    """The key of a record field in the conformance collector's log: the table's [log_names] (the
    suite's short names, ``correlationId`` -> ``corr``), else the dotted C name itself."""
    return _LOG_NAMES.get(c_name, c_name)


def record_size(kind: int) -> int:
    """sizeof the record type of ``kind`` (0 for a kind without a record type)."""
    type_name = KIND_RECORD.get(kind)
    return LAYOUTS[type_name].size if type_name else 0
