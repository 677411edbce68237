"""A source checkout in the current folder defers to the installed package (mspti_base/checkout.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mspti_base.checkout import prefer_installed
from support.native import NativeTree, python_subprocess_env

REPO = Path(__file__).resolve().parents[2]


def make_package(root: Path, *, compiled: bool) -> Path:
    package = root / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    if compiled:
        (package / "_native.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    return package


def test_a_checkout_without_the_compiled_part_puts_the_installed_copy_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout = make_package(tmp_path / "checkout", compiled=False)
    installed = make_package(tmp_path / "site-packages", compiled=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "checkout"), str(tmp_path / "site-packages")])
    assert prefer_installed("pkg", [str(checkout)], "_native*.so") == [
        str(installed.resolve()),
        str(checkout),
    ]


def test_a_built_package_keeps_its_own_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = make_package(tmp_path / "a", compiled=True)
    make_package(tmp_path / "b", compiled=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "a"), str(tmp_path / "b")])
    assert prefer_installed("pkg", [str(built)], "_native*.so") == [str(built)]


def test_without_an_installed_copy_nothing_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkout = make_package(tmp_path / "checkout", compiled=False)
    monkeypatch.setattr(sys, "path", ["", str(tmp_path / "checkout"), str(tmp_path / "missing")])
    assert prefer_installed("pkg", [str(checkout)], "_native*.so") == [str(checkout)]


def test_python_dash_m_in_the_repository_root_uses_the_installed_packages(native: NativeTree) -> None:
    if native.sim_lib64 == native.mspti_lib64:
        pytest.skip("NPU_SIM_BUILD_DIR: the packages are not installed")
    env = python_subprocess_env(native.env())
    env.pop("PYTHONPATH", None)  # only what Python itself puts on sys.path: the current folder first
    script = (
        "import sys, mspti_core, mspti_core._mspti, sim_runtime.paths as p;"
        "print(mspti_core.__path__[0]); print(p.sim_root())"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    package_dir, sim_root = result.stdout.split()
    assert Path(package_dir) == native.mspti_lib64.parent
    assert Path(sim_root) == native.sim_lib64.parent
