"""The sanitizer runtime a sanitizer run preloads into the test process (ci/sanitized_pytest.py).

The interpreter starts with the runtime in LD_PRELOAD: the sanitized native libraries need it
loaded first. Importing this module takes LD_PRELOAD out of the environment, so that the tests'
child processes get the runtime back only where they load our native libraries
(NativeTree.env, python_subprocess_env) and shells and compilers run without it.

pytest-xdist's workers are processes of their own, started from this process's environment, and
they load the sanitized libraries in process: they must start with the runtime preloaded as this
interpreter did (without it, a worker's first native import fails: ASan stops the process because
its runtime is not first in the library list; libtsan cannot be loaded that late, "cannot allocate
memory in static TLS block"). The controller gets the
preload back before it starts workers (`pytest_xdist_setupnodes`); each worker then takes it out
of its own environment when it imports this module, like a run without workers. Used by
tests/conftest.py; a plugin of its own too (``-p support.sanitizer_preload``).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

#: LD_PRELOAD as the interpreter started with it, when a sanitizer run preloaded its runtime.
STARTED_WITH: str | None = (
    os.environ.get("LD_PRELOAD") if os.environ.get("NPU_SIM_SANITIZER_PRELOAD") else None
)

if STARTED_WITH is not None:
    os.environ.pop("LD_PRELOAD", None)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: list[Any]) -> None:
    """Workers (and the ones replacing crashed workers) start with the runtime preloaded."""
    if STARTED_WITH:
        os.environ["LD_PRELOAD"] = STARTED_WITH
