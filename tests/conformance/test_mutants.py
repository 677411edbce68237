"""Mutation check: the suite catches deliberately broken builds of our msPTI, each by the right clause.

The mutants are data (``mutants/mutants.toml``): exact edits of ``csrc/mspti`` and the clause ids that
must catch them. ``support.mutants`` builds the unmutated library (the control) and every mutant from
one scratch copy of the sources, compiling only the msPTI target; the simulator is the one the other
tests use (``NPU_SIM_BUILD_DIR`` or the installed package). Each mutant must fail every clause it
lists, through that clause's own checks, while the control passes the same clauses in the same
session, so a mutant test cannot pass because a clause fails for everyone.

Skipped under the sanitizer runs: the mutants are built without sanitizers, and the check grades the
suite, not the library.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from conformance.catalogue import load_catalogue
from conformance.scenarios import SCENARIOS
from conformance.target import TargetError, resolve_target
from support.mutants import (
    MSPTI_DIR,
    REPO,
    Edit,
    Mutant,
    MutantError,
    MutantWorkshop,
    grade,
    install_under_test,
    load_mutants,
    mutated_sources,
)
from support.native import python_subprocess_env

MUTANTS = load_mutants()
#: A failure reason the runner gives when a scenario broke instead of its checks failing.
_NOT_GRADED = ("the scenario failed", "the scenario's checker did not grade")


# ---------------------------------------------------------------------------------- the data file


def test_every_mutant_is_caught_by_automated_clauses_of_the_spec_profile() -> None:
    catalogue = {clause.id: clause for clause in load_catalogue()}
    assert len(MUTANTS) >= 4
    for mutant in MUTANTS:
        for clause_id in mutant.clauses:
            assert clause_id in catalogue, f"mutant {mutant.name}: unknown clause {clause_id}"
            clause = catalogue[clause_id]
            assert clause.scenario in SCENARIOS, f"mutant {mutant.name}: {clause_id} is not automated"
            graded = clause.expectation("spec").applies
            assert graded, f"mutant {mutant.name}: the spec profile does not grade {clause_id}"
            runs_here = "MULTI" not in clause.environment and set(clause.environment) != {"HW"}
            assert runs_here, f"mutant {mutant.name}: {clause_id} does not run on one simulated device"


def test_every_mutant_applies_to_the_current_sources() -> None:
    for mutant in MUTANTS:
        changed = mutated_sources(mutant, REPO)
        assert changed, mutant.name
        for original, mutated in changed.values():
            assert original != mutated, mutant.name


def _tree(tmp_path: Path, text: str) -> Path:
    source = tmp_path / MSPTI_DIR / "src" / "a.cpp"
    source.parent.mkdir(parents=True)
    source.write_text(text, encoding="utf-8")
    return tmp_path


def _mutant(*edits: Edit) -> Mutant:
    return Mutant("m", "a test mutant", ("ACT-REG-01",), edits)


def test_an_anchor_that_vanished_fails_loudly(tmp_path: Path) -> None:
    root = _tree(tmp_path, "int f() { return 1; }\n")
    vanished = re.escape("mutant m no longer applies: snippet not found in csrc/mspti/src/a.cpp")
    with pytest.raises(MutantError, match=vanished):
        mutated_sources(_mutant(Edit("src/a.cpp", "return 2;", "return 3;")), root)
    with pytest.raises(
        MutantError, match=re.escape("mutant m no longer applies: csrc/mspti/src/b.cpp is gone")
    ):
        mutated_sources(_mutant(Edit("src/b.cpp", "return 1;", "return 3;")), root)


def test_an_anchor_must_be_unique(tmp_path: Path) -> None:
    root = _tree(tmp_path, "int f() { return 1; }\nint g() { return 1; }\n")
    with pytest.raises(MutantError, match="snippet found 2 times"):
        mutated_sources(_mutant(Edit("src/a.cpp", "return 1;", "return 3;")), root)


def test_edits_apply_in_order_to_one_file(tmp_path: Path) -> None:
    root = _tree(tmp_path, "int f() { return 1; }\n")
    mutant = _mutant(Edit("src/a.cpp", "return 1;", "return 2;"), Edit("src/a.cpp", "return 2;", "return 3;"))
    changed = mutated_sources(mutant, root)
    assert list(changed.values()) == [("int f() { return 1; }\n", "int f() { return 3; }\n")]
    assert (root / MSPTI_DIR / "src" / "a.cpp").read_text(encoding="utf-8") == "int f() { return 1; }\n"


def test_the_loader_rejects_malformed_mutants(tmp_path: Path) -> None:
    path = tmp_path / "mutants.toml"
    path.write_text('[[mutant]]\nname = "x"\nsummary = "s"\nclauses = []\n', encoding="utf-8")
    with pytest.raises(MutantError, match="clauses"):
        load_mutants(path)
    path.write_text('[[mutant]]\nname = "x"\nsummary = "s"\nclauses = ["ACT-REG-01"]\n', encoding="utf-8")
    with pytest.raises(MutantError, match=re.escape("no [[mutant.edit]]")):
        load_mutants(path)


# ---------------------------------------------------------------------------------- the campaign


@dataclass
class Campaign:
    workshop: MutantWorkshop
    slot: Path
    reports: Path
    env: dict[str, str]

    def grade(
        self, library: Path, clauses: tuple[str, ...], name: str
    ) -> tuple[int, dict[str, dict[str, Any]]]:
        return grade(install_under_test(library, self.slot), clauses, self.reports / name, self.env)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    if os.environ.get("NPU_SIM_TEST_SANITIZE"):
        pytest.skip("the mutation check runs without sanitizers")
    missing = [tool for tool in ("cmake", "ninja", "g++") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"building mutants needs {', '.join(missing)}")
    if not (REPO / MSPTI_DIR / "CMakeLists.txt").is_file():
        pytest.skip("building mutants needs the source tree")
    try:
        resolve_target()
    except (TargetError, FileNotFoundError) as error:
        pytest.skip(f"no native build to run the mutants on: {error}")
    work = tmp_path_factory.mktemp("mutants")
    env = python_subprocess_env()
    workshop = MutantWorkshop(work / "workshop", env)
    return Campaign(workshop, work / "under-test", work / "reports", env)


@pytest.fixture(scope="module")
def control(campaign: Campaign) -> dict[str, dict[str, Any]]:
    """The clauses of every mutant, graded on the unmutated library built like the mutants."""
    clauses = tuple(dict.fromkeys(clause for mutant in MUTANTS for clause in mutant.clauses))
    _status, results = campaign.grade(campaign.workshop.control(), clauses, "control")
    return results


def test_the_unmutated_library_passes_every_mutants_clauses(control: dict[str, dict[str, Any]]) -> None:
    listed = {clause_id for mutant in MUTANTS for clause_id in mutant.clauses}
    missing = sorted(listed - set(control))
    assert not missing, f"the control's report does not name {missing}"
    failed = {cid: c["reason"] for cid, c in control.items() if cid in listed and c["verdict"] != "pass"}
    assert not failed


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_the_suite_catches_the_mutant(
    mutant: Mutant, campaign: Campaign, control: dict[str, dict[str, Any]]
) -> None:
    for clause_id in mutant.clauses:  # the control: these clauses hold for the unmutated library
        assert control.get(clause_id, {}).get("verdict") == "pass", f"the control did not pass {clause_id}"
    status, results = campaign.grade(campaign.workshop.mutant(mutant), mutant.clauses, mutant.name)
    assert status == 1, f"mutant {mutant.name} ({mutant.summary}) passed the suite"
    for clause_id in mutant.clauses:
        result = results.get(clause_id)
        assert result is not None, f"the report of mutant {mutant.name} does not name {clause_id}"
        assert result["verdict"] == "fail", (
            f"mutant {mutant.name} ({mutant.summary}) was not caught by {clause_id}: {result['verdict']}"
        )
        assert result["failures"], clause_id
        assert not result["reason"].startswith(_NOT_GRADED), (
            f"{clause_id} failed for mutant {mutant.name} without its checks catching it: {result['reason']}"
        )
