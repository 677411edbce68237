"""The fault matrix: every fault point of the simulator crossed with a workload that makes every record kind.

The expectations are data (fault_matrix.toml): for each fault point, whether the workload reaches it
and what a failing call can do to each record kind: make fewer records (a failed call makes none) or
have records counted as dropped for a named reason. They are worked out from what each point is,
never from results. A kind a point's entry does not name is untouched: the run must make exactly
what a run without faults makes, and deliver all of it.

This module reads the expectations, builds the plans and checks one run of the workload
(programs/fault_workload.cpp) against them; test_fault_matrix.py runs the plans.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from reliability_support import DROP_REASONS, ReliabilityPrograms

from mspti_base.record_layouts import ENUMS
from support.native import run_program

EXPECTATIONS = Path(__file__).resolve().parent / "fault_matrix.toml"

# The kinds the matrix checks: activity kind numbers (the record schema's), MARKER split by source.
_KIND_VALUES = ENUMS["msptiActivityKind"].values()
KINDS = {
    name: _KIND_VALUES[f"MSPTI_ACTIVITY_KIND_{name.removeprefix('HOST_').removeprefix('DEVICE_')}"]
    for name in (
        "KERNEL",
        "HOST_MARKER",
        "DEVICE_MARKER",
        "MEMORY",
        "MEMCPY",
        "MEMSET",
        "EXTERNAL_CORRELATION",
        "HCCL",
        "COMMUNICATION",
        "API",
        "ACL_API",
        "NODE_API",
        "RUNTIME_API",
    )
}
# Made from CANN's API reports: produced is what reached msPTI, `made` what CANN reported.
API_KINDS = ("API", "ACL_API", "NODE_API", "RUNTIME_API")
# MARKER drops are counted per kind only: those of a device half's reasons are the device marks'
# (the workload's host marks have valid messages and no stream), the buffer ones the host marks'.
DEVICE_MARKER_REASONS = ("DEVICE_HALF_LOST", "COLLECTION_FAILED", "BAD_ARGUMENT", "KIND_DISABLED")
HOST_MARKER_REASONS = ("NO_BUFFER", "BUFFER_TOO_SMALL")
CLOCKS = ("virtual", "wall")
RUN_TIMEOUT_S = 120


@dataclass(frozen=True)
class Expectation:
    """What a failing call of one fault point can do (one group of fault_matrix.toml)."""

    group: str
    why: str
    called: bool
    error: int
    fewer: dict[str, str] = field(default_factory=dict)  # kind -> why a failed call makes fewer records
    dropped: dict[str, tuple[str, ...]] = field(default_factory=dict)  # kind -> reasons its drops may carry
    dropped_why: dict[str, str] = field(default_factory=dict)


def load_expectations(path: Path = EXPECTATIONS) -> dict[str, Expectation]:
    """Fault point -> its expectation; a point named twice is an error in the data."""
    data = tomllib.loads(path.read_text())
    out: dict[str, Expectation] = {}
    for group in data["group"]:
        fewer = dict(group.get("fewer", {}))
        dropped = {kind: tuple(entry["reasons"]) for kind, entry in group.get("dropped", {}).items()}
        dropped_why = {kind: entry["why"] for kind, entry in group.get("dropped", {}).items()}
        for kind in (*fewer, *dropped):
            if kind not in KINDS:
                raise ValueError(f"{path.name}: group {group['name']!r} names an unknown kind {kind}")
        for reasons in dropped.values():
            unknown = set(reasons) - set(DROP_REASONS.values())
            if unknown:
                raise ValueError(f"{path.name}: group {group['name']!r} names unknown reasons {unknown}")
        expectation = Expectation(
            group=group["name"],
            why=group["why"],
            called=bool(group["called"]),
            error=int(group.get("error", -1)),
            fewer=fewer,
            dropped=dropped,
            dropped_why=dropped_why,
        )
        for function in group["functions"]:
            if function in out:
                groups = f"{out[function].group!r} and {group['name']!r}"
                raise ValueError(f"{path.name}: {function} is in groups {groups}")
            out[function] = expectation
    return out


@dataclass(frozen=True)
class Plan:
    """One run of the workload: the functions it faults, the plan, the clock."""

    functions: tuple[str, ...]
    action: str  # error | error@every=2 | delay | short | garble
    plan: str
    clock: str

    @property
    def label(self) -> str:
        alone = len(self.functions) == 1
        subject = self.functions[0] if alone else f"{len(self.functions)} points never called"
        return f"{subject} {self.action} ({self.clock})"


def rule(function: str, action: str, expectation: Expectation) -> str:
    if action == "error":
        return f"{function}:error={expectation.error}"
    if action == "error@every=2":
        return f"{function}:error={expectation.error}@every=2"
    if action == "delay":
        return f"{function}:delay=1ms"
    if action == "short":
        return f"{function}:short=7"
    if action == "garble":
        return f"{function}:garble"
    raise ValueError(action)


# Functions that return device data: they also get short and garbled reads.
DATA_FUNCTIONS = ("prof_channel_read",)


def plans(expectations: dict[str, Expectation], clocks: tuple[str, ...], full: bool) -> list[Plan]:
    """Every fault point at least once per clock with `error` (the points the workload never calls in
    one run, all at once: none of them can act); with `full`, also every second call failing and a
    1 ms delay for every point, and short and garbled reads for the data functions."""
    called = sorted(f for f, e in expectations.items() if e.called)
    never = tuple(sorted(f for f, e in expectations.items() if not e.called))
    actions = ("error", "error@every=2", "delay") if full else ("error",)
    out: list[Plan] = []
    for clock in clocks:
        for action in actions:
            for function in called:
                out.append(Plan((function,), action, rule(function, action, expectations[function]), clock))
                if full and action == "error" and function in DATA_FUNCTIONS:
                    for extra in ("short", "garble"):
                        text = rule(function, extra, expectations[function])
                        out.append(Plan((function,), extra, text, clock))
            if never and action != "error@every=2":
                text = ";".join(rule(f, action, expectations[f]) for f in never)
                out.append(Plan(never, action, text, clock))
    return out


@dataclass
class KindFigures:
    nominal: int  # what a run without faults makes; -1 when only the run knows it (API kinds)
    produced: int
    delivered: int
    dropped: dict[str, int]
    made: int = -1  # API kinds: reports CANN made

    @property
    def unaccounted(self) -> int:
        return self.produced - self.delivered - sum(self.dropped.values())


@dataclass
class RunResult:
    plan: Plan
    returncode: int
    seconds: float
    calls: dict[str, int]
    injected: int
    kinds: dict[str, KindFigures]
    problems: list[str]
    output: str


def _fields(line: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in line.split()[1:] if "=" in item)


def parse_run(plan: Plan, returncode: int, stdout: str, stderr: str, seconds: float) -> RunResult:
    lines = stdout.splitlines()
    problems: list[str] = []
    if returncode != 0:
        problems.append(f"exit {returncode}")
    problems += [f"undocumented msPTI result: {line[2:]}" for line in lines if line.startswith("A ")]
    calls = {f["function"]: int(f["calls"]) for f in (_fields(x) for x in lines if x.startswith("F "))}
    injected = max((int(_fields(x)["injected"]) for x in lines if x.startswith("F ")), default=0)
    by_kind = {int(f["kind"]): f for f in (_fields(x) for x in lines if x.startswith("K "))}
    markers = next((_fields(x) for x in lines if x.startswith("M ")), None)
    callbacks = next((_fields(x) for x in lines if x.startswith("C ")), None)
    kinds: dict[str, KindFigures] = {}
    if len(by_kind) < 13 or markers is None or callbacks is None:
        if returncode == 0:
            problems.append("the workload printed no figures")
    else:
        if callbacks["enter"] != callbacks["exit"] or callbacks["unpaired"] != "0":
            problems.append(f"callbacks do not pair: {callbacks}")
        for name, number in KINDS.items():
            k = by_kind[number]
            reasons = {DROP_REASONS[r]: int(k[f"r{r}"]) for r in DROP_REASONS if int(k[f"r{r}"])}
            if name == "DEVICE_MARKER":
                kinds[name] = KindFigures(
                    int(markers["nominal"]),
                    int(markers["expected"]),
                    int(markers["delivered"]),
                    {r: n for r, n in reasons.items() if r in DEVICE_MARKER_REASONS},
                )
            elif name == "HOST_MARKER":
                kinds[name] = KindFigures(
                    int(markers["host_nominal"]),
                    int(markers["host_expected"]),
                    int(markers["host_delivered"]),
                    {r: n for r, n in reasons.items() if r in HOST_MARKER_REASONS},
                )
            else:
                kinds[name] = KindFigures(
                    int(k["nominal"]),
                    int(k["expected"]),
                    int(k["delivered"]),
                    reasons,
                    int(k.get("made", -1)),
                )
        # The checks of untouched kinds need these: a workload that stopped printing them fails.
        for name, k in kinds.items():
            if name in API_KINDS and k.made < 0:
                problems.append(f"{name}: the workload printed no count of the reports CANN made")
            if name not in API_KINDS and k.nominal < 0:
                problems.append(f"{name}: the workload printed no nominal count")
    output = f"stdout:\n{stdout[-2500:]}\nstderr:\n{stderr[-2500:]}"
    return RunResult(plan, returncode, seconds, calls, injected, kinds, problems, output)


def check(result: RunResult, expectations: dict[str, Expectation]) -> list[str]:
    """What in one run contradicts the expectations of its fault points (empty: it passed)."""
    problems = list(result.problems)
    plan = result.plan
    fails = plan.action not in ("delay",)
    # The union of what the plan's points may do (a run of several points is one of points never called).
    fewer: set[str] = set()
    dropped: dict[str, set[str]] = {}
    for function in plan.functions:
        expectation = expectations[function]
        if not expectation.called:
            if result.calls.get(function, 0) != 0:
                problems.append(f"{function} is called {result.calls[function]} time(s), expected never")
            continue
        if plan.action == "error" and result.injected == 0 and result.returncode == 0:
            problems.append(f"{function} is expected to be reached, but the fault was never injected")
        if fails:
            fewer.update(expectation.fewer)
            for kind, reasons in expectation.dropped.items():
                dropped.setdefault(kind, set()).update(reasons)
    for name, k in result.kinds.items():
        if k.unaccounted != 0:
            problems.append(
                f"{name}: produced {k.produced}, delivered {k.delivered} + dropped {k.dropped or 0}: "
                f"{k.unaccounted} unaccounted"
            )
        for reason in k.dropped:
            if reason not in dropped.get(name, set()):
                problems.append(f"{name}: {k.dropped[reason]} dropped for {reason}, not this point's reason")
        if name not in fewer:
            if k.nominal >= 0 and k.produced != k.nominal:
                problems.append(f"{name}: produced {k.produced}, untouched by this point: {k.nominal} owed")
            if k.made >= 0 and k.made != k.produced:
                problems.append(f"{name}: CANN made {k.made} reports, {k.produced} reached msPTI")
    return problems


def list_fault_points(programs: ReliabilityPrograms, exe: Path) -> list[str]:
    """The simulator's own list of fault points (scanned from its sources at build time)."""
    proc = run_program(exe, programs.native.env(NPU_SIM_LOG_LEVEL="off"), args=["--fault-points"], timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [line[2:] for line in proc.stdout.splitlines() if line.startswith("P ")]


def run_plan(programs: ReliabilityPrograms, exe: Path, plan: Plan) -> RunResult:
    env = programs.native.env(
        preload_mspti=True,
        NPU_SIM_FAULTS=plan.plan,
        NPU_SIM_CLOCK=plan.clock,
        NPU_SIM_LOG_LEVEL="off",
        NPU_SIM_DEVICES="2",
        HCCL_CONNECT_TIMEOUT="10",
        HCCL_EXEC_TIMEOUT="3",
    )
    started = time.monotonic()
    try:
        proc = run_program(exe, env, args=[",".join(plan.functions), "1", "1"], timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired as hang:
        stdout = hang.stdout.decode() if isinstance(hang.stdout, bytes) else (hang.stdout or "")
        hung = [f"hung (killed after {RUN_TIMEOUT_S} s)"]
        return RunResult(plan, -1, RUN_TIMEOUT_S, {}, 0, {}, hung, stdout)
    seconds = round(time.monotonic() - started, 2)
    return parse_run(plan, proc.returncode, proc.stdout, proc.stderr, seconds)
