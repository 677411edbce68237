"""The stateful scenario: rendering call sequences, and the search with stand-in runners."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.execute import Invocation, RunResult
from conformance.log import RunLog
from conformance.model.commands import Free, Malloc, Mark, RangeEnd, RangeStart, Switch, render
from conformance.model.state import MsptiModel
from conformance.stateful.explore import explore, sequences


def test_rendering_drops_commands_with_nothing_to_refer_to() -> None:
    script, steps = render(
        [RangeEnd(3), Free(0), Malloc(64), Mark("alpha"), RangeStart("bravo"), RangeEnd(5), Free(9)], acl=True
    )
    assert [s.label for s in steps] == ["s2", "s3", "s4", "s5", "s6"]
    assert "domain_mark dalpha mark-s3 @s3" in script
    assert "domain_range_end dbravo rs4 @s5" in script
    assert "free ps2 @s6" in script
    assert script.splitlines()[:3] == [
        "register A A",
        "domain_create dalpha alpha",
        "domain_create dbravo bravo",
    ]
    assert script.rstrip().endswith("dropped @dropped")
    _script, without_acl = render([Malloc(64), Switch("MEMORY", True), Mark("default")], acl=False)
    assert [s.label for s in without_acl] == ["s2"]


@settings(max_examples=60, deadline=None)
@given(sequences(acl=True), st.sampled_from(["spec", "upstream"]))
def test_every_generated_sequence_renders_and_feeds_the_model(commands: list[Any], profile: str) -> None:
    script, steps = render(commands, acl=True)
    labels = [s.label for s in steps]
    assert len(labels) == len(set(labels))
    assert all(f"@{label}" in script for label in labels)
    prediction = MsptiModel(profile).feed(steps)
    assert set(prediction.results) <= set(labels)
    assert all(count > 0 for count in prediction.required.values())


def fake_run(invocation: Invocation, tmp_path: Path, *, exit_code: int = 0, ret: int = 0) -> RunResult:
    """A run in which every labelled call returned ``ret`` and nothing was delivered."""
    events = []
    for line in (invocation.script or "").splitlines():
        words = line.split()
        label = next((w[1:] for w in words if w.startswith("@")), "")
        if label:
            events.append(
                {
                    "ev": "call",
                    "fn": words[0],
                    "label": label,
                    "ret": ret,
                    "tid": 1,
                    "t0": 1,
                    "t1": 2,
                    "id": 1,
                }
            )
    return RunResult("stateful", invocation, RunLog.from_events(events), tmp_path, exit_code=exit_code)


def test_a_crashing_implementation_is_found_and_shrunk_to_one_command(tmp_path: Path) -> None:
    result = explore(
        lambda inv: fake_run(inv, tmp_path, exit_code=-11), profile="spec", acl=False, examples=5
    )
    assert result.failure is not None
    assert len(result.failure.commands) == 1
    assert "crashed" in result.failure.problems[0]
    assert result.notes and "shrunk" in result.notes[0]


def test_an_implementation_that_delivers_nothing_is_caught_with_a_short_program(tmp_path: Path) -> None:
    result = explore(lambda inv: fake_run(inv, tmp_path), profile="upstream", acl=False, examples=30, seed=3)
    assert result.failure is not None
    assert len(result.failure.commands) <= 3
    assert result.failure.problems
    assert "@s" in result.failure.script


def test_the_search_budget_bounds_the_number_of_runs(tmp_path: Path) -> None:
    runs = []

    def runner(invocation: Invocation) -> RunResult:
        runs.append(invocation)
        return fake_run(invocation, tmp_path, exit_code=1)

    result = explore(runner, profile="spec", acl=False, examples=5, budget=7)
    assert result.runs <= 7
    assert len(runs) <= 8  # the budget, plus one re-run of the minimal program
