"""The clause catalogue: content, validation and selection."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conformance.catalogue import ENVIRONMENTS, LEVELS, Catalogue, CatalogueError, load_catalogue
from conformance.scenarios import PLANNED, SCENARIOS, known_scenarios, load_checked_catalogue

GROUPS = {
    "GEN-HDR",
    "GEN-SYM",
    "GEN-RES",
    "GEN-ABI",
    "GEN-ENV",
    "GEN-LIFE",
    "GEN-TIME",
    "ACT-REG",
    "ACT-ENABLE",
    "ACT-BUF",
    "ACT-ITER",
    "ACT-FLUSH",
    "ACT-PERIOD",
    "ACT-CORR",
    "ACT-EXT",
    "MSTX",
    "MSTX-DOM",
    "MARK-DOM",
    "ACT-KERNEL",
    "ACT-API",
    "ACT-MEM",
    "ACT-MEMCPY",
    "ACT-MEMSET",
    "ACT-HCCL",
    "ACT-COMM",
    "CB-SUB",
    "CB-UNSUB",
    "CB-EN",
    "CB-DOM",
    "CB-ORDER",
    "CB-DATA",
    "CB-LDP",
    "CB-THR",
    "THR",
    "PY-IMPORT",
    "PY-ENUM",
    "PY-START",
    "PY-STOP",
    "PY-FLUSH",
    "PY-BUF",
    "PY-CB",
    "PY-DATA",
    "PY-RANGE",
    "PY-DOM",
    "PLAT",
    "EXT-DROP",
    "STATE",
    "REL-UNSUB",
    "REL-MSTX",
    "REL-DEV",
    "REL-FORK",
    "REL-EXIT",
}


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_checked_catalogue()


def test_catalogue_holds_every_reference_clause(catalogue: Catalogue) -> None:
    assert len(catalogue) == 190
    assert {clause.group for clause in catalogue} == GROUPS
    counts = {
        group: sum(1 for c in catalogue if c.group == group)
        for group in ("ACT-BUF", "ACT-EXT", "MSTX", "THR")
    }
    assert counts == {"ACT-BUF": 13, "ACT-EXT": 13, "MSTX": 10, "THR": 7}


def test_every_clause_is_well_formed(catalogue: Catalogue) -> None:
    ids = [clause.id for clause in catalogue]
    assert len(ids) == len(set(ids))
    for clause in catalogue:
        assert clause.level in LEVELS
        assert set(clause.environment) <= set(ENVIRONMENTS)
        assert clause.statement and clause.source
        assert clause.scenario in known_scenarios(), clause.id
        if clause.level == "AMB":
            assert clause.amb is not None, clause.id
            assert clause.spec.applies and clause.upstream.applies, clause.id


def test_every_implemented_and_planned_scenario_is_used(catalogue: Catalogue) -> None:
    used = catalogue.scenarios()
    assert set(SCENARIOS) <= used
    assert set(PLANNED) <= used


def test_profile_defaults_follow_the_level(catalogue: Catalogue) -> None:
    doc = catalogue.get("ACT-ITER-06")
    assert doc.spec.applies and not doc.upstream.applies
    assert "--profile spec" in doc.upstream.reason
    upstream = catalogue.get("ACT-BUF-05")
    assert upstream.upstream.applies and not upstream.spec.applies
    assert upstream.upstream["markers_per_full_buffer"] == 15
    assert catalogue.get("ACT-BUF-10").spec.applies  # an UPSTREAM clause the contract keeps
    amb = catalogue.get("ACT-EXT-05")
    assert amb.spec["null_out"] == ["SUCCESS"] and amb.upstream["null_out"] == ["INVALID_PARAMETER"]
    with pytest.raises(KeyError, match="no expectation"):
        amb.spec["missing"]


def test_selection_by_glob_substring_scenario_and_commas(catalogue: Catalogue) -> None:
    assert [c.id for c in catalogue.select(["ACT-REG-*"])] == [
        "ACT-REG-01",
        "ACT-REG-02",
        "ACT-REG-03",
        "ACT-REG-04",
    ]
    assert {c.id for c in catalogue.select(["ext_stack"])} == {f"ACT-EXT-0{i}" for i in range(1, 6)}
    both = catalogue.select(["ACT-REG-01, GEN-ABI-01"])
    assert [c.id for c in both] == ["GEN-ABI-01", "ACT-REG-01"]
    assert len(catalogue.select([])) == len(catalogue)
    assert all("marker" in (c.id + c.statement + c.scenario).lower() for c in catalogue.select(["marker"]))


CLAUSE = """
[[clause]]
id = "{id}"
statement = "a statement"
source = "a source"
level = "{level}"
environment = {environment}
scenario = "{scenario}"
{extra}
"""


def write(tmp_path: Path, *clauses: dict[str, str]) -> Path:
    text = "[meta]\nversion = 1\n"
    for clause in clauses:
        values = {
            "id": "GEN-ABI-01",
            "level": "MUST",
            "environment": '["HOST"]',
            "scenario": "abi_lock",
            "extra": "",
            **clause,
        }
        text += textwrap.dedent(CLAUSE.format(**values))
    path = tmp_path / "clauses.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("clauses", "message"),
    [
        ([{}, {}], "duplicate clause id GEN-ABI-01"),
        ([{"scenario": "no_such_scenario"}], "GEN-ABI-01: unknown scenario 'no_such_scenario'"),
        ([{"level": "SHOULD"}], "GEN-ABI-01: level 'SHOULD'"),
        ([{"environment": '["CLOUD"]'}], "GEN-ABI-01: environment"),
        ([{"level": "AMB"}], "GEN-ABI-01: an AMB clause must name its ambiguity item"),
        ([{"extra": 'colour = "red"'}], "GEN-ABI-01: unknown key"),
        ([{"id": "gen-1"}], "id must look like"),
        ([{"extra": "[clause.spec]\napplies = 3"}], "spec.applies must be true or false"),
    ],
)
def test_malformed_catalogues_are_rejected(
    tmp_path: Path, clauses: list[dict[str, str]], message: str
) -> None:
    with pytest.raises(CatalogueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_checked_catalogue(write(tmp_path, *clauses))


def test_the_catalogue_alone_checks_no_scenario_names(tmp_path: Path) -> None:
    path = write(tmp_path, {"scenario": "no_such_scenario"})
    assert load_catalogue(path).get("GEN-ABI-01").scenario == "no_such_scenario"
    with pytest.raises(CatalogueError, match="unknown scenario 'no_such_scenario'"):
        load_catalogue(path, scenarios=known_scenarios())


def test_a_valid_small_catalogue_loads(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {},
        {"id": "ACT-ITER-06", "level": "DOC", "scenario": ""},
        {
            "id": "ACT-EXT-02",
            "level": "AMB",
            "scenario": "ext_stack",
            "extra": 'amb = 5\n[clause.upstream]\ninvalid_kind = ["SUCCESS"]',
        },
    )
    catalogue = load_catalogue(path, scenarios={"abi_lock", "ext_stack"})
    assert [c.id for c in catalogue] == ["GEN-ABI-01", "ACT-ITER-06", "ACT-EXT-02"]
    assert catalogue.get("ACT-ITER-06").scenario == ""
    assert catalogue.get("ACT-EXT-02").upstream["invalid_kind"] == ["SUCCESS"]
    with pytest.raises(KeyError):
        catalogue.get("GEN-ABI-99")


def test_a_missing_or_broken_file_is_a_catalogue_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="cannot read"):
        load_catalogue(tmp_path / "absent.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[[clause]\n", encoding="utf-8")
    with pytest.raises(CatalogueError, match="not valid TOML"):
        load_catalogue(broken)
