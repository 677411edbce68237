"""What every benchmark of ``npu-sim bench`` shares: figures, targets, the builds under test, the
environment of a benchmark program and the compilation of the programs shipped beside this module.

A benchmark is a :class:`Benchmark`: its ``measure`` function runs once per round and build and
returns one value per figure it declares. The runner (``sim_runtime.bench.runner``) alternates the
builds within each round and prints medians and ranges over the rounds.

The programs run against any libmspti: a function outside the documented API (mspti_ext.h, such as
msptiActivityGetDroppedRecords) is looked up at run time (programs/optional_symbols.h) and a figure
that needs one the library lacks is printed as JSON null. ``measure`` passes that on as None, and
the runner reports the figure as :data:`NOT_PROVIDED` for that build.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mspti_base.preload import preload_value
from sim_runtime.config import ENV_VARS, SimConfig
from sim_runtime.native_build import build_program
from sim_runtime.toolkit import Toolkit

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

__all__ = [
    "NOT_PROVIDED",
    "PROGRAMS",
    "TARGETS_FILE",
    "Benchmark",
    "BenchmarkUnavailable",
    "Build",
    "Figure",
    "Measured",
    "Target",
    "build_bench_program",
    "load_targets",
    "program_env",
    "run_bench_program",
]

PROGRAMS = Path(__file__).resolve().parent / "programs"
TARGETS_FILE = Path(__file__).resolve().parents[1] / "data" / "bench_targets.toml"
COMPARISONS = ("at_most", "at_least")
#: How a figure is reported for a build whose library cannot give it (a None from ``measure``).
NOT_PROVIDED = "not provided by this library"
#: What ``measure`` returns: a value per figure, None for one the library cannot give.
Measured = Mapping[str, float | None]


class BenchmarkUnavailable(RuntimeError):
    """A benchmark cannot run on this machine (a required tool is missing); the message says how to get it."""


@dataclass(frozen=True)
class Figure:
    """One figure a benchmark reports: ``key`` in its results, printed as ``label`` in ``unit``."""

    key: str
    label: str
    unit: str = ""
    digits: int = 1


@dataclass(frozen=True)
class Target:
    """The goal of one figure (a ``[[target]]`` of bench_targets.toml).

    ``value`` is the goal; ``ceiling``, where present, is the limit the instruction-budget test
    enforces today (above the goal until the hot path reaches it).
    """

    benchmark: str
    figure: str
    comparison: str
    value: float
    source: str
    ceiling: float | None = None

    def meets(self, measured: float) -> bool:
        return measured <= self.value if self.comparison == "at_most" else measured >= self.value

    def ratio(self, measured: float) -> float | None:
        """``measured / value``; None for a goal of 0 (no ratio: met or not)."""
        return measured / self.value if self.value else None

    def describe(self) -> str:
        sign = "<=" if self.comparison == "at_most" else ">="
        text = f"{sign} {self.value:,.10g}"
        return text if self.ceiling is None else f"{text} (ceiling {self.ceiling:,.10g})"


@dataclass(frozen=True)
class Build:
    """One libmspti.so under test, with the toolkit whose ``lib64/libmspti.so`` it is."""

    label: str
    toolkit: Toolkit

    @property
    def library(self) -> Path:
        return self.toolkit.mspti


@dataclass(frozen=True)
class Benchmark:
    """One benchmark: ``measure(build, count, work_dir)`` returns a value for every figure (None for
    one the build's library cannot give: reported as :data:`NOT_PROVIDED`).

    ``count`` is the launches or records of one run (None: ``default_count``). A benchmark with
    ``uses_mspti`` False does not depend on the build and runs once per round.
    """

    name: str
    summary: str
    figures: tuple[Figure, ...]
    measure: Callable[[Build, int, Path], Measured]
    default_count: int
    uses_mspti: bool = True
    notes: tuple[str, ...] = field(default_factory=tuple)


def load_targets(path: Path = TARGETS_FILE) -> dict[tuple[str, str], Target]:
    """(benchmark, figure) -> Target, from the data file; raises ValueError naming a malformed entry."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    targets: dict[tuple[str, str], Target] = {}
    for index, entry in enumerate(data.get("target", [])):
        where = f"{path.name}: target {index + 1}"
        missing = [k for k in ("benchmark", "figure", "comparison", "value", "source") if k not in entry]
        if missing:
            raise ValueError(f"{where} lacks {', '.join(missing)}")
        if entry["comparison"] not in COMPARISONS:
            raise ValueError(f"{where}: comparison must be one of {', '.join(COMPARISONS)}")
        ceiling = entry.get("ceiling")
        target = Target(
            benchmark=str(entry["benchmark"]),
            figure=str(entry["figure"]),
            comparison=str(entry["comparison"]),
            value=float(entry["value"]),
            source=str(entry["source"]),
            ceiling=None if ceiling is None else float(ceiling),
        )
        key = (target.benchmark, target.figure)
        if key in targets:
            raise ValueError(f"{where}: a second target for {key[0]}.{key[1]}")
        targets[key] = target
    return targets


_MSPTI_PRELOAD = re.compile(r"(^|/)libmspti[^/]*\.so")


def program_env(build: Build, *, clock: str, preload: bool, device_logs: str = "due") -> dict[str, str]:
    """The environment of a benchmark program on ``build``'s toolkit: the catalogue's defaults with
    ``clock``, ``device_logs`` and log level ``error`` (the caller's NPU_SIM_* settings do not apply),
    msPTI preloaded only when ``preload`` (an msPTI the caller's LD_PRELOAD names is removed)."""
    base = {k: v for k, v in os.environ.items() if k not in ENV_VARS.values() and k != "NPU_SIM_CONFIG"}
    kept = preload_value(
        base.get("LD_PRELOAD", ""), drop=lambda part: _MSPTI_PRELOAD.search(part) is not None
    )
    if kept:
        base["LD_PRELOAD"] = kept
    else:
        base.pop("LD_PRELOAD", None)
    config = SimConfig.defaults().replace(clock=clock, log_level="error", device_logs=device_logs)
    base.update(build.toolkit.env(config, preload=preload, environ=base))
    return base


def build_bench_program(
    source: str, toolkit: Toolkit, libs: Sequence[str], cache: Path | None = None
) -> Path:
    """Compiles ``programs/<source>`` (C, -O2) against ``toolkit``, once per source and toolkit."""
    compiler = shutil.which(os.environ.get("CC", "gcc"))
    if compiler is None:
        raise BenchmarkUnavailable("npu-sim bench needs a C compiler (gcc or $CC) to build its programs")
    return build_program(
        compiler,
        [PROGRAMS / source],
        toolkit,
        cache=cache if cache is not None else Path.home() / ".cache" / "npu-sim" / "bench",
        flags=["-std=gnu11", "-O2", f"-I{PROGRAMS}"],
        libs=[*libs, "pthread", "dl"],
    )


def run_bench_program(exe: Path, args: Sequence[str], env: Mapping[str, str], timeout: float) -> str:
    """Runs a benchmark program and returns its standard output; a failure or a timeout raises
    RuntimeError with the program's diagnostics."""
    try:
        done = subprocess.run(
            [str(exe), *args], env=dict(env), capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as error:
        raise RuntimeError(f"{exe.name} {' '.join(args)} did not finish within {timeout:g} s") from error
    if done.returncode != 0:
        raise RuntimeError(
            f"{exe.name} {' '.join(args)} failed (exit {done.returncode}):\n{done.stderr.strip()[-2000:]}"
        )
    return done.stdout
