"""Running torch_npu programs under `npu-sim run`, each in a fresh process as a user runs them,
and the skip (or, under `tox -e torch-npu`, the failure) when `import torch, torch_npu` fails."""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from support.optional_tool import unavailable

# A process that loads the CUDA build of torch next to torch_npu aborts while loading torch_npu:
# both register the allocator option 'pinned_reserve_segment_size_mb'.
CUDA_TORCH = "Duplicated key 'pinned_reserve_segment_size_mb'"
#: Set (tox -e torch-npu sets it) to fail instead of skipping when torch_npu does not import.
REQUIRE_VAR = "NPU_SIM_REQUIRE_TORCH_NPU"


PROGRAMS = Path(__file__).resolve().parent / "programs"


def with_programs(python_path: str) -> str:
    """`python_path` with the folder programs/ first."""
    return os.pathsep.join(filter(None, [str(PROGRAMS), python_path]))


def simulator_run(code: str | Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Runs `code` (a program's text, or a Path to one, with `args`) under `npu-sim run`. A program's
    text imports the modules of programs/ (cpu_vs_npu, result_line, ...) as the files there do: that
    folder is on its PYTHONPATH."""
    program = [str(code)] if isinstance(code, Path) else ["-c", textwrap.dedent(code)]
    path = {} if isinstance(code, Path) else {"PYTHONPATH": with_programs(os.environ.get("PYTHONPATH", ""))}
    return subprocess.run(
        [sys.executable, "-m", "sim_runtime", "run", "--", sys.executable, *program, *args],
        # the not-supported lines are warnings
        env={**os.environ, "NPU_SIM_LOG_LEVEL": "warn", **path, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@functools.cache
def why_torch_npu_does_not_import() -> str | None:
    if importlib.util.find_spec("torch_npu") is None:
        return "torch_npu is not installed (tox -e torch-npu installs torch and torch-npu)"
    result = simulator_run("import torch, torch_npu")
    if result.returncode == 0:
        return None
    if CUDA_TORCH in result.stderr:
        return "torch is the CUDA build, which cannot share a process with torch_npu: use the CPU build"
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    return "import torch, torch_npu fails: " + (lines[-1] if lines else f"exit status {result.returncode}")


def require_torch_npu() -> None:
    """Skips (fails under NPU_SIM_REQUIRE_TORCH_NPU) when `import torch, torch_npu` fails."""
    reason = why_torch_npu_does_not_import()
    if reason is not None:
        unavailable(reason, REQUIRE_VAR)


def run_on_simulator(code: str | Path, *args: str, **env: str) -> dict[str, object]:
    """The JSON object the program prints last; the program must succeed."""
    result = simulator_run(code, *args, **env)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    return json.loads(result.stdout.splitlines()[-1])
