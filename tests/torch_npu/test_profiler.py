"""torch_npu.profiler end to end on the simulator (docs/msprof.md, docs/torch_npu.md): a training
loop profiled with CPU + NPU activities, a schedule and tensorboard_trace_handler, under
`npu-sim run`. torch_npu collects the NPU half through libmsprofiler (aclprof*) and exports it with
the toolkit's msprof; its ASCEND_PROFILER_OUTPUT then holds the device kernels."""

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
from torch_npu_harness import PROGRAMS, simulator_run

from sim_runtime.msprof import memory, raw
from sim_runtime.toolkit_layout import cann_version

pytestmark = pytest.mark.slow  # about 30 s and 45 s: torch's import and torch_npu's analysis subprocesses


@pytest.fixture(scope="module")
def profiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp("tb")
    result = simulator_run(PROGRAMS / "profiled_training.py", str(out))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]
    (ascend_pt,) = out.glob("*_ascend_pt")
    return result.stdout + result.stderr, ascend_pt


def assert_analysis_logs_clean(ascend_pt: Path) -> None:
    """torch_npu's analysis logs (`<ascend_pt>/logs/*.log`, one per parser) hold no warning or error."""
    logs = sorted((ascend_pt / "logs").glob("*.log"))
    assert logs, f"no analysis log in {ascend_pt}"
    for log in logs:
        bad = [line for line in log.read_text().splitlines() if "[WARNING]" in line or "[ERROR]" in line]
        assert not bad, f"{log.name}: {bad[:3]}"


def test_analysis_finishes_without_missing_cann_data(profiled: tuple[str, Path]) -> None:
    output, ascend_pt = profiled
    assert_analysis_logs_clean(ascend_pt)
    complaints = (
        "CANN Profiling data does not exist",
        "Failed to export CANN",
        "msprof command not found",
        "Failed to analyze CANN",
        "Failed to get acl to npu flow events",
    )
    for complaint in complaints:
        assert complaint not in output, output[-4000:]


def test_kernel_details_rows_are_the_msPTI_kernel_records_of_the_run(profiled: tuple[str, Path]) -> None:
    _, ascend_pt = profiled
    (prof,) = ascend_pt.glob("PROF_*")
    kernels = raw.load(prof).kernels  # what msPTI delivered to libmsprofiler in this run
    assert kernels, "no KERNEL record collected"
    with (ascend_pt / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv").open(
        encoding="utf-8", newline=""
    ) as f:
        rows = list(csv.DictReader(f))
    assert sorted(row["Name"] for row in rows) == sorted(k.name for k in kernels)
    assert {row["Step Id"] for row in rows} == {"2", "3"}  # the active steps of wait=1, warmup=1, active=2
    assert len(rows) == 26  # 13 kernels in each of the two active steps (docs/torch_npu.md's MLP step)


def test_kernel_details_block_num_is_each_kernels_launch_blockdim(profiled: tuple[str, Path]) -> None:
    # Every kernel of the loop is an aclnn operator's: its node launch's basic info gives its blockDim
    # (docs/msprof.md, "Block Num"), which torch_npu copies from op_summary.
    _, ascend_pt = profiled
    (prof,) = ascend_pt.glob("PROF_*")
    reported = {i.block_dim for i in raw.load(prof).node_infos}
    with (ascend_pt / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv").open(
        encoding="utf-8", newline=""
    ) as f:
        rows = list(csv.DictReader(f))
    blocks = [row["Block Num"] for row in rows]
    assert all(b.isdigit() and int(b) >= 1 for b in blocks), blocks
    assert {int(b) for b in blocks} <= reported
    assert len(set(blocks)) > 1, (
        blocks
    )  # the loop's matmuls and vector kernels are launched with different blocks


def test_kernel_details_has_the_pipe_utilization_of_each_ai_core_kernel(profiled: tuple[str, Path]) -> None:
    # Level1's default aic_metrics is PipeUtilization: libmsprofiler collects channel 53 and torch_npu
    # copies op_summary's metric columns (docs/msprof.md, "AI Core metrics") into kernel_details.csv.
    _, ascend_pt = profiled
    with (ascend_pt / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv").open(
        encoding="utf-8", newline=""
    ) as f:
        rows = list(csv.DictReader(f))
    assert {"aicore_time(us)", "aic_mac_ratio", "aiv_time(us)", "aiv_vec_ratio", "aiv_mte2_ratio"} <= set(
        rows[0]
    )
    cube = [r for r in rows if r["Accelerator Core"] == "AI_CORE"]
    vector = [r for r in rows if r["Accelerator Core"] == "AI_VECTOR_CORE"]
    assert cube and vector
    for r in cube:
        assert 0 < float(r["aic_mac_ratio"]) <= 1 and r["aiv_vec_ratio"] == "N/A", r
        assert float(r["aicore_time(us)"]) == pytest.approx(float(r["Duration(us)"]), abs=0.002)
    for r in vector:
        assert 0 <= float(r["aiv_vec_ratio"]) <= 1 and r["aic_mac_ratio"] == "N/A", r
        assert float(r["aiv_mte2_ratio"]) + float(r["aiv_vec_ratio"]) > 0, r


def test_op_statistic_counts_the_same_kernels(profiled: tuple[str, Path]) -> None:
    _, ascend_pt = profiled
    (prof,) = ascend_pt.glob("PROF_*")
    kernels = raw.load(prof).kernels
    with (ascend_pt / "ASCEND_PROFILER_OUTPUT" / "op_statistic.csv").open(encoding="utf-8", newline="") as f:
        counts = {row["OP Type"]: int(row["Count"]) for row in csv.DictReader(f)}
    assert sum(counts.values()) == len(kernels)
    assert {"MatMulV2", "Gelu", "GeluGrad", "MseLoss", "MseLossGrad", "ForeachAddList"} <= set(counts)
    assert counts["MatMulV2"] == sum(k.name.startswith("MatMulV2") for k in kernels)


def test_api_statistic_counts_the_launches(profiled: tuple[str, Path]) -> None:
    _, ascend_pt = profiled
    (prof,) = ascend_pt.glob("PROF_*")
    kernels = raw.load(prof).kernels
    with (ascend_pt / "ASCEND_PROFILER_OUTPUT" / "api_statistic.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    node_launches = sum(int(row["Count"]) for row in rows if row["Level"] == "node")
    assert node_launches == len(kernels)


def test_trace_view_has_npu_rows_and_flows(profiled: tuple[str, Path]) -> None:
    _, ascend_pt = profiled
    events = json.loads((ascend_pt / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").read_text())
    processes = {e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}
    assert {"Ascend Hardware", "CANN"} <= processes  # Level1 keeps the CANN rows (Level0 prunes them)
    hardware = {
        e["pid"] for e in events if e.get("ph") == "M" and e.get("args", {}).get("name") == "Ascend Hardware"
    }
    assert any(
        e.get("ph") == "X" and e.get("pid") in hardware and e["name"].startswith("MatMulV2") for e in events
    )
    # torch_npu links its operators to the kernels through msprof's HostToDevice flows
    assert any(e.get("ph") == "f" and e.get("pid") in hardware for e in events)
    assert any(str(e.get("name", "")).startswith("ProfilerStep#") for e in events)


def test_trace_view_device_tasks_are_the_msPTI_kernel_and_memcpy_records(profiled: tuple[str, Path]) -> None:
    # One truth: every task of the Ascend Hardware rows is a KERNEL or MEMCPY record of the run (the
    # loss's device-to-host copy of each active step included), with its start, and nothing else.
    _, ascend_pt = profiled
    (prof,) = ascend_pt.glob("PROF_*")
    collected = raw.load(prof)
    copies = [c for c in collected.copies if c.kind == "memcpy"]
    assert len(copies) == 2 and all(c.bytes == 4 for c in copies)  # one fp32 loss per active step
    events = json.loads((ascend_pt / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").read_text())
    hardware = {
        e["pid"] for e in events if e.get("ph") == "M" and e.get("args", {}).get("name") == "Ascend Hardware"
    }
    tasks = sorted((e["name"], e["ts"]) for e in events if e.get("ph") == "X" and e.get("pid") in hardware)
    records = [(k.name, k.start) for k in collected.kernels] + [("MEMCPY_ASYNC", c.start) for c in copies]
    assert tasks == sorted((name, f"{start // 1000}.{start % 1000:03d}") for name, start in records)


def test_step_trace_time_computing_is_the_steps_kernel_time(profiled: tuple[str, Path]) -> None:
    _, ascend_pt = profiled
    out = ascend_pt / "ASCEND_PROFILER_OUTPUT"
    with (out / "kernel_details.csv").open(encoding="utf-8", newline="") as f:
        kernels = list(csv.DictReader(f))
    with (out / "step_trace_time.csv").open(encoding="utf-8", newline="") as f:
        steps = {row["Step"]: row for row in csv.DictReader(f)}
    assert set(steps) == {"2", "3"}
    for step, row in steps.items():
        busy = sum(
            float(k["Duration(us)"]) for k in kernels if k["Step Id"] == step
        )  # one stream: no overlap
        assert abs(float(row["Computing"]) - busy) < 0.01
        assert float(row["Communication"]) == 0.0


def profile_two_ranks(out: Path, *args: str) -> list[Path]:
    """profiled_allreduce.py on 2 ranks under torchrun; each rank's *_ascend_pt folder."""
    result = subprocess.run(
        [sys.executable, "-m", "sim_runtime", "run", "--devices", "2", "--",
         sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2",
         str(PROGRAMS / "profiled_allreduce.py"), str(out), *args],
        env={**os.environ, "NPU_SIM_LOG_LEVEL": "warn"},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    for complaint in COMPLAINTS:
        assert complaint not in result.stdout + result.stderr, (result.stdout + result.stderr)[-4000:]
    ranks = sorted(out.glob("*_ascend_pt"))
    assert len(ranks) == 2
    for ascend_pt in ranks:
        assert_analysis_logs_clean(ascend_pt)
    return ranks


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def hardware_tasks(trace_view: Path) -> list[tuple[str, str]]:
    """(name, ts) of every task of trace_view.json's Ascend Hardware rows, sorted."""
    events = json.loads(trace_view.read_text())
    hardware = {
        e["pid"] for e in events if e.get("ph") == "M" and e.get("args", {}).get("name") == "Ascend Hardware"
    }
    return sorted((e["name"], e["ts"]) for e in events if e.get("ph") == "X" and e.get("pid") in hardware)


# The 2-rank runs: Level1 (the program's default), Level0, and Level2 with profile_memory=True (the
# memory views; one run for both, as each run costs about 45 s).
TWO_RANK_RUNS = {"Level1": (), "Level0": ("text", "Level0"), "Level2": ("text", "Level2", "memory")}
# torch_npu 2.13.0 writes communication.json and communication_matrix.json from msprof --analyze's
# files, which msprof writes from HCCL task events, collected above Level0 only (its docs: "Level1 or
# Level2"); its MemoryViewParser writes these views with profile_memory=True (npu_module_mem.csv needs
# CANN's module memory data, which the simulator does not collect).
COMMUNICATION_VIEWS = {"communication.json", "communication_matrix.json"}
MEMORY_VIEWS = {"memory_record.csv", "operator_memory.csv"}


@pytest.mark.parametrize("level", sorted(TWO_RANK_RUNS))
def test_two_ranks_under_torchrun_write_each_levels_files_per_rank(level: str, tmp_path: Path) -> None:
    # about 45 s per level: two torch processes, each with its own collection and analysis
    ranks = profile_two_ranks(tmp_path, *TWO_RANK_RUNS[level])
    memory_run = "memory" in TWO_RANK_RUNS[level]
    devices = set()
    infos = {}
    for ascend_pt in ranks:
        (prof,) = ascend_pt.glob("PROF_*")
        collected = raw.load(prof)
        ops = sorted(collected.communications, key=lambda c: c.start)
        assert [c.name for c in ops] == ["hcom_allReduce_", "hcom_allReduce_"]
        out = ascend_pt / "ASCEND_PROFILER_OUTPUT"
        # Every file torch_npu writes at this level, and nothing else.
        written = {p.name for p in out.iterdir() if p.suffix in (".csv", ".json")}
        level_files = {**LEVEL_FILES, "Level1": HOST_VIEWS | DEVICE_VIEWS | STATISTICS}[level]
        expected = level_files | (set() if level == "Level0" else COMMUNICATION_VIEWS)
        assert written == expected | (MEMORY_VIEWS if memory_run else set())
        # torch_npu's own files of a rank: profiler_info_<rank>.json (with the toolkit's CANN version)
        # and profiler_metadata.json.
        (info_path,) = ascend_pt.glob("profiler_info_*.json")
        info = json.loads(info_path.read_text())
        rank = int(info["rank_id"])
        infos[rank] = info
        assert info_path.name == f"profiler_info_{rank}.json"
        assert {p.name for p in ascend_pt.glob("profiler_*.json")} == {
            info_path.name,
            "profiler_metadata.json",
        }
        # One truth: kernel_details' rows and the Ascend Hardware tasks of trace_view are this rank's
        # msPTI KERNEL and COMMUNICATION records (and copies, if any ran in the steps).
        rows = read_rows(out / "kernel_details.csv")
        assert [r["Name"] for r in rows if r["Accelerator Core"] == "COMMUNICATION"] == [c.name for c in ops]
        assert sorted(r["Name"] for r in rows if r["Accelerator Core"] != "COMMUNICATION") == sorted(
            k.name for k in collected.kernels
        )
        devices |= {r["Device_id"] for r in rows}
        records = [(k.name, k.start) for k in collected.kernels] + [(c.name, c.start) for c in ops]
        records += [
            ("MEMCPY_ASYNC" if c.kind == "memcpy" else "MEMSET_ASYNC", c.start) for c in collected.copies
        ]
        assert hardware_tasks(out / "trace_view.json") == sorted(
            (name, f"{start // 1000}.{start % 1000:03d}") for name, start in records
        )
        steps = read_rows(out / "step_trace_time.csv")
        assert [s["Step"] for s in steps] == ["0", "1"] and all(float(s["Communication"]) > 0 for s in steps)
        if level != "Level0":
            check_communication_views(out, ops)
        if memory_run:
            check_memory_views(out, collected, rank)
    assert devices == {"0", "1"} and sorted(infos) == [0, 1]
    assert {info["cann_version"] for info in infos.values()} == {cann_version()}


def check_communication_views(out: Path, ops: list[raw.Communication]) -> None:
    """msprof --analyze's communication analysis, split by torch_npu into the steps: one all-reduce
    each, its elapse time the COMMUNICATION record's; no links (HCCL tasks are not collected)."""
    comm = json.loads((out / "communication.json").read_text())
    assert list(comm) == ["step0", "step1"]
    for index, (step, op) in enumerate(zip(comm.values(), ops, strict=True)):
        assert step["p2p"] == {}
        name = f"hcom_allReduce__{index}@{op.comm}"
        assert sorted(step["collective"]) == sorted([name, "Total Op Info"])
        times = step["collective"][name]["Communication Time Info"]
        assert times["Elapse Time(ms)"] == pytest.approx((op.end - op.start) / 1e6)
        assert times["Start Timestamp(us)"] == pytest.approx(op.start / 1e3)
    matrix = json.loads((out / "communication_matrix.json").read_text())
    assert list(matrix) == ["step0", "step1"]


def check_memory_views(out: Path, collected: raw.Collection, rank: int) -> None:
    """memory_record.csv's APP rows are the device memory this rank's collection sampled, on its own
    device; operator_memory.csv has the rank's operators' allocations on that device."""
    samples = memory.app_samples(collected)
    assert len(samples) >= 2 and all(s.hbm > 0 for s in samples)
    apps = [r for r in read_rows(out / "memory_record.csv") if r["Component"] == "APP"]
    assert [float(r["Total Reserved(MB)"]) for r in apps] == pytest.approx(
        [s.hbm // 1024 / 1024 for s in samples]
    )
    assert {r["Device Type"] for r in apps} == {f"NPU:{rank}"}
    operators = read_rows(out / "operator_memory.csv")
    assert operators and {r["Device Type"] for r in operators} == {f"NPU:{rank}"}


def test_two_ranks_db_export_has_each_ranks_tasks_and_communication(tmp_path: Path) -> None:
    # about 45 s: the run above with export_type db. Each rank's ascend_pytorch_profiler_<rank>.db
    # holds msprof's tables of its collection (kernels, communication operations: the msPTI records of
    # the rank), and analysis.db torch_npu's communication tables from msprof --analyze's database.
    ranks = profile_two_ranks(tmp_path, "db")
    seen = set()
    for ascend_pt in ranks:
        (prof,) = ascend_pt.glob("PROF_*")
        collected = raw.load(prof)
        out = ascend_pt / "ASCEND_PROFILER_OUTPUT"
        (db_path,) = out.glob("ascend_pytorch_profiler_*.db")
        rank = int(db_path.stem.rsplit("_", 1)[1])
        seen.add(rank)
        with closing(sqlite3.connect(db_path)) as db:
            kernels = db.execute(
                "SELECT s.value, t.startNs, t.endNs, t.deviceId FROM COMPUTE_TASK_INFO c "
                "JOIN TASK t ON c.globalTaskId = t.globalTaskId JOIN STRING_IDS s ON c.name = s.id "
                "ORDER BY t.startNs"
            ).fetchall()
            communication = db.execute(
                "SELECT s.value, o.startNs, o.endNs, o.deviceId FROM COMMUNICATION_OP o "
                "JOIN STRING_IDS s ON o.opName = s.id ORDER BY o.startNs"
            ).fetchall()
            npus = db.execute("SELECT id, name FROM NPU_INFO").fetchall()
        assert kernels == [
            (k.name, k.start, k.end, k.device) for k in sorted(collected.kernels, key=lambda k: k.start)
        ]
        ops = sorted(collected.communications, key=lambda c: c.start)
        assert [name for name, *_ in communication] == ["hcom_allReduce_", "hcom_allReduce_"]
        assert communication == [(c.name, c.start, c.end, c.device) for c in ops]
        assert npus == [(rank, "Ascend910B")]  # the default SoC, Ascend910B3
        with closing(sqlite3.connect(out / "analysis.db")) as analysis:
            times = analysis.execute(
                "SELECT elapse_time, step FROM CommAnalyzerTime ORDER BY step"
            ).fetchall()
        assert [step for _, step in times] == ["step0", "step1"]
        for (elapse, _), op in zip(times, ops, strict=True):
            assert elapse == pytest.approx((op.end - op.start) / 1e6)
    assert seen == {0, 1}


# What torch_npu 2.13.0 writes per profiler level (its ProfilerConfig.LEVEL_PARSER_CONFIG and parser
# configuration): Level0 the kernel, step and task-time views; Level1 and Level2 also the operator
# and API statistics (Level2's data_preprocess.csv needs AI CPU data, which no kernel here makes);
# Level_none collects no CANN data, so no device views at all.
DEVICE_VIEWS = {"kernel_details.csv", "step_trace_time.csv", "task_time.csv"}
STATISTICS = {"op_statistic.csv", "api_statistic.csv"}
HOST_VIEWS = {"trace_view.json", "operator_details.csv"}
LEVEL_FILES = {
    "Level0": HOST_VIEWS | DEVICE_VIEWS,
    "Level2": HOST_VIEWS | DEVICE_VIEWS | STATISTICS,
    "Level_none": HOST_VIEWS,
}
COMPLAINTS = (
    "CANN Profiling data does not exist", "Failed to export CANN", "msprof command not found",
    "Failed to analyze CANN", "Failed to get acl to npu flow events", "DB parser failed",
    "Failed to generate", "Invalid CANN db file",
)  # fmt: skip


def profile_training(out: Path, *args: str) -> tuple[str, Path]:
    result = simulator_run(PROGRAMS / "profiled_training.py", str(out), *args)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]
    output = result.stdout + result.stderr
    for complaint in COMPLAINTS:
        assert complaint not in output, output[-4000:]
    (ascend_pt,) = out.glob("*_ascend_pt")
    if args[:1] != ("Level_none",):
        # Level_none collects no CANN data by design; torch_npu's ProfilingParser then logs that the
        # msprof timeline has no kernels and no flows, whatever CANN it runs on.
        assert_analysis_logs_clean(ascend_pt)
    return output, ascend_pt


@pytest.mark.parametrize("level", sorted(LEVEL_FILES))
def test_each_level_writes_torch_npus_files_for_it(level: str, tmp_path: Path) -> None:
    _, ascend_pt = profile_training(tmp_path, level)
    written = {p.name for p in (ascend_pt / "ASCEND_PROFILER_OUTPUT").iterdir()}
    assert {n for n in written if n.endswith((".csv", ".json"))} == LEVEL_FILES[level]
    if level != "Level_none":
        (prof,) = ascend_pt.glob("PROF_*")
        with (ascend_pt / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv").open(encoding="utf-8") as f:
            assert sorted(r["Name"] for r in csv.DictReader(f)) == sorted(
                k.name for k in raw.load(prof).kernels
            )


def test_db_export_moves_msprofs_database_into_torch_npus(tmp_path: Path) -> None:
    _, ascend_pt = profile_training(tmp_path, "Level1", "db")
    (prof,) = ascend_pt.glob("PROF_*")
    kernels = sorted(raw.load(prof).kernels, key=lambda k: k.start)
    (db_path,) = (ascend_pt / "ASCEND_PROFILER_OUTPUT").glob("ascend_pytorch_profiler*.db")
    db = sqlite3.connect(db_path)
    try:
        rows = db.execute(
            "SELECT s.value, t.startNs, t.endNs FROM COMPUTE_TASK_INFO c "
            "JOIN TASK t ON c.globalTaskId = t.globalTaskId JOIN STRING_IDS s ON c.name = s.id "
            "ORDER BY t.startNs"
        ).fetchall()
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        # torch_npu linked its operators to the kernels through the node launches' connection ids.
        linked = db.execute("SELECT COUNT(*) FROM PYTORCH_API WHERE connectionId IS NOT NULL").fetchone()[0]
    finally:
        db.close()
    assert rows == [(k.name, k.start, k.end) for k in kernels]
    assert {"PYTORCH_API", "CANN_API", "TASK", "STRING_IDS", "RANK_DEVICE_MAP"} <= tables
    assert linked > 0
    analysis = sqlite3.connect(ascend_pt / "ASCEND_PROFILER_OUTPUT" / "analysis.db")
    try:
        steps = analysis.execute("SELECT step, computing FROM StepTraceTime ORDER BY step").fetchall()
    finally:
        analysis.close()
    assert [s for s, _ in steps] == ["2", "3"] and all(c > 0 for _, c in steps)


def test_profile_memory_writes_the_applications_device_memory(tmp_path: Path) -> None:
    _, ascend_pt = profile_training(tmp_path, "Level1", "text", "memory")
    (prof,) = ascend_pt.glob("PROF_*")
    samples = memory.app_samples(raw.load(prof))
    # At least the memory held at the start and the stop (torch's caching allocator reuses its
    # blocks in the active steps, so there may be no allocation in between).
    assert len(samples) >= 2 and all(s.hbm > 0 for s in samples)
    with (ascend_pt / "ASCEND_PROFILER_OUTPUT" / "memory_record.csv").open(encoding="utf-8") as f:
        apps = [r for r in csv.DictReader(f) if r["Component"] == "APP"]
    assert [float(r["Total Reserved(MB)"]) for r in apps] == pytest.approx(
        [s.hbm // 1024 / 1024 for s in samples]
    )
    assert {r["Device Type"] for r in apps} == {"NPU:0"}


def test_msprof_application_mode_profiles_a_python_training_loop(tmp_path: Path) -> None:
    # `msprof --application="python train.py" --output=DIR`, as users profile a script without
    # torch_npu's profiler; with ArithmeticUtilization, whose columns tell the data types apart: the
    # MLP trains in fp32, and its aclnn kernels carry that type to the device's PMU counters.
    out = tmp_path / "app"
    application = f"{sys.executable} {PROGRAMS / 'training.py'} mlp"
    result = simulator_run(
        "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))",
        "msprof",
        f"--application={application}",
        f"--output={out}",
        "--aic-metrics=ArithmeticUtilization",
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]
    # The program's JSON line, then msprof's line naming the export.
    # training.py reports each case it ran under the case's name.
    reports = json.loads(next(line for line in reversed(result.stdout.splitlines()) if line.startswith("{")))
    report = reports["mlp"]
    assert "msprof: exported" in result.stdout
    assert all(report[k] for k in ("losses", "outputs", "grads", "params")), report
    (prof,) = out.glob("PROF_*")
    output = prof / "mindstudio_profiler_output"
    written = {p.name.rsplit("_", 1)[0] for p in output.iterdir()}
    assert {"op_summary", "task_time", "api_statistic", "op_statistic", "msprof"} <= written
    (summary,) = output.glob("op_summary_*.csv")
    with summary.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    # One truth: op_summary's rows are the run's msPTI KERNEL records, in order.
    kernels = raw.load(prof).kernels
    assert len(rows) == len(kernels) > 0
    assert [(r["Op Name"], r["Task Start Time(us)"]) for r in rows] == [
        (k.name, f"{k.start // 1000}.{k.start % 1000:03d}\t") for k in kernels
    ]
    cube = [r for r in rows if r["Task Type"] == "AI_CORE"]
    vector = [r for r in rows if r["Task Type"] == "AI_VECTOR_CORE"]
    assert cube and vector
    # fp32 matmuls: no fp16 or int8 cube cycles (the cube's arithmetic events count neither type).
    assert all(float(r["aic_mac_fp16_ratio"]) == 0 == float(r["aic_mac_int8_ratio"]) for r in cube)
    # fp32 vector kernels: their compute on the fp32 event, none on fp16; some do compute.
    assert all(float(r["aiv_vec_fp16_ratio"]) == 0 for r in vector)
    assert any(float(r["aiv_vec_fp32_ratio"]) > 0 for r in vector)
