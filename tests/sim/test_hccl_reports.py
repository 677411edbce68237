"""What HCCL reports to a profiler for each operation, in which order, on which thread (cann-seam 4.5).

programs/hccl_reports.cpp plays the profiler: it registers libprofapi's callbacks, switches the
devices on with profSetProfCommand, drains the STARS channel at every callback and prints what it
saw with a global sequence number.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support.hccl import CANN_COMM_NAME
from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"

ACL_API, HCCL_TRACE, TASK_TIME, RUNTIME_TRACE = 0x1, 0x20, 0x800, 0x4000000
COMMUNICATION = ACL_API | HCCL_TRACE | TASK_TIME | RUNTIME_TRACE
MASTER = 0x010001

# op -> (node name, HcclDataType, count as reported) for the calls the program makes
OPS = {
    "allreduce": ("hcom_allReduce_", 4, 1024),
    "broadcast": ("hcom_broadcast_", 0, 1024),
    "allgather": ("hcom_allGather_", 3, 64),
    "reducescatter": ("hcom_reduceScatter_", 11, 64),
    "reduce": ("hcom_reduce_", 2, 1024),
    "alltoall": ("hcom_alltoall_", 5, 16),
    "alltoallv": ("hcom_alltoallv_", 7, None),  # 8 elements to every rank
    "scatter": ("hcom_scatter_", 10, 32),
    "batch": ("hcom_batchSendRecv_", 4, 20),
}


@dataclass
class Run:
    api: list[tuple] = field(default_factory=list)  # (seq, level, type, tid, begin, end, item)
    tracks: list[tuple] = field(default_factory=list)  # (seq, tid, ts, dev, stream, task, tasktype, kernel)
    infos: list[tuple] = field(default_factory=list)  # (seq, tid, ts, dtype, alg, count, group)
    stars: list[tuple] = field(default_factory=list)  # (seq, dev, func, stream, task, ts)
    types: dict[tuple[int, int], str] = field(default_factory=dict)
    hashes: dict[int, str] = field(default_factory=dict)
    ranks: dict[int, tuple[int, str]] = field(default_factory=dict)  # rank -> (tid, comm name)
    results: list[tuple[int, str, int]] = field(default_factory=list)

    def records_of(self, tid: int) -> list[tuple]:
        """HCCL's records on one thread in arrival order, tagged with their kind."""
        out = [("api", *a) for a in self.api if a[3] == tid and a[1] in (5500, 10000)]
        out += [("track", *t) for t in self.tracks if t[1] == tid]
        out += [("info", *i) for i in self.infos if i[1] == tid]
        return sorted(out, key=lambda r: r[1])


def parse(stdout: str) -> Run:
    run = Run()
    for line in stdout.splitlines():
        f = line.split(" ")
        if f[0] == "A":
            run.api.append(tuple(int(x) for x in f[1:8]))
        elif f[0] == "K":
            run.tracks.append(tuple(int(x) for x in f[1:9]))
        elif f[0] == "O":
            run.infos.append(tuple(int(x) for x in f[1:8]))
        elif f[0] == "S":
            run.stars.append(tuple(int(x) for x in f[1:7]))
        elif f[0] == "T":
            run.types[(int(f[1]), int(f[2]))] = " ".join(f[3:])
        elif f[0] == "H":
            run.hashes[int(f[1])] = " ".join(f[2:])
        elif f[0] == "Q":
            run.ranks[int(f[1])] = (int(f[2]), f[3])
        elif f[0] == "X":
            run.results.append((int(f[1]), f[2], int(f[3])))
    return run


@pytest.fixture(scope="module")
def exe(programs: ProgramBuilder) -> Path:
    return programs.build(
        [PROGRAMS / "hccl_reports.cpp"], libs=["hccl", "hcomm", "ascendcl", "profapi", "ascend_hal"]
    )


def run(exe: Path, native: NativeTree, p: int, bits: int, ops: list[str], **env: str) -> Run:
    settings = {"NPU_SIM_CLOCK": "virtual", "NPU_SIM_DEVICES": "8", "HCCL_CONNECT_TIMEOUT": "30", **env}
    result = run_program(exe, native.env(**settings), [str(p), f"{bits:x}", *ops], timeout=120)
    assert result.returncode == 0, (
        f"exit {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
    out = parse(result.stdout)
    assert all(status == 0 for _, _, status in out.results), out.results
    return out


def op_groups(out: Run, rank: int) -> list[list[tuple]]:
    records = out.records_of(out.ranks[rank][0])
    assert len(records) % 4 == 0, records
    return [records[i : i + 4] for i in range(0, len(records), 4)]


@pytest.mark.parametrize("p", [2, 4])
def test_each_operation_reports_track_master_api_op_info_and_node_launch_in_order(
    exe: Path, native: NativeTree, p: int
) -> None:
    ops = [*OPS, "sendrecv"]
    out = run(exe, native, p, COMMUNICATION, ops)
    assert out.types[(5000, 5)] == "MEMCPY_ASYNC"  # registered at START; not a KERNEL type
    names = {name for name, _, _ in OPS.values()} | {"hcom_send_", "hcom_receive_"}
    for rank in range(p):
        tid, comm_name = out.ranks[rank]
        groups = op_groups(out, rank)
        assert len(groups) == len(ops)
        for op, group in zip(ops, groups, strict=False):
            kinds = [(g[0], g[2] if g[0] == "api" else None) for g in group]
            assert kinds == [("track", None), ("api", 5500), ("info", None), ("api", 10000)], group
            (_, _k_seq, k_tid, k_ts, dev, stream, task, ttype, kname) = group[0]
            (_, _m_seq, _, m_type, m_tid, m_begin, m_end, m_item) = group[1]
            (_, _o_seq, o_tid, o_ts, dtype, alg, count, grp) = group[2]
            (_, n_seq, _, n_type, n_tid, t0, t4, n_item) = group[3]
            assert k_tid == m_tid == o_tid == n_tid == tid
            assert (m_type, n_type) == (MASTER, 5)
            # The task track lies in the master API; everything lies in the node launch.
            assert t0 <= m_begin <= k_ts <= m_end <= o_ts <= t4
            # Names and hashes.
            node = out.hashes[n_item]
            assert node in names and m_item == n_item == kname
            if op == "sendrecv":
                expect_node = "hcom_send_" if rank % 2 == 0 else "hcom_receive_"
                assert (node, dtype, count) == (expect_node, 1, 100)
            else:
                name, want_dtype, want_count = OPS[op]
                assert (node, dtype) == (name, want_dtype)
                assert count == (want_count if want_count is not None else 8 * p)
            assert out.hashes[grp] == comm_name and CANN_COMM_NAME.fullmatch(comm_name)
            assert out.hashes[alg] == ("P2P" if op in ("sendrecv", "batch") else "MESH")
            assert ttype == 5 and not out.types[(5000, ttype)].startswith("KERNEL")
            assert dev == rank and stream > 0
            # The device logs the task only after the reports: its begin/end follow the node launch.
            task_logs = [s for s in out.stars if (s[1], s[3], s[4]) == (dev, stream, task)]
            # The task's begin, its one FFTS+ data-movement sub-task (begin, end) inside it, its end.
            assert [s[2] for s in task_logs] == [0, 34, 35, 1], task_logs
            assert task_logs[0][5] <= task_logs[1][5] <= task_logs[2][5] <= task_logs[3][5]
            logs = [s for s in task_logs if s[2] in (0, 1)]
            assert all(s[0] > n_seq for s in logs)
            assert t4 < logs[0][5] <= logs[1][5]


def test_ranks_agree_on_the_algorithm_and_group(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, 4, COMMUNICATION, ["allreduce", "alltoall"])
    infos = defaultdict(set)
    for rank in range(4):
        for group in op_groups(out, rank):
            infos[out.hashes[group[3][7]]].add((out.hashes[group[2][5]], out.hashes[group[2][7]]))
    assert all(len(v) == 1 for v in infos.values()), infos


def test_task_time_alone_gives_tracks_and_node_launches(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, 2, TASK_TIME, ["allreduce", "broadcast"])
    for rank in range(2):
        records = out.records_of(out.ranks[rank][0])
        assert [(r[0], r[2] if r[0] == "api" else None) for r in records] == [
            ("track", None),
            ("api", 10000),
            ("track", None),
            ("api", 10000),
        ]


def test_hccl_trace_alone_gives_master_apis_and_op_info(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, 2, HCCL_TRACE, ["allreduce", "broadcast"])
    for rank in range(2):
        records = out.records_of(out.ranks[rank][0])
        assert [(r[0], r[2] if r[0] == "api" else None) for r in records] == [
            ("api", 5500),
            ("info", None),
            ("api", 5500),
            ("info", None),
        ]


def test_nothing_is_reported_without_a_switch_or_after_stop(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, 2, COMMUNICATION, ["allreduce", "stop", "allreduce", "broadcast"])
    for rank in range(2):
        assert len(op_groups(out, rank)) == 1
    quiet = run(exe, native, 2, 0, ["allreduce"])
    assert not quiet.tracks and not quiet.infos and not [a for a in quiet.api if a[1] in (5500, 10000)]
    # The device still logs the tasks.
    assert len([s for s in quiet.stars if s[2] == 0]) == 2


def test_barrier_is_not_reported_but_its_task_is_logged(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, 2, COMMUNICATION, ["barrier"])
    assert not out.tracks and not out.infos
    # Both ranks' work (the FFTS+ sub-task, func 34) starts together; each task begins when its
    # own stream reaches it and waits inside for the other rank.
    begins = {s[1]: s[5] for s in out.stars if s[2] == 0}
    works = {s[1]: s[5] for s in out.stars if s[2] == 34}
    assert len(works) == 2 and len(set(works.values())) == 1
    assert all(begins[d] <= works[d] for d in works)


def test_algorithm_names_follow_the_topology(exe: Path, native: NativeTree) -> None:
    a3 = run(exe, native, 4, COMMUNICATION, ["allreduce"], NPU_SIM_SOC="Ascend910_9382")
    assert {a3.hashes[g[2][5]] for r in range(4) for g in op_groups(a3, r)} == {"SIO-MESH"}
    v6 = run(exe, native, 4, COMMUNICATION, ["allreduce"], NPU_SIM_SOC="Ascend950PR_9599")
    assert {v6.hashes[g[2][5]] for r in range(4) for g in op_groups(v6, r)} == {"NHR"}
