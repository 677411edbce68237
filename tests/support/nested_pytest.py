"""A pytest run on two xdist workers inside a test, for the checks of how workers start and share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def run_on_two_workers(folder: Path, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m pytest -n 2 ARGS`` in ``folder``, where ``support`` imports; ``env`` is added to this
    process's environment without the variables of the running pytest and its workers."""
    child_env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_CORE_"))}
    child_env.update(env)
    child_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), child_env.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", *args],
        cwd=folder,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
