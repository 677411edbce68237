"""examples/hccl_allreduce: a CANN-style HCCL program, linked like CANN samples (-lascendcl -lhccl)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from support.hccl import CANN_COMM_NAME
from support.native import NativeTree, ProgramBuilder, run_program

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "hccl_allreduce"


@pytest.fixture(scope="module")
def example_exe(programs: ProgramBuilder) -> Path:
    # Only libascendcl and libhccl: the communicator API must resolve from libhccl alone.
    return programs.build([EXAMPLE / "main.cpp"], libs=["ascendcl", "hccl"])


def check_output(result: subprocess.CompletedProcess[str], ranks: int) -> None:
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    lines = result.stdout.splitlines()
    assert lines[-1] == "hccl_allreduce: OK"
    correct = sorted(line.split(":")[0] for line in lines if line.endswith(": correct"))
    assert correct == sorted(f"rank {r}" for r in range(ranks))
    names = {line.split(" in ")[1].rsplit(": ", 1)[0] for line in lines if line.endswith(": correct")}
    assert len(names) == 1 and CANN_COMM_NAME.fullmatch(names.pop())


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_eight_ranks_as_threads(example_exe: Path, native: NativeTree, clock: str) -> None:
    check_output(run_program(example_exe, native.env(NPU_SIM_CLOCK=clock, NPU_SIM_DEVICES="8")), 8)


def test_eight_ranks_as_processes(example_exe: Path, native: NativeTree) -> None:
    result = run_program(example_exe, native.env(NPU_SIM_CLOCK="virtual"), ["--processes", "8", "65536"])
    check_output(result, 8)


def test_sixteen_ranks_on_an_a3_server(example_exe: Path, native: NativeTree) -> None:
    env = native.env(NPU_SIM_SOC="Ascend910_9382", NPU_SIM_DEVICES="16", NPU_SIM_CLOCK="virtual")
    check_output(run_program(example_exe, env, ["16", "4096"]), 16)


def sanitizer_flags() -> list[str]:
    sanitize = os.environ.get("NPU_SIM_TEST_SANITIZE", "")
    return [f"-fsanitize={sanitize}"] if sanitize else []


def test_build_script_with_the_toolkit_flags(native: NativeTree, tmp_path: Path) -> None:
    home = tmp_path / "ascend"
    home.mkdir()
    (home / "include").symlink_to(native.include_dirs[0])
    (home / "lib64").symlink_to(native.sim_lib64)
    work = tmp_path / "hccl_allreduce"
    shutil.copytree(EXAMPLE, work)
    lib64 = home / "lib64"
    # The flags `npu-sim env` exports (ASCEND_CFLAGS / ASCEND_LDFLAGS), in CANN sample order.
    ldflags = [
        *sanitizer_flags(),
        f"-L{lib64}",
        f"-Wl,-rpath,{lib64}",
        *(
            f"-l{name}"
            for name in ("ascendcl", "nnopbase", "opapi", "hccl", "profapi", "ascend_hal", "ascendalog")
        ),
    ]
    env = native.env(
        ASCEND_HOME_PATH=str(home), ASCEND_CFLAGS=f"-I{home / 'include'}", ASCEND_LDFLAGS=" ".join(ldflags)
    )
    env.pop("LD_PRELOAD", None)  # the compiler runs without the sanitizer runtime a test run may preload
    built = subprocess.run(["bash", str(work / "build.sh")], env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    check_output(run_program(work / "hccl_allreduce", native.env(NPU_SIM_CLOCK="virtual"), ["8", "1024"]), 8)
