"""Runs pytest with a sanitizer runtime preloaded into the Python process.

    python ci/sanitized_pytest.py {address,thread} [--selection] [pytest args]

The native libraries of a sanitizer build need the sanitizer runtime loaded first; the
Python interpreter is not built with it, so it is preloaded. Child processes started by
the tests get the same runtime through NPU_SIM_SANITIZER_PRELOAD (tests/support/native.py);
pytest-xdist's workers (``-n 2``) start with it preloaded (tests/support/sanitizer_preload.py).

``--selection`` runs the tests listed in ci/sanitizer_tests.txt (the default envs asan and tsan:
the tests that reach native code concurrently or through the seam) instead of the whole suite
(asan-full and tsan-full).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

RUNTIMES = {"address": "libasan.so", "thread": "libtsan.so"}
SELECTION = Path(__file__).resolve().parent / "sanitizer_tests.txt"


def runtime_path(sanitizer: str) -> str:
    name = RUNTIMES[sanitizer]
    path = subprocess.run(
        ["gcc", f"-print-file-name={name}"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not os.path.isabs(path):
        raise SystemExit(f"gcc does not know where {name} is; install the gcc sanitizer runtime")
    return path


def selected_tests(path: Path = SELECTION) -> list[str]:
    """The test paths of the selection file: one a line, '#' starts a comment."""
    tests = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            tests.append(entry)
    return tests


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in RUNTIMES:
        raise SystemExit(f"usage: sanitized_pytest.py {{{','.join(RUNTIMES)}}} [--selection] [pytest args]")
    runtime = runtime_path(sys.argv[1])
    args = sys.argv[2:]
    if args[:1] == ["--selection"]:
        args = [*selected_tests(), *args[1:]]
    env = dict(os.environ)
    env["NPU_SIM_SANITIZER_PRELOAD"] = runtime
    env["LD_PRELOAD"] = " ".join(filter(None, [runtime, env.get("LD_PRELOAD", "")]))
    # The pytest script, not `python -m pytest`: the latter would put the source tree first on sys.path.
    pytest = os.path.join(os.path.dirname(sys.executable), "pytest")
    return subprocess.call([pytest, *args], env=env)


if __name__ == "__main__":
    sys.exit(main())
