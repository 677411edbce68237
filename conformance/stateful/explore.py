"""Hypothesis-driven exploration: random call sequences, run by the driver, judged by the model.

A failing sequence is shrunk by Hypothesis to a minimal one; the report shows that program.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from conformance.abi import result_name
from conformance.execute import Invocation, RunResult
from conformance.log import RunLog
from conformance.model.commands import (
    DOMAINS,
    Command,
    Flush,
    Free,
    Malloc,
    Mark,
    Pop,
    Push,
    RangeEnd,
    RangeStart,
    SetDomain,
    Step,
    Subscribe,
    Switch,
    Unsubscribe,
    render,
)
from conformance.model.state import Key, MsptiModel, Prediction

__all__ = ["ExploreResult", "Outcome", "compare", "explore", "sequences"]

Runner = Callable[[Invocation], RunResult]


def commands(acl: bool) -> st.SearchStrategy[Command]:
    kinds = ["MARKER", "EXTERNAL_CORRELATION", *(["MEMORY"] if acl else [])]
    options: list[st.SearchStrategy[Command]] = [
        st.just(Subscribe()),
        st.just(Unsubscribe()),
        st.builds(Switch, st.sampled_from(kinds), st.booleans()),
        st.just(Flush()),
        st.builds(Push, st.sampled_from(["CUSTOM0", "CUSTOM1"]), st.integers(1, 99)),
        st.builds(Pop, st.sampled_from(["CUSTOM0", "CUSTOM1"])),
        st.builds(SetDomain, st.sampled_from(DOMAINS), st.booleans()),
        st.builds(Mark, st.sampled_from(DOMAINS)),
        st.builds(RangeStart, st.sampled_from(DOMAINS)),
        st.builds(RangeEnd, st.integers(0, 7)),
    ]
    if acl:
        options += [st.builds(Malloc, st.sampled_from([64, 256, 4096])), st.builds(Free, st.integers(0, 7))]
    return st.one_of(*options)


def sequences(acl: bool, max_size: int = 30) -> st.SearchStrategy[list[Command]]:
    """Call sequences; half start by subscribing and enabling MARKER (a prefix that shrinks away)."""
    body = st.lists(commands(acl), min_size=1, max_size=max_size)
    prefix: list[Command] = [Subscribe(), Switch("MARKER", True)]
    return st.tuples(st.booleans(), body).map(lambda pair: (prefix if pair[0] else []) + pair[1])


@dataclass
class Outcome:
    commands: list[Command]
    script: str
    problems: list[str]
    run: RunResult | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class ExploreResult:
    examples: int
    runs: int
    failure: Outcome | None = None
    last: Outcome | None = None
    notes: list[str] = field(default_factory=list)


def _delivered(log: RunLog, steps: Sequence[Step]) -> Counter[Key]:
    range_labels = {}
    for step in steps:
        if isinstance(step.command, RangeStart) and log.has_call(step.label):
            range_labels[int(log.call(step.label).get("id", 0))] = step.label
    mallocs = [
        log.call(step.label)
        for step in steps
        if isinstance(step.command, Malloc) and log.has_call(step.label)
    ]
    delivered: Counter[Key] = Counter()
    for record in log.records:
        if record.kind == 1 and int(record.get("source", 0)) == 0:
            flag = int(record["flag"])
            if flag == 1:
                delivered["mark", str(record.get("name"))] += 1
            elif flag == 2:
                delivered["start", str(record.get("name"))] += 1
            elif flag == 4:
                label = range_labels.get(int(record["id"]), f"id {record['id']}")
                delivered["end", label] += 1
            else:
                delivered["marker-flag", flag] += 1
        elif record.kind == 5:
            start = int(record["start"])
            owners = [call for call in mallocs if int(call["ptr"]) == int(record["address"])]
            if int(record["op"]) == 0:
                within = [c for c in owners if c.t0 - 2_000_000 <= start <= c.t1 + 2_000_000] or owners
                delivered["alloc", within[0].label if within else f"0x{int(record['address']):x}"] += 1
            else:
                before = [c for c in owners if c.t0 <= start] or owners
                delivered["release", before[-1].label if before else f"0x{int(record['address']):x}"] += 1
        elif record.kind == 8:
            delivered["ext", int(record["ekind"]), int(record["eid"])] += 1
    return delivered


def compare(prediction: Prediction, steps: Sequence[Step], log: RunLog, profile: str) -> list[str]:
    """Differences between what the model predicts and what the log shows."""
    problems: list[str] = []
    for label, allowed in prediction.results.items():
        if not log.has_call(label):
            problems.append(f"{label}: the call was not logged (the workload stopped early?)")
            continue
        call = log.call(label)
        if call.ret not in allowed:
            expected = " or ".join(sorted(result_name(code) for code in allowed))
            problems.append(
                f"{label} ({call.fn}) returned {result_name(int(call.ret or 0))}; model: {expected}"
            )
    for label, value in prediction.pops.items():
        if log.has_call(label) and log.call(label).get("value") != value:
            problems.append(f"{label}: popped {log.call(label).get('value')}; model: {value}")
    for label, recorded in prediction.range_recorded.items():
        if recorded and log.has_call(label) and int(log.call(label).get("id", 0)) == 0:
            problems.append(f"{label}: mstxRangeStartA returned 0 for a recorded range")
    delivered = _delivered(log, steps)
    for key, count in sorted(prediction.required.items(), key=str):
        if delivered[key] < count:
            problems.append(f"missing record {key} (model: {count}, delivered {delivered[key]})")
    for key, count in sorted(delivered.items(), key=str):
        allowed = prediction.required[key] + (count if key in prediction.optional else 0)
        if count > allowed:
            problems.append(f"unexpected record {key} (delivered {count}, model allows {allowed})")
    return problems


def run_sequence(commands_: list[Command], runner: Runner, profile: str, acl: bool, name: str) -> Outcome:
    script, steps = render(commands_, acl=acl)
    result = runner(Invocation(name, script=script, timeout=60))
    outcome = Outcome(list(commands_), script, [], result)
    if result.failed:
        outcome.problems.append(f"the driver failed: {result.failure()}")
        return outcome
    prediction = MsptiModel(profile).feed(steps)
    outcome.problems = compare(prediction, steps, result.log, profile)
    return outcome


def explore(
    runner: Runner, *, profile: str, acl: bool, examples: int = 20, seed: int = 0, budget: int | None = None
) -> ExploreResult:
    """Runs up to ``examples`` random sequences; on a failure, shrinks it within ``budget`` runs."""
    limit = budget if budget is not None else max(10 * examples, 150)
    result = ExploreResult(examples=0, runs=0)

    def fails(candidate: list[Command]) -> bool:
        if result.runs >= limit:
            return False  # out of budget: stop accepting further shrinks
        result.runs += 1
        if result.failure is None:
            result.examples += 1
        outcome = run_sequence(candidate, runner, profile, acl, f"stateful-{result.runs % 2}")
        result.last = outcome
        if not outcome.ok and (result.failure is None or len(candidate) <= len(result.failure.commands)):
            result.failure = outcome
        return not outcome.ok

    config = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.shrink],
    )
    try:
        find(sequences(acl), fails, settings=config, random=random.Random(seed))
    except NoSuchExample:
        return result
    if result.failure is not None:  # re-run the minimal program so its log is the one kept
        final = run_sequence(result.failure.commands, runner, profile, acl, "stateful-minimal")
        result.failure = final if not final.ok else result.failure
        result.notes.append(f"shrunk to {len(result.failure.commands)} command(s) in {result.runs} runs")
    return result
