"""The validator: valid facts pass, and every invariant broken on purpose is named, with the node.
The breakers (facts_breakers.py beside this file) cite the oam-tools check each one breaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mspti_trace import INVARIANTS, validate_documents, validate_facts
from mspti_trace.breakdown.validate import OAM_TOOLS_CHECKS, load_facts
from support.sibling import load_sibling

_breakers = load_sibling(Path(__file__).resolve().parent, "facts_breakers")
BREAKERS = _breakers.BREAKERS
Breaker = _breakers.Breaker
VC = _breakers.VC


def test_valid_facts_pass(facts_dir: Path) -> None:
    report = validate_facts(facts_dir)
    assert report.ok, report.summary()
    assert set(report.checked) == set(INVARIANTS)
    assert report.account is not None and report.account.endswith("+ 0 unattributed")


def test_every_invariant_has_a_breaking_test_and_cites_oam_tools() -> None:
    assert {b.invariant for b in BREAKERS} == set(INVARIANTS)
    assert set(OAM_TOOLS_CHECKS) == set(INVARIANTS)
    assert all(b.cites for b in BREAKERS)


def test_every_validate_conversion_check_is_reexpressed() -> None:
    # The labels of validate_conversion.py at 5f42532 (its MoE expert-inventory checks excepted:
    # the breakdown writes no expert inventory).
    labels = {
        "{field} identical across the three facts",
        "one analysis definition per node_id",
        "one performance record per node_id",
        "every performance node exists in analysis",
        "no source-only node carries metrics",
        "source-only entries use structure_node_id, not node_id",
        "every source-only node records a reason",
        "every performance record declares all metric keys",
        "sampled-window nodes report time_us as null",
        "every timeline owner resolves in analysis",
        "every timeline event has an owner",
        "timeline compute events match attributed kernels",
        "attributed + excluded + unattributed equals total kernels",
        "reported accounted kernel count is internally consistent",
        "kernel accounting coverage is 100%",
        "graph declares the v1 contract",
        "graph roots are nonempty",
        "graph declares section/source_architecture",
        "graph declares section/runtime_auxiliary",
        "graph declares explicit edges",
        "every edge carries tensor metadata and provenance",
        "every graph backendNodeId resolves in analysis",
        "source-only graph items carry no backendNodeId",
        "no device_profile means no clock is claimed",
        "top-level aicore_freq_mhz matches device_profile",
        "clock basis is a known provenance",
        "declared and derived clocks agree within tolerance",
        "cycle-implied time reconciles with reported counter time",
        "every pipeline ratio lies in [0,1]",
        "no counter metric without a counter-bearing kernel",
        "a duplicated collective reports counters on one row only",
    }
    covered = {
        c.split(": ", 1)[1] for checks in OAM_TOOLS_CHECKS.values() for c in checks if c.startswith(VC)
    }
    assert labels <= covered, labels - covered


@pytest.mark.parametrize("case", BREAKERS, ids=[b.breaker.__name__ for b in BREAKERS])
def test_a_broken_invariant_is_named_with_its_subject(facts_dir: Path, case: Breaker) -> None:
    docs = load_facts(facts_dir)
    subject = case.breaker(docs)
    report = validate_documents(docs)
    assert not report.ok, case.cites
    assert case.invariant in report.invariants_failed(), report.summary()
    named = [f for f in report.failures if f.invariant == case.invariant]
    assert any(f.subject == subject for f in named), report.summary()
    assert f"{case.invariant} [{subject}]" in report.summary()


def test_the_validator_reads_files_from_disk(facts_dir: Path) -> None:
    assert {"overlay", "bindings", "handoff"} <= set(load_facts(facts_dir))
    path = next(facts_dir.glob("*_timeline.json"))
    timeline = json.loads(path.read_text())
    timeline["model_id"] = "other"
    path.write_text(json.dumps(timeline))
    report = validate_facts(facts_dir)
    assert report.invariants_failed() == {"identity"}


def test_malformed_documents_are_reported_not_raised(facts_dir: Path) -> None:
    docs = load_facts(facts_dir)
    docs["perf"]["modules"] = "not a list"
    docs["timeline"]["events"] = [None, 3]
    docs["graph"]["roots"] = {"id": "section/source_architecture"}
    report = validate_documents(docs)
    assert not report.ok
    assert "schema" in report.invariants_failed()
    assert any(f.subject == "perf" and "$.modules" in f.message for f in report.failures), report.summary()
