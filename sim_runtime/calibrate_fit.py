"""``npu-sim calibrate --fit ROWS.toml``: a site timing profile fitted to measured rows.

The profile is a TOML file of ``[soc.<name>]`` and ``[hccl.<topology>]`` tables naming only the
coefficients it changes over ``sim_runtime/data/timing.toml``; ``NPU_SIM_CONFIG``'s ``timing`` key (or
``NPU_SIM_TIMING``) loads it. Which coefficients are fitted follows from the classes of the rows given
(:data:`COEFFICIENTS`); each starts from its built-in value.

The model is the simulator itself: every evaluation runs the rows on the simulator (the calibration
runner, virtual clock) with a candidate profile, so the fit needs no second copy of the cost formulas.
It is a damped Gauss-Newton least squares of log(simulated / measured) over the log of the
coefficients, with forward differences; a coefficient's derivative re-runs only the rows it can move.
"""

from __future__ import annotations

import math
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from sim_runtime import soc as soc_catalogue
from sim_runtime.calibrate import (
    DATA_DIR,
    CalibrationUsageError,
    Row,
    build_runner,
    run_row,
)
from sim_runtime.config import SimConfig
from sim_runtime.toolkit import Toolkit, build_toolkit

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

TIMING_FILE = DATA_DIR / "timing.toml"
#: Relative step of the forward differences, and the convergence bound on a step (in log).
STEP = 0.01
CONVERGED = 1e-4
MAX_ITERATIONS = 12


@dataclass(frozen=True)
class Coefficient:
    """A fitted coefficient: its table (``soc`` or ``hccl``), the table's name, its key."""

    table: str
    name: str
    key: str

    def label(self) -> str:
        return f"{self.table}.{self.name}.{self.key}"


def _hixl_kind(row: Row) -> str:
    """A HIXL row's kind of transfer: "write" from device memory, "read" into it, "host" when the local
    memory is host memory (either direction); "" for a row of another class."""
    if row.cls != "hixl":
        return ""
    if row.shape.get("local") == "host":
        return "host"
    return "read" if row.op == "hixl_read" else "write"


#: key -> (table, the rows it moves). A coefficient is fitted when at least one row of the file moves it.
COEFFICIENTS: Mapping[str, tuple[str, Callable[[Row], bool]]] = {
    "cube_efficiency": ("soc", lambda r: r.cls in ("cube", "cube-small")),
    "cube_wave_ns": ("soc", lambda r: r.cls in ("cube", "cube-small")),
    "cube_rate_fp32": ("soc", lambda r: r.cls in ("cube", "cube-small") and r.shape.get("dtype") == "fp32"),
    "cube_rate_hf32": ("soc", lambda r: r.cls in ("cube", "cube-small") and r.shape.get("dtype") == "hf32"),
    # Up to head 128 an A2 tile is bound by its softmax (docs/timing.md): the cube efficiency shows only in
    # rows of larger heads, the softmax time in every attention row.
    "attention_efficiency": (
        "soc",
        lambda r: r.cls in ("attention", "attention-cross") and int(r.shape.get("d", 0)) > 128,
    ),
    "attention_vector_tile_ns": ("soc", lambda r: r.cls in ("attention", "attention-cross")),
    "attention_fill_tiles": ("soc", lambda r: r.cls in ("attention", "attention-cross")),
    # HIXL: a fixed cost per transfer and a rate for each kind of transfer.
    "hixl_alpha_ns": ("soc", lambda r: _hixl_kind(r) == "write"),
    "hixl_gbps": ("soc", lambda r: _hixl_kind(r) == "write"),
    "hixl_read_alpha_ns": ("soc", lambda r: _hixl_kind(r) == "read"),
    "hixl_read_gbps": ("soc", lambda r: _hixl_kind(r) == "read"),
    "hixl_host_alpha_ns": ("soc", lambda r: _hixl_kind(r) == "host"),
    "hixl_host_gbps": ("soc", lambda r: _hixl_kind(r) == "host"),
    # Host: a launch plus synchronise round trip determines the synchronisation's return cost (the other
    # families' shares of the round trip are estimates, docs/timing.md).
    "acl_sync_ns": ("soc", lambda r: r.cls == "host"),
    "collective_link_gbps": ("hccl", lambda r: r.cls == "collective"),
    "p2p_link_gbps": ("hccl", lambda r: r.cls == "p2p"),
}
#: Coefficients that need rows of more than one size to be told apart from their partner.
NEEDS_SIZES = {
    "cube_wave_ns",
    "attention_fill_tiles",
    "hixl_alpha_ns",
    "hixl_read_alpha_ns",
    "hixl_host_alpha_ns",
}


def builtin_values() -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """timing.toml's numeric coefficients per SoC (family values, then the SoC's) and per topology."""
    data = tomllib.loads(TIMING_FILE.read_text(encoding="utf-8"))
    families = data.get("family", {})
    socs: dict[str, dict[str, float]] = {}
    for name, table in data.get("soc", {}).items():
        merged = {k: v for k, v in families.get(table.get("family"), {}).items() if _is_number(v)}
        merged.update({k: v for k, v in table.items() if _is_number(v)})
        socs[name] = merged
    hccl = {n: {k: v for k, v in t.items() if _is_number(v)} for n, t in data.get("hccl", {}).items()}
    return socs, hccl


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _start(key: str, values: Mapping[str, float]) -> float:
    """The built-in value a coefficient starts from (a rate the family leaves at 0 uses its fallback)."""
    value = float(values.get(key, 0.0))
    if value <= 0 and key in ("hixl_read_gbps", "hixl_host_gbps"):
        value = float(values.get("hixl_gbps", 0.0))
    if value <= 0 and key in ("hixl_read_alpha_ns", "hixl_host_alpha_ns"):
        value = float(values.get("hixl_alpha_ns", 0.0))
    return value


@dataclass(frozen=True)
class Fit:
    """The fitted coefficients with their starting values, and the fit's residuals before and after."""

    start: Mapping[Coefficient, float]
    fitted: Mapping[Coefficient, float]
    rows: int
    within_before: int
    within_after: int
    iterations: int


def choose(rows: Sequence[Row]) -> dict[Coefficient, list[int]]:
    """The coefficients the rows can determine, each with the indices of the rows it moves."""
    catalogue = soc_catalogue.default_catalogue()
    socs, hccl = builtin_values()
    chosen: dict[Coefficient, list[int]] = {}
    for index, row in enumerate(rows):
        if row.soc not in socs:
            raise CalibrationUsageError(
                f"row {row.id}: SoC {row.soc!r} is not in the catalogue (see `npu-sim info`); "
                "a site profile is fitted per simulated SoC"
            )
        for key, (table, moves) in COEFFICIENTS.items():
            if not moves(row):
                continue
            name = row.soc if table == "soc" else catalogue.get(row.soc).topology
            values = socs[row.soc] if table == "soc" else hccl.get(name, {})
            if _start(key, values) <= 0:
                continue  # a coefficient the model does not use for this SoC
            chosen.setdefault(Coefficient(table, name, key), []).append(index)
    for coefficient in [c for c in chosen if c.key in NEEDS_SIZES]:
        sizes = {tuple(sorted(rows[i].shape.items())) for i in chosen[coefficient]}
        if len(sizes) < 2:
            del chosen[coefficient]
    return chosen


def render_profile(values: Mapping[Coefficient, float], header: str = "") -> str:
    """A site timing profile (the TOML NPU_SIM_CONFIG's `timing` key loads)."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    for table in ("soc", "hccl"):
        for name in sorted({c.name for c in values if c.table == table}):
            quoted = name if name.replace("_", "").isalnum() else f'"{name}"'
            lines.append("")
            lines.append(f"[{table}.{quoted}]")
            for c in sorted((c for c in values if c.table == table and c.name == name), key=lambda c: c.key):
                lines.append(f"{c.key} = {values[c]:.6g}")
    return "\n".join(lines).lstrip("\n") + "\n"


class _Simulator:
    """Runs rows on the simulator with a candidate profile."""

    def __init__(self, rows: Sequence[Row], workdir: Path, toolkit: Toolkit, runner: Path, jobs: int) -> None:
        self.rows = rows
        self.workdir = workdir
        self.toolkit = toolkit
        self.runner = runner
        self.base = SimConfig.from_env().replace(faults=(), kernel_costs=None)
        self.jobs = jobs
        self.runs = 0

    def times(self, values: Mapping[Coefficient, float], indices: Sequence[int]) -> dict[int, float]:
        self.runs += 1
        profile = self.workdir / f"profile-{self.runs}.toml"
        profile.write_text(render_profile(values), encoding="utf-8")
        config = self.base.replace(timing=profile)
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            results = pool.map(lambda i: run_row(self.rows[i], self.runner, self.toolkit, config), indices)
            return {i: r.simulated_ns for i, r in zip(indices, results, strict=True)}


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the normal equations are small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-300:
            return [0.0] * n
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows: Sequence[Row], *, cache: Path | None = None, jobs: int = 2) -> Fit:
    """Fits the coefficients the rows determine, starting from the built-in values."""
    if not rows:
        raise CalibrationUsageError("the rows file has no [[row]]; give rows written by --measure")
    chosen = choose(rows)
    if not chosen:
        raise CalibrationUsageError(
            "no fitted coefficient is moved by these rows (classes with coefficients: cube, cube-small, "
            "attention, attention-cross, hixl, collective, p2p)"
        )
    socs, hccl = builtin_values()
    coefficients = sorted(chosen, key=Coefficient.label)
    start = {c: _start(c.key, socs[c.name] if c.table == "soc" else hccl[c.name]) for c in coefficients}
    measured = [math.log(row.real_ns()) for row in rows]
    toolkit = build_toolkit(None)
    runner = build_runner(toolkit, cache)
    every = range(len(rows))
    with tempfile.TemporaryDirectory(prefix="npu-sim-fit-") as tmp:
        sim = _Simulator(rows, Path(tmp), toolkit, runner, jobs)
        x = {c: math.log(v) for c, v in start.items()}

        def residuals(point: Mapping[Coefficient, float], indices: Sequence[int]) -> dict[int, float]:
            values = {c: math.exp(v) for c, v in point.items()}
            return {i: math.log(t) - measured[i] for i, t in sim.times(values, indices).items()}

        r = residuals(x, every)
        before = sum(abs(math.exp(v) - 1) <= 0.25 for v in r.values())
        damping = 1e-3
        iterations = 0
        while iterations < MAX_ITERATIONS:
            iterations += 1
            jac: dict[Coefficient, dict[int, float]] = {}
            for c in coefficients:
                moved = dict(x)
                moved[c] += STEP
                rc = residuals(moved, chosen[c])
                jac[c] = {i: (rc[i] - r[i]) / STEP for i in chosen[c]}
            n = len(coefficients)
            jtj = [
                [sum(jac[a].get(i, 0.0) * jac[b].get(i, 0.0) for i in every) for b in coefficients]
                for a in coefficients
            ]
            jtr = [sum(jac[a].get(i, 0.0) * r[i] for i in every) for a in coefficients]
            cost = sum(v * v for v in r.values())
            while True:
                system = [
                    [jtj[i][j] + (damping * jtj[i][i] if i == j else 0.0) for j in range(n)] for i in range(n)
                ]
                step = _solve(system, [-v for v in jtr])
                trial = {c: x[c] + step[k] for k, c in enumerate(coefficients)}
                rt = residuals(trial, every)
                if sum(v * v for v in rt.values()) <= cost or damping > 1e6:
                    break
                damping *= 10
            if sum(v * v for v in rt.values()) <= cost:
                x, r = trial, rt
                damping = max(damping / 10, 1e-6)
            if max(abs(s) for s in step) < CONVERGED:
                break
        after = sum(abs(math.exp(v) - 1) <= 0.25 for v in r.values())
    return Fit(
        start=start,
        fitted={c: math.exp(x[c]) for c in coefficients},
        rows=len(rows),
        within_before=before,
        within_after=after,
        iterations=iterations,
    )


def render_fit(result: Fit, rows_file: Path) -> str:
    """The profile, with a header saying what it was fitted to and how each coefficient moved."""
    header = [
        f"Site timing profile fitted by `npu-sim calibrate --fit {rows_file.name}` to {result.rows} rows",
        f"({result.within_before} within +-25 % with the built-in coefficients, "
        f"{result.within_after} with these).",
        "Load it with NPU_SIM_CONFIG's `timing` key or NPU_SIM_TIMING (docs/timing.md).",
        "",
        "coefficient: built-in -> fitted",
    ]
    header += [f"  {c.label()}: {result.start[c]:.6g} -> {v:.6g}" for c, v in result.fitted.items()]
    return render_profile(result.fitted, "\n".join(header))


__all__ = [
    "COEFFICIENTS",
    "Coefficient",
    "Fit",
    "builtin_values",
    "choose",
    "fit",
    "render_fit",
    "render_profile",
]
