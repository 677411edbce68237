"""Deliberately broken builds of our msPTI library, for checking that the conformance suite catches them.

A mutant is data (``tests/conformance/mutants/mutants.toml``): a name, the clause ids that must catch
it and exact source edits under ``csrc/mspti``. Production source carries no mutation switches.
``MutantWorkshop`` copies the sources once into a scratch tree, builds the unmutated library there
(the control) and then each mutant by applying its edits, rebuilding only the ``mspti`` target
(Ninja recompiles just the edited files) and restoring the sources. An edit whose anchor no longer
occurs exactly once fails loudly, so a refactor of msPTI surfaces here instead of silently turning
a mutant into a copy of the control.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
MUTANTS_FILE = REPO / "tests" / "conformance" / "mutants" / "mutants.toml"
#: Mutant edits name files relative to this directory.
MSPTI_DIR = Path("csrc") / "mspti"
#: What the scratch tree needs to configure the project (the simulator's CMake reads its data files).
_TREE = (Path("CMakeLists.txt"), Path("cmake"), Path("csrc"), Path("sim_runtime") / "data")
#: Fast, warning-tolerant flags: only the mspti target is compiled, and an edit may leave a warning. No
#: link-time optimisation: each mutant relinks msPTI, and an LTO link recompiles every unit of it.
_CMAKE_FLAGS = (
    "-G",
    "Ninja",
    "-DCMAKE_BUILD_TYPE=Release",
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG",
    "-DNPU_SIM_LTO=OFF",
    "-DNPU_SIM_WERROR=OFF",
    "-DNPU_SIM_PYTHON_BINDINGS=OFF",
    "-DNPU_SIM_SANITIZE=",
    "-DNPU_SIM_FETCH_TOMLPP=OFF",  # only msPTI is built: no toml++ (nor nlohmann/json) is needed
)
#: Variables naming files or directories that the conformance run reads.
_PATH_VARIABLES = ("NPU_SIM_BUILD_DIR", "NPU_SIM_CONFIG", "NPU_SIM_KERNEL_COSTS", "MSPTI_CONFORMANCE_CACHE")


class MutantError(RuntimeError):
    """A mutant is malformed, no longer applies to the sources, or did not build."""


@dataclass(frozen=True)
class Edit:
    file: str  # relative to csrc/mspti
    find: str
    replace: str


@dataclass(frozen=True)
class Mutant:
    name: str
    summary: str
    clauses: tuple[str, ...]
    edits: tuple[Edit, ...]


@dataclass
class BuildTimes:
    """Seconds spent per step, for the report of a run."""

    steps: dict[str, float] = field(default_factory=dict)

    def add(self, step: str, seconds: float) -> None:
        self.steps[step] = self.steps.get(step, 0.0) + seconds


def _text(table: Mapping[str, Any], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value:
        raise MutantError(f"{where}: `{key}` must be a non-empty string")
    return value


def load_mutants(path: Path = MUTANTS_FILE) -> list[Mutant]:
    """The mutants of ``path``; raises MutantError on a malformed entry or a duplicate name."""
    with path.open("rb") as stream:
        data = tomllib.load(stream)
    mutants: list[Mutant] = []
    seen: set[str] = set()
    for index, entry in enumerate(data.get("mutant", [])):
        name = _text(entry, "name", f"{path.name}: mutant #{index + 1}")
        if name in seen:
            raise MutantError(f"{path.name}: duplicate mutant name {name!r}")
        seen.add(name)
        clauses = entry.get("clauses")
        if not isinstance(clauses, list) or not clauses or not all(isinstance(c, str) for c in clauses):
            raise MutantError(f"mutant {name}: `clauses` must be a non-empty list of clause ids")
        edits = tuple(
            Edit(
                _text(edit, "file", f"mutant {name}"),
                _text(edit, "find", f"mutant {name}"),
                edit.get("replace", ""),
            )
            for edit in entry.get("edit", [])
        )
        if not edits:
            raise MutantError(f"mutant {name}: no [[mutant.edit]]")
        mutants.append(Mutant(name, _text(entry, "summary", f"mutant {name}"), tuple(clauses), edits))
    return mutants


def mutated_sources(mutant: Mutant, root: Path) -> dict[Path, tuple[str, str]]:
    """``{file: (original, mutated)}`` for the files the mutant edits under ``root``.

    Every anchor must occur exactly once in the file as it stands after the mutant's earlier edits.
    """
    changed: dict[Path, tuple[str, str]] = {}
    for edit in mutant.edits:
        path = root / MSPTI_DIR / edit.file
        if path not in changed:
            if not path.is_file():
                raise MutantError(f"mutant {mutant.name} no longer applies: {MSPTI_DIR / edit.file} is gone")
            original = path.read_text(encoding="utf-8")
            changed[path] = (original, original)
        original, text = changed[path]
        count = text.count(edit.find)
        if count != 1:
            what = "snippet not found" if count == 0 else f"snippet found {count} times"
            raise MutantError(
                f"mutant {mutant.name} no longer applies: {what} in {MSPTI_DIR / edit.file}:\n{edit.find}"
            )
        changed[path] = (original, text.replace(edit.find, edit.replace))
    return changed


def _run(command: Sequence[str], env: Mapping[str, str], what: str) -> None:
    result = subprocess.run(list(command), capture_output=True, text=True, env=dict(env))
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip()[-4000:]
        raise MutantError(f"{what} failed:\n$ {' '.join(command)}\n{output}")


class MutantWorkshop:
    """Builds the control library and mutants from one scratch copy of the sources."""

    def __init__(self, work_dir: Path, env: Mapping[str, str], *, source: Path = REPO, jobs: int = 2) -> None:
        self.work_dir = work_dir
        self.src = work_dir / "src"
        self.build_dir = work_dir / "build"
        self.out_dir = work_dir / "lib"
        self.env = dict(env)
        self.source = source
        self.jobs = jobs
        self.times = BuildTimes()
        self._configured = False

    def _copy_sources(self) -> None:
        for relative in _TREE:
            origin = self.source / relative
            target = self.src / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if origin.is_dir():
                shutil.copytree(origin, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy2(origin, target)

    def check(self, mutants: Iterable[Mutant]) -> None:
        """Raises MutantError if any mutant does not apply to the current sources."""
        for mutant in mutants:
            mutated_sources(mutant, self.source)

    def _configure(self) -> None:
        if self._configured:
            return
        started = time.monotonic()
        self._copy_sources()
        command = ["cmake", "-S", str(self.src), "-B", str(self.build_dir), *_CMAKE_FLAGS]
        _run(command, self.env, "configuring the mutant build")
        self._configured = True
        self.times.add("configure", time.monotonic() - started)

    def _build(self, name: str) -> Path:
        started = time.monotonic()
        command = ["cmake", "--build", str(self.build_dir), "--target", "mspti", "-j", str(self.jobs)]
        _run(command, self.env, f"building {name}")
        out = self.out_dir / name / "libmspti.so"
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.build_dir / "lib64" / "libmspti.so", out)
        self.times.add(f"build {name}", time.monotonic() - started)
        return out

    def control(self) -> Path:
        """The unmutated library, built with the mutants' flags."""
        self._configure()
        return self._build("control")

    def mutant(self, mutant: Mutant) -> Path:
        """The library with the mutant's edits; the scratch sources are restored afterwards."""
        self._configure()
        changed = mutated_sources(mutant, self.src)
        try:
            for path, (_original, mutated) in changed.items():
                path.write_text(mutated, encoding="utf-8")
            library = self._build(mutant.name)
        finally:
            for path, (original, _mutated) in changed.items():
                path.write_text(original, encoding="utf-8")
        control = self.out_dir / "control" / "libmspti.so"
        if control.is_file() and control.read_bytes() == library.read_bytes():
            raise MutantError(f"mutant {mutant.name} built a library identical to the control")
        return library


def install_under_test(library: Path, slot: Path) -> Path:
    """Copies ``library`` to ``slot/libmspti.so`` and returns that path.

    Every library under test goes through the same path, so the conformance suite's workload cache
    (keyed by the library's path, not its bytes) builds each workload once for the whole campaign.
    """
    slot.mkdir(parents=True, exist_ok=True)
    target = slot / "libmspti.so"
    temporary = slot / f".libmspti.so.{os.getpid()}"
    shutil.copy2(library, temporary)
    os.replace(temporary, target)
    return target


def grade(
    library: Path, clauses: Iterable[str], report_dir: Path, env: Mapping[str, str], timeout: float = 600.0
) -> tuple[int, dict[str, dict[str, Any]]]:
    """Runs ``mspti-conformance run --mspti library -k <clause>...``; its exit status and clauses by id.

    ``-k`` also selects clauses whose id merely contains a listed id (THR-01 selects CB-THR-01 too);
    callers look only at the clauses they listed.
    """
    command = [sys.executable, "-m", "conformance", "run", "--mspti", str(library)]
    command += ["--report-dir", str(report_dir), "-j", "2"]
    for clause in clauses:
        command += ["-k", clause]
    # Run outside the checkout: `python -m` puts the working directory first on sys.path, and the
    # packages must come from PYTHONPATH (the installed ones under tox). Paths the caller gave
    # relative to its own directory stay valid.
    report_dir.mkdir(parents=True, exist_ok=True)
    run_env = dict(env)
    for name in _PATH_VARIABLES:
        if run_env.get(name):
            run_env[name] = str(Path(run_env[name]).absolute())
    result = subprocess.run(
        command, capture_output=True, text=True, env=run_env, timeout=timeout, cwd=report_dir
    )
    report = report_dir / "report.json"
    if result.returncode not in (0, 1) or not report.is_file():
        output = f"{result.stdout}\n{result.stderr}"
        raise MutantError(f"the conformance run failed ({result.returncode}):\n{output}")
    data = json.loads(report.read_text(encoding="utf-8"))
    return result.returncode, {clause["id"]: clause for clause in data["clauses"]}
