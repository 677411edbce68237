"""The peer-to-peer data path of process ranks (csrc/sim/hcomm/shm_transport.h: shared memory between
the ranks of one host, sockets between hosts) against the hub path (HCCL_SIM_DATA_PATH=hub): the
same results and the same simulated device times, nothing left on the file system, and a rank
killed inside its data step failing the others with HCCL_E_TIMEOUT at once.

Correctness over every operation on the peer-to-peer path (the default) is also covered by the
process tests of test_hccl_collectives.py and test_hccl_multihost.py.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import warnings
from pathlib import Path

import pytest
from sim.test_hccl_collectives import (
    BFP16,
    E_TIMEOUT,
    FP8E4M3,
    FP8E5M2,
    FP16,
    FP32,
    FP64,
    INT8,
    INT16,
    INT32,
    INT64,
    INT128,
    MAX,
    MIN,
    PROD,
    SUM,
    UINT8,
    UINT16,
    case_file,
    check,
    mismatch_suite,
    numbered,
    parse,
)
from sim.test_hccl_multihost import sim_files

from sim_runtime.bench.core import PROGRAMS as BENCH_PROGRAMS
from sim_runtime.bench.hccl_all_reduce import launch_ranks
from support.native import NativeTree, ProgramBuilder
from support.two_hosts import TwoHosts, two_hosts

PROGRAMS = Path(__file__).resolve().parent / "programs"
SHM_LINE = "moves collective data through shared memory"
P2P_LINE = "moves point-to-point data peer to peer"


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
    return [
        spawn_rank(
            [str(exe), "proc", str(p), str(cases_path)],
            rank_env(native, tmp_path, r, p, "60", **extra, **(victim_env if r == p - 1 else {})),
            tmp_path,
            r,
        )
        for r in range(p)
    ]


def rank_env(
    native: NativeTree, tmp_path: Path, r: int, p: int, connect_timeout: str, **extra: str
) -> dict[str, str]:
    """Rank r of p as a process of its own: root info through a file, no hosting master."""
    env = native.env(
        NPU_SIM_DEVICES="8",
        HCCL_CONNECT_TIMEOUT=connect_timeout,
        NPU_SIM_LOG_LEVEL="debug",
        RANK=str(r),
        WORLD_SIZE=str(p),
        HCCL_TEST_ROOT_FILE=str(tmp_path / "root.bin"),
        **extra,
    )
    env.pop("HCCL_SIM_MASTER", None)
    return env


def spawn_rank(
    argv: list[str], env: dict[str, str], tmp_path: Path, r: int
) -> tuple[subprocess.Popen, Path, Path]:
    """Starts rank r with its stdout and stderr in files (read while the ranks run)."""
    out, err = tmp_path / f"out{r}.txt", tmp_path / f"err{r}.txt"
    with out.open("w") as o, err.open("w") as e:
        return subprocess.Popen(argv, env=env, stdout=o, stderr=e), out, err


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


SEGMENT_LINE = re.compile(r"rank (\d+)'s shared-memory segment holds (\d+) bytes")


def test_an_all_reduce_on_one_host_writes_its_result_straight_into_the_output(
    exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    """4 ranks on one host, one 256 KiB all-reduce: each rank's segment holds its input and its
    quarter of the result (the part it reduced, which the others gather from it straight into their
    outputs), not a whole output as well (which took a second copy per rank); results exact."""
    p, n = 4, 1 << 16
    cases = numbered([("allreduce", INT32, SUM, n)])
    procs = run_logged(exe, native, tmp_path, p, case_file(tmp_path, cases), {})
    for proc, _, err in procs:
        assert proc.wait(timeout=120) == 0, err.read_text()[-2000:]
    check(cases, p, "".join(out.read_text() for _, out, _ in procs))
    held = {}
    for _, _, err in procs:
        for m in SEGMENT_LINE.finditer(err.read_text()):
            held[int(m[1])] = int(m[2])
    assert sorted(held) == list(range(p)), held
    size, header = n * 4, 32 << 10  # the header, the point-to-point words and the descriptor: a few pages
    assert all(size <= b <= size + size // p + header for b in held.values()), held


@pytest.mark.parametrize("path", ["shm", "hub"])
def test_point_to_point_data_moves_peer_to_peer_on_one_host(
    exe: Path, native: NativeTree, tmp_path: Path, path: str
) -> None:
    """Send/Recv pairs and BatchSendRecv rings of 3 process ranks, after a collective set the path
    up: exact results, the data through the ranks' segments (not through the rendezvous) unless
    HCCL_SIM_DATA_PATH=hub; chunks larger than a segment's first growth and several operations in a
    row on the same pair."""
    cases = numbered(
        [
            ("allreduce", INT32, SUM, 4),
            ("sendrecv", INT32, SUM, 7),
            ("batch", FP16, SUM, 5),
            ("sendrecv", INT8, SUM, 600000),
            ("batch", INT64, SUM, 100000),
            ("sendrecv", FP32, SUM, 1),
            ("allreduce", FP32, SUM, 1000),
        ]
    )
    procs = run_logged(exe, native, tmp_path, 3, case_file(tmp_path, cases), {}, HCCL_SIM_DATA_PATH=path)
    for proc, _, err in procs:
        assert proc.wait(timeout=120) == 0, err.read_text()[-2000:]
    check(cases, 3, "".join(out.read_text() for _, out, _ in procs))
    used = [P2P_LINE in err.read_text() for _, _, err in procs]
    assert used == [path == "shm"] * 3


@pytest.mark.parametrize("hosts_used", [1, 2])
def test_point_to_point_data_moves_peer_to_peer_from_the_first_operation(
    exe: Path, native: NativeTree, tmp_path: Path, hosts_used: int
) -> None:
    """3 process ranks that run no collective at all, on one host or on two (loopback) hosts: the
    first Send/Recv already moves its data peer to peer (the path is set up as the communicator is
    created), and every result is exact."""
    cases = numbered([("sendrecv", INT32, SUM, 7), ("batch", FP16, SUM, 5), ("sendrecv", INT8, SUM, 300000)])
    if hosts_used == 1:
        procs = run_logged(exe, native, tmp_path, 3, case_file(tmp_path, cases), {})
        for proc, _, err in procs:
            assert proc.wait(timeout=120) == 0, err.read_text()[-2000:]
    else:
        with two_hosts(prefer_netns=False) as hosts:
            procs = launch_on_hosts(exe, native, hosts, (1, 2), case_file(tmp_path, cases), tmp_path)
            for proc, _, err in procs:
                assert proc.wait(timeout=120) == 0, err.read_text()[-3000:]
    check(cases, 3, "".join(out.read_text() for _, out, _ in procs))
    for _, _, err in procs:
        assert P2P_LINE in err.read_text(), err.read_text()[-2000:]


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


# --- across hosts: shared memory inside a host, sockets between hosts ------------------------------

SOCKETS_LINE = "over sockets to"


def launch_on_hosts(
    exe: Path,
    native: NativeTree,
    hosts: TwoHosts,
    layout: tuple[int, int],
    cases_path: Path,
    tmp_path: Path,
    victim_env: dict[str, str] | None = None,
    **extra: str,
) -> list[tuple[subprocess.Popen, Path, Path]]:
    """layout[h] ranks on host h (ranks numbered host by host); stdout and stderr into files. The
    last rank gets ``victim_env``."""
    p = sum(layout)
    procs = []
    for r in range(p):
        host = 0 if r < layout[0] else 1
        env = rank_env(
            native,
            tmp_path,
            r,
            p,
            "30",
            **hosts.env[host],
            **extra,
            **((victim_env or {}) if r == p - 1 else {}),
        )
        procs.append(
            spawn_rank(hosts.command(host, [str(exe), "proc", str(p), str(cases_path)]), env, tmp_path, r)
        )
    return procs


def across_hosts_cases(p: int) -> list:
    return numbered(
        [
            (op, dt, redop, 5, root)
            for op, dt, redop, root in [
                ("allreduce", FP32, SUM, 0),
                ("allreduce", FP16, PROD, 0),
                ("allreduce", INT128, MIN, 0),
                ("reduce", INT32, MAX, p - 1),
                ("broadcast", UINT8, SUM, 1 % p),
                ("allgather", BFP16, SUM, 0),
                ("allgatherv", INT16, SUM, 0),
                ("reducescatter", FP8E4M3, SUM, 0),
                ("reducescatterv", FP8E5M2, SUM, 0),
                ("alltoall", INT64, SUM, 0),
                ("alltoallv", INT32, SUM, 0),
                ("alltoallvc", UINT16, SUM, 0),
                ("scatter", FP64, SUM, p - 1),
                ("allreduce_inplace", INT32, SUM, 0),
                ("allgather_inplace", FP16, SUM, 0),
                ("reducescatter_inplace", FP16, SUM, 0),
                ("allreduce", INT32, SUM, 300000),
                ("barrier", INT32, SUM, 0),
                ("sendrecv", INT32, SUM, 7),
                ("batch", FP16, SUM, 5),
                ("sendrecv", INT8, SUM, 1 << 20),
                ("batch", INT32, SUM, 300000),
            ]
        ]
    )


@pytest.mark.parametrize(
    ("mode", "layout"), [("netns", (2, 2)), ("loopback", (2, 2)), ("loopback", (2, 1)), ("loopback", (1, 3))]
)
def test_across_hosts_every_operation_moves_data_peer_to_peer(
    exe: Path, native: NativeTree, tmp_path: Path, mode: str, layout: tuple[int, int]
) -> None:
    """Two hosts: every operation's results are exact, every rank moves the data through shared
    memory with the ranks of its host and over sockets to the other host (not through the
    rendezvous), point-to-point operations too (pairs and rings within and across the hosts),
    uneven hosts included, and nothing is left on the file system."""
    before = sim_files()
    p = sum(layout)
    cases = across_hosts_cases(p)
    with two_hosts(prefer_netns=mode == "netns") as hosts:
        if mode != hosts.mode:
            reason = f"two hosts: network namespaces unavailable ({hosts.why}); ran on loopback"
            warnings.warn(reason, stacklevel=1)
        procs = launch_on_hosts(exe, native, hosts, layout, case_file(tmp_path, cases), tmp_path)
        for proc, _, err in procs:
            assert proc.wait(timeout=120) == 0, err.read_text()[-3000:]
    check(
        cases,
        p,
        "".join(out.read_text() for _, out, _ in procs),
        [list(range(layout[0])), list(range(layout[0], p))],
    )
    for r, (_, _, err) in enumerate(procs):
        text = err.read_text()
        local = layout[0] if r < layout[0] else layout[1]
        assert f"moves collective data through shared memory with {local - 1} peers of its host" in text, (
            hosts.mode,
            r,
            text[-2000:],
        )
        assert "of 1 other hosts" in text and SOCKETS_LINE in text, text[-2000:]
        assert P2P_LINE in text, text[-2000:]
    assert sim_files() <= before


SENT_LINE = re.compile(r"rank (\d+) sent (\d+) bytes to ranks of other hosts")


@pytest.mark.parametrize("layout", [(2, 2), (1, 3)])
def test_across_hosts_only_what_the_other_host_needs_crosses(
    exe: Path, native: NativeTree, tmp_path: Path, layout: tuple[int, int]
) -> None:
    """The hierarchical movement (csrc/sim/hccl/data_step.h) on two (loopback) hosts: the bytes the
    ranks send over their links to the other host are exactly what the algorithm moves — an
    all-reduce's host partials (size x hosts x (hosts - 1)), a reduce's partials to the root's host,
    the root's input for a broadcast, each input once for an all-gather, and for a reduce-scatter
    the host partials of the other host's blocks — not every rank's whole input; results exact."""
    p, n, es = sum(layout), 5000, 4
    cases = numbered(
        [
            ("allreduce", INT32, SUM, n, 0),
            ("reduce", INT32, SUM, n, p - 1),
            ("broadcast", INT32, SUM, n, 1),
            ("allgather", INT32, SUM, n, 0),
            ("reducescatter", INT32, SUM, n, 0),
        ]
    )
    hosts_of = [list(range(layout[0])), list(range(layout[0], p))]
    with two_hosts(prefer_netns=False) as hosts:
        procs = launch_on_hosts(exe, native, hosts, layout, case_file(tmp_path, cases), tmp_path)
        for proc, _, err in procs:
            assert proc.wait(timeout=120) == 0, err.read_text()[-3000:]
    check(cases, p, "".join(out.read_text() for _, out, _ in procs), hosts_of)
    sent = {}
    for _, _, err in procs:
        for m in SENT_LINE.finditer(err.read_text()):
            sent[int(m[1])] = int(m[2])
    assert sorted(sent) == list(range(p)), sent
    size = n * es
    # all-reduce: each host's partial to the other; reduce and broadcast: one host's to the other;
    # all-gather: every input once; reduce-scatter: a host's partial of each block of the other host.
    want = 2 * size + size + size + p * size + p * size
    assert sum(sent.values()) == want, (sent, want)
    # Every rank's whole input crossing would be p * size for the all-reduce alone, and the
    # reduce-scatter's inputs p * p * size.
    assert want < (2 * p + p * p) * size


def test_mismatched_arguments_across_hosts_fail_and_the_path_stays_usable(
    exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    """2 + 2 ranks on two (loopback) hosts, the last rank disagreeing: the collectives fail with
    HCCL_E_PARA on every rank; in a BatchSendRecv ring whose last rank disagrees, the pairs that
    match still move their data peer to peer (the ranks whose items all matched succeed, as on the
    hub path), and the next operations on the same pairs are exact."""
    cases = mismatch_suite(4)
    with two_hosts(prefer_netns=False) as hosts:
        procs = launch_on_hosts(exe, native, hosts, (2, 2), case_file(tmp_path, cases), tmp_path)
        for proc, _, err in procs:
            assert proc.wait(timeout=120) == 0, err.read_text()[-3000:]
    check(cases, 4, "".join(out.read_text() for _, out, _ in procs))
    assert all(P2P_LINE in err.read_text() for _, _, err in procs)


def test_device_times_do_not_depend_on_the_data_path_across_hosts(
    all_reduce_exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    """2 + 2 ranks on two (loopback) hosts: the same all-reduces give the same simulated times on
    the hub path and on the peer-to-peer path (checked sums on both)."""
    runs = {}
    with two_hosts(prefer_netns=False) as hosts:
        rank_env = [hosts.env[r // 2] for r in range(4)]
        for path in ("hub", "shm"):
            env = native.env(
                NPU_SIM_DEVICES="4",
                NPU_SIM_CLOCK="virtual",
                HCCL_CONNECT_TIMEOUT="60",
                HCCL_SIM_DATA_PATH=path,
            )
            env.pop("HCCL_SIM_MASTER", None)
            runs[path] = launch_ranks(
                all_reduce_exe, env, 4, 3 << 20, 3, tmp_path / f"root_{path}.bin", rank_env=rank_env
            )
    assert runs["hub"].device_ms == runs["shm"].device_ms
    assert all(ms > 0 for ms in runs["shm"].device_ms), runs


def test_a_rank_killed_before_its_exchange_across_hosts_fails_the_others_at_once(
    exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    """2 + 2 ranks on two (loopback) hosts; rank 3 stops at the start of the data step of the second
    all-reduce (a 60 s delay fault) and is killed there: rank 1, which waits on its socket for rank
    3's input, rank 0, which waits for rank 1, and rank 2, which waits for rank 3 on their host,
    all return HCCL_E_TIMEOUT well within HCCL_EXEC_TIMEOUT (60 s), naming rank 3; no file is left."""
    before = sim_files()
    cases = numbered(
        [("allreduce", INT32, SUM, 4), ("allreduce", INT32, SUM, 4), ("allreduce", INT32, SUM, 4)]
    )
    with two_hosts(prefer_netns=False) as hosts:
        procs = launch_on_hosts(
            exe,
            native,
            hosts,
            (2, 2),
            case_file(tmp_path, cases),
            tmp_path,
            {"NPU_SIM_FAULTS": "HcclShmDataStep:delay=60s@2"},
            HCCL_EXEC_TIMEOUT="60",
        )
        victim = procs[-1][0]
        try:
            deadline = time.monotonic() + 60
            exchanging = "exchanges inputs with other hosts in the data step of collective 2"
            while not all(exchanging in err.read_text() for _, _, err in procs[:-1]):
                assert time.monotonic() < deadline, "the others never reached the second data step"
                assert victim.poll() is None, procs[-1][2].read_text()[-2000:]
                time.sleep(0.05)
            time.sleep(0.3)  # they wait for rank 3 now
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
    assert {r: results[(r, 2)][0] for r in range(3)} == {r: E_TIMEOUT for r in range(3)}, results
    for _, _, err in procs[:-1]:
        text = err.read_text()
        assert "rank 3 did not arrive within HCCL_EXEC_TIMEOUT or is gone" in text, text[-2000:]
    assert sim_files() <= before


def test_a_rank_late_to_its_exchange_across_hosts_times_out_the_others(
    exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    """2 + 2 ranks on two (loopback) hosts; rank 3 stays alive but is held 3 s at the start of the
    data step of the second all-reduce (HCCL_EXEC_TIMEOUT 1 s): ranks 0 to 2 return HCCL_E_TIMEOUT
    at the timeout, each naming rank 3."""
    cases = numbered(
        [("allreduce", INT32, SUM, 4), ("allreduce", INT32, SUM, 4), ("allreduce", INT32, SUM, 4)]
    )
    with two_hosts(prefer_netns=False) as hosts:
        procs = launch_on_hosts(
            exe,
            native,
            hosts,
            (2, 2),
            case_file(tmp_path, cases),
            tmp_path,
            {"NPU_SIM_FAULTS": "HcclShmDataStep:delay=3s@2"},
            HCCL_EXEC_TIMEOUT="1",
        )
        for proc, _, err in procs:
            assert proc.wait(timeout=60) == 0, err.read_text()[-2000:]
    _, _, results, _ = parse("".join(out.read_text() for _, out, _ in procs[:-1]))
    assert {r: results[(r, 2)][0] for r in range(3)} == {r: E_TIMEOUT for r in range(3)}, results
    errs = [err.read_text() for _, _, err in procs[:-1]]
    for text in errs:
        assert "rank 3 did not arrive within HCCL_EXEC_TIMEOUT or is gone" in text, text[-2000:]
    # Rank 1 waited on its socket for rank 3's input, rank 2 for rank 3's step on their host, rank 0
    # for rank 1, which gave the step up.
    assert "rank 3 did not send or take its data within HCCL_EXEC_TIMEOUT" in errs[1], errs[1][-2000:]
    assert "rank 3 did not finish within HCCL_EXEC_TIMEOUT during the data step of collective 2" in errs[2]
    assert "rank 1 gave up the data step of collective 2: rank 3 is missing" in errs[0], errs[0][-2000:]
