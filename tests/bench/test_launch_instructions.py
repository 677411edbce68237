"""The instruction budget of a launch: launch_instructions with few launches against the ceilings of
sim_runtime/data/bench_targets.toml.

The data file holds the issue's budget (``value``) and the ceiling enforced today (``ceiling``: the
count measured when it was set plus a small margin; docs/performance.md). This test fails when a
count exceeds its ceiling and prints every count with its budget and the ratio to it. It runs where
valgrind is installed, on a Release build (sanitizers and coverage change every count); CI runs it
in the newcomer tier, on the README's install.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from sim_runtime.bench import launch_instructions
from sim_runtime.bench.core import load_targets
from sim_runtime.bench.runner import make_builds
from support.native import NativeTree

pytestmark = [
    pytest.mark.skipif(
        shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None,
        reason="needs valgrind (apt-get install valgrind) to count instructions",
    ),
    pytest.mark.skipif(
        bool(os.environ.get("NPU_SIM_SANITIZER_PRELOAD") or os.environ.get("NPU_SIM_TEST_SANITIZE")),
        reason="instruction counts of a sanitizer build say nothing about the budget",
    ),
    pytest.mark.skipif(
        bool(os.environ.get("NPU_SIM_TEST_COVERAGE")),
        reason="instruction counts of the Debug --coverage build say nothing about the budget "
        "(the newcomer tier runs this test on the Release install)",
    ),
]


def test_instruction_counts_stay_under_their_ceilings(native: NativeTree, tmp_path: Path) -> None:
    del native  # the fixture checks that the native build exists
    (build,) = make_builds([])
    counts = launch_instructions.measure(build, launch_instructions.CEILING_COUNT, tmp_path)
    targets = {key: t for (name, key), t in load_targets().items() if name == "launch_instructions"}
    assert set(targets) == {"added_inside", "added_all", "idle_added_inside"}
    over = []
    for key, target in targets.items():
        assert target.ceiling is not None
        measured = counts[key]
        print(
            f"{key}: {measured:,.0f} instructions per launch; budget {target.value:,.0f} "
            f"({measured / target.value:.2f}x), ceiling {target.ceiling:,.0f}"
        )
        if measured > target.ceiling:
            over.append(
                f"{key} = {measured:,.0f} > ceiling {target.ceiling:,.0f} (budget {target.value:,.0f})"
            )
    assert not over, "instruction ceilings exceeded: " + "; ".join(over)
    # The simulator's own launch is counted too (a sanity check of the counting, not a budget).
    assert 100 < counts["off_thread"] < 100_000
