"""Write the manifest of CANN's public header facts from an assembled include/ tree (assemble.py).

    pip install libclang   # the parser; a development dependency only
    python tools/cann_manifest/generate.py DIR [-o sim_runtime/data/cann_manifest.json]

DIR is laid out like a CANN toolkit's include/ and holds cann_sources.json (written by assemble.py).
The manifest holds facts only, per header: functions (name, return and parameter types, the function
type), enumerators and constants (value and type), structs and unions (fields in order with type and
offset, sizeof and alignof on x86-64), typedefs (the type they name), whether the header may be
included directly, the headers of the tree it reaches and the standard headers it makes visible; and
the release with every repository's commit. It is made from the public checkout only.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import clang.cindex as ci

sys.path.insert(0, str(Path(__file__).resolve().parent))
from include_graph import header_graph, system_dirs

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO / "sim_runtime" / "data" / "cann_manifest.json"
TARGET = "x86_64-pc-linux-gnu"
MACRO_PREFIX = "cann_manifest_macro_"


def _evaluator() -> Any:
    lib = ci.conf.lib
    lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
    lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
    for name, restype in (
        ("clang_EvalResult_getKind", ctypes.c_int),
        ("clang_EvalResult_isUnsignedInt", ctypes.c_uint),
        ("clang_EvalResult_getAsLongLong", ctypes.c_longlong),
        ("clang_EvalResult_getAsUnsigned", ctypes.c_ulonglong),
        ("clang_EvalResult_getAsStr", ctypes.c_char_p),
        ("clang_EvalResult_dispose", None),
    ):
        getattr(lib, name).argtypes = [ctypes.c_void_p]
        getattr(lib, name).restype = restype
    return lib


def evaluate(lib: Any, cursor: ci.Cursor) -> int | str | None:
    result = lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        kind = lib.clang_EvalResult_getKind(result)
        if kind == 1:  # CXEval_Int
            if lib.clang_EvalResult_isUnsignedInt(result):
                return int(lib.clang_EvalResult_getAsUnsigned(result))
            return int(lib.clang_EvalResult_getAsLongLong(result))
        if kind in (3, 4):  # CXEval_ObjCStrLiteral, CXEval_StrLiteral
            return lib.clang_EvalResult_getAsStr(result).decode()
        return None
    finally:
        lib.clang_EvalResult_dispose(result)


def _spell(t: ci.Type) -> str:
    text = re.sub(r"\s+", " ", t.spelling).strip()
    # an unnamed type is spelled with its file location: keep the fact (unnamed), not the path
    return re.sub(r"\((?:unnamed|anonymous) ([a-z]+) at [^)]*\)", r"(unnamed \1)", text)


def _scope(cursor: ci.Cursor) -> list[str]:
    names = []
    parent = cursor.semantic_parent
    while parent is not None and parent.kind != ci.CursorKind.TRANSLATION_UNIT:
        if parent.kind in (ci.CursorKind.NAMESPACE, ci.CursorKind.STRUCT_DECL, ci.CursorKind.CLASS_DECL):
            names.append(parent.spelling)
        parent = parent.semantic_parent
    return list(reversed(names))


class Collector:
    def __init__(self, root: Path, public: set[str], macro_origin: dict[str, tuple[str, str]]) -> None:
        self.root = root.resolve()
        self.public = public
        self.macro_origin = macro_origin
        self.lib = _evaluator()
        self.headers: dict[str, dict[str, Any]] = {}
        self.seen: set[tuple[str, str]] = set()

    def _header(self, cursor: ci.Cursor) -> str | None:
        loc = cursor.location
        if loc.file is None:
            return None
        path = Path(loc.file.name).resolve()
        try:
            rel = path.relative_to(self.root).as_posix()
        except ValueError:
            return None
        return rel if rel in self.public else None

    def _add(self, header: str, kind: str, item: dict[str, Any]) -> None:
        key = (kind, item["name"] + item.get("type", ""))
        if key in self.seen:
            return
        self.seen.add(key)
        self.headers.setdefault(header, {}).setdefault(kind, []).append(item)

    def walk(self, cursor: ci.Cursor) -> None:
        for child in cursor.get_children():
            self.visit(child)

    def visit(self, c: ci.Cursor) -> None:
        k = c.kind
        if k in (ci.CursorKind.NAMESPACE, ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.UNEXPOSED_DECL):
            self.walk(c)
            return
        header = self._header(c)
        if header is None:
            return
        scope = _scope(c)
        if k == ci.CursorKind.FUNCTION_DECL:
            self._function(header, c, scope, method=None)
        elif k in (ci.CursorKind.STRUCT_DECL, ci.CursorKind.UNION_DECL, ci.CursorKind.CLASS_DECL):
            self._record(header, c, scope)
        elif k == ci.CursorKind.ENUM_DECL:
            self._enum(header, c, scope)
        elif k in (ci.CursorKind.TYPEDEF_DECL, ci.CursorKind.TYPE_ALIAS_DECL):
            self._typedef(header, c, scope)
        elif k == ci.CursorKind.VAR_DECL:
            self._constant(header, c, scope)

    def _function(self, header: str, c: ci.Cursor, scope: list[str], method: str | None) -> None:
        if c.spelling.startswith("operator"):
            return
        params = [{"name": a.spelling, "type": _spell(a.type)} for a in c.get_arguments()]
        item: dict[str, Any] = {
            "name": c.spelling,
            "scope": "::".join(scope),
            "result": _spell(c.result_type),
            "params": params,
            "type": _spell(c.type),
        }
        if c.type.kind == ci.TypeKind.FUNCTIONPROTO and c.type.is_function_variadic():
            item["variadic"] = True
        if method is not None:
            item["method"] = method
        if c.is_definition() and method is None:
            item["inline"] = True
        self._add(header, "functions", item)

    def _record(self, header: str, c: ci.Cursor, scope: list[str]) -> None:
        if not c.is_definition():
            return
        name = c.spelling
        if not name or c.is_anonymous():
            return  # named by its typedef (see _typedef)
        self._record_item(header, c, name, scope)

    def _record_item(self, header: str, c: ci.Cursor, name: str, scope: list[str]) -> None:
        t = c.type
        fields = []
        for f in c.get_children():
            if f.kind == ci.CursorKind.FIELD_DECL and f.access_specifier in (
                ci.AccessSpecifier.PUBLIC,
                ci.AccessSpecifier.INVALID,
            ):
                entry: dict[str, Any] = {"name": f.spelling, "type": _spell(f.type)}
                decl = f.type.get_declaration()
                parent = decl.semantic_parent
                if parent is not None and parent == c and decl.spelling and not decl.is_anonymous():
                    entry["type"] = f"{name}::{decl.spelling}"  # a type declared inside the record (C++)
                if f.is_bitfield():
                    entry["bits"] = f.get_bitfield_width()
                else:
                    entry["offset"] = f.get_field_offsetof() // 8
                if f.type.get_declaration().is_anonymous():
                    entry["anonymous_type"] = True
                fields.append(entry)
            elif f.kind in (ci.CursorKind.STRUCT_DECL, ci.CursorKind.UNION_DECL) and f.is_anonymous():
                fields.append({"name": "", "type": "(anonymous)", "offset": None})
            elif f.kind == ci.CursorKind.CXX_METHOD and f.access_specifier == ci.AccessSpecifier.PUBLIC:
                kind = "static" if f.is_static_method() else ("const" if f.is_const_method() else "member")
                self._function(header, f, [*scope, name], method=kind)
        item = {
            "name": name,
            "scope": "::".join(scope),
            "kind": {"UNION_DECL": "union", "CLASS_DECL": "class"}.get(c.kind.name, "struct"),
            "size": t.get_size(),
            "align": t.get_align(),
            "fields": fields,
        }
        self._add(header, "records", item)

    def _enum(self, header: str, c: ci.Cursor, scope: list[str], name: str | None = None) -> None:
        if not c.is_definition():
            return
        enum_name = name or ("" if c.is_anonymous() else c.spelling)
        scoped = c.is_scoped_enum()
        for e in c.get_children():
            if e.kind != ci.CursorKind.ENUM_CONSTANT_DECL:
                continue
            qual = [*scope, enum_name] if scoped else scope
            self._add(
                header,
                "enumerators",
                {"name": e.spelling, "scope": "::".join(qual), "enum": enum_name, "value": e.enum_value},
            )
        if enum_name:
            self._add(
                header,
                "enums",
                {"name": enum_name, "scope": "::".join(scope), "size": c.type.get_size(), "scoped": scoped},
            )

    def _typedef(self, header: str, c: ci.Cursor, scope: list[str]) -> None:
        underlying = c.underlying_typedef_type
        decl = underlying.get_declaration()
        target = _spell(underlying)
        if decl.kind != ci.CursorKind.NO_DECL_FOUND and decl.is_anonymous() and decl.is_definition():
            # typedef struct/enum { ... } Name: the definition takes the typedef's name
            if decl.kind == ci.CursorKind.ENUM_DECL:
                self._enum(header, decl, scope, name=c.spelling)
            else:
                self._record_item(header, decl, c.spelling, scope)
            target = ""
        self._add(header, "typedefs", {"name": c.spelling, "scope": "::".join(scope), "target": target})

    def _constant(self, header: str, c: ci.Cursor, scope: list[str]) -> None:
        if c.spelling.startswith(MACRO_PREFIX):
            header_name, name = self.macro_origin[c.spelling]
            value = evaluate(self.lib, c)
            if value is not None:
                self._add(
                    header_name, "constants", {"name": name, "scope": "", "form": "macro", "value": value}
                )
            return
        if not c.type.is_const_qualified():
            return
        value = evaluate(self.lib, c)
        if value is None:
            return
        item = {"name": c.spelling, "scope": "::".join(scope), "form": "variable", "value": value}
        item["type"] = _spell(c.type)
        self._add(header, "constants", item)


def _macros(tu: ci.TranslationUnit, root: Path, public: set[str]) -> list[tuple[str, str]]:
    found = []
    for c in tu.cursor.get_children():
        if c.kind != ci.CursorKind.MACRO_DEFINITION or c.location.file is None:
            continue
        try:
            rel = Path(c.location.file.name).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            continue
        if rel not in public:
            continue
        tokens = [t.spelling for t in c.get_tokens()]
        if len(tokens) < 2 or _function_like(c):
            continue  # empty (guards, switches) or function-like
        found.append((rel, c.spelling))
    return found


def _function_like(c: ci.Cursor) -> bool:
    return bool(ci.conf.lib.clang_Cursor_isMacroFunctionLike(c))


def generate(root: Path) -> dict[str, Any]:
    sources = json.loads((root / "cann_sources.json").read_text())
    public = set(sources["public"])
    sysdirs = system_dirs()
    graphs = {h: header_graph(root, h, sysdirs) for h in sorted(public)}
    # One translation unit holds every header that compiles alone, then those that need another first.
    standalone = [h for h in sorted(public) if graphs[h].standalone]
    dependent = [h for h in sorted(public) if not graphs[h].standalone and "#error" not in graphs[h].error]
    body = "".join(f'#include "{h}"\n' for h in standalone + dependent)
    index = ci.Index.create()
    # The libclang wheel has no headers of its own: it reads g++'s, in g++'s order.
    ordered = system_dirs(ordered=True)
    args = ["-x", "c++", "-std=c++17", f"--target={TARGET}", "-nostdinc", f"-I{root}"]
    args += [f"-isystem{d}" for d in ordered]
    opts = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD | ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
    with tempfile.TemporaryDirectory() as tmp:
        first = Path(tmp) / "all.cpp"
        first.write_text(body)
        tu = index.parse(str(first), args=args, options=opts)
        macros = _macros(tu, root, public)
        probe = body + "".join(
            f"constexpr auto {MACRO_PREFIX}{i} = ({name});\n" for i, (_, name) in enumerate(macros)
        )
        second = Path(tmp) / "probe.cpp"
        second.write_text(probe)
        tu = index.parse(str(second), args=args, options=opts)
        fatal = [
            d
            for d in tu.diagnostics
            if d.severity >= ci.Diagnostic.Error
            and d.location.file
            and "probe.cpp" not in d.location.file.name
        ]
        if fatal:
            raise SystemExit(f"generate: the tree does not parse: {fatal[0]}")
        collector = Collector(root, public, {f"{MACRO_PREFIX}{i}": m for i, m in enumerate(macros)})
        for c in tu.cursor.get_children():
            if c.kind == ci.CursorKind.VAR_DECL and c.spelling.startswith(MACRO_PREFIX):
                collector._constant("", c, [])
            else:
                collector.visit(c)
    headers = {}
    for h in sorted(public):
        g = graphs[h]
        facts = collector.headers.get(h, {})
        headers[h] = {
            "direct_include": g.standalone or "#error" not in g.error,
            "standalone": g.standalone,
            "includes": sorted(g.tree & public),
            "visible_std": sorted(g.visible),
            **{k: facts[k] for k in sorted(facts)},
        }
    return {
        "format": 1,
        "target": TARGET,
        "release": sources["release"],
        "repositories": sources["repositories"],
        "standins": sources.get("standins", []),
        "headers": headers,
    }


def keep_entries(manifest: dict[str, Any], previous: dict[str, Any], names: list[str]) -> list[str]:
    """Replace the named headers' entries by those of the previous manifest; returns the problems.

    For a [[local]] repository whose files could not be read again: the folder given to assemble.py
    then holds stand-ins, and the facts read from the files at the recorded commit stay."""
    problems = []
    for name in names:
        if name not in manifest["headers"]:
            problems.append(f"{name} is not a header of the assembled tree")
        elif name not in previous.get("headers", {}):
            problems.append(f"{name} is not in the previous manifest")
        else:
            manifest["headers"][name] = previous["headers"][name]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("include", type=Path, help="an assembled CANN include/ folder (assemble.py)")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--keep",
        action="append",
        default=[],
        metavar="HEADER",
        help="take this header's entry (e.g. hccl/hccl_comm.h) from the manifest at --output as it is",
    )
    args = parser.parse_args(argv)
    if not (args.include / "cann_sources.json").is_file():
        parser.error(f"{args.include} has no cann_sources.json: assemble it with assemble.py first")
    previous: dict[str, Any] = {}
    if args.keep:
        try:
            previous = json.loads(args.output.read_text())
        except (OSError, ValueError) as exc:
            parser.error(f"--keep needs the previous manifest at {args.output}: {exc}")
    manifest = generate(args.include)
    if problems := keep_entries(manifest, previous, args.keep):
        parser.error("; ".join(problems))
    args.output.write_text(json.dumps(manifest, indent=None, separators=(",", ":"), sort_keys=False) + "\n")
    counts: dict[str, int] = {}
    for facts in manifest["headers"].values():
        for kind in ("functions", "records", "enums", "enumerators", "typedefs", "constants"):
            counts[kind] = counts.get(kind, 0) + len(facts.get(kind, []))
    print(
        f"{args.output}: {len(manifest['headers'])} headers, "
        + ", ".join(f"{v} {k}" for k, v in counts.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
