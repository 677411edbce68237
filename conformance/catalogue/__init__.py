"""The clause catalogue: loading, validation and selection.

The catalogue is data (``clauses.toml`` next to this module). Loading validates every clause: known
levels and environments, unique ids, known profile tables and scenario names that exist (implemented
or planned) in the scenario registry.
"""

from __future__ import annotations

import fnmatch
import re
import sys
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "DEFAULT_PATH",
    "ENVIRONMENTS",
    "LEVELS",
    "PROFILES",
    "Catalogue",
    "CatalogueError",
    "Clause",
    "ProfileExpectation",
    "load_catalogue",
]

DEFAULT_PATH = Path(__file__).resolve().parent / "clauses.toml"
LEVELS: tuple[str, ...] = ("MUST", "DOC", "UPSTREAM", "AMB")
ENVIRONMENTS: tuple[str, ...] = ("HOST", "SIM", "MULTI", "PY", "HW")
PROFILES: tuple[str, ...] = ("spec", "upstream")
_ID = re.compile(r"^[A-Z]+(-[A-Z]+)*-[0-9]{2}$")
_CLAUSE_KEYS = frozenset(
    {"id", "statement", "source", "level", "environment", "scenario", "amb", "note", *PROFILES}
)
_REASONS = {
    (
        "DOC",
        "upstream",
    ): "documented behaviour the vendor library is known not to show; graded by --profile spec",
    (
        "UPSTREAM",
        "spec",
    ): "vendor-observed behaviour outside the documented contract; graded by --profile upstream",
}


class CatalogueError(ValueError):
    """The catalogue file is malformed; the message names the clause and the problem."""


@dataclass(frozen=True)
class ProfileExpectation:
    """Whether a clause is graded under a profile, and the values its checker expects there."""

    applies: bool
    reason: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def __getitem__(self, key: str) -> Any:
        if key not in self.values:
            raise KeyError(f"the catalogue gives no expectation {key!r} for this profile")
        return self.values[key]


@dataclass(frozen=True)
class Clause:
    id: str
    statement: str
    source: str
    level: str
    environment: tuple[str, ...]
    scenario: str
    spec: ProfileExpectation
    upstream: ProfileExpectation
    amb: int | None = None
    note: str = ""

    @property
    def group(self) -> str:
        """The id without its number (``ACT-REG`` for ``ACT-REG-02``)."""
        return self.id.rsplit("-", 1)[0]

    def expectation(self, profile: str) -> ProfileExpectation:
        if profile not in PROFILES:
            raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")
        return self.spec if profile == "spec" else self.upstream

    def matches(self, pattern: str) -> bool:
        """``pattern`` is a glob on the id, or a case-insensitive substring of the id or statement."""
        if any(ch in pattern for ch in "*?["):
            return fnmatch.fnmatchcase(self.id.upper(), pattern.upper())
        needle = pattern.lower()
        return (
            needle in self.id.lower() or needle in self.statement.lower() or needle == self.scenario.lower()
        )


@dataclass(frozen=True)
class Catalogue:
    clauses: tuple[Clause, ...]
    default_soc: str
    version: int
    path: Path

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.clauses)

    def __len__(self) -> int:
        return len(self.clauses)

    def get(self, clause_id: str) -> Clause:
        for clause in self.clauses:
            if clause.id == clause_id:
                return clause
        raise KeyError(f"no clause {clause_id!r} in the catalogue")

    def select(self, patterns: Iterable[str] = ()) -> list[Clause]:
        """Clauses matching any pattern (all when there is none); a pattern may hold commas."""
        wanted = [p.strip() for pattern in patterns for p in re.split(r"[,\s]+", pattern) if p.strip()]
        if not wanted:
            return list(self.clauses)
        return [clause for clause in self.clauses if any(clause.matches(p) for p in wanted)]

    def scenarios(self) -> set[str]:
        return {clause.scenario for clause in self.clauses if clause.scenario}


def _profile(clause_id: str, level: str, name: str, table: Any) -> ProfileExpectation:
    default_applies = not (
        (level == "DOC" and name == "upstream") or (level == "UPSTREAM" and name == "spec")
    )
    if table is None:
        return ProfileExpectation(default_applies, "" if default_applies else _REASONS[(level, name)], {})
    if not isinstance(table, dict):
        raise CatalogueError(f"{clause_id}: [{name}] must be a table")
    values = dict(table)
    applies = values.pop("applies", default_applies)
    if not isinstance(applies, bool):
        raise CatalogueError(f"{clause_id}: {name}.applies must be true or false")
    reason = values.pop("reason", "")
    if not applies and not reason:
        reason = _REASONS.get((level, name), f"not graded under the {name} profile")
    return ProfileExpectation(applies, str(reason), values)


def _clause(raw: Mapping[str, Any], index: int) -> Clause:
    clause_id = raw.get("id")
    where = f"clause #{index + 1}" if not isinstance(clause_id, str) else clause_id
    if not isinstance(clause_id, str) or not _ID.match(clause_id):
        raise CatalogueError(f"{where}: id must look like GEN-ABI-01, got {clause_id!r}")
    unknown = sorted(set(raw) - _CLAUSE_KEYS)
    if unknown:
        raise CatalogueError(f"{where}: unknown key(s) {', '.join(unknown)}")
    for key in ("statement", "source", "level", "environment"):
        if key not in raw:
            raise CatalogueError(f"{where}: missing {key}")
    level = raw["level"]
    if level not in LEVELS:
        raise CatalogueError(f"{where}: level {level!r} is not one of {', '.join(LEVELS)}")
    environment = raw["environment"]
    if isinstance(environment, str):
        environment = [environment]
    if not environment or any(env not in ENVIRONMENTS for env in environment):
        raise CatalogueError(
            f"{where}: environment {environment!r} must list some of {', '.join(ENVIRONMENTS)}"
        )
    scenario = raw.get("scenario", "")
    if not isinstance(scenario, str):
        raise CatalogueError(f"{where}: scenario must be a string")
    amb = raw.get("amb")
    if level == "AMB" and amb is None:
        raise CatalogueError(f"{where}: an AMB clause must name its ambiguity item (amb = N)")
    if amb is not None and (not isinstance(amb, int) or amb < 1):
        raise CatalogueError(f"{where}: amb must be a positive item number")
    statement = raw["statement"]
    if not isinstance(statement, str) or not statement.strip():
        raise CatalogueError(f"{where}: statement must be a non-empty string")
    return Clause(
        id=clause_id,
        statement=statement.strip(),
        source=str(raw["source"]),
        level=level,
        environment=tuple(environment),
        scenario=scenario,
        spec=_profile(clause_id, level, "spec", raw.get("spec")),
        upstream=_profile(clause_id, level, "upstream", raw.get("upstream")),
        amb=amb,
        note=str(raw.get("note", "")),
    )


def load_catalogue(path: Path | None = None, *, scenarios: Collection[str] | None = None) -> Catalogue:
    """Load and validate the catalogue.

    ``scenarios`` is the set of scenario names the registry knows (implemented and planned); a
    clause naming any other scenario is an error. ``None`` checks no scenario names: the registry
    sits above the catalogue (docs/architecture.md, "Layers"), and
    :func:`conformance.scenarios.load_checked_catalogue` passes its names.
    """
    source = path or DEFAULT_PATH
    try:
        with source.open("rb") as stream:
            data = tomllib.load(stream)
    except OSError as error:
        raise CatalogueError(f"cannot read the catalogue {source}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError(f"{source}: not valid TOML: {error}") from None
    meta = data.get("meta", {})
    raw_clauses = data.get("clause")
    if not isinstance(raw_clauses, list) or not raw_clauses:
        raise CatalogueError(f"{source}: no [[clause]] entries")
    clauses = [_clause(raw, index) for index, raw in enumerate(raw_clauses)]
    seen: set[str] = set()
    for clause in clauses:
        if clause.id in seen:
            raise CatalogueError(f"{source}: duplicate clause id {clause.id}")
        seen.add(clause.id)
    known = None if scenarios is None else set(scenarios)
    for clause in clauses:
        if known is not None and clause.scenario and clause.scenario not in known:
            raise CatalogueError(
                f"{clause.id}: unknown scenario {clause.scenario!r} (not implemented and not planned)"
            )
    return Catalogue(
        tuple(clauses), str(meta.get("default_soc", "Ascend910B3")), int(meta.get("version", 1)), source
    )
