"""The record schema for C++: ``record_schema.h``, generated from the record schema (the msPTI headers'
layouts, read by ``record_header``, joined with ``record_layouts.toml``).

The header gives every C++ reader of records one table of the activity kinds' record structs
(``MSPTI_SCHEMA_RECORD_KINDS``), their sizes (``mspti_schema::RecordSize``), every record's fields
as scalars with their offsets, sizes, types and log names (``mspti_schema::FieldsOf``, what the
conformance collector logs) and, where the includer
asks for them (``MSPTI_SCHEMA_CHECK_LAYOUTS``), ``static_assert``s that the compiled msPTI header lays
out every struct as the schema states. It includes no msPTI header: the includer's own (ours, or a
conformance target's) comes first.

The CMake build writes it at configure time (``python -m mspti_base.record_layouts_cpp OUT``, after
``python -m mspti_base.record_header`` read the headers), and the
conformance suite writes it beside the programs it compiles against a target.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mspti_base.record_header import write_if_changed
from mspti_base.record_layouts import ENUMS, KIND_RECORD, LAYOUTS, RecordLayout, log_name, record_fields

__all__ = ["header_text", "main"]


def _kind_suffix(value: int) -> str:
    for member in ENUMS["msptiActivityKind"].members:
        if member.value == value and member.name != "MSPTI_ACTIVITY_KIND_COUNT":
            return member.name.removeprefix("MSPTI_ACTIVITY_KIND_")
    raise ValueError(f"record_layouts.toml: kind {value} has a record type but no enumerator")


def _kinds_macro(name: str, since: str) -> list[str]:
    rows = [
        f"    X({kind}, {_kind_suffix(kind)}, {struct}, {LAYOUTS[struct].size})"
        for kind, struct in sorted(KIND_RECORD.items())
        if LAYOUTS[struct].since == since
    ]
    return [f"#define {name}(X) \\", *(row + " \\" for row in rows[:-1]), rows[-1]]


def _string_offsets(kind: int) -> list[int]:
    return [f.offset for f in LAYOUTS[KIND_RECORD[kind]].fields if f.type == "string"]


def _max_strings() -> int:
    return max(len(_string_offsets(kind)) for kind in KIND_RECORD)


def _string_cases() -> list[str]:
    cases = []
    for kind in sorted(KIND_RECORD):
        offsets = _string_offsets(kind)
        if offsets:
            listed = ", ".join(str(offset) for offset in offsets)
            cases.append(f"        case {kind}:\n            return {{{{{listed}}}, {len(offsets)}}};")
    return cases


_FIELD_TYPES = {
    "uint": "kUint",
    "float": "kFloat",
    "bool": "kBool",
    "string": "kString",
    "pointer": "kPointer",
}


def _fields_function() -> list[str]:
    """``FieldsOf(kind)``: one array per record struct (function-local, so C++11 and later all take it)."""
    lines = [
        "inline RecordFields FieldsOf(int64_t kind) {",
    ]
    arrays: dict[str, str] = {}
    for kind in sorted(KIND_RECORD):
        struct = KIND_RECORD[kind]
        if struct in arrays:
            continue
        arrays[struct] = f"k{struct[0].upper()}{struct[1:]}"
        lines.append(f"    static const FieldSpec {arrays[struct]}[] = {{")
        for f in record_fields(kind):
            kind_type = _FIELD_TYPES[f.type]
            spec = f'"{f.name}", "{log_name(f.name)}", {f.offset}, {f.size}, FieldType::{kind_type}'
            lines.append(f"        {{{spec}}},")
        lines.append("    };")
    lines.append("    switch (kind) {")
    for kind in sorted(KIND_RECORD):
        struct = KIND_RECORD[kind]
        lines += [
            f"        case {kind}:",
            f"            return {{{arrays[struct]}, {len(record_fields(kind))}}};",
        ]
    lines += ["        default:", "            return {nullptr, 0};", "    }", "}"]
    return lines


def _asserts(layout: RecordLayout) -> list[str]:
    t = layout.type_name
    lines = [
        f'static_assert(sizeof({t}) == {layout.size}, "{t}: sizeof differs from the record schema");',
        f'static_assert(alignof({t}) == {layout.align}, "{t}: alignof differs from the record schema");',
    ]
    for field in layout.fields:
        lines.append(
            f"static_assert(offsetof({t}, {field.name}) == {field.offset}"
            f" && sizeof(static_cast<{t}*>(nullptr)->{field.name}) == {field.size},"
            f' "{t}.{field.name}: offset or size differs from the record schema");'
        )
    return lines


def header_text() -> str:
    """The text of record_schema.h."""
    lines = [
        "// Generated from the msPTI headers and record_layouts.toml by record_layouts_cpp.py: do not edit.",
        "// The msPTI record schema for C++ (include the msPTI header first). X(kind value, kind enumerator",
        "// without MSPTI_ACTIVITY_KIND_, record struct, its sizeof) for every activity kind with a record.",
        "#pragma once",
        "",
        "#include <cstddef>",
        "#include <cstdint>",
        "",
        "// The kinds every msPTI has.",
        *_kinds_macro("MSPTI_SCHEMA_RECORD_KINDS", ""),
        "// The kinds of CANN's newer API (MSPTI_ACTIVITY_KIND_OVERHEAD): older headers declare neither",
        "// their enumerators nor their structs, so a reader of any target uses only the numbers.",
        *_kinds_macro("MSPTI_SCHEMA_RECORD_KINDS_OVERHEAD", "overhead"),
        "",
        "namespace mspti_schema {",
        "",
        "// The size of a record of `kind` in a buffer, 0 for a kind without a record.",
        "constexpr size_t RecordSize(int64_t kind) {",
        "    switch (kind) {",
        "#define MSPTI_SCHEMA_SIZE_CASE(value, name, type, size) \\",
        "    case value:                                      \\",
        "        return size;",
        "        MSPTI_SCHEMA_RECORD_KINDS(MSPTI_SCHEMA_SIZE_CASE)",
        "        MSPTI_SCHEMA_RECORD_KINDS_OVERHEAD(MSPTI_SCHEMA_SIZE_CASE)",
        "#undef MSPTI_SCHEMA_SIZE_CASE",
        "        default:",
        "            return 0;",
        "    }",
        "}",
        "",
        "// The offsets of a record's `const char *` fields (the schema's string fields), in order.",
        f"constexpr size_t kMaxStringFields = {_max_strings()};",
        "struct StringFields {",
        "    uint32_t offsets[kMaxStringFields];",
        "    uint32_t count;",
        "};",
        "constexpr StringFields StringFieldsOf(int64_t kind) {",
        "    switch (kind) {",
        *_string_cases(),
        "        default:",
        "            return {{}, 0};",
        "    }",
        "}",
        "",
        '// The kind\'s name in lower case, without MSPTI_ACTIVITY_KIND_ ("external_correlation");',
        "// nullptr for a kind without a record.",
        "constexpr const char* KindName(int64_t kind) {",
        "    switch (kind) {",
        *(
            f'        case {kind}:\n            return "{_kind_suffix(kind).lower()}";'
            for kind in sorted(KIND_RECORD)
        ),
        "        default:",
        "            return nullptr;",
        "    }",
        "}",
        "",
        "// A record's fields as scalars, in offset order (an object id, a union, as the words of its first",
        "// view): dotted C name, key in the conformance collector's log, offset, size, type.",
        "enum class FieldType : uint8_t { kUint, kFloat, kBool, kString, kPointer };",
        "struct FieldSpec {",
        "    const char* name;",
        "    const char* log_name;",
        "    uint32_t offset;",
        "    uint32_t size;",
        "    FieldType type;",
        "};",
        "struct RecordFields {",
        "    const FieldSpec* fields;  // nullptr for a kind without a record",
        "    uint32_t count;",
        "};",
        *_fields_function(),
        "",
        "// The largest record of any kind: what a buffer must at least hold to be useful.",
        f"constexpr size_t kMaxRecordSize = {max(LAYOUTS[s].size for s in KIND_RECORD.values())};",
        "",
        "}  // namespace mspti_schema",
        "",
        "#ifdef MSPTI_SCHEMA_CHECK_LAYOUTS",
        "// The compiled header lays out every struct of every msPTI as the schema states.",
    ]
    for layout in LAYOUTS.values():
        if not layout.since:
            lines += _asserts(layout)
    lines += [
        "#ifdef MSPTI_SCHEMA_CHECK_OVERHEAD",
        "// ... and the structs of the newer API, where the header declares them.",
    ]
    for layout in LAYOUTS.values():
        if layout.since == "overhead":
            lines += _asserts(layout)
    lines += ["#endif", "#endif", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``python -m mspti_base.record_layouts_cpp OUT``: writes record_schema.h to OUT (if changed)."""
    if len(argv) != 1:
        print("usage: python -m mspti_base.record_layouts_cpp OUTPUT_HEADER", file=sys.stderr)
        return 2
    write_if_changed(Path(argv[0]), header_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
