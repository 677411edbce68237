"""The record layouts and enumerations of msPTI's C ABI, read from the public C headers.

The headers (``csrc/mspti/include/mspti``, CANN's text) are the one place a record's fields are
written: this module preprocesses them with the C compiler (``cc -E``) and parses the result with
pycparser, giving every struct's fields (C name, offset, size, C type) in declaration order and every
enumeration's enumerators with their values. ``record_layouts`` joins these facts with
``record_layouts.toml`` (what a header cannot say: which struct carries which kind, Python names,
meanings, the newer API's additions).

Run at build time only (the CMake configure writes the facts as ``record_header.json``, which the
wheel ships beside ``record_layouts``); in a source checkout without that file, ``record_layouts``
parses the checkout's headers on first use. Needs ``pycparser`` (a build requirement and a runtime
dependency, 63 KB of pure Python) and a C compiler.

Layout: every record struct of the headers is packed and 8-byte aligned (``PACKED_ALIGNMENT``), so
fields sit back to back and sizeof is the sum rounded up to 8; a struct outside the packed region
(``msptiCallbackData``) and nested anonymous structs are laid out naturally. The compiled headers are
the judge: ``record_schema.h``'s ``static_assert``s, compiled into msPTI, fail the build if these
numbers differ from the compiler's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["HEADERS", "HeaderError", "checkout_include_dir", "main", "read_headers", "write_if_changed"]

#: The headers that declare the records, the callback data and the enumerations, in include order.
HEADERS = ("mspti/mspti.h", "mspti/mspti_ext.h")

# The C standard headers the msPTI headers include, reduced to the types they use: the preprocessor
# runs without the system's headers (-nostdinc), whose compiler extensions pycparser does not read.
_STD_HEADERS = {
    "stdint.h": (
        "typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t;\n"
        "typedef unsigned short uint16_t; typedef int int32_t; typedef unsigned int uint32_t;\n"
        "typedef long int64_t; typedef unsigned long uint64_t; typedef unsigned long uintptr_t;\n"
    ),
    "stddef.h": "typedef unsigned long size_t;\n#define NULL ((void*)0)\n",
    "stdbool.h": "#define bool _Bool\n#define true 1\n#define false 0\n",
}

# sizeof of the scalar C types the records use (LP64: x86-64, aarch64).
_SCALAR_SIZES = {
    "int8_t": 1,
    "uint8_t": 1,
    "char": 1,
    "_Bool": 1,
    "int16_t": 2,
    "uint16_t": 2,
    "int": 4,
    "unsigned int": 4,
    "int32_t": 4,
    "uint32_t": 4,
    "float": 4,
    "int64_t": 8,
    "uint64_t": 8,
    "size_t": 8,
    "double": 8,
    "long": 8,
    "unsigned long": 8,
}
_POINTER_SIZE = 8
# A typedef whose array length is ACTIVITY_STRUCT_ALIGNMENT, the alignment of the packed records.
_ALIGN_PROBE = "mspti_header_record_alignment"


class HeaderError(RuntimeError):
    """The headers could not be preprocessed or parsed, or use a type this reader does not lay out."""


def checkout_include_dir() -> Path | None:
    """``csrc/mspti/include`` of the source checkout this package sits in, if it is one."""
    candidate = Path(__file__).resolve().parent.parent / "csrc" / "mspti" / "include"
    return candidate if (candidate / HEADERS[0]).is_file() else None


def _compiler(cc: str | None) -> str:
    for name in (cc, os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    raise HeaderError("no C compiler to preprocess the msPTI headers (set CC)")


def _preprocess(include_dir: Path, cc: str | None) -> str:
    source = "".join(f'#include "{header}"\n' for header in HEADERS)
    source += f"typedef char {_ALIGN_PROBE}[ACTIVITY_STRUCT_ALIGNMENT];\n"
    with tempfile.TemporaryDirectory(prefix="mspti-header-") as tmp:
        std = Path(tmp)
        for name, text in _STD_HEADERS.items():
            (std / name).write_text(text, encoding="utf-8")
        # The headers' MSVC branch states the packing as `#pragma pack` (pycparser reads pragmas, not
        # GCC's __attribute__); __declspec(align(N)) is ACTIVITY_STRUCT_ALIGNMENT, read separately.
        command = [_compiler(cc), "-E", "-P", "-nostdinc", "-U__GNUC__", "-U__clang__", "-D_MSC_VER=1900"]
        command += ["-D__pragma(x)=_Pragma(#x)", "-D__declspec(x)=", "-x", "c"]
        command += ["-isystem", str(std), "-I", str(include_dir), "-"]
        done = subprocess.run(command, input=source, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise HeaderError(f"preprocessing the msPTI headers failed: {done.stderr.strip()}")
    return done.stdout


class _Reader:
    """Walks pycparser's tree: typedef'd structs, unions and enums by their typedef name, and which
    typedefs the headers declare inside ``#pragma pack(push, 1)`` (packed, aligned to the probe)."""

    def __init__(self, ast: Any) -> None:
        from pycparser import c_ast

        self._ast = c_ast
        self.typedefs: dict[str, Any] = {}
        self.enums: dict[str, list[list[Any]]] = {}
        self.packed: set[str] = set()
        self.record_align = 1
        packing: list[bool] = []
        for node in ast.ext:
            if isinstance(node, c_ast.Pragma):
                words = node.string.replace(" ", "")
                if words.startswith("pack(push"):
                    packing.append(True)
                elif words.startswith("pack(pop"):
                    packing.pop()
                continue
            if not isinstance(node, c_ast.Typedef):
                continue
            self.typedefs[node.name] = node.type
            if node.name == _ALIGN_PROBE:
                self.record_align = self._value(node.type.dim, {})
                continue
            inner = node.type.type if isinstance(node.type, c_ast.TypeDecl) else None
            if isinstance(inner, c_ast.Enum) and inner.values is not None:
                self.enums[node.name] = self._enumerators(inner)
            elif isinstance(inner, (c_ast.Struct, c_ast.Union)) and packing:
                self.packed.add(node.name)

    def _value(self, expr: Any, known: dict[str, int]) -> int:
        c = self._ast
        if isinstance(expr, c.Constant):
            return int(expr.value.rstrip("uUlL"), 0)
        if isinstance(expr, c.ID):
            return known[expr.name]
        if isinstance(expr, c.UnaryOp) and expr.op == "-":
            return -self._value(expr.expr, known)
        if isinstance(expr, c.BinaryOp):
            left, right = self._value(expr.left, known), self._value(expr.right, known)
            ops = {"<<": lambda: left << right, "|": lambda: left | right, "+": lambda: left + right}
            if expr.op in ops:
                return ops[expr.op]()
        if isinstance(expr, c.Cast):
            return self._value(expr.expr, known)
        raise HeaderError(f"enumerator value not understood: {type(expr).__name__}")

    def _enumerators(self, enum: Any) -> list[list[Any]]:
        known: dict[str, int] = {}
        members: list[list[Any]] = []
        following = 0
        for item in enum.values.enumerators:
            value = self._value(item.value, known) if item.value is not None else following
            known[item.name] = value
            members.append([item.name, value])
            following = value + 1
        return members

    def _resolve(self, node: Any) -> tuple[str, Any]:
        """(C spelling, node) of a declarator's type."""
        c = self._ast
        if isinstance(node, c.PtrDecl):
            target = node.type
            base = target.type if isinstance(target, c.TypeDecl) else None
            base_name = " ".join(base.names) if isinstance(base, c.IdentifierType) else "void"
            const = "const " if "const" in getattr(target, "quals", []) else ""
            return (f"{const}{base_name} *", node)
        if isinstance(node, c.TypeDecl):
            inner = node.type
            if isinstance(inner, c.IdentifierType):
                return (" ".join(inner.names), inner)
            return ("", inner)
        raise HeaderError(f"declarator not understood: {type(node).__name__}")

    def _size_align(self, spelling: str, node: Any, packed: bool) -> tuple[int, int]:
        """sizeof and the alignment a member of this type gets (1 in a packed aggregate)."""
        c = self._ast
        if isinstance(node, c.PtrDecl):
            size, align = _POINTER_SIZE, _POINTER_SIZE
        elif isinstance(node, (c.Struct, c.Union)):
            _, size, align = self.aggregate(node, packed)
        elif spelling in _SCALAR_SIZES:
            size = align = _SCALAR_SIZES[spelling]
        elif spelling in self.enums:
            size = align = 4
        elif spelling in self.typedefs:
            target_spelling, target = self._resolve(self.typedefs[spelling])
            if isinstance(target, (c.Struct, c.Union)):
                size, align = self.struct_size_align(spelling)
            else:
                size, align = self._size_align(target_spelling, target, False)
        else:
            raise HeaderError(f"type {spelling!r} not understood")
        return size, 1 if packed else align

    def struct_size_align(self, name: str) -> tuple[int, int]:
        _, size, align = self.layout(name)
        return size, align

    def layout(self, name: str) -> tuple[list[list[Any]], int, int]:
        """A typedef'd struct or union: packed ones get the records' alignment."""
        _, node = self._resolve(self.typedefs[name])
        packed = name in self.packed
        fields, size, align = self.aggregate(node, packed)
        if packed:
            align = self.record_align
            size = -(-size // align) * align
        return fields, size, align

    def aggregate(self, node: Any, packed: bool) -> tuple[list[list[Any]], int, int]:
        """([name, offset, size, C type], sizeof, alignof) of a struct or union, nested members dotted."""
        c = self._ast
        union = isinstance(node, c.Union)
        fields: list[list[Any]] = []
        offset = size = 0
        align = 1
        for decl in node.decls or []:
            spelling, target = self._resolve(decl.type)
            field_size, field_align = self._size_align(spelling, target, packed)
            start = 0 if union else -(-offset // field_align) * field_align
            if isinstance(target, (c.Struct, c.Union)) and target.name is None:
                nested, _, _ = self.aggregate(target, packed)
                fields += [[f"{decl.name}.{n}", start + o, s, t] for n, o, s, t in nested]
            else:
                fields.append([decl.name, start, field_size, spelling])
            offset = start + field_size
            size = max(size, offset)
            align = max(align, field_align)
        return fields, -(-size // align) * align, align


def read_headers(include_dir: Path, cc: str | None = None) -> dict[str, Any]:
    """The facts of the headers under ``include_dir``: ``{"structs": {name: {"size", "align",
    "fields": [[name, offset, size, C type], ...]}}, "enums": {name: [[enumerator, value], ...]}}``,
    every typedef'd struct and union and every typedef'd enumeration, in declaration order."""
    try:
        from pycparser import CParser
    except ImportError as error:  # pragma: no cover - pycparser is a declared dependency
        raise HeaderError("reading the msPTI headers needs pycparser (pip install pycparser)") from error
    text = _preprocess(include_dir, cc)
    try:
        ast = CParser().parse(text, "mspti.h")
    except Exception as error:
        raise HeaderError(f"parsing the msPTI headers failed: {error}") from error
    reader = _Reader(ast)
    c = reader._ast
    result: dict[str, Any] = {"structs": {}, "enums": reader.enums}
    for name, decl in reader.typedefs.items():
        inner = decl.type if isinstance(decl, c.TypeDecl) else None
        if isinstance(inner, (c.Struct, c.Union)) and inner.decls is not None:
            fields, size, align = reader.layout(name)
            result["structs"][name] = {"size": size, "align": align, "fields": fields}
    return result


def main(argv: Sequence[str]) -> int:
    """``python -m mspti_base.record_header INCLUDE_DIR OUT_JSON [CC]``: writes the facts (if changed)."""
    if len(argv) not in (2, 3):
        print(
            "usage: python -m mspti_base.record_header INCLUDE_DIR OUTPUT_JSON [C_COMPILER]", file=sys.stderr
        )
        return 2
    try:
        facts = read_headers(Path(argv[0]), argv[2] if len(argv) == 3 else None)
    except HeaderError as error:
        print(f"record_header: {error}", file=sys.stderr)
        return 1
    write_if_changed(Path(argv[1]), json.dumps(facts, indent=1) + "\n")
    return 0


def write_if_changed(out: Path, text: str) -> None:
    """Writes a generated file only when its text changed, so the build does not redo its dependents."""
    if not out.is_file() or out.read_text(encoding="utf-8") != text:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
