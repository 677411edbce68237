"""``--format ascend-pt``: the layout of the Ascend PyTorch profiler (torch_npu).

The expected structure is that of a trace_view.json torch_npu wrote on an Ascend run, public in
hicann/oam-tools (commit 3f0ca5c, ``experiment/task-book/msprof_tool_experience_imaginationhh/
perf-data/hdspace-32g-outer-17_59186_20260601142437309_ascend_pt/ASCEND_PROFILER_OUTPUT/
trace_view.json``). The facts used here, as read in that file:

- the file is a JSON array of events; ``ts`` is a string of absolute microseconds with three
  decimals ("1780295077844643.830"), ``dur`` a number;
- processes are named by ``process_name`` / ``process_labels`` / ``process_sort_index`` metadata
  (tid 0): ``CANN`` (labels ``CPU``, sort index 7), ``Ascend Hardware`` (``NPU 0``, 13),
  ``AI Core Freq`` (``NPU 0``, 14), ``Overlap Analysis`` (``NPU 0``, 30); threads by
  ``thread_name`` / ``thread_sort_index``: ``Stream 46`` (sort index 46), ``Thread 59186``;
- Overlap Analysis threads: tid 0 ``Communication``, 1 ``Communication(Not Overlapped)``,
  2 ``Computing``, 3 ``Free``, sort index = tid, slices with empty args;
- host operators are ``cpu_op`` slices on the program's pid; CANN slices ``AscendCL@<api>`` and
  ``Node@launch`` with args ``Thread Id``, ``Mode``, ``level``, ``id``, ``item_id``,
  ``connection_id``; device tasks on the stream's tid with args ``Task Type`` (``AI_CORE``,
  ``AI_VECTOR_CORE``), ``Physic Stream Id``, ``connection_id``;
- flows ``torch_to_npu``, category ``async_npu``, ``bp: "e"`` on both ``s`` (at the cpu_op's start
  on the host thread) and ``f`` (at the task's start on its stream); ``AI Core Freq`` is a counter
  (``ph: C``, args ``MHz``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from mspti_trace import check_chrome_trace, load_trace
from mspti_trace.ascend_pt import OUTPUT_FOLDER, TRACE_VIEW, export_ascend_pt
from mspti_trace.cli import main
from mspti_trace.kinds import ActivityKind

_TS = re.compile(r"^[0-9]+\.[0-9]{3}$")
#: How torch-tb-profiler-ascend 0.4.0.11 (TensorBoard plugin) recognises a run's folders
#: (torch_tb_profiler/consts.py, WORKER_SPAN_PATTERN): worker, then a number.
_PLUGIN_FOLDER = re.compile(r"^(.*?)_(\d+(\.\d+)?)_ascend_pt$")
#: torch_npu's own: ``<host>_<pid>_<YYYYmmddHHMMSS><ms>_ascend_pt``.
_TORCH_NPU_FOLDER = re.compile(r"^(.+)_(\d+)_(\d{17})_ascend_pt$")


@pytest.fixture()
def exported(decoder_dir: Path, tmp_path: Path) -> tuple[list[dict], Path]:
    (rank,) = export_ascend_pt(load_trace(decoder_dir), tmp_path / "out").files
    return json.loads(rank.path.read_text()), rank.path


def _processes(events: list[dict]) -> dict[str, int]:
    return {e["args"]["name"]: e["pid"] for e in events if e["name"] == "process_name"}


def test_the_folder_layout_is_the_profilers(exported: tuple[list[dict], Path], tmp_path: Path) -> None:
    _, path = exported
    assert path.name == TRACE_VIEW and path.parent.name == OUTPUT_FOLDER
    assert path.parent.parent.name.endswith("_ascend_pt") and path.parent.parent.parent == tmp_path / "out"


def test_folders_are_named_as_torch_npu_names_them_and_the_plugin_finds(fakes, tmp_path: Path) -> None:
    for pid, device in ((11, 0), (22, 1)):
        process = fakes.FakeProcess(pid=pid, tid=pid, device=device)
        process.advance(1_234_567_000 * (1 + device))
        process.launch("aclnnMatmul", "MatMulV2")
        process.write(tmp_path / "cap", {"soc": "Ascend910B3"})
    stats = export_ascend_pt(load_trace(tmp_path / "cap"), tmp_path / "out")
    names = [f.path.parent.parent.name for f in stats.files]
    # BASE_NS is 2023-11-14 22:13:20 UTC; the ranks' first records 1.234567 s and 2.469134 s later.
    assert names == ["rank0_11_20231114221321234_ascend_pt", "rank1_22_20231114221322469_ascend_pt"]
    for rank, name in zip(stats.files, names, strict=True):
        found = _TORCH_NPU_FOLDER.match(name)
        assert found is not None and found.group(2) == str(rank.pid)
        plugin = _PLUGIN_FOLDER.match(name)
        assert plugin is not None and plugin.group(1) == f"rank{rank.rank}_{rank.pid}"


def test_events_are_an_array_with_absolute_string_timestamps(exported, decoder_dir: Path) -> None:
    events, path = exported
    assert path.read_text().lstrip().startswith("[")
    timed = [e for e in events if e["ph"] != "M"]
    assert timed and all(isinstance(e["ts"], str) and _TS.match(e["ts"]) for e in timed)
    assert all(isinstance(e["dur"], float | int) for e in timed if e["ph"] == "X")
    kernels = load_trace(decoder_dir).capture().table(ActivityKind.KERNEL)
    first = int(kernels["start"].min())
    assert f"{first // 1000}.{first % 1000:03d}" in {e["ts"] for e in timed}


def test_processes_and_threads_are_named_as_torch_npu_names_them(exported) -> None:
    events, _ = exported
    processes = _processes(events)
    assert {"CANN", "Ascend Hardware", "HCCL", "Overlap Analysis", "AI Core Freq", "process"} == set(
        processes
    )
    labels = {e["pid"]: e["args"]["labels"] for e in events if e["name"] == "process_labels"}
    sort = {e["pid"]: e["args"]["sort_index"] for e in events if e["name"] == "process_sort_index"}
    assert labels[processes["CANN"]] == "CPU" and sort[processes["CANN"]] == 7
    for name, index in (("Ascend Hardware", 13), ("AI Core Freq", 14), ("Overlap Analysis", 30)):
        assert labels[processes[name]] == "NPU 0" and sort[processes[name]] == index
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
    thread_sort = {
        (e["pid"], e["tid"]): e["args"]["sort_index"] for e in events if e["name"] == "thread_sort_index"
    }
    assert threads[(processes["Ascend Hardware"], 2)] == "Stream 2"
    assert thread_sort[(processes["Ascend Hardware"], 2)] == 2
    overlap = processes["Overlap Analysis"]
    assert {tid: threads[(overlap, tid)] for tid in range(4)} == {
        0: "Communication",
        1: "Communication(Not Overlapped)",
        2: "Computing",
        3: "Free",
    }
    assert all(thread_sort[(overlap, tid)] == tid for tid in range(4))
    assert threads[(4242, 4242)] == "Thread 4242"


def test_host_operators_device_tasks_and_flows(exported, decoder_dir: Path) -> None:
    events, _ = exported
    processes = _processes(events)
    capture = load_trace(decoder_dir).capture()
    ops = [e for e in events if e.get("cat") == "cpu_op" and e["ph"] == "X" and "mstx name" not in e["args"]]
    assert len(ops) == len(capture.table(ActivityKind.NODE_API)) + len(capture.table(ActivityKind.API))
    tasks = [e for e in events if e["ph"] == "X" and e["pid"] == processes["Ascend Hardware"]]
    kernels = [e for e in tasks if e["name"] != "MEMCPY_ASYNC"]
    assert len(kernels) == capture.count(ActivityKind.KERNEL)
    assert {e["args"]["Task Type"] for e in kernels} == {"AI_CORE", "AI_VECTOR_CORE"}
    assert all({"Task Type", "Physic Stream Id", "connection_id"} <= e["args"].keys() for e in tasks)
    flows = [e for e in events if e["ph"] in ("s", "f") and e["cat"] == "async_npu"]
    assert flows and all(e["name"] == "torch_to_npu" and e["bp"] == "e" for e in flows)
    starts = {e["id"]: e for e in flows if e["ph"] == "s"}
    finishes = {e["id"]: e for e in flows if e["ph"] == "f"}
    assert starts.keys() == finishes.keys()
    assert all(e["pid"] == 4242 for e in starts.values())
    cann = [e for e in events if e["ph"] == "X" and e["pid"] == processes["CANN"]]
    assert cann and all(e["name"].startswith("AscendCL@") for e in cann)
    assert all(
        {"Thread Id", "Mode", "level", "id", "item_id", "connection_id"} <= e["args"].keys() for e in cann
    )
    steps = sorted(e["name"] for e in events if e["name"].startswith("ProfilerStep#"))
    assert steps == ["ProfilerStep#0", "ProfilerStep#1"]


def test_overlap_analysis_adds_up(exported) -> None:
    events, _ = exported
    overlap = _processes(events)["Overlap Analysis"]
    hardware = _processes(events)["Ascend Hardware"]
    hccl = _processes(events)["HCCL"]
    total = Counter()
    for e in events:
        if e["ph"] == "X" and e["pid"] == overlap:
            total[e["name"]] += round(e["dur"] * 1000)
            assert e["args"] == {}
    busy = [
        e for e in events if e["ph"] == "X" and e["pid"] in (hardware, hccl) and e["name"] != "MEMCPY_ASYNC"
    ]
    first = min(_ns(e["ts"]) for e in busy)
    last = max(_ns(e["ts"]) + round(e["dur"] * 1000) for e in busy)
    # The decoder's kernels and all-reduces run one at a time on one stream: nothing overlaps, so
    # computing, communication and free time add up to the span from the first to the last. Copies
    # are neither computing nor communication.
    kernels = sum(round(e["dur"] * 1000) for e in busy if e["pid"] == hardware)
    comms = sum(round(e["dur"] * 1000) for e in busy if e["pid"] == hccl)
    assert total["Computing"] == kernels and total["Communication"] == comms
    assert total["Communication(Not Overlapped)"] == comms
    assert total["Computing"] + total["Communication"] + total["Free"] == last - first


def _ns(ts: str) -> int:
    whole, fraction = ts.split(".")
    return int(whole) * 1000 + int(fraction)


def test_ai_core_frequency_comes_from_the_soc_catalogue(exported) -> None:
    from sim_runtime.soc import default_catalogue

    events, _ = exported
    counters = [e for e in events if e["ph"] == "C"]
    assert counters and {e["name"] for e in counters} == {"AI Core Freq"}
    assert {e["args"]["MHz"] for e in counters} == {default_catalogue().get("Ascend910B3").cube_mhz}


def test_the_export_is_well_formed_and_deterministic(decoder_dir: Path, tmp_path: Path) -> None:
    first = export_ascend_pt(load_trace(decoder_dir), tmp_path / "a").files[0].path
    second = export_ascend_pt(load_trace(decoder_dir), tmp_path / "b").files[0].path
    assert check_chrome_trace(first) == []
    assert first.read_bytes() == second.read_bytes()


def test_the_command_exports_ascend_pt_and_checks_it(decoder_dir: Path, capsys) -> None:
    assert main(["export", str(decoder_dir), "--format", "ascend-pt", "--check"]) == 0
    out = capsys.readouterr().out
    assert "structure check: ok" in out
    assert "beside it: kernel_details.csv, op_statistic.csv" in out
    assert len(list((decoder_dir / "ascend_pt").glob(f"*_ascend_pt/{OUTPUT_FOLDER}/{TRACE_VIEW}"))) == 1


def test_communication_not_hidden_by_computing(tmp_path: Path) -> None:
    """The all-reduce of the consumers' workload overlaps the third and fourth kernels of each step
    but for the gap between them (workloads.py): that gap is the communication not overlapped."""
    from support.sibling import load_sibling

    workloads = load_sibling(Path(__file__).resolve().parent / "consumers", "workloads")
    workloads.write_rank(tmp_path / "cap", 0)
    (rank,) = export_ascend_pt(load_trace(tmp_path / "cap"), tmp_path / "out").files
    events = json.loads(rank.path.read_text())
    overlap = _processes(events)["Overlap Analysis"]
    total = Counter()
    for e in events:
        if e["ph"] == "X" and e["pid"] == overlap:
            total[e["name"]] += round(e["dur"] * 1000)
    gap = workloads.KERNEL_GAP_NS
    assert total["Communication(Not Overlapped)"] == workloads.STEPS * gap
    assert total["Communication"] == workloads.STEPS * workloads.ALLREDUCE_NS
    assert total["Computing"] == workloads.STEPS * workloads.KERNELS * workloads.KERNEL_NS
