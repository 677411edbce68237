"""Helpers of the reliability tests (imported by conftest.py and the test modules)."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support.native import REPO, NativeTree, ProgramBuilder, Stalled, run_program, run_watched_program

PROGRAMS = Path(__file__).resolve().parent / "programs"

# msptiDropReason (mspti_ext.h): the reasons a drop can carry, by value.
DROP_REASONS = {
    1: "NO_BUFFER",
    2: "BUFFER_TOO_SMALL",
    3: "DEVICE_HALF_LOST",
    4: "COLLECTION_FAILED",
    5: "BAD_ARGUMENT",
    6: "KIND_DISABLED",
}


@dataclass
class Figures:
    """What the fault campaign measured in this session (printed at the end, kept as JSON lines)."""

    cases: list[dict[str, object]] = field(default_factory=list)
    path: Path | None = None
    matrix: list[str] = field(default_factory=list)  # the fault matrix's summaries

    def add(self, case: dict[str, object]) -> None:
        self.cases.append(case)
        self.write(case)

    def add_matrix_run(self, run: dict[str, object]) -> None:
        """One run of the fault matrix: kept with the campaign's, not summed with them."""
        self.write(run)

    def write(self, record: dict[str, object]) -> None:
        if self.path is not None:
            with self.path.open("a") as out:
                out.write(json.dumps(record) + "\n")


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


@dataclass
class Outcome:
    returncode: int
    stdout: str
    stderr: str

    @property
    def errors(self) -> list[str]:
        return [line[2:] for line in self.stdout.splitlines() if line.startswith("E ")]

    def figures(self, tag: str = "S") -> dict[str, str]:
        out: dict[str, str] = {}
        for line in self.stdout.splitlines():
            if line.startswith(tag + " "):
                out.update(item.split("=", 1) for item in line[2:].split() if "=" in item)
        return out

    def check(self) -> Outcome:
        assert self.returncode == 0, f"exit {self.returncode}\n{self.stdout[-3000:]}\n{self.stderr[-3000:]}"
        assert not self.errors, "\n".join(self.errors[:40]) + "\n" + self.stderr[-2000:]
        return self


def run(
    programs: ReliabilityPrograms,
    exe: Path,
    args: list[str],
    preload: bool = True,
    timeout: float = 120,
    stall: float | None = None,
    **env_overrides: str,
) -> Outcome:
    """Runs a reliability program (virtual clock unless told). With `stall`, the program prints a
    "P " line whenever it gets further, and only `stall` seconds without one count as a hang: a run
    slowed down by a loaded machine may take longer than `timeout`, which is then only a safety
    net at ten times its value."""
    settings = {"NPU_SIM_CLOCK": "virtual", "NPU_SIM_LOG_LEVEL": "off", **env_overrides}
    env = programs.native.env(preload_mspti=preload, **settings)
    if stall is not None:
        try:
            proc = run_watched_program(exe, env, args, "P ", stall_s=stall, limit_s=10 * timeout)
        except Stalled as hang:
            pytest.fail(f"{hang}; output so far:\n{hang.stdout[-3000:]}\n{hang.stderr[-2000:]}")
        return Outcome(proc.returncode, proc.stdout, proc.stderr)
    try:
        proc = run_program(exe, env, args=args, timeout=timeout)
    except subprocess.TimeoutExpired as hang:
        pytest.fail(f"{args}: hung (killed after {hang.timeout} s); output so far:\n{hang.stdout!r}")
    return Outcome(proc.returncode, proc.stdout, proc.stderr)
