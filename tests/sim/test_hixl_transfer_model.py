"""HIXL TransferSync time by direction and local memory kind, against the model restated from timing.toml.

Rows of calibration.toml with HIXL writes and reads from device and host memory are run through
`npu-sim calibrate`; the host time of each TransferSync must be hixl_api_ns + the family's fixed cost
and bytes at its rate for that transfer: hixl_alpha_ns and hixl_gbps (WRITE from device memory),
hixl_read_alpha_ns and hixl_read_gbps (READ into device memory) or hixl_host_alpha_ns and
hixl_host_gbps (local host memory), each falling back to the WRITE's when the family does not name it.
Those are hixl_cs rows; the communication-domain rows are timed by that path's mechanism instead (HCCL
calls of 256 descriptors, one copy task per descriptor, a stream synchronisation: docs/timing.md "HIXL").
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from sim_runtime import calibrate
from support.native import NativeTree, python_subprocess_env

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

DATA = Path(__file__).resolve().parents[2] / "sim_runtime" / "data"
TIMING = tomllib.loads((DATA / "timing.toml").read_text(encoding="utf-8"))
SOCS = tomllib.loads((DATA / "socs.toml").read_text(encoding="utf-8"))["soc"]
#: A2: write and read; A3: write and read from device memory and from host memory.
IDS = [
    "hixl-write-d2d-1mib-a2-cs",
    "hixl-read-d2d-1mib-a2-cs",
    "hixl-read-d2d-16kib-a2-cs",
    "hixl-write-d2d-64kib-a3-cs",
    "hixl-read-d2d-2mib-a3-cs",
    "hixl-read-d2d-16kib-a3-cs",
    "hixl-write-h2d-1mib-a3-cs",
    "hixl-read-h2d-1mib-a3-cs",
    "hixl-write-h2d-16kib-a3-cs",
]


def expected_ns(row: calibrate.Row) -> float:
    t = {**TIMING["family"][TIMING["soc"][row.soc]["family"]], **TIMING["soc"][row.soc]}
    kind = "host_" if row.shape.get("local") == "host" else "read_" if row.op == "hixl_read" else ""
    gbps = t.get(f"hixl_{kind}gbps") or t["hixl_gbps"]
    alpha = t.get(f"hixl_{kind}alpha_ns") or t["hixl_alpha_ns"]
    return t["hixl_api_ns"] + round(alpha) + math.ceil(int(row.shape["bytes"]) / gbps)


def test_transfer_time_follows_direction_and_memory_kind(calibrate_home: Path, native: NativeTree) -> None:
    rows = {row.id: row for row in calibrate.load_rows() if row.id in IDS}
    assert sorted(rows) == sorted(IDS)
    env = python_subprocess_env(native.env(HOME=str(calibrate_home)))
    args = [sys.executable, "-m", "sim_runtime", "calibrate", "--json", *(f"--id={i}" for i in IDS)]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    for result in json.loads(done.stdout)["rows"]:
        expected = expected_ns(rows[result["id"]])
        # Event timestamps tick at the SoC's device counter (50 MHz on A3: 20 ns).
        assert abs(result["simulated_ns"] - expected) <= 45, (result["id"], result["simulated_ns"], expected)


#: Communication-domain rows: A2 write of 8192 descriptors (32 HCCL calls), A2 read at 512 KiB (the
#: link's rate), A3 host-memory read (the host link).
COMM_IDS = ["hixl-write-d2d-16kib-a2-comm", "hixl-read-d2d-512kib-a2-comm", "hixl-read-h2d-1mib-a3-comm"]


def comm_domain_ns(row: calibrate.Row) -> float:
    """One TransferSync of `total` bytes in `bytes`-sized descriptors, per descriptor: each HCCL call of
    at most 256 descriptors costs hccl_api_ns on the host, its copy tasks reach the device a launch
    latency later and run back to back (task gap, task overhead, bytes at the HIXL link rate or, for host
    memory, the host link), then the stream synchronisation's wake-up."""
    t = {**TIMING["family"][TIMING["soc"][row.soc]["family"]], **TIMING["soc"][row.soc]}
    soc = SOCS[row.soc]
    block = int(row.shape["bytes"])
    count = int(row.shape["total"]) // block
    if row.shape.get("local") == "host":
        rate = soc["host_link_gbps"]
    else:
        rate = t.get("hixl_read_gbps") or t["hixl_gbps"] if row.op == "hixl_read" else t["hixl_gbps"]
    host = 0
    free = None
    for i in range(count):
        if i % 256 == 0:
            host += t["hccl_api_ns"]
        ready = host + soc["launch_latency_ns"]
        start = ready if free is None else max(ready, free + soc["task_gap_ns"])
        free = start + soc["task_overhead_ns"] + math.ceil(block / rate)
    return (t["hixl_api_ns"] + max(free, host) + soc["sync_wake_ns"]) / count


def test_communication_domain_time_follows_its_mechanism(calibrate_home: Path, native: NativeTree) -> None:
    rows = {row.id: row for row in calibrate.load_rows() if row.id in COMM_IDS}
    assert sorted(rows) == sorted(COMM_IDS)
    assert all(row.shape["path"] == "comm" for row in rows.values())
    env = python_subprocess_env(native.env(HOME=str(calibrate_home)))
    args = [sys.executable, "-m", "sim_runtime", "calibrate", "--json", *(f"--id={i}" for i in COMM_IDS)]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    for result in json.loads(done.stdout)["rows"]:
        expected = comm_domain_ns(rows[result["id"]])
        # Event ticks (20 ns on A3) over the descriptors of the transfer, and the per-task rounding.
        assert result["simulated_ns"] == pytest.approx(expected, abs=2.0), (result["id"], expected)
