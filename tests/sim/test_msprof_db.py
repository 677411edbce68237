"""msprof's database export (`msprof --export=on --type=db`, docs/msprof.md): the file name, tables
and columns msprof writes (Ascend/msprof 024471cf, msprof_db.cpp), with the rows of the text export."""

from __future__ import annotations

import csv
import re
import sqlite3
from pathlib import Path

import pytest

from sim_runtime.msprof import raw
from sim_runtime.msprof.cli import main as msprof_main
from support.msprof_collections import allreduce, synthetic_collection

BASE = 1_780_000_000_000_000_000

# msprof_db.cpp's columns of the tables torch_npu's analysis reads.
COLUMNS = {
    "STRING_IDS": ["id", "value"],
    "TASK": [
        "startNs", "endNs", "deviceId", "connectionId", "globalTaskId", "globalPid", "taskType", "contextId",
        "streamId", "taskId", "modelId",
    ],
    "COMPUTE_TASK_INFO": [
        "name", "globalTaskId", "blockNum", "mixBlockNum", "taskType", "opType", "inputFormats",
        "inputDataTypes", "inputShapes", "outputFormats", "outputDataTypes", "outputShapes", "attrInfo",
        "opState", "hf32Eligible", "gridDim", "blockDim",
    ],
    "COMMUNICATION_OP": [
        "opName", "startNs", "endNs", "connectionId", "groupName", "opId", "relay", "retry", "dataType",
        "algType", "count", "opType", "deviceId", "rankSize",
    ],
    "CANN_API": ["startNs", "endNs", "type", "globalTid", "connectionId", "name"],
    "MEMCPY_INFO": ["globalTaskId", "size", "memcpyOperation"],
    "ENUM_API_TYPE": ["id", "name"],
    "META_DATA": ["name", "value"],
    "OVERLAP_ANALYSIS": ["id", "deviceId", "startNs", "endNs", "type"],
}  # fmt: skip


def records() -> list[dict[str, object]]:
    """Two launches (node launch inside the AscendCL call, each with its kernel), a copy and an
    all-reduce on device 0."""
    out: list[dict[str, object]] = []
    for i, (name, op) in enumerate(
        (("MatMulV2_1_high", "aclnnMm_MatMulCommon_MatMulV2"), ("Add_2", "aclnnAdd_Add_Add"))
    ):
        t = BASE + i * 100_000
        out.append({"kind": "acl_api", "start": t, "end": t + 9_000, "pid": 7, "tid": 70,
                    "correlation": i + 1, "name": "aclnnMm" if i == 0 else "aclnnAdd"})  # fmt: skip
        out.append({"kind": "node_api", "start": t + 1_000, "end": t + 8_000, "pid": 7, "tid": 70,
                    "correlation": i + 1, "name": op})  # fmt: skip
        out.append({"kind": "kernel", "start": t + 20_000, "end": t + 45_000, "device": 0, "stream": 3,
                    "correlation": i + 1, "type": "KERNEL_AICORE", "name": name})  # fmt: skip
    # The first node launch's basic info (its end, its thread): the kernel's Block Num. The second's
    # came from another thread, so it belongs to no launch here.
    out.append({"kind": "node_info", "start": BASE + 8_000, "end": BASE + 8_000, "tid": 70, "block_dim": 24,
                "task_type": 0})  # fmt: skip
    out.append({"kind": "node_info", "start": BASE + 108_000, "end": BASE + 108_000, "tid": 71,
                "block_dim": 5, "task_type": 0})  # fmt: skip
    out.append({"kind": "memcpy", "start": BASE + 300_000, "end": BASE + 310_000, "device": 0, "stream": 3,
                "correlation": 9, "copy_kind": 2, "bytes": 4096, "async": 1})  # fmt: skip
    out.append(allreduce(BASE + 400_000, BASE + 450_000, 12))
    return out


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, sqlite3.Connection]:
    prof = synthetic_collection(tmp_path, records(), pid=7)
    assert msprof_main(["--export=on", "--type=db", f"--output={tmp_path}"]) == 0
    assert msprof_main(["--export=on", f"--output={tmp_path}"]) == 0  # the text export, to compare
    (path,) = prof.glob("msprof_*.db")
    db = sqlite3.connect(path)
    yield prof, db
    db.close()


def test_file_name_is_msprofs(exported: tuple[Path, sqlite3.Connection]) -> None:
    prof, _ = exported
    (path,) = prof.glob("msprof_*.db")
    # torch_npu waits for ^msprof_\d+\.db$ in the PROF_* folder; msprof names it by the local time.
    assert re.fullmatch(r"msprof_\d{14}\.db", path.name)
    assert not list(prof.glob("*.partial"))


def test_tables_have_msprofs_columns(exported: tuple[Path, sqlite3.Connection]) -> None:
    _, db = exported
    for table, columns in COLUMNS.items():
        assert [row[1] for row in db.execute(f"PRAGMA table_info({table})")] == columns, table


def test_kernel_rows_are_the_msPTI_kernel_records_and_the_op_summary_rows(
    exported: tuple[Path, sqlite3.Connection],
) -> None:
    prof, db = exported
    rows = db.execute(
        "SELECT n.value, t.deviceId, t.streamId, t.startNs, t.endNs, t.connectionId, tt.value, ot.value "
        "FROM COMPUTE_TASK_INFO c JOIN TASK t ON c.globalTaskId = t.globalTaskId "
        "JOIN STRING_IDS n ON c.name = n.id JOIN STRING_IDS tt ON t.taskType = tt.id "
        "JOIN STRING_IDS ot ON c.opType = ot.id ORDER BY t.startNs"
    ).fetchall()
    kernels = sorted(raw.load(prof).kernels, key=lambda k: k.start)
    assert [r[:6] for r in rows] == [
        (k.name, k.device, k.stream, k.start, k.end, k.correlation) for k in kernels
    ]
    (summary,) = (prof / "mindstudio_profiler_output").glob("op_summary_*.csv")
    with summary.open(encoding="utf-8", newline="") as f:
        text = [r for r in csv.DictReader(f) if r["Task Type"] != "COMMUNICATION"]
    assert [(r[0], r[6], r[7]) for r in rows] == [(t["Op Name"], t["Task Type"], t["OP Type"]) for t in text]
    assert [r[7] for r in rows] == ["MatMulV2", "Add"]


def test_block_num_is_the_node_launchs_block_dim(exported: tuple[Path, sqlite3.Connection]) -> None:
    prof, db = exported
    rows = db.execute(
        "SELECT c.blockNum, c.mixBlockNum FROM COMPUTE_TASK_INFO c "
        "JOIN TASK t ON c.globalTaskId = t.globalTaskId ORDER BY t.startNs"
    ).fetchall()
    assert rows == [(24, 4294967295), (4294967295, 4294967295)]  # unset: msprof's UINT32_MAX
    (summary,) = (prof / "mindstudio_profiler_output").glob("op_summary_*.csv")
    with summary.open(encoding="utf-8", newline="") as f:
        text = [(r["Op Name"], r["Block Num"]) for r in csv.DictReader(f)]
    assert text == [("MatMulV2_1_high", "24"), ("Add_2", "N/A"), ("hcom_allReduce_", "0")]


def test_node_launches_carry_their_kernels_connection_id(exported: tuple[Path, sqlite3.Connection]) -> None:
    _, db = exported
    # torch_npu links its operators to kernels through the node-level (10000) API named "launch".
    launches = db.execute(
        "SELECT a.connectionId, a.globalTid FROM CANN_API a JOIN STRING_IDS s ON a.name = s.id "
        "WHERE s.value = 'launch' AND a.type = 10000 ORDER BY a.startNs"
    ).fetchall()
    kernels = db.execute(
        "SELECT t.connectionId FROM TASK t JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId "
        "ORDER BY t.startNs"
    ).fetchall()
    assert [c for c, _ in launches] == [c for (c,) in kernels] == [1, 2]
    assert {tid for _, tid in launches} == {(7 << 32) | 70}
    acl = db.execute("SELECT connectionId FROM CANN_API WHERE type = 20000").fetchall()
    assert len(acl) == 2 and not {c for (c,) in acl} & {1, 2}  # connectionId is the table's key


def test_copy_and_communication_rows(exported: tuple[Path, sqlite3.Connection]) -> None:
    _, db = exported
    ((size, operation, start, task_type),) = db.execute(
        "SELECT m.size, m.memcpyOperation, t.startNs, s.value FROM MEMCPY_INFO m "
        "JOIN TASK t ON m.globalTaskId = t.globalTaskId JOIN STRING_IDS s ON t.taskType = s.id"
    ).fetchall()
    assert (size, operation, start, task_type) == (4096, 1, BASE + 300_000, "MEMCPY_ASYNC")  # host to device
    ((name, group, start, end, data_type, alg, count),) = db.execute(
        "SELECT n.value, g.value, c.startNs, c.endNs, c.dataType, a.value, c.count FROM COMMUNICATION_OP c "
        "JOIN STRING_IDS n ON c.opName = n.id JOIN STRING_IDS g ON c.groupName = g.id "
        "JOIN STRING_IDS a ON c.algType = a.id"
    ).fetchall()
    assert (name, group, start, end, data_type, alg, count) == (
        "hcom_allReduce_", "world", BASE + 400_000, BASE + 450_000, 4, "RING", 4096
    )  # fmt: skip
    # The overlap rows are the timeline's: the kernels computing, the all-reduce alone.
    types = dict(db.execute("SELECT name, id FROM ENUM_OVERLAY_ANALYSIS_TYPE"))
    comm_only = db.execute(
        "SELECT startNs, endNs FROM OVERLAP_ANALYSIS WHERE type = ?", (types["COMM_NOT_OVERLAP_COMP"],)
    ).fetchall()
    assert comm_only == [(BASE + 400_000, BASE + 450_000)]


def test_tables_of_data_not_collected_are_not_written(exported: tuple[Path, sqlite3.Connection]) -> None:
    _, db = exported
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    # No PMU, memory or HCCL task records: msprof writes none of these tables without them.
    assert not names & {"TASK_PMU_INFO", "NPU_MEM", "NPU_MODULE_MEM", "NPU_OP_MEM", "COMMUNICATION_TASK_INFO"}
    assert dict(db.execute("SELECT name, value FROM META_DATA"))["SCHEMA_VERSION"] == "1.2.0"


def test_analyze_db_writes_the_analyzer_database(tmp_path: Path) -> None:
    prof = synthetic_collection(tmp_path, [allreduce(BASE + 1_000, BASE + 2_501_000, 2)])
    assert msprof_main(["--analyze=on", "--type=db", f"--output={tmp_path}"]) == 0
    assert not (prof / "analyze" / "communication.json").exists()  # --type=db writes no JSON
    db = sqlite3.connect(prof / "analyze" / "communication_analyzer.db")
    try:
        rows = db.execute(
            "SELECT hccl_op_name, group_name, start_timestamp, elapse_time, idle_time FROM CommAnalyzerTime"
        )
        assert rows.fetchall() == [("hcom_allReduce__0", "world", (BASE + 1_000) / 1000, 2.5, 2.5)]
        # No transport carried data (no HCCL task records): no bandwidth or matrix rows, as msprof.
        assert db.execute("SELECT COUNT(*) FROM CommAnalyzerBandwidth").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM CommAnalyzerMatrix").fetchone() == (0,)
    finally:
        db.close()


def memory(start: int, operation: int, address: int, size: int, device: int = 0) -> dict[str, object]:
    return {"kind": "memory", "start": start, "end": start, "device": device, "stream": 0,
            "correlation": 0, "operation": operation, "memory_kind": 1, "address": address, "bytes": size,
            "pid": 7}  # fmt: skip


def test_npu_mem_is_the_applications_device_memory_after_each_change(tmp_path: Path) -> None:
    # 1 MB held on device 0 when the collection starts; two allocations, a release that names its size
    # and one that does not (0: what was allocated there), on device 0; one allocation on device 1; a
    # host allocation, which is no device memory; what device 0 holds when the collection stops.
    host = {**memory(BASE + 5, 0, 0x9000, 1 << 30), "memory_kind": 2}
    records = [
        {"kind": "memory_in_use", "start": BASE, "end": BASE, "device": 0, "bytes": 1 << 20},
        memory(BASE + 1, 0, 0x1000, 4 << 20), memory(BASE + 2, 0, 0x2000, 2 << 20),
        memory(BASE + 3, 1, 0x1000, 4 << 20), memory(BASE + 4, 0, 0x7000, 3 << 10, device=1), host,
        memory(BASE + 6, 1, 0x2000, 0),
        {"kind": "memory_in_use", "start": BASE + 9, "end": BASE + 9, "device": 0, "bytes": 1 << 20},
    ]  # fmt: skip
    prof = synthetic_collection(tmp_path, records, pid=7)
    assert msprof_main(["--export=on", f"--output={tmp_path}"]) == 0
    assert msprof_main(["--export=on", "--type=db", f"--output={tmp_path}"]) == 0
    (path,) = (prof / "mindstudio_profiler_output").glob("npu_mem_*.csv")
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["Device_id", "event", "ddr(KB)", "hbm(KB)", "memory(KB)", "timestamp(us)"]
    held = [(0, 1), (0, 5), (0, 7), (0, 3), (1, 3 / 1024), (0, 1), (0, 1)]  # (device, MB)
    assert [(r[0], r[1], r[2], r[3], r[4]) for r in rows[1:]] == [
        (str(d), "APP", "0", str(int(mb * 1024)), str(int(mb * 1024))) for d, mb in held
    ]
    assert rows[1][5] == f"{BASE // 1000}.{BASE % 1000:03d}\t"
    (db_path,) = prof.glob("msprof_*.db")
    db = sqlite3.connect(db_path)
    try:
        got = db.execute(
            "SELECT s.value, m.hbm, m.deviceId FROM NPU_MEM m JOIN STRING_IDS s ON m.type = s.id "
            "ORDER BY m.timestampNs"
        ).fetchall()
    finally:
        db.close()
    assert got == [("app", int(mb * (1 << 20)), d) for d, mb in held]


def test_no_memory_records_no_npu_mem(exported: tuple[Path, sqlite3.Connection]) -> None:
    prof, _ = exported
    assert not list((prof / "mindstudio_profiler_output").glob("npu_mem_*.csv"))


def test_npu_info_without_device_info_is_unknown(exported: tuple[Path, sqlite3.Connection]) -> None:
    # A collection whose device folder has no info.json: msprof's name for an unknown platform.
    _, db = exported
    assert db.execute("SELECT id, name FROM NPU_INFO").fetchall() == [(0, "UNKNOWN")]
