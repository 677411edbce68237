"""The reference model of msPTI's process state, per profile.

Fed the steps of a call sequence in order, it predicts each call's result code(s), what a pop
returns and which records must (or may) be delivered by the final FlushAll. ``spec`` follows the
documented contract and leaves undocumented outcomes open ("may"); ``upstream`` pins the vendor's
observed behaviour.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from conformance.abi import EXTERNAL_KINDS, RESULTS
from conformance.model.commands import (
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
)

__all__ = ["Key", "MsptiModel", "Prediction"]

SUCCESS = RESULTS["SUCCESS"]
INVALID = RESULTS["INVALID_PARAMETER"]
MULTIPLE = RESULTS["MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"]
QUEUE_EMPTY = RESULTS["QUEUE_EMPTY"]

#: A delivered record as the model names it: ("mark", message), ("start", message),
#: ("end", start label), ("alloc", malloc label), ("release", malloc label), ("ext", kind, id).
Key = tuple[str | int, ...]


@dataclass
class Prediction:
    results: dict[str, frozenset[int]] = field(default_factory=dict)
    pops: dict[str, int] = field(default_factory=dict)
    required: Counter[Key] = field(default_factory=Counter)
    optional: set[Key] = field(default_factory=set)
    #: range start label -> whether the start produced a record (decides the returned id upstream)
    range_recorded: dict[str, bool] = field(default_factory=dict)


@dataclass
class _Range:
    recorded: bool
    domain: str


class MsptiModel:
    def __init__(self, profile: str) -> None:
        if profile not in ("spec", "upstream"):
            raise ValueError(f"unknown profile {profile!r}")
        self.profile = profile
        self.subscribed = False
        self.enabled: set[str] = set()
        self.disabled_domains: set[str] = set()
        self.stacks: dict[str, list[int]] = {}
        self.ranges: dict[str, _Range] = {}
        self.prediction = Prediction()

    # ------------------------------------------------------------------ helpers

    def _result(self, label: str, *codes: int) -> None:
        self.prediction.results[label] = frozenset(codes)

    def _emit(self, key: Key, *, required: bool) -> None:
        if required:
            self.prediction.required[key] += 1
        else:
            self.prediction.optional.add(key)

    def _marker_state(self, domain: str) -> str:
        """'yes' (a record must appear), 'maybe' or 'no' for a marker call now."""
        if "MARKER" not in self.enabled or domain in self.disabled_domains:
            return "no"
        if self.subscribed:
            return "yes"
        return "maybe" if self.profile == "spec" else "no"

    def _host_hook_state(self, kind: str) -> str:
        if kind not in self.enabled:
            return "no"
        if self.subscribed or self.profile == "upstream":
            return "yes"
        return "maybe"

    def _correlation(self, state: str) -> None:
        """A new correlation id: one external record per non-empty stack when the kind is on.

        The vendor emits them at every id allocation; the contract ties them to activity records,
        so in the spec profile they are required only when the call's own record is.
        """
        if "EXTERNAL_CORRELATION" not in self.enabled:
            return
        for kind in sorted(self.stacks, key=lambda k: EXTERNAL_KINDS[k]):
            stack = self.stacks[kind]
            if stack:
                key: Key = ("ext", EXTERNAL_KINDS[kind], stack[-1])
                self._emit(key, required=self.profile == "upstream" or state == "yes")

    # ------------------------------------------------------------------ steps

    def feed(self, steps: Iterable[Step]) -> Prediction:
        for step in steps:
            self.step(step)
        return self.prediction

    def step(self, step: Step) -> None:
        command = step.command
        label = step.label
        if isinstance(command, Subscribe):
            self._result(label, MULTIPLE if self.subscribed else SUCCESS)
            self.subscribed = True
        elif isinstance(command, Unsubscribe):
            if self.subscribed:
                self._result(label, SUCCESS)
            else:  # the driver passes NULL: nobody is subscribed (CB-UNSUB-03)
                self._result(label, INVALID if self.profile == "spec" else SUCCESS)
            self.subscribed = False
        elif isinstance(command, Switch):
            self._result(label, SUCCESS)
            if command.on:
                self.enabled.add(command.kind)
            else:
                self.enabled.discard(command.kind)
        elif isinstance(command, Flush):
            self._result(label, SUCCESS)
        elif isinstance(command, Push):
            self._result(label, SUCCESS)
            self.stacks.setdefault(command.kind, []).append(command.value)
        elif isinstance(command, Pop):
            stack = self.stacks.get(command.kind, [])
            if stack:
                self._result(label, SUCCESS)
                self.prediction.pops[label] = stack.pop()
            else:
                self._result(label, QUEUE_EMPTY)
        elif isinstance(command, SetDomain):
            self._result(label, SUCCESS)
            if command.on:
                self.disabled_domains.discard(command.domain)
            else:
                self.disabled_domains.add(command.domain)
        elif isinstance(command, Mark):
            state = self._marker_state(step.domain)
            if state != "no":
                self._emit(("mark", step.message), required=state == "yes")
        elif isinstance(command, RangeStart):
            state = self._marker_state(step.domain)
            if state != "no":
                self._emit(("start", step.message), required=state == "yes")
            self.ranges[label] = _Range(recorded=state != "no", domain=step.domain)
            self.prediction.range_recorded[label] = state == "yes"
        elif isinstance(command, RangeEnd):
            self._range_end(step)
        elif isinstance(command, Malloc):
            state = self._host_hook_state("MEMORY")
            if state != "no":
                self._emit(("alloc", label), required=state == "yes")
            self._correlation(state)
        elif isinstance(command, Free):
            state = self._host_hook_state("MEMORY")
            if state != "no":
                self._emit(("release", step.target), required=state == "yes")
            self._correlation(state)

    def _range_end(self, step: Step) -> None:
        started = self.ranges.get(step.target)
        if started is None or not started.recorded:
            return  # nothing started, or a start without a record: never an END (MSTX-07)
        state = self._marker_state(started.domain)
        key: Key = ("end", step.target)
        if state == "yes" and self.prediction.range_recorded.get(step.target, False):
            self._emit(key, required=True)
        elif self.profile == "spec":
            self._emit(key, required=False)
