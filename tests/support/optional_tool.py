"""The rule for tests of a tool installed only in some tox envs (HTA, msprof-analyze, the TensorBoard
plugin, torch_npu): where the tool is unavailable they skip, unless the env that installs it requires
it through an environment variable (``NPU_SIM_REQUIRE_*``): then they fail, so that a broken install
cannot pass as skips."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(reason: str, require_variable: str) -> NoReturn:
    """Skips the test (or the module, when called while it is imported) because of ``reason``; fails
    instead when the environment variable ``require_variable`` is set to anything but the empty string."""
    if os.environ.get(require_variable):
        pytest.fail(f"{require_variable} is set but {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def missing_tool(error: ImportError, tool: str, require_variable: str) -> NoReturn:
    """Called from a test module whose import of ``tool`` failed with ``error``."""
    unavailable(f"{tool} does not import ({error})", require_variable)
