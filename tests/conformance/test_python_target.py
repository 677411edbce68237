"""Which Python package the PY scenarios import, and what the runner does without one."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conformance.catalogue import load_catalogue
from conformance.python_target import PythonPackage, find_python_package
from conformance.runner import RunOptions, SuiteRunner
from conformance.target import Target
from support.fake_mspti import build_fake_mspti

#: These tests describe a host without the vendor's package (an Ascend host has it).
_VENDOR = importlib.util.find_spec("mspti")  # tests/mspti is a namespace package, not the vendor's
no_vendor_package = pytest.mark.skipif(
    _VENDOR is not None and _VENDOR.origin is not None, reason="the vendor's mspti package is installed"
)


def build_tree_target(root: Path, kind: str = "sim", native: bool = True, own: bool = True) -> Target:
    """A build tree whose libmspti.so is a fake of ours (``own``) or of a foreign library."""
    lib64 = root / "lib64"
    build_fake_mspti(lib64, ext=own)
    if native:
        package = root / "python" / "mspti_core"
        package.mkdir(parents=True)
        (package / "_mspti.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    include = root / "include"
    (include / "mspti").mkdir(parents=True)
    (include / "mspti" / "mspti.h").write_text("/* stand-in */\n", encoding="utf-8")
    return Target(kind, lib64 / "libmspti.so", root / "alias", (include,), (root / "alias", lib64), {})


def test_a_build_tree_serves_mspti_core_with_its_native_module(tmp_path: Path) -> None:
    found = find_python_package(build_tree_target(tmp_path))
    assert isinstance(found, PythonPackage) and found.name == "mspti_core"
    assert found.env["MSPTI_CONFORMANCE_PY_PACKAGE"] == "mspti_core"
    assert found.env["MSPTI_CONFORMANCE_PY_NATIVE"].endswith(".so")
    assert found.env["MSPTI_CORE_LIBRARY"] == str(tmp_path / "alias" / "libmspti.so")


@no_vendor_package
def test_auto_picks_the_vendor_package_on_hardware(tmp_path: Path) -> None:
    found = find_python_package(build_tree_target(tmp_path, kind="hardware"))
    # The vendor's package is not installed here: a reason, never a silent fallback to ours.
    assert isinstance(found, str) and "mspti" in found


def test_unknown_choice_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown Python package"):
        find_python_package(build_tree_target(tmp_path), "torch")


@no_vendor_package
def test_py_clauses_skip_with_the_reason_when_there_is_no_package(tmp_path: Path) -> None:
    target = build_tree_target(tmp_path, kind="hardware")
    options = RunOptions(report_dir=tmp_path / "report", python_package="mspti")
    runner = SuiteRunner(load_catalogue(), target, options)
    result = runner._static_verdict(runner.catalogue.get("PY-IMPORT-01"))
    assert result is not None and result.verdict == "skip"
    assert "python" in result.reason and "not importable" in result.reason
    with_package = SuiteRunner(load_catalogue(), build_tree_target(tmp_path / "sim"), RunOptions())
    assert "python" in with_package.features
    assert with_package._static_verdict(with_package.catalogue.get("PY-IMPORT-01")) is None


@no_vendor_package
def test_auto_never_grades_mspti_core_over_a_foreign_library(tmp_path: Path) -> None:
    found = find_python_package(build_tree_target(tmp_path, own=False))
    # No vendor package here: the PY clauses are not graded, and the reason says why.
    assert isinstance(found, str)
    assert "is not this project's libmspti (no msptiActivityGetDroppedRecords)" in found
    assert "vendor's Python package mspti is not importable" in found
    # Forcing mspti_core still grades it.
    forced = find_python_package(build_tree_target(tmp_path / "forced", own=False), "mspti_core")
    assert isinstance(forced, PythonPackage) and forced.name == "mspti_core"


def test_auto_rejects_our_own_mspti_adapter_as_the_vendor_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site" / "mspti_core" / "toolkit_site"
    (site / "mspti").mkdir(parents=True)
    (site / "mspti" / "__init__.py").write_text('"""adapter"""\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    found = find_python_package(build_tree_target(tmp_path / "tree", own=False))
    assert isinstance(found, str) and "this project's adapter over mspti_core" in found
    vendor = tmp_path / "vendor_site"
    (vendor / "mspti").mkdir(parents=True)
    (vendor / "mspti" / "__init__.py").write_text('"""vendor"""\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(vendor))
    found = find_python_package(build_tree_target(tmp_path / "tree2", own=False))
    assert isinstance(found, PythonPackage) and found.name == "mspti"
    assert found.description == f"mspti at {vendor / 'mspti'}"
