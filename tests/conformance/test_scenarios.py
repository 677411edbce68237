"""Scenario definitions: registry consistency and the scripts they give the driver."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.build import WORKLOAD_DIR
from conformance.catalogue import load_catalogue
from conformance.execute import PROGRAMS
from conformance.scenarios import PLANNED, SCENARIOS, ScenarioEnv
from conformance.target import HEADER_FEATURES

FULL = ScenarioEnv(frozenset({*HEADER_FEATURES, "launch", "multi", "sim"}), "sim", 8)
MINIMAL = ScenarioEnv(frozenset({"mspti", "acl"}), "hardware", 1)
BLOCKS = {"repeat", "threads", "quiet", "fork", "on_thread"}


def driver_commands() -> set[str]:
    source = (WORKLOAD_DIR / "driver.cpp").read_text(encoding="utf-8")
    table = source[source.index("handlers() {") :]
    return set(re.findall(r'\{"(\w+)",', table))


def script_commands(script: str) -> set[str]:
    found = set()
    for line in script.splitlines():
        words = [w for w in line.split() if not w.startswith("@")]
        while words and words[0] == "repeat":
            words = words[2:]  # "repeat N CMD ..."
        if words and words[0] not in BLOCKS and words[0] not in ("{", "}"):
            found.add(words[0])
    return found


def test_registry_matches_the_catalogue() -> None:
    catalogue = load_catalogue()
    assert not set(SCENARIOS) & set(PLANNED)
    for name, scenario in SCENARIOS.items():
        assert scenario.check is not None, f"{name} has no checker"
        assert scenario.needs <= {*HEADER_FEATURES, "launch", "multi", "python", "sim", "hw"}, name
        assert any(clause.scenario == name for clause in catalogue), f"no clause uses {name}"


@pytest.mark.parametrize("env", [FULL, MINIMAL], ids=["full", "minimal"])
def test_scenario_scripts_use_only_driver_commands(env: ScenarioEnv) -> None:
    known = driver_commands()
    assert {"subscribe", "enable", "mark", "launch", "malloc", "dropped"} <= known
    for name, scenario in SCENARIOS.items():
        for invocation in scenario.build(env):
            assert invocation.program in PROGRAMS, name
            if invocation.script is not None:
                assert script_commands(invocation.script) <= known, name
                assert invocation.script.count("{") == invocation.script.count("}"), name
        labels = [w for inv in scenario.build(env) for w in (inv.script or "").split() if w.startswith("@")]
        per_invocation = {inv.name for inv in scenario.build(env)}
        assert len(per_invocation) == len(scenario.build(env)), f"{name}: invocation names must differ"
        if len(per_invocation) == 1:
            plain = [label for label in labels if "%" not in label]
            assert len(plain) == len(set(plain)), f"{name}: duplicate labels"


def test_scripts_adapt_to_the_features() -> None:
    register_full = SCENARIOS["register_errors"].build(FULL)[0].script or ""
    register_min = SCENARIOS["register_errors"].build(MINIMAL)[0].script or ""
    assert "mark registered-pair" in register_full and "mark" not in register_min
    order = SCENARIOS["enable_device_order"].build(FULL)
    assert [inv.name for inv in order] == ["enable_first", "device_first"]
    first = order[0].script or ""
    assert first.index("enable KERNEL") < first.index("set_device 0")


def test_every_workload_source_exists() -> None:
    for factory in PROGRAMS.values():
        for source in factory().sources:
            assert source.text is not None or (source.path is not None and Path(source.path).is_file())
