"""Running a test's workload in a child Python and reading back what it reported.

msPTI state is process-global, and fakes act in the process that installs them, so tests that load
an msPTI library run their workload as a script in a child Python. The script reports values as
``RESULT <json>`` lines on stdout; :func:`run_python` collects them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESULT_PREFIX = "RESULT "


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


def run_python(
    script: str, env: dict[str, str], tmp_path: Path, timeout: float = 120.0, args: list[str] | None = None
) -> ChildRun:
    """Runs ``script`` (dedented) with this interpreter in ``tmp_path``."""
    path = tmp_path / f"child_{abs(hash(script)) % 10**8}.py"
    path.write_text(textwrap.dedent(script))
    proc = subprocess.run(
        [sys.executable, str(path), *(args or [])],
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
