"""Fixtures of the msPTI tests (helpers live in mspti_harness.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mspti_harness import MsptiPrograms

from support.native import NativeTree, ProgramBuilder


@pytest.fixture(scope="session")
def mspti_programs(native: NativeTree, programs: ProgramBuilder) -> MsptiPrograms:
    return MsptiPrograms(native, programs)
