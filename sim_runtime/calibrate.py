"""``npu-sim calibrate``: the timing model against public Ascend measurements.

Every row of ``sim_runtime/data/calibration.toml`` is run on the simulator (virtual clock, results not
computed) by a small C++ program over the public CANN API (``data/calibrate_runner.cpp``: aclnn
operators, asynchronous copies, HCCL with ranks as threads, HIXL), and its simulated time is set beside
the published figure. The summary counts the rows within +-25 % of the real figure, separately for
``fit`` rows (the model's coefficients were derived from them) and ``check`` rows (kept aside).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim_runtime.config import SimConfig
from sim_runtime.native_build import ProgramBuildError, build_program
from sim_runtime.toolkit import LINK_LIBRARIES, Toolkit, build_toolkit

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

DATA_DIR = Path(__file__).resolve().parent / "data"
CALIBRATION_FILE = DATA_DIR / "calibration.toml"
RUNNER_SOURCE = DATA_DIR / "calibrate_runner.cpp"
TOLERANCE = 0.25
USES = ("fit", "check")
CLASSES = (
    "cube",
    "cube-small",
    "attention",
    "attention-cross",
    "vector",
    "copy",
    "p2p",
    "collective",
    "hixl",
    "host",
)
UNITS = ("us", "ms", "TFLOPS", "GB/s")
#: HIXL's transfer paths: its own transfer kernel (hixl_cs) or the communication domain (HCCL one-sided).
HIXL_PATHS = ("cs", "comm")
#: Row keys passed to the runner as key=value.
SHAPE_KEYS = (
    "dtype",
    "batch",
    "heads",
    "m",
    "n",
    "k",
    "sq",
    "skv",
    "d",
    "elements",
    "rows",
    "cols",
    "direction",
    "bytes",
    "local",
    "path",
    "total",
    "ranks",
    "iters",
)
REQUIRED = ("id", "class", "op", "soc", "real", "unit", "method", "use", "quality", "source", "conditions")


class CalibrationError(RuntimeError):
    """The calibration table is malformed or a row could not be run."""


class CalibrationUsageError(CalibrationError):
    """What the user gave (a rows file, a CANN path) cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class Row:
    """One published measurement (a ``[[row]]`` of calibration.toml)."""

    id: str
    cls: str
    op: str
    soc: str
    real: float
    unit: str
    method: str
    use: str
    quality: str
    source: str
    conditions: str
    shape: Mapping[str, Any]

    def real_ns(self) -> float:
        """The published figure as the time of one operation, in ns."""
        return self.ns_of(self.real)

    def ns_of(self, value: float) -> float:
        if self.unit == "us":
            return value * 1e3
        if self.unit == "ms":
            return value * 1e6
        if self.unit == "TFLOPS":
            flops = 2.0 * float(self.shape["m"]) * float(self.shape["n"]) * float(self.shape["k"])
            flops *= float(self.shape.get("batch", 1))
            return flops / (value * 1e3)
        return float(self.shape["bytes"]) / value  # GB/s is bytes per ns

    def value_of(self, ns: float) -> float:
        """A time of one operation in the row's unit (the inverse of ``ns_of``)."""
        return self.ns_of(ns) if self.unit in ("TFLOPS", "GB/s") else ns / self.ns_of(1.0)


@dataclass(frozen=True)
class Result:
    row: Row
    simulated_ns: float

    @property
    def ratio(self) -> float:
        """Simulated time / real time."""
        return self.simulated_ns / self.row.real_ns()

    @property
    def within(self) -> bool:
        return abs(self.ratio - 1.0) <= TOLERANCE


def load_rows(path: Path = CALIBRATION_FILE) -> list[Row]:
    """The rows of the calibration table (or a file of measured rows in its format), validated."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationUsageError(
            f"{path}: no such file; give a rows file in calibration.toml's format"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise CalibrationUsageError(f"{path}: cannot read it ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise CalibrationUsageError(f"{path}: not valid TOML: {error}") from None
    if not isinstance(data.get("row", []), list):
        raise CalibrationUsageError(f"{path.name}: `row` must be an array of tables ([[row]])")
    rows: list[Row] = []
    seen: set[str] = set()
    for index, table in enumerate(data.get("row", [])):
        where = f"{path.name}: row[{index}]"
        missing = [key for key in REQUIRED if key not in table]
        if missing:
            raise CalibrationError(f"{where}: missing {', '.join(missing)}")
        if table["id"] in seen:
            raise CalibrationError(f"{where}: duplicate id {table['id']!r}")
        seen.add(table["id"])
        if table["use"] not in USES:
            raise CalibrationError(f"{where}: use must be one of {', '.join(USES)}")
        if table["class"] not in CLASSES:
            raise CalibrationError(f"{where}: class must be one of {', '.join(CLASSES)}")
        if table["unit"] not in UNITS:
            raise CalibrationError(f"{where}: unit must be one of {', '.join(UNITS)}")
        if table["class"] == "hixl" and table.get("path") not in HIXL_PATHS:
            raise CalibrationError(f"{where}: a hixl row's path must be one of {', '.join(HIXL_PATHS)}")
        real = table["real"]
        if isinstance(real, bool) or not isinstance(real, (int, float)) or not real > 0:
            raise CalibrationError(f"{where}: real must be a positive number")
        rows.append(
            Row(
                id=table["id"],
                cls=table["class"],
                op=table["op"],
                soc=table["soc"],
                real=float(table["real"]),
                unit=table["unit"],
                method=table["method"],
                use=table["use"],
                quality=table["quality"],
                source=table["source"],
                conditions=table["conditions"],
                shape={key: table[key] for key in SHAPE_KEYS if key in table},
            )
        )
    return rows


def select(rows: Iterable[Row], which: str, ids: Sequence[str] = ()) -> list[Row]:
    """Rows of one use ("fit", "check" or "all"), optionally only the named ids."""
    chosen = [row for row in rows if which == "all" or row.use == which]
    if ids:
        known = {row.id for row in chosen}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise CalibrationUsageError(f"unknown row id(s): {', '.join(unknown)}")
        chosen = [row for row in chosen if row.id in ids]
    return chosen


def build_runner(
    toolkit: Toolkit, cache: Path | None = None, libs: Sequence[str] = (*LINK_LIBRARIES, "hixl", "pthread")
) -> Path:
    """Compiles the runner against the toolkit (once per source and toolkit), linked to ``libs``."""
    compiler = shutil.which(os.environ.get("CXX", "g++"))
    if compiler is None:
        raise CalibrationError("npu-sim calibrate needs a C++17 compiler (g++ or $CXX) to build its runner")
    try:
        return build_program(
            compiler,
            [RUNNER_SOURCE],
            toolkit,
            cache=cache if cache is not None else Path.home() / ".cache" / "npu-sim" / "calibrate",
            flags=["-std=c++17", "-O1"],
            libs=list(libs),
        )
    except ProgramBuildError as error:
        raise CalibrationError(f"building the calibration runner failed: {error}") from error


def run_row(row: Row, runner: Path, toolkit: Toolkit, base: SimConfig) -> Result:
    """Runs one row in its own process and returns its simulated time."""
    devices = max(int(row.shape.get("ranks", 1)), 1)
    config = base.replace(soc=row.soc, clock="virtual", devices=max(devices, base.devices))
    environ = dict(os.environ)
    environ.update(toolkit.env(config, preload=False, environ=os.environ))
    environ.update({"NPU_SIM_TIMING_ONLY": "1", "HCCL_SIM_DATA": "0"})
    return Result(row, run_runner(runner, row, environ)[1])


def run_runner(runner: Path, row: Row, environ: Mapping[str, str]) -> tuple[str, float]:
    """Runs the runner on one row in ``environ``: the SoC it reports and the time of one operation (ns)."""
    args = [str(runner), row.op, row.method, *(f"{key}={value}" for key, value in row.shape.items())]
    try:
        done = subprocess.run(
            args, env=dict(environ), capture_output=True, text=True, timeout=600, check=False
        )
    except subprocess.TimeoutExpired:
        raise CalibrationError(f"row {row.id}: the runner did not finish within 600 s") from None
    found = dict(line.split("=", 1) for line in done.stdout.splitlines() if line.startswith(("ns=", "soc=")))
    if done.returncode != 0 or "ns" not in found:
        raise CalibrationError(f"row {row.id}: the runner failed ({done.returncode}): {done.stderr.strip()}")
    return found.get("soc", "unknown"), float(found["ns"])


def summary(results: Sequence[Result]) -> dict[str, tuple[int, int]]:
    """use -> (rows within +-25 %, rows)."""
    out: dict[str, tuple[int, int]] = {}
    for use in USES:
        mine = [r for r in results if r.row.use == use]
        if mine:
            out[use] = (sum(r.within for r in mine), len(mine))
    return out


@dataclass(frozen=True)
class ClassSummary:
    """The rows of one class and use: how many, how many within +-25 %, the worst factor off."""

    cls: str
    use: str
    rows: int
    within: int
    max_off: float  # max over rows of max(ratio, 1 / ratio)


def class_summary(results: Sequence[Result]) -> list[ClassSummary]:
    """One entry per (class, use) present, in CLASSES then USES order."""
    out: list[ClassSummary] = []
    for cls in CLASSES:
        for use in USES:
            mine = [r for r in results if r.row.cls == cls and r.row.use == use]
            if mine:
                out.append(
                    ClassSummary(
                        cls=cls,
                        use=use,
                        rows=len(mine),
                        within=sum(r.within for r in mine),
                        max_off=max(max(r.ratio, 1 / r.ratio) for r in mine),
                    )
                )
    return out


def render_classes(results: Sequence[Result]) -> str:
    """The per-class table: class, use, rows, within +-25 %, the worst factor off."""
    table = [("class", "use", "rows", "within +-25 %", "max off (x)")]
    for s in class_summary(results):
        table.append((s.cls, s.use, str(s.rows), str(s.within), f"{s.max_off:.2f}"))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(widths[i]) if i < 2 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ).rstrip()
        for row in table
    )


def _fmt(value: float) -> str:
    return f"{value:.4g}" if value < 1e5 else f"{value:.0f}"


def render(results: Sequence[Result]) -> str:
    header = ("row", "use", "class", "soc", "unit", "real", "simulated", "sim/real time", "")
    table = [header]
    for r in results:
        table.append(
            (
                r.row.id,
                r.row.use,
                r.row.cls,
                r.row.soc,
                r.row.unit,
                _fmt(r.row.real),
                _fmt(r.row.value_of(r.simulated_ns)),
                f"{r.ratio:.3f}",
                "" if r.within else "off",
            )
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(widths[i]) if i < 5 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ).rstrip()
        for row in table
    ]
    lines.append("")
    lines.append(render_classes(results))
    lines.append("")
    for use, (good, total) in summary(results).items():
        lines.append(f"{use}: {good} of {total} within +-25 %")
    worst = max(results, key=lambda r: max(r.ratio, 1 / r.ratio), default=None)
    if worst is not None:
        lines.append(f"worst: {worst.row.id} at {worst.ratio:.3f} x the real time")
    return "\n".join(lines)


def as_json(results: Sequence[Result]) -> str:
    return json.dumps(
        {
            "tolerance": TOLERANCE,
            "rows": [
                {
                    "id": r.row.id,
                    "use": r.row.use,
                    "class": r.row.cls,
                    "soc": r.row.soc,
                    "unit": r.row.unit,
                    "real": r.row.real,
                    "simulated": r.row.value_of(r.simulated_ns),
                    "real_ns": r.row.real_ns(),
                    "simulated_ns": r.simulated_ns,
                    "ratio": r.ratio,
                    "within": r.within,
                    "source": r.row.source,
                }
                for r in results
            ],
            "summary": {
                use: {"within": good, "rows": total} for use, (good, total) in summary(results).items()
            },
            "classes": [
                {"class": s.cls, "use": s.use, "rows": s.rows, "within": s.within, "max_off": s.max_off}
                for s in class_summary(results)
            ],
        },
        indent=2,
    )


def calibrate(
    which: str = "all", ids: Sequence[str] = (), *, cache: Path | None = None, jobs: int = 1
) -> list[Result]:
    """Runs the selected rows (``jobs`` at a time, each in its own process) and returns their results,
    in table order."""
    rows = select(load_rows(), which, ids)
    toolkit = build_toolkit(None)
    runner = build_runner(toolkit, cache)
    base = SimConfig.from_env()
    with ThreadPoolExecutor(max_workers=max(jobs, 1)) as pool:
        return list(pool.map(lambda row: run_row(row, runner, toolkit, base), rows))


__all__ = [
    "CALIBRATION_FILE",
    "CalibrationError",
    "CalibrationUsageError",
    "ClassSummary",
    "Result",
    "Row",
    "calibrate",
    "class_summary",
    "load_rows",
]
