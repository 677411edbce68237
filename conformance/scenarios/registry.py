"""The scenario registry: implemented scenarios (invocations + checker) and planned ones."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from conformance.checks import CheckContext
from conformance.execute import Invocation

__all__ = ["PLANNED", "SCENARIOS", "Scenario", "ScenarioEnv", "planned", "scenario"]


@dataclass(frozen=True)
class ScenarioEnv:
    """What a scenario may adapt its workload to."""

    features: frozenset[str]
    kind: str = "sim"
    devices: int = 1
    #: What a Python driver process needs to import the package under test (conformance.python_target).
    python: Mapping[str, str] = field(default_factory=dict)

    @property
    def simulator(self) -> bool:
        return self.kind == "sim"


Builder = Callable[[ScenarioEnv], list[Invocation]]
Checker = Callable[[CheckContext], None]


class Scenario:
    """A named scenario: the features it needs, how to build its invocations and its checker."""

    def __init__(self, name: str, summary: str, needs: frozenset[str], build: Builder) -> None:
        self.name = name
        self.summary = summary
        self.needs = needs
        self.build = build
        self.check: Checker | None = None

    def checker(self, function: Checker) -> Checker:
        self.check = function
        return function

    def missing(self, features: frozenset[str]) -> list[str]:
        return sorted(self.needs - features)


SCENARIOS: dict[str, Scenario] = {}
#: Scenarios catalogued but not written yet: name -> what they are waiting for.
PLANNED: dict[str, str] = {}


def scenario(name: str, summary: str, needs: tuple[str, ...] = ("mspti",)) -> Callable[[Builder], Scenario]:
    """Register a scenario; decorate its invocation builder, then its checker with ``.checker``."""

    def register(build: Builder) -> Scenario:
        if name in SCENARIOS or name in PLANNED:
            raise ValueError(f"scenario {name!r} registered twice")
        entry = Scenario(name, summary, frozenset(needs), build)
        SCENARIOS[name] = entry
        return entry

    return register


def planned(name: str, waiting_for: str) -> None:
    if name in SCENARIOS or name in PLANNED:
        raise ValueError(f"scenario {name!r} registered twice")
    PLANNED[name] = waiting_for
