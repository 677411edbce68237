"""pytest-xdist's workers under a sanitizer run (ci/sanitized_pytest.py, tests/support/sanitizer_preload.py).

The run preloads the sanitizer runtime into the test process, which takes it out of its environment
for the tests' child processes; xdist's workers load the sanitized libraries in process, so they
must start with the runtime preloaded. A library every process has loaded anyway (libm) stands in
for the runtime here: what is checked is the environment each worker was started with.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from support.nested_pytest import run_on_two_workers

pytest.importorskip("xdist")

STAND_IN = "libm.so.6"

WORKER_TESTS = textwrap.dedent(
    """
    import os
    from pathlib import Path

    import pytest


    @pytest.mark.parametrize("n", range(4))
    def test_the_worker_started_with_the_preload(n):
        started_with = Path("/proc/self/environ").read_bytes().split(b"\\0")
        assert os.environ.get("PYTEST_XDIST_WORKER"), "not run in a worker"
        assert b"LD_PRELOAD=STAND_IN" in started_with
        # ... and took it out of its environment for the tests' child processes, as one process does.
        assert "LD_PRELOAD" not in os.environ
    """
).replace("STAND_IN", STAND_IN)


def test_xdist_workers_start_with_the_sanitizer_runtime_preloaded(tmp_path: Path) -> None:
    (tmp_path / "test_worker.py").write_text(WORKER_TESTS)
    plugins = ["-p", "support.sanitizer_preload"]
    result = run_on_two_workers(
        tmp_path, [*plugins, "-q", "test_worker.py"], NPU_SIM_SANITIZER_PRELOAD=STAND_IN, LD_PRELOAD=STAND_IN
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 passed" in result.stdout
