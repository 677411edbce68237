"""Host cost of ACL calls by API family and of an aclnn operator's phases (docs/timing.md, "Host API
costs per class"): each family's coefficient of timing.toml, or of a site profile over it, is what the
calling thread spends on the virtual clock for one call of that family, and nothing else moves.

programs/host_cost_families.c prints the host time of one call of each family (the span of two events
on an idle stream around it); the expectations come from socs.toml and timing.toml. The calibration
runner's `wall` method holds the synchronisation a host clock around a call and a synchronisation holds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim_runtime.calibrate import load_rows
from sim_runtime.calibrate_fit import builtin_values
from support.native import NativeTree, ProgramBuilder, python_subprocess_env, run_program

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

PROGRAMS = Path(__file__).resolve().parent / "programs"
DATA = Path(__file__).resolve().parents[2] / "sim_runtime" / "data"
SOCS = tomllib.loads((DATA / "socs.toml").read_text(encoding="utf-8"))["soc"]
SOC = "Ascend910B3"
#: A site profile giving every family a cost of its own.
PROFILE = {
    "acl_launch_ns": 9000,
    "acl_memcpy_async_ns": 6000,
    "acl_event_record_ns": 5000,
    "aclnn_workspace_ns": 3000,
    "aclnn_run_ns": 2000,
}


def family_costs(soc: str, profile: dict[str, int] | None = None) -> dict[str, int]:
    """Each family's host cost on `soc`: the profile's, else timing.toml's, else the fallback (the SoC's
    host_api_ns for an ACL family, nothing for an aclnn phase)."""
    timing = {**builtin_values()[0][soc], **(profile or {})}
    api = SOCS[soc]["host_api_ns"]

    def value(key: str, fallback: int) -> int:
        v = timing.get(key, 0)
        return round(v) if v > 0 else fallback

    return {
        "launch": value("acl_launch_ns", api),
        "memcpy_async": value("acl_memcpy_async_ns", api),
        "record": value("acl_event_record_ns", api),
        "workspace": value("aclnn_workspace_ns", 0),
        "run": value("aclnn_run_ns", 0),
    }


@pytest.fixture(scope="module")
def families_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "host_cost_families.c"], libs=["ascendcl", "opapi", "nnopbase"])


def _run(exe: Path, native: NativeTree, **env: str) -> dict[str, int]:
    settings = {"NPU_SIM_CLOCK": "virtual", "NPU_SIM_SOC": SOC, **env}
    result = run_program(exe, native.env(**settings), [])
    assert result.returncode == 0, result.stdout + result.stderr
    return {k: int(v) for k, v in (line.split("=", 1) for line in result.stdout.splitlines())}


def test_each_family_costs_its_coefficient(families_exe: Path, native: NativeTree, tmp_path: Path) -> None:
    profile = tmp_path / "site.toml"
    profile.write_text(
        f"[soc.{SOC}]\n" + "".join(f"{key} = {value}\n" for key, value in PROFILE.items()), encoding="utf-8"
    )
    base = _run(families_exe, native)
    site = _run(families_exe, native, NPU_SIM_TIMING=str(profile))
    before, after = family_costs(SOC), family_costs(SOC, PROFILE)
    delta = {key: after[key] - before[key] for key in before}
    # Every span ends with the second event's record; the aclnn operator's second phase launches one
    # kernel (aclnnAdd of 1024 floats).
    expected = {
        "record": delta["record"],
        "launch": delta["launch"] + delta["record"],
        "memcpy_async": delta["memcpy_async"] + delta["record"],
        "workspace": delta["workspace"] + delta["record"],
        "run": delta["run"] + delta["launch"] + delta["record"],
    }
    assert base.keys() == site.keys() == expected.keys()
    moved = {key: site[key] - base[key] for key in base}
    assert moved == expected
    # The built-in record span is the family's cost (the event task itself is as long in both spans).
    assert base["record"] == pytest.approx(before["record"], abs=2 * SOCS[SOC]["event_task_ns"])


def _calibrate(env: dict[str, str], row: str) -> float:
    done = subprocess.run(
        [sys.executable, "-m", "sim_runtime", "calibrate", "--json", f"--id={row}"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout)["rows"]
    return float(result["simulated_ns"])


@pytest.mark.parametrize("row", ["candle-silu-fp16-infer", "launch-sync-gelu-256-cpp"])
def test_wall_rows_hold_the_synchronisation(
    native: NativeTree, calibrate_home: Path, tmp_path: Path, row: str
) -> None:
    """A `wall` row is a host clock around a call and a synchronisation: raising the synchronisation's
    return cost by 10 us makes the row 10 us longer, whether the call is an aclnn operator or a launch."""
    calibration = {r.id: r for r in load_rows()}
    soc = calibration[row].soc
    env = python_subprocess_env(native.env(HOME=str(calibrate_home)))
    for name in ("NPU_SIM_CONFIG", "NPU_SIM_TIMING", "NPU_SIM_SOC"):
        env.pop(name, None)
    base = _calibrate(env, row)
    sync = builtin_values()[0][soc]["acl_sync_ns"]
    profile = tmp_path / "site.toml"
    profile.write_text(f"[soc.{soc}]\nacl_sync_ns = {sync + 10000}\n", encoding="utf-8")
    raised = _calibrate({**env, "NPU_SIM_TIMING": str(profile)}, row)
    assert raised - base == pytest.approx(10000, abs=1)
