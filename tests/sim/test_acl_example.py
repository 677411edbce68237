"""examples/acl_basic: a program written only against the CANN headers, on every SoC of the catalogue."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program, without_sanitizer_runtime

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "acl_basic"
SOC_NAMES = sorted(
    tomllib.loads((REPO / "sim_runtime" / "data" / "socs.toml").read_text(encoding="utf-8"))["soc"]
)


@pytest.fixture(scope="module")
def example_exe(programs: ProgramBuilder) -> Path:
    return programs.build([EXAMPLE / "main.cpp"], libs=["ascendcl"])


def check_output(result: subprocess.CompletedProcess[str], soc: str) -> None:
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert result.stdout.splitlines()[-1] == "acl_basic: OK"
    assert f"SoC {soc}," in result.stdout


@pytest.mark.parametrize("soc", SOC_NAMES)
def test_example_runs_on_every_soc(example_exe: Path, native: NativeTree, soc: str) -> None:
    result = run_program(example_exe, native.env(NPU_SIM_SOC=soc, NPU_SIM_CLOCK="virtual"))
    check_output(result, soc)


def test_example_on_the_wall_clock_and_another_device(example_exe: Path, native: NativeTree) -> None:
    result = run_program(example_exe, native.env(NPU_SIM_SOC="Ascend910B3", NPU_SIM_CLOCK="wall"), ["3"])
    check_output(result, "Ascend910B3")
    assert "device 3:" in result.stdout


def test_example_fails_loudly_on_a_bad_device(example_exe: Path, native: NativeTree) -> None:
    result = run_program(example_exe, native.env(NPU_SIM_DEVICES="2"), ["5"])
    assert result.returncode != 0
    assert "aclrtSetDevice(device_id) failed with 107001" in result.stderr


@pytest.fixture()
def toolkit(native: NativeTree, tmp_path: Path) -> Path:
    """A CANN-like ASCEND_HOME_PATH (include/ and lib64/) over the tree under test."""
    home = tmp_path / "ascend"
    home.mkdir()
    (home / "include").symlink_to(native.include_dirs[0])
    (home / "lib64").symlink_to(native.sim_lib64)
    return home


def sanitizer_flags() -> list[str]:
    """The sanitizer the native tree was built with must also be linked into the example."""
    sanitize = os.environ.get("NPU_SIM_TEST_SANITIZE", "")
    return [f"-fsanitize={sanitize}"] if sanitize else []


def test_build_script(native: NativeTree, toolkit: Path, tmp_path: Path) -> None:
    work = tmp_path / "acl_basic"
    shutil.copytree(EXAMPLE, work)
    env = native.env(ASCEND_HOME_PATH=str(toolkit))
    if sanitizer_flags():
        env["ASCEND_LDFLAGS"] = " ".join([*sanitizer_flags(), f"-L{toolkit}/lib64", "-lascendcl"])
    built = subprocess.run(
        ["bash", str(work / "build.sh")], env=without_sanitizer_runtime(env), capture_output=True, text=True
    )
    assert built.returncode == 0, built.stdout + built.stderr
    check_output(run_program(work / "acl_basic", native.env(NPU_SIM_CLOCK="virtual")), "Ascend910B3")


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_cmake_build(native: NativeTree, toolkit: Path, tmp_path: Path) -> None:
    env = native.env(ASCEND_HOME_PATH=str(toolkit))
    build = tmp_path / "build"
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    flags = [f"-DCMAKE_CXX_FLAGS={' '.join(sanitizer_flags())}"] if sanitizer_flags() else []
    configure = ["cmake", "-S", str(EXAMPLE), "-B", str(build), *generator, *flags]
    for cmd in (configure, ["cmake", "--build", str(build)]):
        step = subprocess.run(
            cmd, env=without_sanitizer_runtime({**os.environ, **env}), capture_output=True, text=True
        )
        assert step.returncode == 0, step.stdout + step.stderr
    check_output(run_program(build / "acl_basic", native.env(NPU_SIM_CLOCK="virtual")), "Ascend910B3")
