"""The one rule of the optional tools' tests (tests/support/optional_tool.py): skipped where the tool
is unavailable, failed where the tox env requires it; the torch_npu tests follow the same rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import optional_tool
from support.sibling import load_sibling

_VAR = "NPU_SIM_TEST_REQUIRE_SOMETHING"


def test_an_unavailable_tool_skips_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_VAR, raising=False)
    with pytest.raises(pytest.skip.Exception, match="sometool does not import"):
        optional_tool.missing_tool(ImportError("no module"), "sometool", _VAR)
    monkeypatch.setenv(_VAR, "")
    with pytest.raises(pytest.skip.Exception):
        optional_tool.unavailable("it is gone", _VAR)


def test_a_required_tool_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_VAR, "1")
    with pytest.raises(pytest.fail.Exception, match=f"{_VAR} is set but sometool does not import"):
        optional_tool.missing_tool(ImportError("no module"), "sometool", _VAR)


def test_torch_npu_tests_use_the_same_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    harness = load_sibling(Path(__file__).resolve().parents[1] / "torch_npu", "torch_npu_harness")
    monkeypatch.setattr(harness, "why_torch_npu_does_not_import", lambda: "torch_npu is broken")
    monkeypatch.setenv(harness.REQUIRE_VAR, "1")
    with pytest.raises(pytest.fail.Exception, match=f"{harness.REQUIRE_VAR} is set but torch_npu is broken"):
        harness.require_torch_npu()
    monkeypatch.delenv(harness.REQUIRE_VAR)
    with pytest.raises(pytest.skip.Exception, match="torch_npu is broken"):
        harness.require_torch_npu()
