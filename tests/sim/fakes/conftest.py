"""Fixtures of the sim_runtime.fakes tests.

Fakes act in the process that installs them, so each test runs one child Python that holds the
test's fakes, the simulator and our msPTI (preloaded, virtual clock) together: msPTI runs in the
same process as the fakes, and every test starts from a fresh msPTI. A script reports values with
``report(value)`` (``RESULT <json>`` lines).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from support.child_python import ChildRun, run_python
from support.native import NativeTree, python_subprocess_env

PRELUDE = """\
import json
def report(value):
    print("RESULT " + json.dumps(value, default=str), flush=True)
"""


@pytest.fixture
def run_with_mspti(native: NativeTree, tmp_path: Path):
    """Runs a script in a child Python on the simulator with our libmspti.so preloaded."""
    if not native.mspti_library.is_file():
        pytest.skip(f"needs our msPTI: {native.mspti_library} is not built")

    def run(script: str, timeout: float = 120.0, **env_overrides: str) -> ChildRun:
        env = python_subprocess_env(native.env(preload_mspti=True, NPU_SIM_CLOCK="virtual", **env_overrides))
        return run_python(PRELUDE + textwrap.dedent(script), env, tmp_path, timeout)

    return run
