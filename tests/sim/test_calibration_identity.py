"""Each calibration row's simulated time follows from its operation, shape, dtype and SoC alone.

An independent program (tests/sim/programs/calibration_rows.cpp: aclnn, aclrt, HCCL and HIXL calls,
none of the calibration runner's code) times every row of sim_runtime/data/calibration.toml and must
get the time `npu-sim calibrate` reports for it. Each row runs in a process of its own, as the runner's
do: the seeded jitter is drawn per device task in order, so a row's figure is exact only when the same
tasks precede it. Rows with ranks as threads are held to 10 %: the rank threads reach the collective in
whatever order the host schedules them (docs/timing.md, "Reproducibility").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from sim_runtime import calibrate
from support.native import NativeTree, ProgramBuilder, python_subprocess_env

PROGRAM = Path(__file__).resolve().parent / "programs" / "calibration_rows.cpp"
RANKS_AS_THREADS = ("p2p", "collective")


def _row_line(row: calibrate.Row) -> str:
    return " ".join([row.id, row.op, row.method, *(f"{key}={value}" for key, value in row.shape.items())])


def _independent_time(exe: Path, row: calibrate.Row, env: dict[str, str], tmp: Path) -> float:
    spec = tmp / f"{row.id}.rows"
    spec.write_text(_row_line(row) + "\n", encoding="utf-8")
    ranks = int(row.shape.get("ranks", 1))
    row_env = {**env, "NPU_SIM_SOC": row.soc, "NPU_SIM_DEVICES": str(max(ranks, 1))}
    done = subprocess.run([str(exe), str(spec)], env=row_env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{row.id}: {done.stderr}"
    rid, ns = done.stdout.split()
    assert rid == row.id
    return float(ns)


def _moves_data(row: calibrate.Row) -> bool:
    """Rows whose processes spend most of their time moving real bytes: a 256 MiB memset ahead of each
    timed call (method `device`), a copy of 512 MiB and more (0.7-4 s each on the host) or a HIXL
    transfer of its benchmark's 128 MiB in blocks (`total`)."""
    return row.method == "device" or row.op == "memcpy" or "total" in row.shape


def _check_rows(
    rows: list[calibrate.Row], programs: ProgramBuilder, native: NativeTree, home: Path, tmp: Path
) -> None:
    env = python_subprocess_env(native.env(HOME=str(home)))
    for name in ("NPU_SIM_CONFIG", "NPU_SIM_TIMING"):
        env.pop(name, None)
    jobs = min(4, os.cpu_count() or 1)
    args = [sys.executable, "-m", "sim_runtime", "calibrate", "--json", f"--jobs={jobs}"]
    done = subprocess.run(
        [*args, *(f"--id={row.id}" for row in rows)], capture_output=True, text=True, env=env, timeout=900
    )
    assert done.returncode == 0, done.stderr
    reported = {r["id"]: r["simulated_ns"] for r in json.loads(done.stdout)["rows"]}
    assert set(reported) == {row.id for row in rows}

    exe = programs.build([PROGRAM], ["ascendcl", "nnopbase", "opapi", "hccl", "hixl"])
    run_env = {**env, "NPU_SIM_CLOCK": "virtual", "NPU_SIM_TIMING_ONLY": "1", "HCCL_SIM_DATA": "0"}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        times = list(pool.map(lambda row: _independent_time(exe, row, run_env, tmp), rows))
    off = []
    for row, ns in zip(rows, times, strict=True):
        tolerance = 0.10 if row.cls in RANKS_AS_THREADS else 0.0
        if abs(ns - reported[row.id]) > tolerance * reported[row.id] + 1e-3:
            off.append(f"{row.id}: calibrate {reported[row.id]:.3f} ns, independent {ns:.3f} ns")
    assert not off, "\n".join(off)


def test_every_row_times_the_same_without_the_calibration_runner(
    programs: ProgramBuilder, native: NativeTree, calibrate_home: Path, tmp_path: Path
) -> None:
    rows = [row for row in calibrate.load_rows() if not _moves_data(row)]
    assert len(rows) >= 100
    _check_rows(rows, programs, native, calibrate_home, tmp_path)


@pytest.mark.slow
def test_rows_that_move_data_time_the_same_without_the_calibration_runner(
    programs: ProgramBuilder, native: NativeTree, calibrate_home: Path, tmp_path: Path
) -> None:
    rows = [row for row in calibrate.load_rows() if _moves_data(row)]
    assert rows
    _check_rows(rows, programs, native, calibrate_home, tmp_path)


@pytest.mark.parametrize("row_id", ["matmul-fp16-4096", "hixl-write-8mib-a2"])
def test_a_different_shape_times_differently(
    programs: ProgramBuilder, native: NativeTree, calibrate_home: Path, tmp_path: Path, row_id: str
) -> None:
    """The independent program measures the row it is given: a doubled size is not the same time."""
    row = calibrate.select(calibrate.load_rows(), "all", [row_id])[0]
    bigger = dict(row.shape)
    for key in ("m", "bytes"):
        if key in bigger:
            bigger[key] = int(bigger[key]) * 2
    env = python_subprocess_env(native.env(HOME=str(calibrate_home)))
    env.update({"NPU_SIM_CLOCK": "virtual", "NPU_SIM_TIMING_ONLY": "1", "HCCL_SIM_DATA": "0"})
    exe = programs.build([PROGRAM], ["ascendcl", "nnopbase", "opapi", "hccl", "hixl"])
    base = _independent_time(exe, row, env, tmp_path)
    doubled = calibrate.Row(**{**row.__dict__, "id": row.id + "-x2", "shape": bigger})
    assert _independent_time(exe, doubled, env, tmp_path) > 1.5 * base
