"""Scenarios: each one runs workload processes and grades the clauses that name it.

Importing this package registers every scenario module.
"""

from __future__ import annotations

from pathlib import Path

from conformance.catalogue import Catalogue, load_catalogue
from conformance.scenarios import (  # noqa: F401  (imported for their registrations)
    abi,
    activity_api,
    buffers,
    callbacks,
    collectives,
    device,
    external,
    graph,
    iteration,
    lifecycle,
    markers,
    planned_list,
    python_hccl,
    python_monitors,
    python_mstx,
    reentrancy,
    reliability,
    stateful_scenario,
    threads,
)
from conformance.scenarios.registry import PLANNED, SCENARIOS, Scenario, ScenarioEnv

__all__ = ["PLANNED", "SCENARIOS", "Scenario", "ScenarioEnv", "known_scenarios", "load_checked_catalogue"]


def known_scenarios() -> set[str]:
    """Names a catalogue clause may refer to: implemented and planned scenarios."""
    return set(SCENARIOS) | set(PLANNED)


def load_checked_catalogue(path: Path | None = None) -> Catalogue:
    """The catalogue (the shipped one by default) with every clause's scenario known to the registry."""
    return load_catalogue(path, scenarios=known_scenarios())
