"""Fixtures of the mspti_core tests.

msPTI state is process-global, so everything that loads an msPTI library runs in a child Python
process: a test writes the workload as a script, runs it with ``run_child`` and reads back what the
script reported (``fakelib.report`` / ``report`` lines: ``RESULT <json>``).

Two kinds of library serve: the stand-in ``fake_mspti.cpp`` (records made on demand, no device
model: delivery, errors, ranges, threads), and our real libmspti.so on the simulator (ground truth
from real workloads). Tests of the second kind skip when that library is not built.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from support.child_python import ChildRun, run_python
from support.native import NativeTree, ProgramBuilder, python_subprocess_env

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def child_env(base: dict[str, str]) -> dict[str, str]:
    """``base`` plus what a child Python needs to import the packages under test; the preload list
    of ``base`` (sanitizer runtime, msPTI) is kept as it is."""
    env = python_subprocess_env(base)
    if "LD_PRELOAD" in base:
        env["LD_PRELOAD"] = base["LD_PRELOAD"]
    return env


def _sanitizer_flags() -> list[str]:
    sanitize = os.environ.get("NPU_SIM_TEST_SANITIZE", "")
    return [f"-fsanitize={sanitize}"] if sanitize else []


@pytest.fixture(scope="session")
def fake_mspti(programs: ProgramBuilder) -> Path:
    """The stand-in msPTI library."""
    # Named like msPTI (soname libmspti.so) so that a preloaded copy is recognised as one.
    return programs.build(
        [FIXTURES / "fake_mspti.cpp"],
        [],
        ["-shared", "-fPIC", "-Wl,-soname,libmspti.so", *_sanitizer_flags()],
    )


@pytest.fixture(scope="session")
def mstx_shim(programs: ProgramBuilder) -> Path:
    """The mstx front end compiled into a library (shim_mark, shim_range_start, ...)."""
    return programs.build([FIXTURES / "mstx_shim.c"], [], ["-shared", "-fPIC", *_sanitizer_flags()])


@pytest.fixture
def run_child(tmp_path: Path):
    """Runs a script (as given) in a child Python with the environment given."""

    def run(script: str, env: dict[str, str], timeout: float = 120.0) -> ChildRun:
        return run_python(script, env, tmp_path, timeout)

    return run


@pytest.fixture
def fake_env(native: NativeTree, fake_mspti: Path) -> dict[str, str]:
    """A child environment that loads the stand-in library (and can import fixtures/fakelib.py)."""
    env = child_env(native.env(preload_mspti=False))
    env["MSPTI_CORE_LIBRARY"] = str(fake_mspti)
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(FIXTURES)])
    env.pop("FAKE_MSPTI_NO_PRELOAD", None)
    return env


@pytest.fixture
def run_fake(fake_env: dict[str, str], tmp_path: Path):
    """Runs a script against the stand-in library; the script starts with ``from fakelib import *``."""

    def run(script: str, timeout: float = 120.0, **env_overrides: str) -> ChildRun:
        env = dict(fake_env)
        env.update(env_overrides)
        prelude = "from fakelib import *\nimport mspti_core\nfrom mspti_core import *\n"
        return run_python(prelude + textwrap.dedent(script), env, tmp_path, timeout)

    return run


def _real_mspti_problem(native: NativeTree) -> str | None:
    """Why our libmspti.so cannot serve the simulator tests, or None when it can."""
    library = native.mspti_library
    if not library.is_file():
        return f"{library} is not built"
    if not (native.sim_lib64 / "libascendcl.so").is_file():
        return f"the simulated CANN is not built in {native.sim_lib64}"
    names = (
        "msptiActivityRegisterCallbacks",
        "msptiActivityEnable",
        "msptiActivityGetNextRecord",
        "msptiActivityFlushAll",
        "msptiSubscribe",
        "msptiUnsubscribe",
    )
    result = subprocess.run(["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True)
    missing = [n for n in names if n not in result.stdout]
    if missing:
        return f"{library} does not export {', '.join(missing)} yet"
    return None


@pytest.fixture
def sim_env(native: NativeTree) -> dict[str, str]:
    """A child environment on the simulator with our libmspti.so preloaded."""
    problem = _real_mspti_problem(native)
    if problem is not None:
        pytest.skip(f"needs our msPTI on the simulator: {problem}")
    env = child_env(native.env(preload_mspti=True, NPU_SIM_CLOCK="virtual"))
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(FIXTURES)])
    return env


@pytest.fixture
def run_sim(sim_env: dict[str, str], tmp_path: Path):
    """Runs a script on the simulator under our msPTI."""

    def run(script: str, timeout: float = 180.0, **env_overrides: str) -> ChildRun:
        env = dict(sim_env)
        env.update(env_overrides)
        prelude = (
            "import json\n"
            "def report(value):\n"
            "    print('RESULT ' + json.dumps(value, default=str), flush=True)\n"
        )
        return run_python(prelude + textwrap.dedent(script), env, tmp_path, timeout)

    return run
