"""Fixtures of the sim_runtime.fakes tests.

Fakes act in the process that installs them, so each test runs one child Python that holds the
test's fakes, the simulator and our msPTI (preloaded, virtual clock) together: msPTI runs in the
same process as the fakes, and every test starts from a fresh msPTI. A script reports values with
``report(value)`` (``RESULT <json>`` lines).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support.native import NativeTree, python_subprocess_env

RESULT_PREFIX = "RESULT "
PRELUDE = """\
import json
def report(value):
    print("RESULT " + json.dumps(value, default=str), flush=True)
"""


@dataclass
class ChildRun:
    returncode: int
    stdout: str
    stderr: str
    results: list[Any]

    @property
    def result(self) -> Any:
        assert self.results, f"the script reported nothing\nstdout:\n{self.stdout}\nstderr:\n{self.stderr}"
        return self.results[-1]

    def check(self) -> ChildRun:
        assert self.returncode == 0, f"exit {self.returncode}\nstdout:\n{self.stdout}\nstderr:\n{self.stderr}"
        return self


@pytest.fixture
def run_with_mspti(native: NativeTree, tmp_path: Path):
    """Runs a script in a child Python on the simulator with our libmspti.so preloaded."""
    if not native.mspti_library.is_file():
        pytest.skip(f"needs our msPTI: {native.mspti_library} is not built")

    def run(script: str, timeout: float = 120.0, **env_overrides: str) -> ChildRun:
        env = python_subprocess_env(native.env(preload_mspti=True, NPU_SIM_CLOCK="virtual", **env_overrides))
        path = tmp_path / f"child_{abs(hash(script)) % 10**8}.py"
        path.write_text(PRELUDE + textwrap.dedent(script))
        proc = subprocess.run(
            [sys.executable, str(path)],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=tmp_path,
        )
        results = [
            json.loads(line[len(RESULT_PREFIX) :])
            for line in proc.stdout.splitlines()
            if line.startswith(RESULT_PREFIX)
        ]
        return ChildRun(proc.returncode, proc.stdout, proc.stderr, results)

    return run
