"""Helpers of the reliability tests (imported by conftest.py and the test modules)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from support.native import REPO, NativeTree, ProgramBuilder

PROGRAMS = Path(__file__).resolve().parent / "programs"


@dataclass
class Figures:
    """What the fault campaign measured in this session (printed at the end, kept as JSON lines)."""

    cases: list[dict[str, object]] = field(default_factory=list)
    path: Path | None = None

    def add(self, case: dict[str, object]) -> None:
        self.cases.append(case)
        if self.path is not None:
            with self.path.open("a") as out:
                out.write(json.dumps(case) + "\n")


@dataclass(frozen=True)
class ReliabilityPrograms:
    native: NativeTree
    builder: ProgramBuilder

    def build(self, name: str, libs: list[str], cpp_core: bool = False) -> Path:
        flags = [f"-I{PROGRAMS}"]
        if cpp_core:
            flags.append(f"-I{REPO / 'csrc' / 'sim'}")  # the simulator core API (fault counters)
        return self.builder.build([PROGRAMS / name], libs=libs, extra_flags=flags)

    def fault_workload(self) -> Path:
        """programs/fault_workload.cpp: the fault campaign's and the fault matrix's workload."""
        return self.build(
            "fault_workload.cpp", ["hccl", "hcomm", "ascendcl", "profapi", "npusim", "mspti"], cpp_core=True
        )
