"""HCCL operations as a profiler sees them: msPTI's COMMUNICATION and HCCL records built from what
libhccl reports (task tracks, HCCL master API, op info, node launch), the STARS logs and the step
traces msPTI's HCCL wrappers request through aclrtProfTrace."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.hccl import CANN_COMM_NAME
from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"


@pytest.fixture(scope="module")
def exe(programs: ProgramBuilder, native: NativeTree) -> Path:
    if not native.mspti_library.exists():
        pytest.skip("libmspti.so is not built")
    return programs.build([PROGRAMS / "hccl_mspti.cpp"], libs=["hccl", "hcomm", "ascendcl", "mspti"])


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_communication_and_hccl_records(exe: Path, native: NativeTree, clock: str) -> None:
    env = native.env(preload_mspti=True, NPU_SIM_CLOCK=clock, NPU_SIM_DEVICES="8", HCCL_CONNECT_TIMEOUT="30")
    result = run_program(exe, env, timeout=120)
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    lines = [line.split() for line in result.stdout.splitlines()]
    comm = sorted((f[1], f[2], int(f[4]), int(f[5]), int(f[6])) for f in lines if f[0] == "COMM")
    assert comm == [
        ("hcom_allReduce_", "MESH", 4, 1024, 0),
        ("hcom_allReduce_", "MESH", 4, 1024, 1),
        ("hcom_broadcast_", "MESH", 0, 100, 0),
        ("hcom_broadcast_", "MESH", 0, 100, 1),
    ]
    names = {f[3] for f in lines if f[0] == "COMM"} | {f[2] for f in lines if f[0] == "HCCL"}
    assert len(names) == 1 and CANN_COMM_NAME.fullmatch(names.pop())  # as the vendor's ST expects
    assert all(int(f[8]) < int(f[9]) for f in lines if f[0] == "COMM")
    hccl = sorted((f[1], int(f[3])) for f in lines if f[0] == "HCCL")
    assert hccl == [("HcclAllReduce", 0), ("HcclAllReduce", 1), ("HcclBroadcast", 0), ("HcclBroadcast", 1)]
    # The two ranks' all-reduce runs at the same time on both devices.
    starts = {int(f[8]) for f in lines if f[0] == "COMM" and f[1] == "hcom_allReduce_"}
    if clock == "virtual":
        assert len(starts) == 1
    # A COMMUNICATION record is the collective's work, which starts once every rank's stream has
    # reached it; the HCCL record spans the markers around the call on the rank's stream, so it
    # also holds the wait for the slower rank: it contains the COMMUNICATION record.
    comm_span = {(f[1], int(f[6])): (int(f[8]), int(f[9])) for f in lines if f[0] == "COMM"}
    hccl_span = {(f[1], int(f[3])): (int(f[5]), int(f[6])) for f in lines if f[0] == "HCCL"}
    for (op, dev), (start, end) in comm_span.items():
        api = {"hcom_allReduce_": "HcclAllReduce", "hcom_broadcast_": "HcclBroadcast"}[op]
        h_start, h_end = hccl_span[(api, dev)]
        assert h_start <= start < end <= h_end, (op, dev, (start, end), (h_start, h_end))
