"""A 64 MiB fp32 all-reduce over 8 process ranks on one host: the peer-to-peer data path against
the hub path, measured in the same run.

Runs programs/hccl_all_reduce.c as RANKS processes (rank 0 hosts the rendezvous; the root info goes
through a file), in the virtual clock so that no synchronisation sleeps for the modelled time: the
wall time is the data path's. Each rank checks every element of its output. The figure of each path
is the median over COUNT all-reduces after a warm-up (rank 0's wall time from the call to the end of
its stream synchronisation, each after a barrier); the hub path (HCCL_SIM_DATA_PATH=hub: all data
through the process hosting the rendezvous) runs first, then the peer-to-peer path (shared memory
between the ranks, docs/hccl.md). The 1-minute load average before the run is reported beside them.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sim_runtime.bench.core import Benchmark, Build, Figure, Measured, build_bench_program, program_env

RANKS = 8
BYTES = 64 << 20
COUNT = 5
TIMEOUT_S = 600


@dataclass(frozen=True)
class AllReduceRun:
    """Rank 0's figures of each timed all-reduce: wall seconds and simulated device milliseconds."""

    seconds: list[float]
    device_ms: list[float]


def launch_ranks(
    exe: Path,
    env: Mapping[str, str],
    ranks: int,
    nbytes: int,
    count: int,
    root_file: Path,
    rank_env: Sequence[Mapping[str, str]] = (),
    rank_prefix: Sequence[Sequence[str]] = (),
) -> AllReduceRun:
    """Runs programs/hccl_all_reduce.c as ``ranks`` processes in ``env`` (plus ``rank_env[r]`` and
    under the command ``rank_prefix[r]`` for rank r when given: ranks on several hosts); a rank's
    failure raises RuntimeError with its diagnostics."""
    root_file.unlink(missing_ok=True)
    procs = [
        subprocess.Popen(
            [
                *(rank_prefix[rank] if rank_prefix else ()),
                str(exe),
                str(ranks),
                str(nbytes),
                str(count),
                str(root_file),
            ],
            env={**env, **(rank_env[rank] if rank_env else {}), "RANK": str(rank)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for rank in range(ranks)
    ]
    outputs: list[tuple[int, str, str]] = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=TIMEOUT_S)
            outputs.append((proc.returncode, out, err))
    except subprocess.TimeoutExpired as error:
        raise RuntimeError(f"hccl_all_reduce did not finish within {TIMEOUT_S} s") from error
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for rank, (code, _, err) in enumerate(outputs):
        if code != 0:
            raise RuntimeError(f"hccl_all_reduce rank {rank} failed (exit {code}):\n{err.strip()[-2000:]}")
    result = json.loads(outputs[0][1].strip().splitlines()[-1])
    return AllReduceRun([float(v) for v in result["seconds"]], [float(v) for v in result["device_ms"]])


def run_ranks(exe: Path, build: Build, path: str, count: int, work: Path) -> list[float]:
    """Rank 0's wall times of ``count`` all-reduces on data path ``path`` (shm or hub)."""
    env = program_env(build, clock="virtual", preload=False)
    env.update(NPU_SIM_DEVICES=str(RANKS), HCCL_SIM_DATA_PATH=path)
    env.pop("HCCL_SIM_MASTER", None)
    return launch_ranks(exe, env, RANKS, BYTES, count, work / f"root_info_{path}.bin").seconds


def measure(build: Build, count: int, work: Path) -> Measured:
    exe = build_bench_program("hccl_all_reduce.c", build.toolkit, libs=["hccl", "hcomm", "ascendcl"])
    load = os.getloadavg()[0]
    hub = statistics.median(run_ranks(exe, build, "hub", count, work))
    p2p = statistics.median(run_ranks(exe, build, "shm", count, work))
    return {"p2p_s": p2p, "hub_s": hub, "hub_over_p2p": hub / p2p, "load_1min": load}


BENCHMARK = Benchmark(
    name="hccl_all_reduce",
    summary="64 MiB fp32 all-reduce over 8 process ranks on one host: peer-to-peer data path vs the hub",
    figures=(
        Figure("p2p_s", "all-reduce, peer-to-peer (shared memory)", "s", digits=3),
        Figure("hub_s", "all-reduce, all data through the hub", "s", digits=3),
        Figure("hub_over_p2p", "hub time / peer-to-peer time", "x", digits=1),
        Figure("load_1min", "load average (1 min) before the run", "", digits=1),
    ),
    measure=measure,
    default_count=COUNT,
    uses_mspti=False,
)
