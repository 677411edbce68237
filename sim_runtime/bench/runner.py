"""Runs benchmarks over rounds and builds and prints their figures side by side.

Within a round every build runs once, in the order given (round-robin), so that the builds of one
round face the same machine; each figure is printed as the median and range over the rounds, with
the ratio of the median to its target (sim_runtime/data/bench_targets.toml).
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from subprocess import SubprocessError

from sim_runtime.bench import BENCHMARKS
from sim_runtime.bench.core import NOT_PROVIDED, Benchmark, BenchmarkUnavailable, Build, Figure, Target
from sim_runtime.toolkit import TOOLKIT_DIR_VAR, build_toolkit

__all__ = [
    "EXIT_FAILED",
    "EXIT_UNAVAILABLE",
    "BenchResult",
    "UnknownBenchmarkError",
    "as_json",
    "exit_status",
    "make_builds",
    "render",
    "run_benchmarks",
]

#: A benchmark failed to run.
EXIT_FAILED = 1
#: A benchmark could not run here (a required tool such as valgrind is missing); none failed.
EXIT_UNAVAILABLE = 3


class UnknownBenchmarkError(ValueError):
    """A name that is no benchmark; the message lists the available ones."""


@dataclass
class BenchResult:
    """The values of one benchmark: ``values[label]`` holds one mapping per round (None for a figure
    the build's library cannot give)."""

    benchmark: Benchmark
    builds: list[Build]
    values: dict[str, list[dict[str, float | None]]] = field(default_factory=dict)
    error: str | None = None
    unavailable: bool = False

    @property
    def rounds(self) -> int:
        """Rounds completed by the build that completed most (a failure stops the others early)."""
        return max((len(v) for v in self.values.values()), default=0)


def select(names: Sequence[str]) -> list[Benchmark]:
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        raise UnknownBenchmarkError(
            f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(BENCHMARKS)}"
        )
    return [BENCHMARKS[name] for name in (names or list(BENCHMARKS))]


def make_builds(libraries: Sequence[Path]) -> list[Build]:
    """One build per library (A, B, ... in the order given); ours ("ours") when none is given.

    Each library gets a toolkit of its own under the toolkit cache (``$NPU_SIM_TOOLKIT_DIR`` would
    make them share one folder), so that programs compiled against it load that library.
    """
    environ = {k: v for k, v in os.environ.items() if k != TOOLKIT_DIR_VAR}
    if not libraries:
        return [Build("ours", build_toolkit(None, environ=environ))]
    return [
        Build(chr(ord("A") + i) if i < 26 else f"B{i}", build_toolkit(Path(lib), environ=environ))
        for i, lib in enumerate(libraries)
    ]


def run_benchmarks(
    benchmarks: Sequence[Benchmark],
    builds: Sequence[Build],
    rounds: int,
    count: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[BenchResult]:
    """Runs each benchmark ``rounds`` times per build, alternating the builds within each round.

    A benchmark that fails or cannot run here is recorded with its message; the others still run.
    """
    results = []
    for bench in benchmarks:
        columns = list(builds) if bench.uses_mspti else list(builds[:1])
        result = BenchResult(bench, columns, {b.label: [] for b in columns})
        results.append(result)
        for round_index in range(rounds):
            for build in columns:
                if progress is not None:
                    progress(f"{bench.name}: round {round_index + 1} of {rounds}, build {build.label}")
                try:
                    with tempfile.TemporaryDirectory(prefix=f"npu-sim-bench-{bench.name}-") as tmp:
                        values = dict(bench.measure(build, count or bench.default_count, Path(tmp)))
                except BenchmarkUnavailable as error:
                    result.error, result.unavailable = str(error), True
                except (RuntimeError, SubprocessError, OSError, ValueError, KeyError) as error:
                    result.error = f"build {build.label}: {error}"
                else:
                    result.values[build.label].append(values)
                    continue
                break
            if result.error is not None:
                break
    return results


def exit_status(results: Sequence[BenchResult]) -> int:
    if any(r.error is not None and not r.unavailable for r in results):
        return EXIT_FAILED
    return EXIT_UNAVAILABLE if any(r.unavailable for r in results) else 0


@dataclass(frozen=True)
class Summary:
    """A figure over the rounds of one build."""

    values: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)


def summarise(result: BenchResult, figure: Figure, label: str) -> Summary | None:
    values = tuple(value for v in result.values.get(label, []) if (value := v.get(figure.key)) is not None)
    return Summary(values) if values else None


def not_provided(result: BenchResult, figure: Figure, label: str) -> bool:
    """True when every round of ``label`` gave None for ``figure``: its library cannot give it."""
    rounds = result.values.get(label, [])
    return bool(rounds) and all(figure.key in v and v[figure.key] is None for v in rounds)


def _number(value: float, digits: int) -> str:
    return f"{value:,.{digits}f}"


def _verdict(target: Target, measured: float) -> str:
    ratio = target.ratio(measured)
    mark = "ok" if target.meets(measured) else "miss"
    return mark if ratio is None else f"{ratio:.2f}x {mark}"


def render(results: Sequence[BenchResult], targets: dict[tuple[str, str], Target]) -> str:
    lines: list[str] = []
    for result in results:
        bench = result.benchmark
        lines.append(f"== {bench.name}: {bench.summary} ==")
        if result.error is not None:
            lines.append(f"{bench.name}: {'not run' if result.unavailable else 'failed'}: {result.error}")
        if result.rounds == 0:
            lines.append("")
            continue
        legend = "; ".join(f"{b.label} = {b.library}" for b in result.builds)
        scope = "msPTI builds" if bench.uses_mspti else "does not use msPTI; ran with"
        lines.append(f"{scope}: {legend}")
        lines.append(
            f"{result.rounds} round(s), builds alternating within each round; "
            "median [min .. max] over the rounds; ratio = median / target"
        )
        lines.extend(bench.notes)
        header = ["figure", "unit", "target"]
        for build in result.builds:
            header += [build.label, "ratio"]
        table = [header]
        for figure in bench.figures:
            target = targets.get((bench.name, figure.key))
            row = [figure.label, figure.unit, target.describe() if target else ""]
            for build in result.builds:
                summary = summarise(result, figure, build.label)
                if summary is None:
                    row += [NOT_PROVIDED if not_provided(result, figure, build.label) else "-", ""]
                    continue
                cell = _number(summary.median, figure.digits)
                if len(summary.values) > 1:
                    cell += (
                        f" [{_number(summary.low, figure.digits)} .. {_number(summary.high, figure.digits)}]"
                    )
                row += [cell, _verdict(target, summary.median) if target else ""]
            table.append(row)
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        for row in table:
            cells = [
                cell.ljust(w) if i < 2 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  ".join(cells).rstrip())
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def as_json(results: Sequence[BenchResult], targets: dict[tuple[str, str], Target]) -> str:
    out = []
    for result in results:
        bench = result.benchmark
        figures = []
        for figure in bench.figures:
            target = targets.get((bench.name, figure.key))
            per_build = {}
            for build in result.builds:
                summary = summarise(result, figure, build.label)
                if summary is None:
                    if not_provided(result, figure, build.label):
                        per_build[build.label] = {"values": [], "not_provided": NOT_PROVIDED}
                    continue
                per_build[build.label] = {
                    "values": list(summary.values),
                    "median": summary.median,
                    "min": summary.low,
                    "max": summary.high,
                    "ratio": target.ratio(summary.median) if target else None,
                    "meets_target": target.meets(summary.median) if target else None,
                }
            figures.append(
                {
                    "key": figure.key,
                    "label": figure.label,
                    "unit": figure.unit,
                    "target": None
                    if target is None
                    else {
                        "comparison": target.comparison,
                        "value": target.value,
                        "ceiling": target.ceiling,
                        "source": target.source,
                    },
                    "builds": per_build,
                }
            )
        out.append(
            {
                "name": bench.name,
                "rounds": result.rounds,
                "builds": [{"label": b.label, "library": str(b.library)} for b in result.builds],
                "error": result.error,
                "unavailable": result.unavailable,
                "figures": figures,
            }
        )
    return json.dumps({"benchmarks": out}, indent=2)
