"""AI Core metrics end to end (docs/msprof.md, "AI Core metrics"): programs/acl_msprof_metrics.c
collects a matmul (cube), an add (vector) and a fixed-duration kernel through aclprof* with an AI Core
metric set; the device model writes channel 53's ContextPmu records, libmsprofiler stores them in the
PROF_* directory and msprof's export writes the PipeUtilization columns into op_summary."""

from __future__ import annotations

import csv
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from sim_runtime.msprof import aicore_metrics, raw
from sim_runtime.msprof.cli import main as msprof_main
from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"
PIPE_UTILIZATION = 1
NONE = 255
ADD_BYTES = 8 * 196608  # Add_test: 8 blocks of the "*add*" cost entry's bytes (kernel_costs.toml)
AIC = ["aicore_time(us)", "aic_total_cycles", "aic_mac_time(us)", "aic_mac_ratio", "aic_scalar_time(us)",
       "aic_scalar_ratio", "aic_mte1_time(us)", "aic_mte1_ratio", "aic_mte2_time(us)", "aic_mte2_ratio",
       "aic_fixpipe_time(us)", "aic_fixpipe_ratio", "aic_icache_miss_rate"]  # fmt: skip
AIV = ["aiv_time(us)", "aiv_total_cycles", "aiv_vec_time(us)", "aiv_vec_ratio", "aiv_scalar_time(us)",
       "aiv_scalar_ratio", "aiv_mte2_time(us)", "aiv_mte2_ratio", "aiv_mte3_time(us)", "aiv_mte3_ratio",
       "aiv_icache_miss_rate"]  # fmt: skip


@pytest.fixture(scope="module")
def program(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "acl_msprof_metrics.c"], libs=["ascendcl", "msprofiler"])


def collect(program: Path, native: NativeTree, out: Path, metrics: str) -> Path:
    result = run_program(program, native.env(), [str(out), metrics])
    assert result.returncode == 0 and "done" in result.stdout, f"{result.stdout}\n{result.stderr}"
    assert msprof_main(["--export=on", f"--output={out}"]) == 0
    (prof,) = out.glob("PROF_*")
    return prof


def op_summary(prof: Path) -> tuple[list[str], dict[str, dict[str, str]]]:
    (path,) = (prof / "mindstudio_profiler_output").glob("op_summary_*.csv")
    with path.open(encoding="utf-8", newline="") as rows:
        reader = csv.DictReader(rows)
        by_name = {r["Op Name"]: r for r in reader}
        return list(reader.fieldnames or []), by_name


@pytest.fixture(scope="module")
def with_metrics(program: Path, native: NativeTree, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return collect(program, native, tmp_path_factory.mktemp("metrics"), str(PIPE_UTILIZATION))


def test_the_collection_holds_channel_53_as_cann_lays_it_out(with_metrics: Path) -> None:
    data = (with_metrics / "device_0" / "data" / "ffts_profile.data.0.slice_0").read_bytes()
    records = aicore_metrics.decode(data)
    assert len(records) == 5  # one per kernel, two for the mixed kernel (its cube and vector contexts)
    assert sorted(r.context for r in records if r.ffts_type == 4) == [0, 1]
    sample = json.loads((with_metrics / "device_0" / "sample.json").read_text())
    assert sample["ai_core_metrics"] == "PipeUtilization"
    assert sample["ai_core_profiling_events"] == "0x416,0x417,0x9,0x302,0xc,0x303,0x55,0x54"
    assert sample["aiv_profiling_events"] == "0x8,0xa,0x9,0xb,0xc,0xd,0x55,0x54"
    # Which of them the device model counts (the export writes N/A for what only the others give).
    assert sample["npu_sim_counted_events"] == "0x416,0x9,0xc,0x8,0xa"
    # Each record is one kernel's task: the join key msprof uses (stream, task id) and its end time.
    tasks = raw.load(with_metrics).kernel_tasks
    # (a mixed kernel's two contexts share their task's key).
    assert len(tasks) == 4
    assert {(r.stream, r.task, r.times[1]) for r in records} == {
        (t.stream, t.task, t.end_count) for t in tasks
    }


def test_op_summary_has_msprofs_pipe_utilization_columns(with_metrics: Path) -> None:
    headers, rows = op_summary(with_metrics)
    assert headers[headers.index("Context ID") + 1 :] == [*AIC, *AIV, "cube_utilization(%)"]
    matmul, add = rows["MatMulV2_test"], rows["Add_test"]
    assert matmul["Task Type"] == "AI_CORE" and add["Task Type"] == "AI_VECTOR_CORE"
    assert matmul["Task ID"] != "N/A" and matmul["Task ID"] != add["Task ID"]
    # The matmul runs on the cube cores: compute bound (its modelled FLOPs over the cube peak).
    assert float(matmul["aic_mac_ratio"]) > 0.9
    assert 0 < float(matmul["aic_mte2_ratio"]) < float(matmul["aic_mac_ratio"])
    assert all(matmul[h] == "N/A" for h in AIV)
    # The add runs on the vector cores: memory bound in the model (bytes over HBM), some vector work.
    assert float(add["aiv_mte2_ratio"]) > float(add["aiv_vec_ratio"]) > 0
    assert all(add[h] == "N/A" for h in AIC)


def test_metric_values_are_coherent(with_metrics: Path) -> None:
    _, rows = op_summary(with_metrics)
    for row, prefix, time in ((rows["MatMulV2_test"], "aic_", "aicore_time(us)"),
                              (rows["Add_test"], "aiv_", "aiv_time(us)")):  # fmt: skip
        total = float(row[time])
        # The task's time from its cycles is the kernel's duration (us, three decimals).
        assert total == pytest.approx(float(row["Task Duration(us)"]), abs=0.002)
        ratios = {
            h: float(v)
            for h, v in row.items()
            if h.startswith(prefix) and h.endswith("_ratio") and v != "N/A"
        }
        assert ratios and all(0.0 <= r <= 1.0 for r in ratios.values())
        for name, ratio in ratios.items():  # (the ratio is written with three decimals)
            expected = total * ratio
            assert float(row[name.replace("_ratio", "_time(us)")]) == pytest.approx(
                expected, abs=total * 5e-4 + 2e-3
            )
        # Pipes overlap, but no pipe is busier than the task; the scalar pipe carries the fixed overhead.
        assert ratios[prefix + "scalar_ratio"] > 0
        # No instruction cache, L1 -> L0 moves, L0C write-out or separate GM writes are modelled: N/A.
        assert row[prefix + "icache_miss_rate"] == "N/A"
        unmodelled = ("mte1", "fixpipe") if prefix == "aic_" else ("mte3",)
        assert all(row[f"{prefix}{p}_{c}"] == "N/A" for p in unmodelled for c in ("ratio", "time(us)"))


def test_a_mixed_kernel_has_its_cube_and_vector_contexts(with_metrics: Path) -> None:
    _, rows = op_summary(with_metrics)
    mixed = rows["FlashAttention_test"]
    assert mixed["Task Type"] == "MIX_AIC"
    # The model prices a mixed kernel's work on the cube: its cube context carries it, its vector
    # context only the per-kernel overhead.
    assert float(mixed["aic_mac_ratio"]) > 0 and float(mixed["aic_scalar_ratio"]) > 0
    assert float(mixed["aiv_vec_ratio"]) == 0 and float(mixed["aiv_scalar_ratio"]) > 0
    assert float(mixed["aicore_time(us)"]) == pytest.approx(float(mixed["aiv_time(us)"]), abs=0.002)


def test_a_fixed_duration_kernel_splits_over_no_pipe(with_metrics: Path) -> None:
    _, rows = op_summary(with_metrics)
    fixed = rows["kern_alpha"]
    assert float(fixed["aiv_vec_ratio"]) == 0 and float(fixed["aiv_mte2_ratio"]) == 0
    # Only the SoC's per-kernel overhead (500 ns of the 3.5 us) is attributed, to the scalar pipe.
    assert float(fixed["aiv_scalar_ratio"]) == pytest.approx(500 / 3500, abs=0.002)


def test_without_a_metric_set_there_are_no_records_nor_columns(
    program: Path, native: NativeTree, tmp_path: Path
) -> None:
    prof = collect(program, native, tmp_path, str(NONE))
    assert not (prof / "device_0" / "data").exists()
    assert not (prof / "device_0" / "sample.json").exists()
    headers, rows = op_summary(prof)
    assert headers[-1] == "Context ID" and len(rows) == 4
    # Each kernel's task (its Task ID and the blockDim its track reported) is collected with task time,
    # metrics or not.
    tasks = raw.load(prof).kernel_tasks
    assert [t.block_dim for t in tasks] == [20, 8, 4, 4]
    assert sorted(r["Task ID"] for r in rows.values()) == sorted(str(t.task) for t in tasks)


def test_an_unmodelled_set_collects_nothing_and_says_so(
    program: Path, native: NativeTree, tmp_path: Path
) -> None:
    result = run_program(program, native.env(NPU_SIM_LOG_LEVEL="warn"), [str(tmp_path), "7"])
    assert result.returncode == 0, result.stderr
    assert "PipelineExecuteUtilization are not modelled" in result.stdout + result.stderr
    (prof,) = tmp_path.glob("PROF_*")
    assert not (prof / "device_0" / "data").exists()


def test_an_unknown_metric_value_is_refused(program: Path, native: NativeTree, tmp_path: Path) -> None:
    result = run_program(program, native.env(), [str(tmp_path), "bad"])
    assert result.returncode == 0 and "case config_bad_metrics = 1" in result.stdout, result.stdout


@pytest.mark.parametrize(("flags", "columns"), [([], True), (["--ai-core=off"], False)])
def test_application_mode_collects_pipe_utilization_by_default(
    programs: ProgramBuilder, native: NativeTree, tmp_path: Path, flags: list[str], columns: bool
) -> None:
    # msprof's --ai-core is on and --aic-metrics PipeUtilization unless told otherwise, as CANN's.
    app = programs.build([PROGRAMS / "acl_msprof.c"], libs=["ascendcl", "msprofiler"])
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sim_runtime.msprof",
            f"--application={app} -",
            f"--output={tmp_path}",
            *flags,
        ],
        env={**native.env(), "PYTHONPATH": os.pathsep.join(sys.path)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    (prof,) = tmp_path.glob("PROF_*")
    headers, rows = op_summary(prof)
    assert ("aiv_vec_ratio" in headers) is columns and set(rows) == {"kern_alpha", "kern_beta"}
    if columns:
        assert all(float(r["aiv_scalar_ratio"]) > 0 and r["Task ID"] != "N/A" for r in rows.values())


def test_cube_utilization_follows_the_cube_cycles(with_metrics: Path) -> None:
    headers, rows = op_summary(with_metrics)
    assert headers[-1] == "cube_utilization(%)"
    info = json.loads((with_metrics / "device_0" / "info.json.0").read_text())["DeviceInfo"][0]
    matmul = rows["MatMulV2_test"]
    # msprof: aic_total_cycles / (aic frequency x cube cores) x 100 / Task Duration(us).
    expected = (
        int(matmul["aic_total_cycles"]) / (float(info["aic_frequency"]) * float(info["ai_core_num"])) * 100
        / float(matmul["Task Duration(us)"])
    )  # fmt: skip
    assert float(matmul["cube_utilization(%)"]) == pytest.approx(expected, abs=1e-3)
    assert rows["Add_test"]["cube_utilization(%)"] == "N/A"  # no cube context


def test_cube_utilization_is_the_share_of_the_cube_cores_the_blocks_kept_busy(
    programs: ProgramBuilder, native: NativeTree, tmp_path: Path
) -> None:
    # Two aclnnMatmul operators, one whose kernel runs on every cube core and one on 4 blocks, and a
    # cube kernel launched alone with 7 blocks (programs/acl_msprof_cube_blocks.c). CANN's total cycles
    # are summed over the task's blocks; the model keeps min(blocks, cube cores) cores busy for the
    # kernel's whole duration, so each record counts that many durations' cycles.
    program = programs.build(
        [PROGRAMS / "acl_msprof_cube_blocks.c"], libs=["ascendcl", "msprofiler", "opapi", "nnopbase"]
    )
    result = run_program(program, native.env(), [str(tmp_path)])
    assert result.returncode == 0 and "done" in result.stdout, f"{result.stdout}\n{result.stderr}"
    assert msprof_main(["--export=on", f"--output={tmp_path}"]) == 0
    (prof,) = tmp_path.glob("PROF_*")
    (path,) = (prof / "mindstudio_profiler_output").glob("op_summary_*.csv")
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    info = json.loads((prof / "device_0" / "info.json.0").read_text())["DeviceInfo"][0]
    cores, mhz = int(info["ai_core_num"]), int(info["aic_frequency"])
    assert [r["Block Num"] for r in rows] == [str(cores), "4", "7"]
    usage = []
    for row in rows:
        blocks = int(row["Block Num"])
        duration_ns = round(float(row["Task Duration(us)"]) * 1000)
        busy_cycles = duration_ns * mhz // 1000 * min(blocks, cores)
        assert int(row["aic_total_cycles"]) == busy_cycles, row["Op Name"]
        # msprof's task time from the summed cycles and the Block Num is the kernel's duration again.
        assert float(row["aicore_time(us)"]) == pytest.approx(duration_ns / 1000, abs=0.002)
        expected = busy_cycles / (mhz * cores) * 100 / (duration_ns / 1000)
        assert float(row["cube_utilization(%)"]) == pytest.approx(expected, abs=1e-3)
        usage.append(float(row["cube_utilization(%)"]))
    # The full-chip matmul keeps the chip's cube cores busy; the others their blocks' share of them (to
    # the cycle the span's count drops).
    assert usage[0] == pytest.approx(100, rel=1e-3)
    assert usage[1] == pytest.approx(100 * 4 / cores, rel=1e-3)
    assert usage[2] == pytest.approx(100 * 7 / cores, rel=1e-3)
    # The pipe ratios are shares of the summed cycles: still in [0, 1].
    assert all(0 < float(r["aic_mac_ratio"]) <= 1 for r in rows)


@pytest.mark.parametrize(
    ("metrics", "name"),
    [(0, "ArithmeticUtilization"), (2, "Memory"), (3, "MemoryL0"), (4, "ResourceConflictRatio"),
     (5, "MemoryUB"), (6, "L2Cache"), (8, "MemoryAccess")],
)  # fmt: skip
def test_every_metric_set_is_collected_and_exported(
    program: Path, native: NativeTree, tmp_path: Path, metrics: int, name: str
) -> None:
    prof = collect(program, native, tmp_path, str(metrics))
    sample = json.loads((prof / "device_0" / "sample.json").read_text())
    assert sample["ai_core_metrics"] == name
    headers, rows = op_summary(prof)
    metric_set = aicore_metrics.METRIC_SETS[name]
    expected = [
        *aicore_metrics.summary_headers(metric_set, "aic_"),
        *aicore_metrics.summary_headers(metric_set, "aiv_"),
    ]
    assert headers[headers.index("Context ID") + 1 :] == expected
    matmul, add = rows["MatMulV2_test"], rows["Add_test"]
    # Every kernel's task time from its cycles is its duration, whatever the set.
    assert float(matmul["aicore_time(us)"]) == pytest.approx(float(matmul["Task Duration(us)"]), abs=0.002)
    assert float(add["aiv_time(us)"]) == pytest.approx(float(add["Task Duration(us)"]), abs=0.002)
    metric_columns = [h for h in expected if "time(us)" not in h and "total_cycles" not in h]
    modelled = {h for h in metric_columns if any(r[h] != "N/A" for r in rows.values())}
    if name == "ArithmeticUtilization":
        # aclrtLaunchKernel's kernels are priced at fp16 (the roofline's peaks): the cube's fp16 cycles
        # are its compute term, the vector's fp16 (128-lane) cycles its compute term.
        assert modelled == set(metric_columns)
        assert float(matmul["aic_mac_fp16_ratio"]) > 0.9 and float(matmul["aic_mac_int8_ratio"]) == 0
        assert float(add["aiv_vec_fp16_ratio"]) > 0 and float(add["aiv_vec_fp32_ratio"]) == 0
        cycles = float(matmul["aic_mac_fp16_ratio"]) * int(matmul["aic_total_cycles"])
        assert float(matmul["aic_cube_fops"]) == pytest.approx(cycles * 8192, rel=2e-3)
    elif name == "Memory":
        # Main memory: the memory term's bytes (reads and writes together) over the cycles of the cores
        # the blocks ran on (CANN's total cycles are their sum): the bandwidth of one core, on average.
        assert modelled == {"aic_main_mem_read_bw(GB/s)", "aiv_main_mem_read_bw(GB/s)"}
        core_seconds = float(add["aiv_time(us)"]) * 1e-6 * int(add["Block Num"])
        assert float(add["aiv_main_mem_read_bw(GB/s)"]) * core_seconds * 2**30 == pytest.approx(
            ADD_BYTES, rel=2e-3
        )
    elif name == "MemoryAccess":
        assert modelled == {"aic_read_main_memory_datas(KB)", "aiv_read_main_memory_datas(KB)"}
        assert float(add["aiv_read_main_memory_datas(KB)"]) == pytest.approx(ADD_BYTES / 1024, abs=0.001)
    else:  # nothing the model counts: every metric N/A, never a constant
        assert modelled == set()


def test_the_database_holds_each_kernels_task_and_metrics(with_metrics: Path, tmp_path: Path) -> None:
    prof = tmp_path / with_metrics.name
    shutil.copytree(with_metrics, prof)
    assert msprof_main(["--export=on", "--type=db", f"--output={prof}"]) == 0
    (path,) = prof.glob("msprof_*.db")
    db = sqlite3.connect(path)
    try:
        strings = dict(db.execute("SELECT id, value FROM STRING_IDS"))
        tasks = {
            strings[name]: (number, task)
            for number, task, name in db.execute(
                "SELECT t.globalTaskId, t.taskId, c.name FROM TASK t"
                " JOIN COMPUTE_TASK_INFO c USING (globalTaskId)"
            )
        }
        pmu: dict[int, dict[str, float]] = {}
        for number, name, value in db.execute("SELECT globalTaskId, name, value FROM TASK_PMU_INFO"):
            pmu.setdefault(number, {})[strings[name]] = value
    finally:
        db.close()
    _, rows = op_summary(with_metrics)
    for kernel, (_, task) in tasks.items():
        assert str(task) == rows[kernel]["Task ID"]  # the task id the PMU records were joined on
    matmul = pmu[tasks["MatMulV2_test"][0]]
    add = pmu[tasks["Add_test"][0]]
    # msprof's metric summary names (``_extra`` dropped), times in ns; the unmodelled metrics absent.
    assert matmul["aic_mac_ratio"] == pytest.approx(float(rows["MatMulV2_test"]["aic_mac_ratio"]), abs=5e-4)
    assert matmul["aic_total_time"] == pytest.approx(
        float(rows["MatMulV2_test"]["aicore_time(us)"]) * 1000, abs=1
    )
    assert "aic_mte1_ratio" not in matmul and "aic_icache_miss_rate" not in matmul
    assert not any(name.startswith("aic_") for name in add) and add["aiv_vec_ratio"] > 0
