"""Every module the wheel installs imports only the standard library, the project's own packages and
the runtime dependencies the installed distribution declares (extras only where the module is the
extra's entry point), so that the README's plain `pip install .` runs every installed command."""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest

import conformance
import mspti_base
import mspti_core
import mspti_trace
import sim_runtime

DISTRIBUTION = "mspti-sim"
OWN = {"mspti_base", "sim_runtime", "mspti_core", "mspti_trace", "conformance", "mspti"}
#: Modules that may import an extra's packages: the extra named here must declare them.
EXTRA_MODULES = {"conformance/pytest_plugin.py": "pytest"}
#: Programs the package runs in a process of their own only where their packages are installed (the
#: benchmark checks first and says what to install): the packages they may import.
PROGRAM_IMPORTS = {"sim_runtime/bench/programs/training_step.py": {"torch", "torch_npu"}}
#: Import names whose distribution has another name.
DISTRIBUTION_OF = {"yaml": "pyyaml"}


def _declared() -> tuple[set[str], dict[str, set[str]]]:
    """(runtime requirement names, extra -> requirement names) from the installed metadata."""
    runtime: set[str] = set()
    extras: dict[str, set[str]] = {}
    for requirement in metadata.requires(DISTRIBUTION) or []:
        name = re.match(r"[A-Za-z0-9_.\-]+", requirement)
        assert name is not None, requirement
        normalized = name.group(0).lower().replace("_", "-")
        extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", requirement)
        if extra:
            extras.setdefault(extra.group(1), set()).add(normalized)
        else:
            runtime.add(normalized)
    return runtime, extras


def _top_level_imports(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _installed_modules() -> list[tuple[str, Path]]:
    modules = []
    for package in (mspti_base, sim_runtime, mspti_core, mspti_trace, conformance):
        for root in {Path(entry).resolve() for entry in package.__path__}:
            for path in sorted(root.rglob("*.py")):
                modules.append((f"{root.name}/{path.relative_to(root).as_posix()}", path))
    return modules


def test_the_installed_distribution_declares_numpy() -> None:
    runtime, _ = _declared()
    assert "numpy" in runtime, f"numpy is imported by mspti_trace but not declared: {sorted(runtime)}"


def test_every_installed_module_imports_only_declared_packages() -> None:
    runtime, extras = _declared()
    modules = _installed_modules()
    assert len(modules) > 50, "the installed packages were not found"
    undeclared: list[str] = []
    for name, path in modules:
        allowed = runtime | extras.get(EXTRA_MODULES.get(name, ""), set())
        for imported in _top_level_imports(path.read_text(encoding="utf-8")):
            if imported in sys.stdlib_module_names or imported in OWN:
                continue
            if imported in PROGRAM_IMPORTS.get(name, set()):
                continue
            if DISTRIBUTION_OF.get(imported, imported).lower().replace("_", "-") not in allowed:
                undeclared.append(f"{name} imports {imported}")
    assert not undeclared, "imports missing from the runtime dependencies: " + "; ".join(undeclared)


def test_the_scanner_reads_absolute_imports_only() -> None:
    assert _top_level_imports("import numpy as np\nfrom yaml import safe_load\nfrom . import x\n") == {
        "numpy",
        "yaml",
    }


@pytest.mark.parametrize("extra", sorted(set(EXTRA_MODULES.values())))
def test_each_extra_is_declared(extra: str) -> None:
    _, extras = _declared()
    assert extra in extras, f"extra [{extra}] is not declared by {DISTRIBUTION}"


def test_the_conformance_plugin_is_a_pytest11_entry_point() -> None:
    points = metadata.entry_points(group="pytest11")
    modules = {point.value for point in points if point.dist is not None and point.dist.name == DISTRIBUTION}
    assert modules == {"conformance.pytest_plugin"}
