"""The Python msPTI package the PY scenarios import, and how a driver process finds it.

The PY clauses grade a Python monitor package together with the library under test:

* on the simulator, this project's ``mspti_core`` (it loads the target's ``libmspti.so`` by path);
* on an Ascend host, the vendor's ``mspti`` package (it links the ``libmspti.so`` it was built for,
  found through the target's library path).

``--python-package auto`` (the default) picks by target kind; ``mspti_core`` or ``mspti`` forces one.
A package that cannot be found leaves the feature ``python`` out, so the PY clauses are skipped
with that reason rather than failed.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from conformance.target import Target

__all__ = ["PACKAGES", "PythonPackage", "find_python_package"]

PACKAGES: tuple[str, ...] = ("auto", "mspti_core", "mspti")
_SUITE_ROOT = Path(__file__).resolve().parents[1]  # the directory holding the conformance package


@dataclass(frozen=True)
class PythonPackage:
    """The package a PY driver imports and the environment that makes it importable."""

    name: str
    env: Mapping[str, str] = field(default_factory=dict)
    description: str = ""


def _native_in(directory: Path) -> Path | None:
    matches = sorted(directory.glob("_mspti*.so")) if directory.is_dir() else []
    return matches[0] if matches else None


def _mspti_core(target: Target) -> PythonPackage | str:
    """Our package: from a build tree (sources beside the suite, native module in ``python/``) or
    installed."""
    env = {"MSPTI_CORE_LIBRARY": str(target.preload_path)}
    for lib_dir in target.lib_dirs:
        native = _native_in(lib_dir.parent / "python" / "mspti_core")
        source = _SUITE_ROOT / "mspti_core" / "__init__.py"
        if native is not None and source.is_file():
            env["MSPTI_CONFORMANCE_PY_NATIVE"] = str(native)
            return PythonPackage("mspti_core", env, f"mspti_core from {source.parent} with {native}")
    spec = importlib.util.find_spec("mspti_core")
    if spec is None or spec.origin is None:
        return "the Python package mspti_core is not installed"
    package_dir = Path(spec.origin).parent
    if _native_in(package_dir) is None:
        return f"mspti_core at {package_dir} has no native module (_mspti); install the project or build it"
    return PythonPackage("mspti_core", env, f"mspti_core at {package_dir}")


def _vendor(_target: Target) -> PythonPackage | str:
    spec = importlib.util.find_spec("mspti")
    if spec is None or spec.origin is None:
        return "the vendor's Python package mspti is not importable (install the CANN toolkit's msPTI wheel)"
    return PythonPackage("mspti", {}, f"mspti at {Path(spec.origin).parent}")


def find_python_package(target: Target, choice: str = "auto") -> PythonPackage | str:
    """The package for ``target`` (``choice`` one of PACKAGES), or why there is none."""
    if choice not in PACKAGES:
        raise ValueError(f"unknown Python package {choice!r}; expected one of {', '.join(PACKAGES)}")
    name = choice if choice != "auto" else ("mspti_core" if target.is_simulator else "mspti")
    found = _mspti_core(target) if name == "mspti_core" else _vendor(target)
    if isinstance(found, str):
        return found
    env = dict(found.env)
    env["MSPTI_CONFORMANCE_PY_PACKAGE"] = found.name
    env["PYTHONPATH"] = os.pathsep.join(
        part for part in (str(_SUITE_ROOT), os.environ.get("PYTHONPATH", "")) if part
    )
    return PythonPackage(found.name, env, found.description)
