"""docs/fakes.md: its tutorial runs (under our msPTI, in the faking process) and passes."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "fakes.md"


def tutorial_code() -> str:
    blocks = re.findall(r"```python tutorial\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= 3, "the tutorial's code blocks are marked ```python tutorial"
    return "\n".join(blocks)


def test_tutorial_runs(run_with_mspti) -> None:
    run = run_with_mspti(tutorial_code()).check()
    assert "tutorial passed" in run.stdout
