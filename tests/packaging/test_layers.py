"""The Python packages import only downwards through their layers, and nothing forms a cycle.

Every ``import`` and ``from ... import`` of every module counts, at module level or inside a function
(docs/architecture.md, "Layers"). Packages, bottom first: ``mspti_base`` (the record schema of the
C ABI, the source checkout's deferral), ``mspti_core`` (monitors),
``mspti_trace`` (trace tools), ``sim_runtime`` (the simulated CANN and its tooling), ``conformance``
(the suite, run against the simulator or real CANN); above them the tests' shared helpers
(``tests/support``), which no package imports. Inside ``conformance`` and ``tests/support`` the
first-level modules and subpackages form no cycle either.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
#: The packages from the bottom layer up: a package may import only those before it.
LAYERS: tuple[str, ...] = ("mspti_base", "mspti_core", "mspti_trace", "sim_runtime", "conformance")
#: The tests' shared helpers (tests/support, imported as ``support``): above every package, so they
#: may import any of them and no package may import them.
HELPERS = "support"
#: Everything scanned, bottom first, and the folder each top-level name's modules are under.
SCANNED: tuple[str, ...] = (*LAYERS, HELPERS)
_SOURCE_ROOT = {**{package: ROOT for package in LAYERS}, HELPERS: ROOT / "tests"}


@dataclass(frozen=True)
class Import:
    """One import statement's target inside the project's packages."""

    module: str  # the importing module, dotted
    path: str  # its file, relative to the repository root
    line: int
    target: str  # the imported module, dotted and absolute

    def __str__(self) -> str:
        return f"{self.path}:{self.line} imports {self.target}"


def _module_name(path: Path, root: Path = ROOT) -> tuple[str, bool]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def _is_module(name: str) -> bool:
    path = _SOURCE_ROOT.get(name.split(".")[0], ROOT).joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(
    source: str, module: str, is_package: bool, path: str, is_module: Callable[[str], bool] = _is_module
) -> list[Import]:
    """The imports of one module's source into the project's packages (relative ones resolved)."""
    found: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join([*base, node.module] if node.module else base)
            else:
                prefix = node.module or ""
            # ``from package import submodule`` depends on the submodule as well as the package.
            names = (f"{prefix}.{alias.name}" for alias in node.names)
            targets = [prefix, *(name for name in names if is_module(name))]
        for target in targets:
            if target.split(".")[0] in SCANNED:
                found.append(Import(module, path, node.lineno, target))
    return found


@cache
def project_imports() -> tuple[Import, ...]:
    found: list[Import] = []
    for package in SCANNED:
        root = _SOURCE_ROOT[package]
        for path in sorted((root / package).rglob("*.py")):
            module, is_package = _module_name(path, root)
            source = path.read_text(encoding="utf-8")
            found += imports_of(source, module, is_package, path.relative_to(ROOT).as_posix())
    return tuple(found)


def cycles(edges: Mapping[tuple[str, str], list[Import]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for source, target in edges:
        graph.setdefault(source, set()).add(target)
        graph.setdefault(target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def _edges(
    imports: Iterable[Import], unit_depth: int, within: str | None
) -> dict[tuple[str, str], list[Import]]:
    """Imports grouped by (importing unit, imported unit); a unit is the first ``unit_depth`` name parts."""
    edges: dict[tuple[str, str], list[Import]] = {}
    for item in imports:
        source = item.module.split(".")
        target = item.target.split(".")
        if within is not None and (source[0] != within or target[0] != within):
            continue
        if len(source) < unit_depth or len(target) < unit_depth:
            continue  # the package's own __init__ or an import of the package itself
        source_unit = ".".join(source[:unit_depth])
        target_unit = ".".join(target[:unit_depth])
        if source_unit != target_unit:
            edges.setdefault((source_unit, target_unit), []).append(item)
    return edges


def _describe(components: list[list[str]], edges: Mapping[tuple[str, str], list[Import]]) -> str:
    lines: list[str] = []
    for component in components:
        lines.append("cycle among " + ", ".join(component) + ":")
        members = set(component)
        for (source, target), items in sorted(edges.items()):
            if source in members and target in members:
                lines += [f"  {item}" for item in items]
    return "\n".join(lines)


def test_the_layers_are_the_wheels_packages() -> None:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        packages = tomllib.load(handle)["tool"]["scikit-build"]["wheel"]["packages"]
    assert sorted(packages) == sorted(LAYERS), "give every package of the wheel its place in LAYERS"


def test_no_import_goes_up_a_layer() -> None:
    imports = project_imports()
    assert len(imports) > 300, "the packages' imports were not found"
    rank = {package: position for position, package in enumerate(SCANNED)}
    upward = [
        str(item) + f" ({item.target.split('.')[0]} is above {item.module.split('.')[0]})"
        for item in imports
        if rank[item.target.split(".")[0]] > rank[item.module.split(".")[0]]
    ]
    assert not upward, "imports going up a layer:\n" + "\n".join(upward)


def test_no_cycle_between_packages() -> None:
    edges = _edges(project_imports(), 1, None)
    assert not cycles(edges), _describe(cycles(edges), edges)


def test_the_tests_helpers_are_scanned_and_form_no_cycle() -> None:
    imports = project_imports()
    helpers = [item for item in imports if item.module.split(".")[0] == HELPERS]
    assert any(item.target.split(".")[0] in LAYERS for item in helpers), "tests/support's imports not found"
    edges = _edges(imports, 2, HELPERS)
    assert not cycles(edges), _describe(cycles(edges), edges)


def test_no_cycle_between_the_parts_of_conformance() -> None:
    edges = _edges(project_imports(), 2, "conformance")
    assert edges, "conformance's imports were not found"
    assert not cycles(edges), _describe(cycles(edges), edges)


def test_the_scanner_resolves_relative_and_function_level_imports() -> None:
    source = "from . import sibling\n\ndef f():\n    from ..other import thing\n    import conformance.log\n"
    modules = {"mspti_trace.sub.sibling"}
    found = imports_of(source, "mspti_trace.sub.mod", False, "mspti_trace/sub/mod.py", modules.__contains__)
    assert [(item.line, item.target) for item in found] == [
        (1, "mspti_trace.sub"),
        (1, "mspti_trace.sub.sibling"),
        (4, "mspti_trace.other"),
        (5, "conformance.log"),
    ]


def test_the_cycle_finder_names_the_imports_of_a_cycle() -> None:
    def edge(source: str, target: str) -> tuple[tuple[str, str], list[Import]]:
        return (source, target), [Import(source, f"{source}.py", 1, target)]

    edges = dict([edge("a", "b"), edge("b", "c"), edge("c", "a"), edge("c", "d")])
    assert cycles(edges) == [["a", "b", "c"]]
    assert "c.py:1 imports a" in _describe(cycles(edges), edges)
    assert "imports d" not in _describe(cycles(edges), edges)
