"""The Python msPTI package the PY scenarios import, and how a driver process finds it.

The PY clauses grade a Python monitor package together with the library under test:

* on the simulator, this project's ``mspti_core`` (it loads the target's ``libmspti.so`` by path);
* on an Ascend host, the vendor's ``mspti`` package (it links the ``libmspti.so`` it was built for,
  found through the target's library path).

``--python-package auto`` (the default) grades ``mspti_core`` only where it belongs: on the simulator
with this project's library. Any other library (``--mspti`` naming the vendor's, or a hardware
target) is graded with the vendor's ``mspti`` package, and never with this project's own ``mspti``
(the adapter over mspti_core that the simulated toolkit puts on ``PYTHONPATH``): ``mspti_core`` over a
foreign library would grade our package, not the library's. ``mspti_core`` or ``mspti`` forces one.

A library is this project's when it exports ``msptiActivityGetDroppedRecords``, the mspti_ext.h
extension the suite's ABI probe already reports (:data:`conformance.abi_probe.INFORMATIONAL_SYMBOLS`)
and the vendor's library lacks. The symbol is looked up with dlopen/dlsym in a child process, so a
library that crashes when loaded cannot take the suite down with it.

A package that cannot be found leaves the feature ``python`` out, so the PY clauses are skipped
with that reason rather than failed.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from conformance.target import Target

__all__ = ["OWN_LIBRARY_SYMBOL", "PACKAGES", "PythonPackage", "find_python_package", "is_own_library"]

PACKAGES: tuple[str, ...] = ("auto", "mspti_core", "mspti")
_SUITE_ROOT = Path(__file__).resolve().parents[1]  # the directory holding the conformance package
#: The extension symbol that marks a libmspti.so as this project's (see the module docstring).
OWN_LIBRARY_SYMBOL = "msptiActivityGetDroppedRecords"
#: The child ends with os._exit once it has answered: a library whose teardown hangs must not hold it.
_HAS_SYMBOL = (
    "import ctypes, os, sys; print(hasattr(ctypes.CDLL(sys.argv[1]), sys.argv[2]), flush=True); os._exit(0)"
)


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


def is_own_library(target: Target) -> bool:
    """True when the library under test exports :data:`OWN_LIBRARY_SYMBOL` (False when it cannot even
    be loaded: then it is graded as a foreign library)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _HAS_SYMBOL, str(target.mspti), OWN_LIBRARY_SYMBOL],
            env=target.env(preload=False),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    # Judged by what the child printed, not its exit status: under a sanitizer runtime (preloaded by
    # target.env) the interpreter's own leaks can fail the exit after the answer was printed.
    return done.stdout.split()[:1] == ["True"]


def _is_own_adapter(package_dir: Path) -> bool:
    """True for this project's ``mspti`` package (``mspti_core/toolkit_site/mspti``, in the source
    tree or installed), which the simulated toolkit links as ``python/site-packages/mspti``."""
    resolved = package_dir.resolve()
    return resolved.parent.name == "toolkit_site" and resolved.parent.parent.name == "mspti_core"


def _vendor(_target: Target, *, foreign_only: bool = False) -> PythonPackage | str:
    spec = importlib.util.find_spec("mspti")
    if spec is None or spec.origin is None:
        return "the vendor's Python package mspti is not importable (install the CANN toolkit's msPTI wheel)"
    package_dir = Path(spec.origin).parent
    if foreign_only and _is_own_adapter(package_dir):
        return (
            f"the importable mspti ({package_dir}) is this project's adapter over mspti_core, not the "
            "vendor's package; put the vendor's mspti on PYTHONPATH to grade it"
        )
    return PythonPackage("mspti", {}, f"mspti at {package_dir}")


def find_python_package(target: Target, choice: str = "auto") -> PythonPackage | str:
    """The package for ``target`` (``choice`` one of PACKAGES), or why there is none."""
    if choice not in PACKAGES:
        raise ValueError(f"unknown Python package {choice!r}; expected one of {', '.join(PACKAGES)}")
    if choice == "auto":
        own = target.is_simulator and is_own_library(target)
        found = _mspti_core(target) if own else _vendor(target, foreign_only=True)
        if isinstance(found, str) and target.is_simulator and not own:
            found = f"{target.mspti} is not this project's libmspti (no {OWN_LIBRARY_SYMBOL}): {found}"
    else:
        found = _mspti_core(target) if choice == "mspti_core" else _vendor(target)
    if isinstance(found, str):
        return found
    env = dict(found.env)
    env["MSPTI_CONFORMANCE_PY_PACKAGE"] = found.name
    env["PYTHONPATH"] = os.pathsep.join(
        part for part in (str(_SUITE_ROOT), os.environ.get("PYTHONPATH", "")) if part
    )
    return PythonPackage(found.name, env, found.description)
