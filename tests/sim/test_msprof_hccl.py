"""msprof's application mode over a CANN program with collectives (docs/msprof.md): two ranks (threads
of programs/hccl_msprof.cpp) launch kernels and run all-reduces and a broadcast under
`msprof --application=PROGRAM --type=db`; the collection is then also exported as text. The database's
kernel and communication rows, communication_statistic and the timeline's Communication rows are the
run's msPTI KERNEL and COMMUNICATION records (its HCCL records repeat the same operations)."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from mspti_trace.summary_statistics import COMMUNICATION_STATISTIC_HEADERS
from sim_runtime.msprof import raw
from sim_runtime.msprof.cli import main as msprof_main
from sim_runtime.msprof.raw import ACL_PROF_TASK_TIME_L0
from support.msprof_collections import allreduce, synthetic_collection
from support.native import NativeTree, ProgramBuilder

PROGRAMS = Path(__file__).resolve().parent / "programs"
# Per rank, in issue order (programs/hccl_msprof.cpp).
OPERATIONS = ["hcom_allReduce_", "hcom_allReduce_", "hcom_broadcast_"]
HCCL_APIS = {"hcom_allReduce_": "HcclAllReduce", "hcom_broadcast_": "HcclBroadcast"}


@pytest.fixture(scope="module")
def collected(
    programs: ProgramBuilder, native: NativeTree, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, raw.Collection]:
    if not native.mspti_library.exists():
        pytest.skip("libmspti.so is not built")
    program = programs.build([PROGRAMS / "hccl_msprof.cpp"], libs=["hccl", "hcomm", "ascendcl"])
    out = tmp_path_factory.mktemp("msprof_hccl")
    env = native.env(NPU_SIM_DEVICES="2", HCCL_CONNECT_TIMEOUT="30")
    result = subprocess.run(
        [sys.executable, "-m", "sim_runtime.msprof", f"--application={program}", f"--output={out}",
         "--type=db"],
        env={**env, "PYTHONPATH": os.pathsep.join(sys.path)},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0 and "ranks ok" in result.stdout, result.stdout + result.stderr
    (prof,) = out.glob("PROF_*")
    assert msprof_main(["--export=on", f"--output={prof}"]) == 0  # the text export of the same run
    return prof, raw.load(prof)


def by_start(records: list) -> list:
    return sorted(records, key=lambda r: (r.device, r.start))


def test_the_run_collected_each_ranks_kernels_and_operations(collected: tuple[Path, raw.Collection]) -> None:
    prof, collection = collected
    assert sorted(collection.devices) == [0, 1]
    ops = by_start(collection.communications)
    assert [(c.device, c.name) for c in ops] == [(d, name) for d in (0, 1) for name in OPERATIONS]
    assert [(c.device, c.count, c.data_type) for c in ops] == [
        (d, count, dtype) for d in (0, 1) for count, dtype in ((1024, 4), (1024, 4), (100, 0))
    ]  # HCCL_DATA_TYPE_FP32 and INT8
    assert [(k.device, k.name) for k in by_start(collection.kernels)] == [
        (d, "kern_comm") for d in (0, 0, 1, 1)
    ]
    # msPTI's HCCL records (the API's span on the stream) are the same operations: one each, around it.
    lines = [json.loads(line) for line in (prof / raw.RECORDS_FILE).read_text().splitlines()]
    hccl = sorted((r for r in lines if r["kind"] == "hccl"), key=lambda r: (r["device"], r["start"]))
    assert [(r["device"], r["name"]) for r in hccl] == [(c.device, HCCL_APIS[c.name]) for c in ops]
    for record, op in zip(hccl, ops, strict=True):
        assert record["start"] <= op.start < op.end <= record["end"] and record["comm"] == op.comm


def test_db_has_msprofs_tables_with_the_kernel_and_communication_records(
    collected: tuple[Path, raw.Collection],
) -> None:
    prof, collection = collected
    (path,) = prof.glob("msprof_*.db")
    with closing(sqlite3.connect(path)) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        kernels = db.execute(
            "SELECT s.value, t.startNs, t.endNs, t.deviceId, t.streamId FROM COMPUTE_TASK_INFO c "
            "JOIN TASK t ON c.globalTaskId = t.globalTaskId JOIN STRING_IDS s ON c.name = s.id "
            "ORDER BY t.deviceId, t.startNs"
        ).fetchall()
        ops = db.execute(
            "SELECT n.value, o.startNs, o.endNs, o.deviceId, g.value, o.count, o.dataType, o.connectionId "
            "FROM COMMUNICATION_OP o JOIN STRING_IDS n ON o.opName = n.id "
            "JOIN STRING_IDS g ON o.groupName = g.id "
            "ORDER BY o.deviceId, o.startNs"
        ).fetchall()
        npus = db.execute("SELECT id FROM NPU_INFO ORDER BY id").fetchall()
        overlap_devices = {r[0] for r in db.execute("SELECT DISTINCT deviceId FROM OVERLAP_ANALYSIS")}
    assert {
        "TASK", "COMPUTE_TASK_INFO", "COMMUNICATION_OP", "CANN_API", "OVERLAP_ANALYSIS", "NPU_INFO",
        "RANK_DEVICE_MAP", "STRING_IDS", "META_DATA", "SESSION_TIME_INFO", "ENUM_HCCL_DATA_TYPE",
    } <= tables  # fmt: skip
    assert kernels == [(k.name, k.start, k.end, k.device, k.stream) for k in by_start(collection.kernels)]
    assert ops == [
        (c.name, c.start, c.end, c.device, c.comm, c.count, c.data_type, c.correlation)
        for c in by_start(collection.communications)
    ]
    assert npus == [(0,), (1,)] and overlap_devices == {0, 1}


def read_csv(prof: Path, prefix: str) -> list[dict[str, str]]:
    (path,) = (prof / "mindstudio_profiler_output").glob(f"{prefix}_*.csv")
    with path.open(encoding="utf-8", newline="") as rows:
        return list(csv.DictReader(rows))


def test_communication_statistic_counts_each_devices_operations(
    collected: tuple[Path, raw.Collection],
) -> None:
    prof, collection = collected
    rows = read_csv(prof, "communication_statistic")
    assert list(rows[0]) == COMMUNICATION_STATISTIC_HEADERS
    assert COMMUNICATION_STATISTIC_HEADERS == [
        "Device_id", "OP Type", "Count", "Total Time(us)", "Min Time(us)", "Avg Time(us)", "Max Time(us)",
        "Ratio(%)",
    ]  # fmt: skip
    for device in (0, 1):
        ops = [c for c in collection.communications if c.device == device]
        mine = {r["OP Type"]: r for r in rows if r["Device_id"] == str(device)}
        assert set(mine) == set(OPERATIONS)
        device_total = sum(c.end - c.start for c in ops)
        for name, row in mine.items():
            durations = [c.end - c.start for c in ops if c.name == name]
            assert int(row["Count"]) == len(durations) == OPERATIONS.count(name)
            assert float(row["Total Time(us)"]) == pytest.approx(sum(durations) / 1000, abs=0.0005)
            assert float(row["Min Time(us)"]) == pytest.approx(min(durations) / 1000, abs=0.0005)
            assert float(row["Max Time(us)"]) == pytest.approx(max(durations) / 1000, abs=0.0005)
            assert float(row["Ratio(%)"]) == pytest.approx(100 * sum(durations) / device_total, abs=0.0005)
    # op_summary has the operations too (Task Type COMMUNICATION), one row per record.
    summary = [r for r in read_csv(prof, "op_summary") if r["Task Type"] == "COMMUNICATION"]
    assert sorted((r["Device_id"], r["Op Name"], r["Task Start Time(us)"]) for r in summary) == sorted(
        (str(c.device), c.name, f"{c.start // 1000}.{c.start % 1000:03d}\t")
        for c in collection.communications
    )


def test_timeline_has_a_communication_row_per_operation_in_its_group(
    collected: tuple[Path, raw.Collection],
) -> None:
    prof, collection = collected
    (path,) = (prof / "mindstudio_profiler_output").glob("msprof_*.json")
    events = json.loads(path.read_text())
    processes = {e["pid"]: e["args"]["name"] for e in events if e.get("name") == "process_name"}
    labels = {e["pid"]: e["args"]["labels"] for e in events if e.get("name") == "process_labels"}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    communication = {pid for pid, name in processes.items() if name == "Communication"}
    assert sorted(labels[pid] for pid in communication) == ["NPU 0", "NPU 1"]
    rows = sorted(
        (int(labels[e["pid"]].split()[1]), e["ts"], e["name"], threads[(e["pid"], e["tid"])],
         e["args"]["count"], e["args"]["data_type"])
        for e in events if e.get("ph") == "X" and e["pid"] in communication
    )  # fmt: skip
    dtype = {4: "FP32", 0: "INT8"}
    assert rows == sorted(
        (c.device, f"{c.start // 1000}.{c.start % 1000:03d}", c.name, f"Group {c.comm} Communication",
         c.count, dtype[c.data_type])
        for c in collection.communications
    )  # fmt: skip


def test_level0_has_no_communication_statistic_or_analysis(tmp_path: Path) -> None:
    # msprof writes communication_statistic only above Level0 (comm_statistic_assembler.cpp) and none
    # without communication operations; its communication analysis reads HCCL task events, which CANN
    # collects only above Level0, so --analyze writes nothing at Level0 (and torch_npu then writes no
    # communication.json or communication_matrix.json, as its documentation says for Level0).
    level0 = synthetic_collection(
        tmp_path / "l0", [allreduce(1_000, 2_000, 1)], data_types=ACL_PROF_TASK_TIME_L0
    )
    level1 = synthetic_collection(tmp_path / "l1", [allreduce(1_000, 2_000, 1)])
    none = synthetic_collection(tmp_path / "none", [])
    for prof in (level0, level1, none):
        assert msprof_main(["--export=on", "--analyze=on", f"--output={prof}"]) == 0
    statistic = tmp_path.glob("*/PROF_*/mindstudio_profiler_output/communication_statistic_*.csv")
    assert {p.parents[2].name for p in statistic} == {"l1"}
    analyzed = tmp_path.glob("*/PROF_*/analyze/communication.json")
    assert {p.parents[2].name for p in analyzed} == {"l1"}
