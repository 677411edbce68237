"""Test modules that run a tool installed only in some tox envs (HTA, msprof-analyze, the TensorBoard
plugin): skipped where the tool does not import, failed instead when the env requires it."""

from __future__ import annotations

import os

import pytest


def missing_tool(error: ImportError, tool: str, require_variable: str) -> None:
    """Called from a test module whose import of ``tool`` failed with ``error``: skips the module, or
    raises when the environment variable ``require_variable`` is set (a tox env that installs the
    tool sets it, so that a broken install cannot pass as skips)."""
    if os.environ.get(require_variable):
        raise ImportError(f"{require_variable} is set but {tool} does not import: {error}") from error
    pytest.skip(f"{tool} is not installed ({error})", allow_module_level=True)
