"""npu-sim calibrate on a small subset of the calibration table, and the table's own rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim_runtime import calibrate

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

DATA = Path(__file__).resolve().parents[2] / "sim_runtime" / "data"
SUBSET = [
    "matmul-fp16-4096",
    "fa-fwd-8192",
    "unary-exp-fp32-1gb",
    "copy-d2h-512mib",
    "p2p-send-256mib",
    "allreduce-fp32-4ranks",
    "hixl-write-8mib-a2",
]


def test_table_has_check_rows_for_every_class() -> None:
    rows = calibrate.load_rows()
    checks = [row for row in rows if row.use == "check"]
    assert len(checks) * 3 >= len(rows)
    for cls in ("cube", "attention", "vector", "copy", "p2p", "collective", "hixl"):
        assert any(row.cls == cls for row in checks), cls


def test_every_soc_has_timing_coefficients() -> None:
    socs = tomllib.loads((DATA / "socs.toml").read_text(encoding="utf-8"))["soc"]
    timing = tomllib.loads((DATA / "timing.toml").read_text(encoding="utf-8"))
    assert set(timing["soc"]) == set(socs)
    for name, table in timing["soc"].items():
        assert table["family"] == socs[name]["family"], name
        assert table["basis"] in ("measured", "family"), name
    assert set(timing["hccl"]) == set(tomllib.loads((DATA / "socs.toml").read_text())["topology"])


@pytest.mark.usefixtures("native")
def test_calibrate_subset_runs_and_reports(tmp_path: Path) -> None:
    env = dict(os.environ, HOME=str(tmp_path))
    args = [sys.executable, "-m", "sim_runtime", "calibrate", "--json", *(f"--id={i}" for i in SUBSET)]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [row["id"] for row in report["rows"]] == SUBSET
    for row in report["rows"]:
        assert row["simulated_ns"] > 0
        assert 0.5 < row["ratio"] < 2.0, row
    assert sum(v["rows"] for v in report["summary"].values()) == len(SUBSET)
    # The same run again reproduces every figure (virtual clock, seeded jitter).
    again = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert json.loads(again.stdout) == report


def test_table_output_has_the_summaries(tmp_path: Path, native: object) -> None:
    env = dict(os.environ, HOME=str(tmp_path))
    args = [sys.executable, "-m", "sim_runtime", "calibrate", "--rows", "check", "--id", "copy-h2d-4gib"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "check: 1 of 1 within +-25 %" in done.stdout
    assert "copy-h2d-4gib" in done.stdout
