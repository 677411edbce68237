"""The peer-to-peer data path of process ranks on one host (shared memory between the ranks,
csrc/sim/hcomm/shm_transport.h) against the hub path (HCCL_SIM_DATA_PATH=hub): the same results and
the same simulated device times, nothing left on the file system, and a rank killed inside its
data step failing the others with HCCL_E_TIMEOUT at once.

Correctness over every operation on the peer-to-peer path (the default) is also covered by the
process tests of test_hccl_collectives.py and test_hccl_multihost.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from sim.test_hccl_collectives import E_TIMEOUT, FP32, INT32, SUM, case_file, check, numbered, parse
from sim.test_hccl_multihost import sim_files

from sim_runtime.bench.core import PROGRAMS as BENCH_PROGRAMS
from sim_runtime.bench.hccl_all_reduce import launch_ranks
from support.native import NativeTree, ProgramBuilder

PROGRAMS = Path(__file__).resolve().parent / "programs"
SHM_LINE = "moves collective data through shared memory"


@pytest.fixture(scope="module")
def all_reduce_exe(programs: ProgramBuilder) -> Path:
    return programs.build([BENCH_PROGRAMS / "hccl_all_reduce.c"], libs=["hccl", "hcomm", "ascendcl"])


@pytest.fixture(scope="module")
def exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "hccl_collectives.cpp"], libs=["hccl", "hcomm", "ascendcl"])


def test_device_times_do_not_depend_on_the_data_path(
    all_reduce_exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    """The timing model's times of the same all-reduces (virtual clock) on both paths are equal, and
    both paths compute the same (checked) sums."""
    before = sim_files()
    runs = {}
    for path in ("hub", "shm"):
        env = native.env(
            NPU_SIM_DEVICES="4", NPU_SIM_CLOCK="virtual", HCCL_CONNECT_TIMEOUT="60", HCCL_SIM_DATA_PATH=path
        )
        runs[path] = launch_ranks(all_reduce_exe, env, 4, 3 << 20, 3, tmp_path / f"root_{path}.bin")
    assert runs["hub"].device_ms == runs["shm"].device_ms
    assert all(ms > 0 for ms in runs["shm"].device_ms), runs
    assert sim_files() <= before


def run_logged(
    exe: Path,
    native: NativeTree,
    tmp_path: Path,
    p: int,
    cases_path: Path,
    victim_env: dict[str, str],
    **extra: str,
) -> list[tuple[subprocess.Popen, Path, Path]]:
    """One process per rank, stdout and stderr into files (read while the ranks run)."""
    procs = []
    for r in range(p):
        env = native.env(
            NPU_SIM_DEVICES="8",
            HCCL_CONNECT_TIMEOUT="60",
            NPU_SIM_LOG_LEVEL="debug",
            RANK=str(r),
            WORLD_SIZE=str(p),
            HCCL_TEST_ROOT_FILE=str(tmp_path / "root.bin"),
            **extra,
            **(victim_env if r == p - 1 else {}),
        )
        env.pop("HCCL_SIM_MASTER", None)
        out, err = tmp_path / f"out{r}.txt", tmp_path / f"err{r}.txt"
        with out.open("w") as o, err.open("w") as e:
            proc = subprocess.Popen([str(exe), "proc", str(p), str(cases_path)], env=env, stdout=o, stderr=e)
        procs.append((proc, out, err))
    return procs


@pytest.mark.parametrize("path", ["shm", "hub"])
def test_the_path_is_chosen_by_the_variable(exe: Path, native: NativeTree, tmp_path: Path, path: str) -> None:
    cases = numbered(
        [("allreduce", FP32, SUM, 1000), ("alltoall", INT32, SUM, 3), ("allgather", INT32, SUM, 2)]
    )
    procs = run_logged(exe, native, tmp_path, 3, case_file(tmp_path, cases), {}, HCCL_SIM_DATA_PATH=path)
    for proc, _, err in procs:
        assert proc.wait(timeout=120) == 0, err.read_text()[-2000:]
    check(cases, 3, "".join(out.read_text() for _, out, _ in procs))
    used = [SHM_LINE in err.read_text() for _, _, err in procs]
    assert used == [path == "shm"] * 3


def test_a_rank_killed_in_its_data_step_fails_the_others_at_once(
    exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    """The last rank stops inside the data step of the second all-reduce (a 60 s delay fault); once
    the others wait for it there it is killed: they return HCCL_E_TIMEOUT well within
    HCCL_EXEC_TIMEOUT (60 s), naming it, and no file is left behind."""
    before = sim_files()
    p = 3
    cases = numbered(
        [("allreduce", INT32, SUM, 4), ("allreduce", INT32, SUM, 4), ("allreduce", INT32, SUM, 4)]
    )
    procs = run_logged(
        exe,
        native,
        tmp_path,
        p,
        case_file(tmp_path, cases),
        {"NPU_SIM_FAULTS": "HcclShmDataStep:delay=60s@2"},
        HCCL_EXEC_TIMEOUT="60",
    )
    victim = procs[-1][0]
    try:
        deadline = time.monotonic() + 60
        waiting = f"waits for rank {p - 1} to finish the data step of collective 2"
        while not all(waiting in err.read_text() for _, _, err in procs[:-1]):
            assert time.monotonic() < deadline, "the others never waited for the delayed rank"
            assert victim.poll() is None, procs[-1][2].read_text()[-2000:]
            time.sleep(0.05)
        killed_at = time.monotonic()
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=30)
        for proc, _, err in procs[:-1]:
            assert proc.wait(timeout=50) == 0, err.read_text()[-2000:]
        elapsed = time.monotonic() - killed_at
    finally:
        for proc, _, _ in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert elapsed < 10, f"the others took {elapsed:.1f} s after the kill (HCCL_EXEC_TIMEOUT 60)"
    _, _, results, _ = parse("".join(out.read_text() for _, out, _ in procs[:-1]))
    assert {r: results[(r, 2)][0] for r in range(p - 1)} == {r: E_TIMEOUT for r in range(p - 1)}, results
    for _, _, err in procs[:-1]:
        text = err.read_text()
        assert f"rank {p - 1} is gone (its process ended) during the data step" in text, text[-2000:]
        assert f"rank {p - 1} did not arrive within HCCL_EXEC_TIMEOUT or is gone" in text, text[-2000:]
    assert sim_files() <= before
