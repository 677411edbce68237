"""A folder shared by every pytest-xdist worker of one run, for caches of built programs.

The workers of a run (``-n 2``) each have their own temporary folder under the controller's; a cache
kept in one worker's folder makes the other worker build the same programs again. ``shared_folder``
gives both the same folder, under the controller's temporary folder of this run, so each program is
built once per run. Writers put a finished file in place with a rename (``ProgramBuilder``,
``conformance.build.Builder``), so a worker never runs another's half-written program. Without
workers it is a fresh folder of the session, as ``tmp_path_factory.mktemp`` gives.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def shared_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """``name`` under this run's temporary folder, the same for every xdist worker of the run."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return tmp_path_factory.mktemp(name)
    # A worker's base folder is the controller's base folder / the worker's name (xdist's workermanage).
    folder = tmp_path_factory.getbasetemp().parent / f"shared-{name}"
    folder.mkdir(exist_ok=True)
    return folder
