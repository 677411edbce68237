"""Every package of the installed distribution ships ``py.typed`` (PEP 561), so that type checkers read
its annotations instead of treating it as untyped."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

DISTRIBUTION = "mspti-sim"
ROOT = Path(__file__).resolve().parents[2]
#: The vendor-compatible ``mspti`` package that a simulated toolkit links as python/site-packages/mspti.
TOOLKIT_PACKAGE = "mspti_core/toolkit_site/mspti"


def _wheel_packages() -> list[str]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return list(tomllib.load(handle)["tool"]["scikit-build"]["wheel"]["packages"])


def _installed_files() -> dict[str, Path]:
    files = metadata.files(DISTRIBUTION) or []
    return {file.as_posix(): Path(str(file.locate())) for file in files}


@pytest.mark.parametrize("package", [*_wheel_packages(), TOOLKIT_PACKAGE])
def test_the_installed_package_has_py_typed(package: str) -> None:
    installed = _installed_files()
    assert any(name.endswith("/__init__.py") for name in installed), f"{DISTRIBUTION} lists no files"
    marker = f"{package}/py.typed"
    assert marker in installed, f"{marker} is not in the installed {DISTRIBUTION}"
    assert installed[marker].is_file()
