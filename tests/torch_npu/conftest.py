"""Fixtures of the torch_npu tests (helpers live in torch_npu_harness.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from torch_npu_harness import require_torch_npu


@pytest.fixture(scope="module", autouse=True)
def torch_npu_imports() -> None:
    require_torch_npu()
