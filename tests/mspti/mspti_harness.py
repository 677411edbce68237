"""The msPTI test harness: build a C/C++ test program, run it in a fresh process, parse its output.

Test programs print (see programs/collector.h):
  R {json}   one activity record
  C {json}   one callback
  E text     a failed check or a buffer-contract violation
  S k=v ...  the collector summary
  P k=v ...  program facts (pid, ids it saw, ...)
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from mspti_base.preload import preload_value
from mspti_base.record_layouts import ENUMS, KIND_RECORD
from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"

#: Activity kind short name -> value, every kind with a record (the record schema's).
KIND = {
    member.name.removeprefix("MSPTI_ACTIVITY_KIND_"): member.value
    for member in ENUMS["msptiActivityKind"].members
    if member.value in KIND_RECORD
}


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    records: list[dict] = field(default_factory=list)
    callbacks: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    summary: dict[str, int] = field(default_factory=dict)
    facts: dict[str, str] = field(default_factory=dict)

    def of(self, kind: str) -> list[dict]:
        return [r for r in self.records if r["kind"] == KIND[kind]]

    def check(self) -> Run:
        """Asserts a clean run: exit 0, no failed checks, no buffer-contract violations."""
        assert self.returncode == 0, (
            f"exit {self.returncode}\nstdout:\n{self.stdout[-4000:]}\nstderr:\n{self.stderr[-4000:]}"
        )
        assert not self.errors, "\n".join(self.errors[:50])
        return self


def parse(proc) -> Run:
    run = Run(proc.returncode, proc.stdout, proc.stderr)
    for line in proc.stdout.splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "R":
            run.records.append(json.loads(rest))
        elif tag == "C":
            run.callbacks.append(json.loads(rest))
        elif tag == "E":
            run.errors.append(rest)
        elif tag in ("S", "P"):
            target = run.summary if tag == "S" else run.facts
            for item in rest.split():
                k, _, v = item.partition("=")
                target[k] = int(v) if tag == "S" else v
    return run


class MsptiPrograms:
    def __init__(self, native: NativeTree, builder: ProgramBuilder) -> None:
        self.native = native
        self.builder = builder

    def build(
        self, name: str, libs: tuple[str, ...] = ("mspti",), extra_flags: list[str] | None = None
    ) -> Path:
        return self.builder.build(
            [PROGRAMS / name], libs=list(libs), extra_flags=[f"-I{PROGRAMS}", *(extra_flags or [])]
        )

    def run(
        self,
        name: str,
        *,
        libs: tuple[str, ...] = ("mspti",),
        preload: bool = False,
        args: list[str] | None = None,
        timeout: float = 120.0,
        extra_flags: list[str] | None = None,
        **env: str,
    ) -> Run:
        exe = self.build(name, libs, extra_flags)
        environment = self.native.env(preload_mspti=preload, **env)
        if preload and os.environ.get("NPU_SIM_TEST_SANITIZE", "") == "address":
            # The sanitizer runtime must be the first library of the process.
            asan = subprocess.run(
                ["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True
            ).stdout.strip()
            environment["LD_PRELOAD"] = preload_value(environment["LD_PRELOAD"], first=[asan])
        return parse(run_program(exe, environment, args=args, timeout=timeout))
