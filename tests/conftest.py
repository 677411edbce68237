"""Shared fixtures: the native build and a compiler for test programs."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from support.native import NativeTree, ProgramBuilder, find_native_tree
from support.run_folder import shared_folder
from support.sanitizer_preload import pytest_xdist_setupnodes  # noqa: F401 (a hook of this conftest)

# Machines under load (CI, sanitizer builds) generate examples slowly; the properties stay the same.
settings.register_profile("project", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("project")

# A sanitizer run preloads its runtime into this interpreter only (importing support.sanitizer_preload
# takes it out of the environment); child processes get it back through NativeTree.env /
# python_subprocess_env, exactly when they load our native libraries, and xdist's workers start with it.

# Tests hand NPU_SIM_BUILD_DIR to programs that run in other folders: make a relative one absolute.
if os.environ.get("NPU_SIM_BUILD_DIR"):
    os.environ["NPU_SIM_BUILD_DIR"] = str(Path(os.environ["NPU_SIM_BUILD_DIR"]).resolve())

# The simulated runtime writes CANN's process log (plog) like CANN does, by default under
# ~/ascend/log: this interpreter and every program the tests start write into a folder of the
# run instead, removed at exit. Tests of the plog set their own ASCEND_PROCESS_LOG_PATH.
_PLOG_ROOT = tempfile.mkdtemp(prefix="npu-sim-tests-plog-")
os.environ["ASCEND_PROCESS_LOG_PATH"] = _PLOG_ROOT
atexit.register(shutil.rmtree, _PLOG_ROOT, ignore_errors=True)


@pytest.fixture(scope="session")
def native() -> NativeTree:
    return find_native_tree()


@pytest.fixture(scope="session")
def programs(native: NativeTree, tmp_path_factory: pytest.TempPathFactory) -> ProgramBuilder:
    """Test programs built once per run, for every xdist worker (support.run_folder)."""
    return ProgramBuilder(native, shared_folder(tmp_path_factory, "programs"))


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def calibrate_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A HOME for `npu-sim calibrate` runs: its runner is compiled once per test session."""
    return tmp_path_factory.mktemp("calibrate-home")
