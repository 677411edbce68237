"""The matchers' task table (csrc/mspti/src/device/task_queues.h) against a plain model.

Bursts of keys grow the table far past the size it shrinks back from; draining them shrinks it
again. Every key's queue must hold the model's values in order throughout.
"""

from __future__ import annotations

from pathlib import Path

from support.native import NativeTree, ProgramBuilder, run_program

REPO = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).resolve().parent / "programs" / "task_queues_model.cpp"


def test_the_task_table_matches_its_model_through_growth_and_shrinking(
    native: NativeTree, programs: ProgramBuilder
) -> None:
    exe = programs.build([PROGRAM], libs=[], extra_flags=["-O1", f"-I{REPO / 'csrc' / 'mspti' / 'src'}"])
    result = run_program(exe, native.env(), timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    word, operations, peak = result.stdout.split()
    assert word == "OK"
    # The bursts held more keys than the table keeps once drained (16,384 slots at half load).
    assert int(peak) > 16_384 and int(operations) > 400_000
