"""The ACL runtime's timeline on the virtual clock, against figures computed from the data files.

programs/acl_timing.c prints event timestamps (device ns) for small scenarios; the
expectations here come from sim_runtime/data/socs.toml, kernel_costs.toml and timing.toml (host
costs by API family), read with tomllib, so a change of a coefficient in the data moves both sides.
"""

from __future__ import annotations

import fnmatch
import itertools
import math
import subprocess
import sys
from pathlib import Path

import pytest

from sim_runtime.calibrate_fit import builtin_values
from support.native import NativeTree, ProgramBuilder, run_program

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

PROGRAMS = Path(__file__).resolve().parent / "programs"
DATA = Path(__file__).resolve().parents[2] / "sim_runtime" / "data"
CATALOGUE = tomllib.loads((DATA / "socs.toml").read_text(encoding="utf-8"))
SOCS = CATALOGUE["soc"]
JITTER = CATALOGUE["defaults"]["jitter_pct"] / 100.0
KERNELS = tomllib.loads((DATA / "kernel_costs.toml").read_text(encoding="utf-8"))["kernel"]

MIB = 1 << 20
TIMING_SOCS = ["Ascend910B3", "Ascend910_9382", "Ascend950PR_9599", "Ascend310B1"]


@pytest.fixture(scope="module")
def timing_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "acl_timing.c"], libs=["ascendcl"])


def run(exe: Path, native: NativeTree, *args: str, **env: str) -> dict[str, int]:
    settings = {"NPU_SIM_CLOCK": "virtual", **env}
    result = run_program(exe, native.env(**settings), list(args))
    assert result.returncode == 0, (
        f"exit {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    )
    return {k: int(v) for k, v in (line.split("=", 1) for line in result.stdout.splitlines())}


# --- the model, restated from the data files ---------------------------------------------------------


def kernel_cost(name: str) -> dict:
    return next(k for k in KERNELS if fnmatch.fnmatchcase(name.lower(), k["pattern"].lower()))


def kernel_ns(soc: str, name: str, blocks: int, engine: str | None = None) -> float:
    """Roofline time plus the per-task overhead; the core type from the launch, the table, or AIV."""
    spec, cost = SOCS[soc], kernel_cost(name)
    core = engine or (cost["core"] if cost["core"] != "inherit" else "AIV")
    if cost.get("duration_ns"):
        return cost["duration_ns"] + spec["task_overhead_ns"]
    b = max(blocks, 1)
    flops = cost["flops"] * b if cost["per_block"] else cost["flops"]
    moved = cost["bytes"] * b if cost["per_block"] else cost["bytes"]
    mhz = spec["cube_mhz"] * 1e-3
    if core in ("AIC", "MIX"):
        peak = spec["aic"] * spec["cube_flops_per_cycle"] * mhz * min(b, spec["aic"]) / spec["aic"]
    elif core == "AICPU":
        peak = min(b, max(spec["aicpu"], 1))
    else:
        peak = spec["aiv"] * spec["vector_flops_per_cycle"] * mhz * min(b, spec["aiv"]) / spec["aiv"]
    return math.ceil(max(flops / peak, moved / spec["hbm_gbps"])) + spec["task_overhead_ns"]


def host_link_ns(soc: str, n: int) -> int:
    return SOCS[soc]["memcpy_fixed_ns"] + math.ceil(n / SOCS[soc]["host_link_gbps"])


def device_copy_ns(soc: str, n: int) -> int:
    return SOCS[soc]["task_overhead_ns"] + math.ceil(2 * n / SOCS[soc]["hbm_gbps"])


def memset_ns(soc: str, n: int) -> int:
    return SOCS[soc]["task_overhead_ns"] + math.ceil(n / SOCS[soc]["hbm_gbps"])


def assert_close(measured: float, expected: float, jittered: float, what: str) -> None:
    """`jittered` is the part of the expectation that the seeded jitter may move (+-jitter_pct)."""
    slack = jittered * JITTER + 3
    assert abs(measured - expected) <= slack, f"{what}: measured {measured}, expected {expected} +- {slack}"


# --- kernels -----------------------------------------------------------------------------------------

KERNEL_CASES = [
    ("matmul_tile", 20, None),
    ("matmul_tile", 4, None),
    ("matmul_tile", 8, "AIV"),  # the launch's engine type overrides the table's core type
    ("relu_kernel", 40, None),
    ("softmax_kernel", 48, None),
    ("attention_fwd", 10, None),
    ("add_kernel", 4, "AIC"),
    ("empty_kernel", 1, None),
    ("aicpu_op", 1, None),
]


@pytest.mark.parametrize("soc", TIMING_SOCS)
@pytest.mark.parametrize(("name", "blocks", "engine"), KERNEL_CASES)
def test_kernel_duration_is_roofline_plus_overhead(
    timing_exe: Path, native: NativeTree, soc: str, name: str, blocks: int, engine: str | None
) -> None:
    engine_arg = {"AIC": "0", "AIV": "1", None: "-1"}[engine]
    out = run(timing_exe, native, "kernel", name, str(blocks), engine_arg, NPU_SIM_SOC=soc)
    spec = SOCS[soc]
    # The device is ahead of the host, so the tasks run back to back:
    # [record e0] gap [kernel] gap [record e1]; the events stamp the ends of their record tasks.
    measured = out["t1"] - out["t0"] - 2 * spec["task_gap_ns"] - spec["event_task_ns"]
    expected = kernel_ns(soc, name, blocks, engine)
    assert_close(measured, expected, expected + spec["event_task_ns"], f"{name} x{blocks} on {soc}")


# --- streams and events ------------------------------------------------------------------------------


def test_tasks_on_a_stream_run_in_order(timing_exe: Path, native: NativeTree) -> None:
    out = run(timing_exe, native, "order")
    stamps = [out[f"ev{i}"] for i in range(len(out))]
    assert len(stamps) == 10
    gap = SOCS["Ascend910B3"]["task_gap_ns"]
    # Each event follows a task that follows the previous event, each after the stream's task gap.
    for before, after in itertools.pairwise(stamps):
        assert after - before >= 2 * gap, stamps


@pytest.mark.parametrize(
    ("name", "blocks", "overlap"),
    [
        ("matmul_tile", 4, True),  # 4 + 4 of 20 cube cores: both run at once
        ("matmul_tile", 20, False),  # each needs every cube core: one after the other
        ("attention_fwd", 10, True),  # mixed: 10 cube + 20 vector cores each
        ("attention_fwd", 20, False),
    ],
)
def test_two_streams_overlap_only_when_cores_are_free(
    timing_exe: Path, native: NativeTree, name: str, blocks: int, overlap: bool
) -> None:
    out = run(timing_exe, native, "two_streams", name, str(blocks))
    duration = kernel_ns("Ascend910B3", name, blocks)
    ends_apart = out["b2"] - out["b1"]
    if overlap:
        assert ends_apart < duration * (1 - JITTER), (ends_apart, duration)
    else:
        assert ends_apart >= duration * (1 - JITTER) - 100, (ends_apart, duration)


@pytest.mark.parametrize(("blocks", "overlap"), [(20, True), (40, False)])
def test_vector_kernels_share_the_vector_cores(
    timing_exe: Path, native: NativeTree, tmp_path: Path, blocks: int, overlap: bool
) -> None:
    costs = tmp_path / "costs.toml"
    costs.write_text(
        '[[kernel]]\npattern = "vec_long*"\nduration_ns = 50000\nper_block = false\ncore = "AIV"\n'
    )
    out = run(
        timing_exe, native, "two_streams", "vec_long_kernel", str(blocks), NPU_SIM_KERNEL_COSTS=str(costs)
    )
    ends_apart = out["b2"] - out["b1"]
    if overlap:
        assert ends_apart < 25000, ends_apart
    else:
        assert ends_apart >= 50000 * (1 - JITTER), ends_apart


def test_an_event_orders_another_stream(timing_exe: Path, native: NativeTree) -> None:
    out = run(timing_exe, native, "cross_stream")
    spec = SOCS["Ascend910B3"]
    # The waiting stream's record runs after its wait task, which starts no earlier than the event.
    assert out["waiter"] >= out["ev"] + spec["event_task_ns"] * (1 - JITTER) + spec["task_gap_ns"]
    # A stream that does not wait is not held back by the busy one.
    assert out["other"] < out["ev"]


def test_synchronize_with_timeout(timing_exe: Path, native: NativeTree) -> None:
    out = run(timing_exe, native, "sync_timeout")
    assert out == {
        "timeout_rc": 507046,  # ACL_ERROR_RT_STREAM_SYNC_TIMEOUT: ~5 ms of work, a 1 ms limit
        "ready_after_timeout": 0,
        "unlimited_rc": 0,
        "ready_after_sync": 1,
        "idle_rc": 0,
    }


# --- host-side and copy costs -------------------------------------------------------------------------


@pytest.mark.parametrize("soc", TIMING_SOCS)
def test_host_side_costs(timing_exe: Path, native: NativeTree, soc: str) -> None:
    out = run(timing_exe, native, "host_cost", NPU_SIM_SOC=soc)
    spec = SOCS[soc]
    api = spec["host_api_ns"]
    timing = builtin_values()[0][soc]
    record = round(timing.get("acl_event_record_ns", 0)) or api
    # A synchronisation's entry, then its wake-up and return once the device is done (timing.toml
    # acl_sync_ns, else socs.toml sync_wake_ns).
    sync = api + (round(timing.get("acl_sync_ns", 0)) or spec["sync_wake_ns"])
    # Between the two events: creating and recording the second event (two calls), plus the body.
    expected = {
        "nothing": api + record,
        "get_device_x100": 101 * api + record,
        "memcpy_h2d": 2 * api + record + host_link_ns(soc, MIB),
        "memcpy_d2h": 2 * api + record + host_link_ns(soc, MIB),
        "memcpy_d2d": 2 * api + record + device_copy_ns(soc, MIB),
        "memcpy_h2h": 2 * api + record,
        "memset": 2 * api + record + memset_ns(soc, MIB),
        "sync_idle": api + record + sync,
    }
    assert out.keys() == expected.keys()
    for key, value in expected.items():
        # Only the two event record tasks are jittered: host costs are exact.
        assert_close(out[key], value, 2 * spec["event_task_ns"], key)


@pytest.mark.parametrize("soc", TIMING_SOCS)
def test_async_copy_and_fill_durations(timing_exe: Path, native: NativeTree, soc: str) -> None:
    out = run(timing_exe, native, "async_cost", NPU_SIM_SOC=soc)
    spec = SOCS[soc]
    around = 2 * spec["task_gap_ns"] + spec["event_task_ns"]
    for key, duration in {
        "h2d": host_link_ns(soc, MIB),
        "d2d": device_copy_ns(soc, MIB),
        "memset": memset_ns(soc, MIB),
        "d2h": host_link_ns(soc, MIB),
    }.items():
        assert_close(out[key], duration + around, duration + spec["event_task_ns"], key)


# --- determinism and the wall clock -------------------------------------------------------------------


def test_virtual_clock_runs_are_reproducible(timing_exe: Path, native: NativeTree) -> None:
    first = run(timing_exe, native, "workload", NPU_SIM_SEED="7")
    second = run(timing_exe, native, "workload", NPU_SIM_SEED="7")
    other_seed = run(timing_exe, native, "workload", NPU_SIM_SEED="8")
    assert len(first) == 8
    assert first == second
    assert first != other_seed  # the seed drives the jitter


def test_wall_clock_synchronisation_waits_for_the_work(timing_exe: Path, native: NativeTree) -> None:
    result = run_program(timing_exe, native.env(NPU_SIM_CLOCK="wall"), ["wall"])
    assert result.returncode == 0, result.stdout + result.stderr
    out = dict(line.split("=", 1) for line in result.stdout.splitlines())
    spec = SOCS["Ascend910B3"]
    modelled = 50 * (kernel_ns("Ascend910B3", "busy_matmul", 20) + spec["task_gap_ns"])
    assert int(out["wall_ns"]) >= modelled * (1 - JITTER) * 0.95
    assert out["complete"] == "1"


def test_timing_program_rejects_unknown_scenarios(timing_exe: Path, native: NativeTree) -> None:
    result = subprocess.run([str(timing_exe), "nope"], env=native.env(), capture_output=True, text=True)
    assert result.returncode == 2
