"""Which Python package the PY scenarios import, and what the runner does without one."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conformance.catalogue import load_catalogue
from conformance.python_target import PythonPackage, find_python_package
from conformance.runner import RunOptions, SuiteRunner
from conformance.target import Target

#: These tests describe a host without the vendor's package (an Ascend host has it).
_VENDOR = importlib.util.find_spec("mspti")  # tests/mspti is a namespace package, not the vendor's
no_vendor_package = pytest.mark.skipif(
    _VENDOR is not None and _VENDOR.origin is not None, reason="the vendor's mspti package is installed"
)


def build_tree_target(root: Path, kind: str = "sim", native: bool = True) -> Target:
    lib64 = root / "lib64"
    lib64.mkdir(parents=True)
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
