"""libmsprofiler's aclprof* collection and the toolkit's msprof export (docs/msprof.md).

programs/acl_msprof.c collects three kern_alpha and one kern_beta launch between aclprofStart and
aclprofStop (one more launch after the stop), after the calls a caller can get wrong; msprof then
exports the PROF_* directory. The same program without aclprof calls runs under
``msprof --application``.
"""

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

from sim_runtime.msprof import raw
from sim_runtime.msprof.cli import main as msprof_main
from support.msprof_collections import allreduce, synthetic_collection
from support.native import NativeTree, ProgramBuilder, run_program
from support.usage_errors import assert_usage_error, call_main

PROGRAMS = Path(__file__).resolve().parent / "programs"
LAUNCHED = ["kern_alpha", "kern_alpha", "kern_alpha", "kern_beta"]


@pytest.fixture(scope="module")
def program(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "acl_msprof.c"], libs=["ascendcl", "msprofiler"])


@pytest.fixture(scope="module")
def collected(
    program: Path, native: NativeTree, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp("msprof")
    result = run_program(program, native.env(), [str(out)])
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert msprof_main(["--export=on", f"--output={out}"]) == 0
    (prof,) = out.glob("PROF_*")
    return result.stdout + result.stderr, prof


def read_csv(folder: Path, prefix: str) -> list[dict[str, str]]:
    (path,) = folder.glob(f"{prefix}_*.csv")
    with path.open(encoding="utf-8", newline="") as rows:
        return list(csv.DictReader(rows))


def test_bad_calls_return_cann_error_codes(collected: tuple[str, Path]) -> None:
    cases = dict(line[5:].split(" = ") for line in collected[0].splitlines() if line.startswith("case "))
    assert cases == {
        "start_before_init": "100001",  # ACL_ERROR_UNINITIALIZE
        "init_null": "100000",  # ACL_ERROR_INVALID_PARAM
        "init_wrong_length": "100000",
        "config_missing_device": "1",  # NULL config
        "init_twice": "100002",  # ACL_ERROR_REPEAT_INITIALIZE
        "stop_before_start": "100043",  # ACL_ERROR_PROF_NOT_RUN
        "set_config_bad_type": "100000",
        "start_twice": "100042",  # ACL_ERROR_PROF_ALREADY_RUN
        "destroy_running": "100042",
        "finalize_twice": "100001",
    }


def test_prof_directory_has_cann_layout(collected: tuple[str, Path]) -> None:
    prof = collected[1]
    assert prof.name.startswith("PROF_000001_") and len(prof.name.split("_")) == 4
    for name in ("host/start_info", "host/end_info", "device_0/start_info.0", "device_0/end_info.0"):
        assert (prof / name).is_file(), name
    start = json.loads((prof / "host/start_info").read_text())
    assert int(start["collectionTimeBegin"]) > 0 and int(start["clockMonotonicRaw"]) > 0
    # The device's SoC as CANN's info.json.<n> gives it: the default SoC, Ascend910B3 (socs.toml).
    info = json.loads((prof / "device_0/info.json.0").read_text())
    assert info["platform_version"] == "5" and info["devices"] == "0"
    (device,) = info["DeviceInfo"]
    assert (device["ai_core_num"], device["aiv_num"], device["aic_frequency"]) == (20, 40, "1800")
    assert device["hwts_frequency"] == "1000"  # the simulated device counter ticks in ns


def test_raw_data_holds_the_collected_interval_only(collected: tuple[str, Path]) -> None:
    collection = raw.load(collected[1])
    assert [k.name for k in sorted(collection.kernels, key=lambda k: k.start)] == LAUNCHED
    launches = [a for a in collection.apis if a.name == "aclrtLaunchKernel"]
    assert len(launches) == 4 and {a.level for a in launches} == {"acl"}
    assert {k.correlation for k in collection.kernels} <= {a.correlation for a in launches}


def test_op_summary_is_one_row_per_kernel_with_its_times(collected: tuple[str, Path]) -> None:
    prof = collected[1]
    rows = read_csv(prof / "mindstudio_profiler_output", "op_summary")
    kernels = sorted(raw.load(prof).kernels, key=lambda k: k.start)
    assert [r["Op Name"] for r in rows] == LAUNCHED
    assert list(rows[0])[:11] == [
        "Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State", "Task Type",
        "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)",
    ]  # fmt: skip
    for row, kernel in zip(rows, kernels, strict=True):
        assert row["Task Start Time(us)"] == f"{kernel.start // 1000}.{kernel.start % 1000:03d}\t"
        assert round(float(row["Task Duration(us)"]) * 1000) == kernel.end - kernel.start
        assert row["Task Type"] == "AI_VECTOR_CORE" and row["Device_id"] == "0"


def test_statistics_count_calls_and_kernels(collected: tuple[str, Path]) -> None:
    out = collected[1] / "mindstudio_profiler_output"
    apis = {r["API Name"]: r for r in read_csv(out, "api_statistic")}
    assert apis["aclrtLaunchKernel"]["Count"] == "4" and apis["aclrtLaunchKernel"]["Level"] == "acl"
    ops = {r["OP Type"]: r for r in read_csv(out, "op_statistic")}
    assert ops["kern_alpha"]["Count"] == "3" and ops["kern_beta"]["Count"] == "1"
    assert abs(sum(float(r["Ratio(%)"]) for r in ops.values()) - 100.0) < 0.01
    assert [
        r["kernel_name"] for r in read_csv(out, "task_time") if r["kernel_type"] != "MEMCPY_ASYNC"
    ] == LAUNCHED


def test_timeline_has_a_flow_from_each_launch_to_its_kernel(collected: tuple[str, Path]) -> None:
    (path,) = (collected[1] / "mindstudio_profiler_output").glob("msprof_*.json")
    events = json.loads(path.read_text())
    kernels = {
        (e["pid"], e["tid"], e["ts"]): e for e in events if e["ph"] == "X" and e["name"].startswith("kern_")
    }
    assert len(kernels) == 4
    ends = [e for e in events if e.get("cat") == "HostToDevice" and e["ph"] == "f"]
    assert {(e["pid"], e["tid"], e["ts"]) for e in ends} == set(kernels)
    starts = {e["id"] for e in events if e.get("cat") == "HostToDevice" and e["ph"] == "s"}
    assert starts == {e["id"] for e in ends}


def test_application_mode_collects_the_program(program: Path, native: NativeTree, tmp_path: Path) -> None:
    out = tmp_path / "app"
    result = subprocess.run(
        [sys.executable, "-m", "sim_runtime.msprof", f"--application={program} -", f"--output={out}"],
        env={**native.env(), "PYTHONPATH": os.pathsep.join(sys.path)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "case app_init = 148047" in result.stdout  # ACL_ERROR_PROF_API_CONFLICT
    (prof,) = out.glob("PROF_*")
    rows = read_csv(prof / "mindstudio_profiler_output", "op_summary")
    assert [r["Op Name"] for r in rows] == LAUNCHED
    # One truth: the task rows are the run's msPTI KERNEL and MEMCPY records, the copy included
    # (the program is not run with msPTI's interposer preloaded: msPTI is libmsprofiler's client).
    collection = raw.load(prof)
    assert [c.bytes for c in collection.copies if c.kind == "memcpy"] == [4096]
    tasks = [
        (t["kernel_name"], t["task_start(us)"])
        for t in read_csv(prof / "mindstudio_profiler_output", "task_time")
    ]
    records = sorted(
        [(k.start, k.name) for k in collection.kernels]
        + [(c.start, "MEMCPY_ASYNC") for c in collection.copies]
    )
    assert tasks == [(name, f"{start // 1000}.{start % 1000:03d}\t") for start, name in records]


def test_copies_are_collected_without_the_interposer(collected: tuple[str, Path]) -> None:
    # The program calls aclprofInit itself, without libmspti preloaded: as CANN's profiler, the
    # collection has the runtime's copy tasks (from its task reports, not msPTI's interposer), the
    # asynchronous host-to-device one and the synchronous device-to-host one, and their task_time rows
    # are those records.
    output, prof = collected
    assert "MEMCPY" not in output and "MEMSET" not in output
    collection = raw.load(prof)
    copies = sorted(collection.copies, key=lambda c: c.start)
    assert [(c.kind, c.bytes, c.copy_kind) for c in copies] == [("memcpy", 4096, 2), ("memcpy", 1024, 3)]
    tasks = [
        (t["kernel_name"], t["task_start(us)"])
        for t in read_csv(prof / "mindstudio_profiler_output", "task_time")
    ]
    records = sorted(
        [(k.start, k.name) for k in collection.kernels] + [(c.start, "MEMCPY_ASYNC") for c in copies]
    )
    assert tasks == [(name, f"{start // 1000}.{start % 1000:03d}\t") for start, name in records]


@pytest.mark.parametrize(
    ("soc", "chip_type", "name"),
    [
        ("Ascend910B1", 5, "Ascend910B"),
        ("Ascend910_9391", 5, "Ascend910B"),
        ("Ascend950PR_9579", 15, "Ascend950"),
    ],
)
def test_npu_info_names_the_chip_as_msprof(
    program: Path, native: NativeTree, tmp_path: Path, soc: str, chip_type: int, name: str
) -> None:
    # msprof's NPU_INFO names a device by its info.json's platform_version (its CHIP_TABLE: the A2
    # and A3 parts are chip type 5, "Ascend910B"); the database export reads what the collection wrote.
    result = run_program(program, {**native.env(), "NPU_SIM_SOC": soc}, [str(tmp_path)])
    assert result.returncode == 0, result.stdout + result.stderr
    assert msprof_main(["--export=on", "--type=db", f"--output={tmp_path}"]) == 0
    (prof,) = tmp_path.glob("PROF_*")
    assert json.loads((prof / "device_0/info.json.0").read_text())["platform_version"] == str(chip_type)
    (path,) = prof.glob("msprof_*.db")
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT id, name FROM NPU_INFO").fetchall() == [(0, name)]


def test_a_fault_on_aclprof_start_returns_the_plans_code(
    program: Path, native: NativeTree, tmp_path: Path
) -> None:
    # aclprofStart's second call is the program's real start (its first is start_before_init).
    env = {**native.env(), "NPU_SIM_FAULTS": "aclprofStart:error=500005@2"}  # ACL_ERROR_PROFILING_FAILURE
    result = run_program(program, env, [str(tmp_path)])
    assert result.returncode == 1 and "aclprofStart(config) = 500005" in result.stdout, result.stdout
    assert "case start_before_init = 100001" in result.stdout  # the first call was not faulted
    assert not list(tmp_path.glob("PROF_*"))  # the faulted call did nothing


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--export=on"], "--output is required"),
        (["--output=/nonexistent-dir", "--export=on"], "is not a directory"),
        (["--output=."], "nothing to do"),
        (["--output=.", "--export=on", "--type=csv"], "--type"),
        (["--output=.", "--application="], "--application is empty"),
        (["--output=.", "--export=maybe"], "--export"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(call_main(msprof_main, args, capsys), "msprof", says)


def test_folder_without_collections_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = call_main(msprof_main, [f"--output={tmp_path}", "--export=on"], capsys)
    assert result.returncode == 1 and "holds no PROF_*" in result.stderr and "Traceback" not in result.stderr


def test_analyze_writes_cann_communication_files_per_operation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two all-reduces of 2.5 ms and 1.25 ms (listed out of start order) and a kernel, which is no
    # communication.
    base = 1_780_000_000_000_000_000
    kernel = {"kind": "kernel", "start": base, "end": base + 10, "device": 0, "stream": 1,
              "correlation": 1, "type": "KERNEL_AIVEC", "name": "k"}  # fmt: skip
    records = [
        allreduce(base + 9_000_000, base + 10_250_000, 3),
        kernel,
        allreduce(base + 1_000, base + 2_501_000, 2),
    ]
    prof = synthetic_collection(tmp_path, records)
    assert msprof_main(["--analyze=on", f"--output={tmp_path}"]) == 0
    comm = json.loads((prof / "analyze" / "communication.json").read_text())
    assert list(comm) == ["hcom_allReduce__0@world", "hcom_allReduce__1@world", "Total HCCL Operators"]
    first = comm["hcom_allReduce__0@world"]["Communication Time Info"]
    assert first["Start Timestamp(us)"] == (base + 1_000) / 1000 and first["Elapse Time(ms)"] == 2.5
    # No HCCL task records: no transit or wait, so the whole operation is idle, as msprof computes it.
    assert first["Transit Time(ms)"] == first["Wait Time(ms)"] == first["Wait Time Ratio"] == 0
    assert first["Idle Time(ms)"] == 2.5
    total = comm["Total HCCL Operators"]["Communication Time Info"]
    assert (
        total["Elapse Time(ms)"] == 3.75
        and total["Idle Time(ms)"] == 3.75
        and total["Start Timestamp(us)"] == 0
    )
    bandwidth = comm["hcom_allReduce__1@world"]["Communication Bandwidth Info"]
    assert list(bandwidth) == ["RDMA", "HCCS", "PCIE", "SDMA", "SIO"]
    assert bandwidth["HCCS"] == {
        "Transit Size(MB)": 0, "Transit Time(ms)": 0, "Bandwidth(GB/s)": 0, "Large Packet Ratio": 0,
        "Size Distribution": {},
    }  # fmt: skip
    matrix = json.loads((prof / "analyze" / "communication_matrix.json").read_text())
    assert matrix == {
        "hcom_allReduce__0@world": {},
        "hcom_allReduce__1@world": {},
        "Total HCCL Operators": {},
    }
    assert "analyzed" in capsys.readouterr().out


def test_analyze_without_communication_writes_nothing(collected: tuple[str, Path]) -> None:
    prof = collected[1]
    assert msprof_main(["--analyze=on", f"--output={prof}"]) == 0
    assert not (prof / "analyze").exists()


def test_analyze_into_an_unwritable_place_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prof = synthetic_collection(tmp_path, [allreduce(1_000, 2_000, 1)])
    (prof / "analyze").write_text("a file where the analyze folder goes")
    result = call_main(msprof_main, ["--analyze=on", f"--output={prof}"], capsys)
    assert result.returncode == 1 and "cannot write" in result.stderr and "Traceback" not in result.stderr


def test_block_num_is_the_blockdim_of_each_launch(
    programs: ProgramBuilder, native: NativeTree, tmp_path: Path
) -> None:
    # Two kernels launched with the operator layer's reports (node launch and node basic info: 6 and 11
    # blocks), one launched alone by each of the runtime's launch forms (7, 9, 13 and 300 blocks, no
    # node: the task's track carries its blockDim, as CANN's runtime reports it), and two aclnnRelu
    # operators over 3 x 4096 and 5 x 4096 floats, whose vector kernel runs one block per 4096 elements.
    program = programs.build(
        [PROGRAMS / "acl_msprof_block_dim.c"], libs=["ascendcl", "msprofiler", "profapi", "opapi", "nnopbase"]
    )
    result = run_program(program, native.env(), [str(tmp_path)])
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert msprof_main(["--export=on", f"--output={tmp_path}"]) == 0
    (prof,) = tmp_path.glob("PROF_*")
    rows = read_csv(prof / "mindstudio_profiler_output", "op_summary")
    assert [(r["OP Type"], r["Block Num"]) for r in rows] == [
        ("KernAlpha", "6"),  # OP Type: the node launch name's last part
        ("KernBeta", "11"),
        ("kern_alpha", "7"),  # no node launch: the kernel's own name; aclrtLaunchKernel's blockDim
        ("kern_alpha", "9"),  # aclrtLaunchKernelV2
        ("kern_alpha", "13"),  # aclrtLaunchKernelWithHostArgs
        ("kern_alpha", "300"),  # aclrtLaunchKernelWithConfig (more blocks than the chip has cores)
        ("Relu", "3"),
        ("Relu", "5"),
    ]
    assert [r["Task Type"] for r in rows[6:]] == ["AI_VECTOR_CORE"] * 2
    # The hand-made reports name task type 2 (AI_VECTOR_CORE); the operator library's, its vector kernel's.
    collection = raw.load(prof)
    assert [(i.block_dim, i.task_type) for i in collection.node_infos] == [(6, 2), (11, 2), (3, 2), (5, 2)]
    assert [t.block_dim for t in collection.kernel_tasks] == [6, 11, 7, 9, 13, 300, 3, 5]
    # The database's COMPUTE_TASK_INFO.blockNum is the same Block Num.
    assert msprof_main(["--export=on", "--type=db", f"--output={tmp_path}"]) == 0
    (path,) = prof.glob("msprof_*.db")
    with closing(sqlite3.connect(path)) as db:
        blocks = db.execute(
            "SELECT c.blockNum FROM COMPUTE_TASK_INFO c JOIN TASK t USING (globalTaskId) ORDER BY t.startNs"
        ).fetchall()
    assert [b for (b,) in blocks] == [6, 11, 7, 9, 13, 300, 3, 5]


def test_the_timeline_is_whole_before_the_first_csv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # torch_npu's CANNTimelineParser goes on as soon as mindstudio_profiler_output/ has a CSV, and its
    # RelationParser then reads the msprof timeline: the export writes the timeline first, whole.
    from sim_runtime.msprof import summaries

    prof = synthetic_collection(tmp_path, [allreduce(1_000, 2_000, 1)])
    seen: list[list[str]] = []
    write_csv = summaries.write_csv

    def spy(path: Path, headers: list[str], rows: list[list[str]]) -> None:
        timelines = list(path.parent.glob("msprof_*.json"))
        assert len(timelines) == 1, f"{path.name} written before the timeline"
        seen.append(json.loads(timelines[0].read_text())[0]["args"]["name"])
        write_csv(path, headers, rows)

    monkeypatch.setattr(summaries, "write_csv", spy)
    assert msprof_main(["--export=on", f"--output={prof}"]) == 0
    assert seen and set(seen) == {"CANN"}  # the timeline's first event, read back at every CSV
    output = prof / "mindstudio_profiler_output"
    assert not [p.name for p in output.iterdir() if p.name.startswith(".")]  # no partial file left
