"""``--format ascend-pt``: the files torch_npu writes beside trace_view.json, on the consumers'
two-rank workload whose every count and duration is known (consumers/workloads.py).

Names, columns and JSON fields are torch_npu 2.13.0's (``torch_npu/profiler/analysis``) and the
CANN summaries it copies; docs/trace.md lists each field as from records or absent."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import ModuleType

import pytest

from mspti_trace import load_trace
from mspti_trace.ascend_pt import OUTPUT_FOLDER, export_ascend_pt
from mspti_trace.ascend_pt_views import ASCEND_PT_FILES, op_type
from mspti_trace.communication_analysis import CommunicationOp, op_info
from support.sibling import load_sibling

_HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def workloads() -> ModuleType:
    return load_sibling(_HERE / "consumers", "workloads")


@pytest.fixture(scope="module")
def folders(workloads: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("ascend-pt-views")
    workloads.write_workload(root / "cap", 2)
    stats = export_ascend_pt(load_trace(root / "cap"), root / "out")
    return [f.path.parent.parent for f in stats.files]


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _header(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[0].split(",")


def test_every_rank_folder_has_torch_npus_files(folders: list[Path]) -> None:
    assert len(folders) == 2
    for rank, folder in enumerate(folders):
        output = folder / OUTPUT_FOLDER
        assert {p.name for p in output.iterdir()} == {"trace_view.json", *ASCEND_PT_FILES}
        assert (folder / f"profiler_info_{rank}.json").is_file()
        assert (folder / "profiler_metadata.json").is_file()
        (info,) = folder.glob(f"PROF_*/device_{rank}/info.json.{rank}")
        assert info.parent.parent.name.startswith(f"PROF_{rank + 1:06d}_")


def test_kernel_details_has_a_row_per_kernel_with_its_times(folders: list[Path], workloads) -> None:
    path = folders[0] / OUTPUT_FOLDER / "kernel_details.csv"
    assert _header(path) == [
        "Step Id",
        "Device_id",
        "Model ID",
        "Task ID",
        "Stream ID",
        "Name",
        "Type",
        "OP State",
        "Accelerator Core",
        "Start Time(us)",
        "Duration(us)",
        "Wait Time(us)",
        "Block Num",
        "Mix Block Num",
        "HF32 Eligible",
        "Input Shapes",
        "Input Data Types",
        "Input Formats",
        "Output Shapes",
        "Output Data Types",
        "Output Formats",
        "Context ID",
    ]
    rows = _rows(path)
    assert len(rows) == workloads.STEPS * workloads.KERNELS
    first = rows[0]
    start = workloads.kernel_start(0, 0)
    assert first["Start Time(us)"] == f"{start // 1000}.{start % 1000:03d}\t"
    assert first["Name"] == "MatMulV2_0" and first["Type"] == "MatMulV2"
    assert first["Accelerator Core"] == "AI_CORE" and first["Device_id"] == "0"
    assert first["Stream ID"] == str(workloads.COMPUTE_STREAM)
    assert {float(r["Duration(us)"]) for r in rows} == {workloads.KERNEL_NS / 1000}
    # Wait: the gap since the previous kernel on the stream (none before a stream's first).
    assert rows[0]["Wait Time(us)"] == "0"  # as msprof writes a task with no previous one
    gap, span = workloads.KERNEL_GAP_NS, workloads.KERNEL_NS
    assert rows[1]["Wait Time(us)"] == f"{gap // 1000}.{gap % 1000:03d}"  # three decimals, as msprof
    assert rows[1]["Duration(us)"] == f"{span // 1000}.{span % 1000:03d}"
    assert float(rows[1]["Wait Time(us)"]) == workloads.KERNEL_GAP_NS / 1000
    assert [r["Step Id"] for r in rows] == [
        str(s) for s in range(workloads.STEPS) for _ in range(workloads.KERNELS)
    ]
    # Not in msPTI records: written as not collected.
    assert {r["Block Num"] for r in rows} == {"N/A"} and {r["Input Shapes"] for r in rows} == {"N/A"}
    assert {r["Model ID"] for r in rows} == {"4294967295"} and {r["Task ID"] for r in rows} == {"N/A"}


def test_task_time_has_a_row_per_kernel_as_msprof_writes_it(folders: list[Path], workloads) -> None:
    path = folders[0] / OUTPUT_FOLDER / "task_time.csv"
    assert _header(path) == [
        "Device_id",
        "kernel_name",
        "kernel_type",
        "stream_id",
        "task_id",
        "task_time(us)",
        "task_start(us)",
        "task_stop(us)",
    ]
    rows = _rows(path)
    assert len(rows) == workloads.STEPS * workloads.KERNELS
    start = workloads.kernel_start(0, 0)
    end = start + workloads.KERNEL_NS
    assert rows[0]["kernel_name"] == "MatMulV2_0" and rows[0]["kernel_type"] == "AI_CORE"
    assert rows[0]["stream_id"] == str(workloads.COMPUTE_STREAM) and rows[0]["task_id"] == "N/A"
    assert rows[0]["task_start(us)"] == f"{start // 1000}.{start % 1000:03d}\t"
    assert rows[0]["task_stop(us)"] == f"{end // 1000}.{end % 1000:03d}\t"
    assert {float(r["task_time(us)"]) for r in rows} == {workloads.KERNEL_NS / 1000}


def test_op_type_is_the_kernel_binary_names_prefix() -> None:
    assert op_type("Axpy_233851a3505389e43928a8bba133a74d_high_performance_210000000") == "Axpy"
    assert op_type("MatMulV2") == "MatMulV2"


def test_op_statistic_and_api_statistic_count_the_records(folders: list[Path], workloads) -> None:
    output = folders[1] / OUTPUT_FOLDER
    rows = _rows(output / "op_statistic.csv")
    assert _header(output / "op_statistic.csv")[:4] == ["Device_id", "OP Type", "Core Type", "Count"]
    (row,) = rows
    assert row["OP Type"] == "MatMulV2" and row["Core Type"] == "AI_CORE" and row["Device_id"] == "1"
    assert int(row["Count"]) == workloads.STEPS * workloads.KERNELS
    assert float(row["Total Time(us)"]) == workloads.STEPS * workloads.KERNELS * workloads.KERNEL_NS / 1000
    assert float(row["Ratio(%)"]) == 100.0
    api = {(r["Level"], r["API Name"]): r for r in _rows(output / "api_statistic.csv")}
    assert int(api[("acl", "aclrtLaunchKernel")]["Count"]) == workloads.STEPS * workloads.KERNELS
    assert int(api[("node", "aclnnMatmul_0")]["Count"]) == workloads.STEPS
    assert float(api[("runtime", "KernelLaunch")]["Avg(us)"]) == workloads.CALL_NS / 1000


def test_operator_details_sum_the_kernels_each_operator_launched(folders: list[Path], workloads) -> None:
    rows = _rows(folders[0] / OUTPUT_FOLDER / "operator_details.csv")
    matmul = [r for r in rows if r["Name"] == "aclnnMatmul_2"]
    assert len(matmul) == workloads.STEPS
    for r in matmul:
        assert float(r["Host Total Duration(us)"]) == workloads.CALL_NS / 1000
        assert float(r["Device Self Duration(us)"]) == workloads.KERNEL_NS / 1000
        assert float(r["Device Total Duration With AICore(us)"]) == workloads.KERNEL_NS / 1000
        assert r["Input Shapes"] == "" and r["Call Stack"] == ""


def test_step_trace_time_adds_up_per_step(folders: list[Path], workloads) -> None:
    rows = _rows(folders[0] / OUTPUT_FOLDER / "step_trace_time.csv")
    assert [r["Step"] for r in rows] == [str(s) for s in range(workloads.STEPS)]
    for r in rows:
        assert float(r["Computing"]) == workloads.KERNELS * workloads.KERNEL_NS / 1000
        assert float(r["Communication"]) == workloads.ALLREDUCE_NS / 1000
        assert float(r["Communication(Not Overlapped)"]) == workloads.KERNEL_GAP_NS / 1000
        assert float(r["Overlapped"]) == (workloads.ALLREDUCE_NS - workloads.KERNEL_GAP_NS) / 1000
        assert float(r["Preparing"]) == workloads.FIRST_KERNEL_NS / 1000
        assert float(r["Bubble"]) == 0.0


def test_communication_ops_have_the_same_keys_on_every_rank(folders: list[Path], workloads) -> None:
    data = [json.loads((f / OUTPUT_FOLDER / "communication.json").read_text()) for f in folders]
    assert data[0].keys() == data[1].keys() == {f"step{s}" for s in range(workloads.STEPS)}
    for step in data[0]:
        ops = [d[step]["collective"] for d in data]
        assert ops[0].keys() == ops[1].keys()
        names = [k for k in ops[0] if k != "Total Op Info"]
        assert len(names) == 1 and names[0].startswith("hcom_allReduce_")
        info = ops[0][names[0]]["Communication Time Info"]
        assert info["Elapse Time(ms)"] == workloads.ALLREDUCE_NS / 1e6
        assert info["Transit Time(ms)"] == 0 and info["Wait Time(ms)"] == 0
    matrix = json.loads((folders[0] / OUTPUT_FOLDER / "communication_matrix.json").read_text())
    assert matrix.keys() == data[0].keys()


def test_communication_entries_are_msprofs_and_totals_torch_npus(folders: list[Path], workloads) -> None:
    # torch_npu copies msprof --analyze's entries (keys, transports in msprof's order) into its steps
    # and sums each step's itself (no bandwidth stored in its total).
    data = json.loads((folders[1] / OUTPUT_FOLDER / "communication.json").read_text())
    for step in range(workloads.STEPS):
        ops = data[f"step{step}"]["collective"]
        key = f"hcom_allReduce__{step}@comm0"
        assert list(ops) == [key, "Total Op Info"]
        start = workloads.T0 + step * workloads.STEP_NS + workloads.ALLREDUCE_START_NS
        op = CommunicationOp(start, start + workloads.ALLREDUCE_NS, "hcom_allReduce_", "comm0")
        assert ops[key] == op_info(op)
        assert list(ops[key]["Communication Bandwidth Info"]) == ["RDMA", "HCCS", "PCIE", "SDMA", "SIO"]
        total = ops["Total Op Info"]
        assert total["Communication Time Info"]["Elapse Time(ms)"] == workloads.ALLREDUCE_NS / 1e6
        assert "Start Timestamp(us)" not in total["Communication Time Info"]
        for transport in ("RDMA", "HCCS", "PCIE", "SDMA", "SIO"):
            assert total["Communication Bandwidth Info"][transport] == {
                "Transit Time(ms)": 0,
                "Transit Size(MB)": 0,
                "Size Distribution": {},
            }


def test_statistics_are_written_as_msprof_writes_them(folders: list[Path], workloads) -> None:
    output = folders[0] / OUTPUT_FOLDER
    (op,) = _rows(output / "op_statistic.csv")
    total = workloads.STEPS * workloads.KERNELS * workloads.KERNEL_NS
    assert op["Total Time(us)"] == f"{total // 1000}.000" and op["Ratio(%)"] == "100.000"
    assert op["Avg Time(us)"] == f"{workloads.KERNEL_NS // 1000}.000"
    api = {(r["Level"], r["API Name"]): r for r in _rows(output / "api_statistic.csv")}
    launch = api[("acl", "aclrtLaunchKernel")]
    assert launch["Device_id"] == "host"
    assert launch["Avg(us)"] == f"{workloads.CALL_NS // 1000}.000" and launch["Variance"] == "0.000"


def test_profiler_info_metadata_and_device_info(folders: list[Path]) -> None:
    from sim_runtime.soc import default_catalogue

    spec = default_catalogue().get("Ascend910B3")
    for rank, folder in enumerate(folders):
        info = json.loads((folder / f"profiler_info_{rank}.json").read_text())
        assert info["rank_id"] == rank
        assert info["config"]["experimental_config"]["_profiler_level"] == "Level0"
        assert info["end_info"]["collectionTimeEnd"] > 0
        metadata = json.loads((folder / "profiler_metadata.json").read_text())
        (group,) = metadata["parallel_group_info"].values()
        assert group["global_ranks"] == [0, 1] and group["group_rank"] == rank
        (device_info,) = folder.glob("PROF_*/device_*/info.json.*")
        (device,) = json.loads(device_info.read_text())["DeviceInfo"]
        assert device["id"] == rank and device["aic_frequency"] == str(spec.cube_mhz)
        assert device["ai_core_num"] == spec.aic and device["aiv_num"] == spec.aiv


def test_a_rank_without_a_device_gets_no_device_info(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess(pid=7, tid=7)
    process.mark("host only")
    process.write(tmp_path / "cap", {})
    (rank,) = export_ascend_pt(load_trace(tmp_path / "cap"), tmp_path / "out").files
    folder = rank.path.parent.parent
    assert not list(folder.glob("PROF_*"))
    assert (
        (folder / OUTPUT_FOLDER / "kernel_details.csv").read_text().splitlines()[0].startswith("Device_id,")
    )
    assert (folder / "profiler_info_0.json").is_file()
