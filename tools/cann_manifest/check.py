"""Check a header tree (the simulator's shipped headers) against the manifest of CANN's public facts.

    python tools/cann_manifest/check.py [--manifest FILE] [--include DIR ...] [--absent-md FILE]

From the manifest it writes one C++ translation unit of compile-time checks (static_assert on values,
sizeof, alignof, offsetof, std::is_same on field and typedef types, and a function pointer of the
exact CANN type initialised from each function, which fails on any difference of parameter type or
const-ness), compiles it with g++ against the given folders, and maps each error back to the item and
the fact it checks. An item whose name the headers do not declare is absent (not a failure); an item
declared with a different value, layout or type is a difference. The include graph (g++ -H) of every
header both sides have is compared too. Differences listed in allowlist.toml are reported as allowed.
Needs only g++ and the standard library; exit 1 when a difference is not allowed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

sys.path.insert(0, str(Path(__file__).resolve().parent))
from include_graph import CXX, HeaderGraph, header_graph, system_dirs

REPO = Path(__file__).resolve().parents[2]
MANIFEST = REPO / "sim_runtime" / "data" / "cann_manifest.json"
ALLOWLIST = Path(__file__).with_name("allowlist.toml")
SHIPPED = (REPO / "csrc" / "sim" / "include", REPO / "csrc" / "mspti" / "include")
KINDS = ("functions", "records", "enums", "enumerators", "typedefs", "constants")
_ABSENT = re.compile(
    r"was not declared in this scope|has not been declared|does not name a type|is not a member of|"
    r"not declared|no member named .* in namespace|expected type-specifier|is not a class, namespace"
)


@dataclass(frozen=True)
class Check:
    item: str  # kind:qualified-name (a function's type is part of it when the name is overloaded)
    header: str  # the CANN header that declares it
    facet: str  # "exists" or what the line checks
    line: str


@dataclass
class Report:
    identical: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    differences: dict[str, list[str]] = field(default_factory=dict)  # item -> what differs
    allowed: dict[str, str] = field(default_factory=dict)  # item -> reason, for allowed differences
    headers: dict[str, str] = field(default_factory=dict)  # item -> CANN header
    fatal: list[str] = field(default_factory=list)

    @property
    def failures(self) -> dict[str, list[str]]:
        return {k: v for k, v in self.differences.items() if k not in self.allowed}


def _literal(value: int | str) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    if value > 0x7FFFFFFFFFFFFFFF:
        return f"{value}ULL"
    if value < -0x7FFFFFFFFFFFFFFF:
        return f"({value + 1}LL - 1)"
    return f"{value}LL"


def _qual(item: dict[str, Any]) -> str:
    return f"{item['scope']}::{item['name']}" if item.get("scope") else item["name"]


def _namespace(scope: str, is_class_scope: bool) -> str:
    parts = scope.split("::") if scope else []
    return "::".join(parts[:-1] if is_class_scope else parts)


def _usable(spelling: str) -> bool:
    return "(anonymous" not in spelling and "(unnamed" not in spelling and "(lambda" not in spelling


class Builder:
    """Builds the translation unit: checks grouped by namespace, one check per line."""

    def __init__(self) -> None:
        self.checks: list[tuple[str, Check]] = []  # (namespace, check)
        self.counter = 0

    def add(self, namespace: str, item: str, header: str, facet: str, line: str) -> None:
        self.checks.append((namespace, Check(item, header, facet, line)))

    def fresh(self) -> str:
        self.counter += 1
        return f"cm_{self.counter}"

    def function(self, header: str, f: dict[str, Any], overloaded: bool) -> None:
        method = f.get("method")
        item = f"function:{_qual(f)}" + (f"({f['type']})" if overloaded else "")
        ns = _namespace(f["scope"], method is not None)
        name = f["name"] if method is None else f"{f['scope'].split('::')[-1]}::{f['name']}"
        if not all(_usable(p["type"]) for p in f["params"]) or not _usable(f["result"]):
            return
        if not overloaded:
            self.add(ns, item, header, "exists", f"using {self.fresh()} = decltype(&{name});")
        args = ", ".join(p["type"] for p in f["params"])
        if f.get("variadic"):
            args = f"{args}, ..." if args else "..."
        alias = self.fresh()
        if method in ("member", "const"):
            cls = f["scope"].split("::")[-1]
            pointer = f"{f['result']} ({cls}::*)({args})" + (" const" if method == "const" else "")
        else:
            pointer = f"{f['result']} (*)({args})"
        self.add(
            ns,
            item,
            header,
            f"type {f['type']}",
            f"using {alias} = {pointer}; [[maybe_unused]] static const {alias} {self.fresh()} = &{name};",
        )

    def record(self, header: str, r: dict[str, Any]) -> None:
        item, ns, name = f"record:{_qual(r)}", r["scope"], r["name"]
        self.add(ns, item, header, "exists", f"static_assert(sizeof({name}*) != 0);")
        self.add(ns, item, header, f"sizeof {r['size']}", f"static_assert(sizeof({name}) == {r['size']});")
        self.add(
            ns, item, header, f"alignof {r['align']}", f"static_assert(alignof({name}) == {r['align']});"
        )
        for fld in r["fields"]:
            if not fld["name"]:
                continue
            if fld.get("offset") is not None:
                self.add(
                    ns,
                    item,
                    header,
                    f"{fld['name']} at offset {fld['offset']}",
                    f"static_assert(offsetof({name}, {fld['name']}) == {fld['offset']});",
                )
            if not fld.get("anonymous_type") and _usable(fld["type"]):
                self.add(
                    ns,
                    item,
                    header,
                    f"{fld['name']} of type {fld['type']}",
                    f"static_assert(std::is_same_v<decltype({name}::{fld['name']}), {fld['type']}>);",
                )

    def enum(self, header: str, e: dict[str, Any]) -> None:
        item, ns, name = f"enum:{_qual(e)}", e["scope"], e["name"]
        self.add(ns, item, header, "exists", f"static_assert(sizeof({name}*) != 0);")
        self.add(ns, item, header, f"sizeof {e['size']}", f"static_assert(sizeof({name}) == {e['size']});")

    def enumerator(self, header: str, e: dict[str, Any]) -> None:
        item, ns = f"enumerator:{_qual(e)}", e["scope"]
        name = e["name"]
        if e["enum"] and ns.endswith(e["enum"]) and ns.split("::")[-1] == e["enum"]:  # scoped enum
            ns, name = _namespace(ns, True), f"{e['enum']}::{e['name']}"
        self.add(ns, item, header, "exists", f"static_assert(sizeof({name}) != 0);")
        self.add(
            ns,
            item,
            header,
            f"value {e['value']}",
            f"static_assert(static_cast<long long>({name}) == {_literal(e['value'])});",
        )
        if e["enum"]:
            self.add(
                ns,
                item,
                header,
                f"of enum {e['enum']}",
                f"static_assert(std::is_same_v<std::remove_cv_t<decltype({name})>, {e['enum']}>);",
            )

    def typedef(self, header: str, t: dict[str, Any]) -> None:
        item, ns, name = f"typedef:{_qual(t)}", t["scope"], t["name"]
        self.add(ns, item, header, "exists", f"using {self.fresh()} = {name};")
        # `typedef enum X {...} X`: the tag and the typedef name one type (the enum or record is checked
        # itself); `typedef enum X Y`: Y must name X, whether X is a tag or a typedef of ours.
        target = re.sub(r"^(enum|struct|union|class) ", "", t["target"])
        if target and target != name and _usable(target):
            self.add(ns, item, header, f"names {target}", f"static_assert(std::is_same_v<{name}, {target}>);")

    def constant(self, header: str, c: dict[str, Any]) -> None:
        item, ns, name = f"constant:{_qual(c)}", c["scope"], c["name"]
        self.add(ns, item, header, "exists", f"static_assert(sizeof({name}) != 0);")
        if isinstance(c["value"], str) and c["form"] == "variable":
            pass  # a `const char *const` is not a constant expression; its type is checked below
        elif isinstance(c["value"], str):
            self.add(
                ns,
                item,
                header,
                f"value {c['value']!r}",
                f"static_assert(cm_streq({name}, {_literal(c['value'])}));",
            )
        else:
            self.add(
                ns, item, header, f"value {c['value']}", f"static_assert(({name}) == {_literal(c['value'])});"
            )
        if c.get("type") and _usable(c["type"]):
            # the top-level const: trailing for a pointer, leading otherwise
            bare = (
                re.sub(r"\s*const$", "", c["type"])
                if "*" in c["type"]
                else re.sub(r"^const\s+", "", c["type"])
            )
            self.add(
                ns,
                item,
                header,
                f"of type {c['type']}",
                f"static_assert(std::is_same_v<std::remove_cv_t<decltype({name})>, {bare}>);",
            )

    def source(self, includes: Iterable[str]) -> tuple[str, dict[int, Check]]:
        lines = ["#include <cstddef>", "#include <type_traits>"]
        lines += [f'#include "{h}"' for h in includes]
        lines += [
            "constexpr bool cm_streq(const char* a, const char* b) {",
            "  return *a == *b && (*a == 0 || cm_streq(a + 1, b + 1)); }",
        ]
        by_line: dict[int, Check] = {}
        for ns, check in self.checks:
            open_ = "".join(f"namespace {p} {{ " for p in ns.split("::")) if ns else ""
            close = " }" * (ns.count("::") + 1) if ns else ""
            lines.append(f"{open_}{check.line}{close}")
            by_line[len(lines)] = check
        return "\n".join(lines) + "\n", by_line


def build(manifest: dict[str, Any]) -> Builder:
    builder = Builder()
    names: dict[str, int] = {}
    for facts in manifest["headers"].values():
        for f in facts.get("functions", []):
            names[_qual(f)] = names.get(_qual(f), 0) + 1
    for header, facts in manifest["headers"].items():
        for f in facts.get("functions", []):
            builder.function(header, f, names[_qual(f)] > 1)
        for r in facts.get("records", []):
            builder.record(header, r)
        for e in facts.get("enums", []):
            builder.enum(header, e)
        for e in facts.get("enumerators", []):
            builder.enumerator(header, e)
        for t in facts.get("typedefs", []):
            builder.typedef(header, t)
        for c in facts.get("constants", []):
            builder.constant(header, c)
    return builder


def our_headers(dirs: Iterable[Path]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for d in dirs:
        for path in sorted(d.rglob("*.h")):
            found.setdefault(path.relative_to(d).as_posix(), d)
    return found


def _include_flags(dirs: Iterable[Path]) -> list[str]:
    return [f"-I{d}" for d in dirs]


def our_graphs(dirs: list[Path]) -> dict[str, HeaderGraph]:
    ours = our_headers(dirs)
    sysdirs = system_dirs()
    flags = tuple(_include_flags(dirs))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        graphs = pool.map(lambda h: header_graph(ours[h], h, sysdirs, flags), sorted(ours))
        return dict(zip(sorted(ours), graphs, strict=True))


def _item_name(item: str) -> str:
    return item.split(":", 1)[1].split("(")[0].split("::")[-1]


def _tokens(dirs: list[Path], includes: list[str]) -> set[str]:
    source = "".join(f'#include "{h}"\n' for h in includes)
    flags = [CXX, "-std=c++17", "-x", "c++", "-E", *_include_flags(dirs), "-"]
    text = subprocess.run(flags, input=source, capture_output=True, text=True, check=True).stdout
    macros = subprocess.run(
        [*flags[:-1], "-dM", "-"], input=source, capture_output=True, text=True, check=True
    ).stdout
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    names.update(re.findall(r"^#define (\w+)", macros, re.MULTILINE))
    return names


def compile_checks(
    manifest: dict[str, Any], dirs: list[Path], graphs: dict[str, HeaderGraph], report: Report
) -> None:
    # Include every header of ours that compiles alone.
    includes = [h for h, g in graphs.items() if g.standalone]
    # Names that occur nowhere in our preprocessed headers (tokens, or macros defined) are absent:
    # their checks are left out, which keeps the compile to seconds (g++ looks for near-miss
    # spellings of every undeclared name).
    declared = _tokens(dirs, includes)
    builder = build(manifest)
    present = [(ns, c) for ns, c in builder.checks if _item_name(c.item) in declared]
    for item, header in {
        c.item: c.header for _, c in builder.checks if _item_name(c.item) not in declared
    }.items():
        report.absent.append(item)
        report.headers[item] = header
    builder.checks = present
    source, by_line = builder.source(includes)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cann_manifest_check.cpp"
        path.write_text(source)
        proc = subprocess.run(
            [CXX, "-std=c++17", "-fsyntax-only", "-w", "-fmax-errors=0", *_include_flags(dirs), str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
    errors: dict[int, list[str]] = {}
    for line in proc.stderr.splitlines():
        match = re.match(rf"^{re.escape(str(path))}:(\d+):\d+: error: (.*)$", line)
        if match:
            errors.setdefault(int(match.group(1)), []).append(match.group(2))
        elif " error: " in line and str(path) not in line:
            report.fatal.append(line)
    items: dict[str, list[tuple[Check, list[str]]]] = {}
    for number, check in by_line.items():
        items.setdefault(check.item, []).append((check, errors.get(number, [])))
    for item, checks in items.items():
        report.headers[item] = checks[0][0].header
        # `decltype(&f)` cannot name an overload set (C++ overloads or templates beside the C function):
        # the name exists, and the line of its exact type decides.
        exists = [
            [e for e in errs if "overloaded function" not in e] for c, errs in checks if c.facet == "exists"
        ]
        failed = [f"{c.facet}: {errs[0]}" for c, errs in checks if errs and c.facet != "exists"]
        if exists and exists[0] and any(_ABSENT.search(e) for e in exists[0]):
            report.absent.append(item)
        elif not exists and failed:
            # An overloaded name (C++ overloads beside the C function): an overload of ours with
            # another type is a different function, so a missing overload is an absence.
            report.absent.append(item)
        elif failed or (exists and exists[0]):
            report.differences[item] = failed or [f"exists: {exists[0][0]}"]
        else:
            report.identical.append(item)


def compare_graphs(manifest: dict[str, Any], graphs: dict[str, HeaderGraph], report: Report) -> None:
    ours = graphs
    for header, facts in manifest["headers"].items():
        if header not in ours:
            continue
        mine = graphs[header]
        item = f"include:{header}"
        report.headers[item] = header
        problems = []
        if not facts["direct_include"] and mine.standalone:
            problems.append("CANN refuses a direct include of this header (#error); ours accepts it")
        if facts["standalone"] and not mine.standalone:
            problems.append(f"does not compile alone: {mine.error}")
        if mine.standalone:
            missing_std = sorted(set(facts["visible_std"]) - mine.visible)
            if missing_std:
                problems.append("does not make visible " + ", ".join(missing_std))
            missing_tree = sorted(h for h in facts["includes"] if h in ours and h not in mine.tree)
            if missing_tree:
                problems.append("does not include " + ", ".join(missing_tree))
        if problems:
            report.differences[item] = problems
        else:
            report.identical.append(item)


def load_allowlist(path: Path = ALLOWLIST) -> dict[str, str]:
    data = tomllib.loads(path.read_text())
    allowed = {}
    for entry in data.get("allow", []):
        if not entry.get("reason") or entry.get("kind") not in ("mspti-extension", "cannot-honour"):
            raise SystemExit(f"{path}: {entry.get('item')}: each entry needs kind and reason")
        allowed[entry["item"]] = entry["reason"]
    return allowed


def run(
    manifest_path: Path = MANIFEST, dirs: Iterable[Path] = SHIPPED, allowlist: Path = ALLOWLIST
) -> Report:
    manifest = json.loads(manifest_path.read_text())
    dirs = [Path(d) for d in dirs]
    report = Report()
    graphs = our_graphs(dirs)
    compile_checks(manifest, dirs, graphs, report)
    compare_graphs(manifest, graphs, report)
    allowed = load_allowlist(allowlist)
    report.allowed = {k: v for k, v in allowed.items() if k in report.differences}
    return report


DOC_BEGIN = "<!-- cann-absent:begin (generated by tools/cann_manifest/check.py --absent-md) -->"
DOC_END = "<!-- cann-absent:end -->"


def absent_markdown(manifest: dict[str, Any], report: Report, ours: Iterable[str]) -> str:
    """The items CANN declares that the shipped headers do not, by header, as a Markdown table."""
    shipped = set(ours)
    counts: dict[str, dict[str, int]] = {}
    examples: dict[str, list[str]] = {}
    for item in sorted(report.absent):
        kind, name = item.split(":", 1)
        header = report.headers[item]
        group = {"function": "functions", "record": "types", "enum": "types", "typedef": "types"}.get(
            kind, "values"
        )
        counts.setdefault(header, {"functions": 0, "types": 0, "values": 0})[group] += 1
        if group == "functions" and len(examples.setdefault(header, [])) < 3:
            examples[header].append(f"`{name.split('(')[0]}`")
    lines = [
        DOC_BEGIN,
        "",
        "| CANN header | functions | types | values | e.g. | a program using them |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    total = {"functions": 0, "types": 0, "values": 0}
    for header in sorted(counts):
        c = counts[header]
        for k in total:
            total[k] += c[k]
        gets = (
            "does not compile: not declared in our header of that name"
            if header in shipped
            else "does not compile: the toolkit has no such header"
        )
        eg = ", ".join(examples.get(header, []))
        lines.append(f"| `{header}` | {c['functions']} | {c['types']} | {c['values']} | {eg} | {gets} |")
    lines.append(f"| all | {total['functions']} | {total['types']} | {total['values']} | | |")
    lines += ["", DOC_END]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--include", type=Path, action="append", help="a header folder (default: shipped)")
    parser.add_argument("--allowlist", type=Path, default=ALLOWLIST)
    parser.add_argument("-v", "--verbose", action="store_true", help="list absent items too")
    parser.add_argument(
        "--absent-md", action="store_true", help="print the table of absent items for docs/toolkit.md"
    )
    args = parser.parse_args(argv)
    if not args.manifest.is_file():
        parser.error(f"no manifest at {args.manifest}")
    missing = [d for d in args.include or () if not d.is_dir()]
    if missing:
        parser.error(f"--include {missing[0]} is not a folder")
    dirs = args.include or list(SHIPPED)
    report = run(args.manifest, dirs, args.allowlist)
    if args.absent_md:
        manifest = json.loads(args.manifest.read_text())
        print(absent_markdown(manifest, report, our_headers(dirs)), end="")
        return 0
    for line in report.fatal:
        print(f"error: {line}")
    for item, problems in sorted(report.differences.items()):
        tag = "allowed" if item in report.allowed else "DIFFERS"
        print(f"{tag} {item} ({report.headers[item]}): " + "; ".join(problems))
    if args.verbose:
        for item in report.absent:
            print(f"absent {item}")
    print(
        f"{len(report.identical)} identical, {len(report.differences)} different "
        f"({len(report.allowed)} allowed), {len(report.absent)} absent"
    )
    return 1 if report.failures or report.fatal else 0


if __name__ == "__main__":
    sys.exit(main())
