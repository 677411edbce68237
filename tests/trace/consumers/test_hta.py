"""HolisticTraceAnalysis, unmodified, on our ``--format kineto`` export of workloads whose counts
are known (workloads.py): the profiler steps, temporal, kernel, idle-time, communication-computation
overlap, kernel-launch, queue-length, memory-bandwidth, critical-path and frequent kernel sequence
analyses on one and two ranks, each compared with those counts, and the straggler analysis on two
ranks, one of them late.

The default ``tox`` runs them in the ``cov`` env, ``tox -e hta`` alone (both install
holistictraceanalysis); skipped where HTA is not installed, and failed instead under
``NPU_SIM_REQUIRE_HTA=1`` (both envs set it), so that a broken install cannot pass as skips.
HTA rounds nanosecond timestamps to whole microseconds unless ``HTA_DISABLE_NS_ROUNDING`` is set
(its own option, for a PyTorch issue with overlapping events); the tests set it, since the
simulated operations last a few microseconds, and one test checks the counts with the rounding on.
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from support.optional_tool import missing_tool

pytestmark = pytest.mark.hta

try:
    import hta.trace_analysis as hta_analysis
except ImportError as error:
    missing_tool(error, "holistictraceanalysis", "NPU_SIM_REQUIRE_HTA")


def _analyse(trace_dir: Path, monkeypatch: pytest.MonkeyPatch, rounding: bool = False) -> Any:
    if not rounding:
        monkeypatch.setenv("HTA_DISABLE_NS_ROUNDING", "1")
    logging.getLogger("hta").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return hta_analysis.TraceAnalysis(trace_dir=str(trace_dir))


@pytest.fixture(params=[1, 2], ids=["1-rank", "2-ranks"])
def analysed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, int]:
    directory, stats = request.getfixturevalue("single_rank" if request.param == 1 else "two_ranks")
    assert stats.world_size == request.param
    return _analyse(directory, monkeypatch), request.param


def test_hta_finds_every_rank_and_the_profiler_steps(
    analysed: tuple[Any, int], workloads: ModuleType
) -> None:
    analysis, ranks = analysed
    assert sorted(analysis.t.get_ranks()) == list(range(ranks))
    # Every step but the last (HTA's default): steps 0 .. STEPS-2.
    assert sorted(int(i) for i in analysis.t.get_iterations()) == list(range(workloads.STEPS - 1))


def test_temporal_breakdown(analysed: tuple[Any, int], workloads: ModuleType) -> None:
    analysis, ranks = analysed
    expected = workloads.Expected()
    table = analysis.get_temporal_breakdown(visualize=False)
    assert list(table["rank"]) == list(range(ranks))
    for _, row in table.iterrows():
        assert row["kernel_time(us)"] == pytest.approx(expected.kernel_time_us())
        assert row["idle_time(us)"] == pytest.approx(expected.idle_us())
        assert row["compute_time(us)"] == pytest.approx(expected.compute_us)
        non_compute = expected.busy_us() - expected.compute_us
        assert row["non_compute_time(us)"] == pytest.approx(non_compute)


def test_kernel_breakdown(analysed: tuple[Any, int], workloads: ModuleType) -> None:
    analysis, ranks = analysed
    expected = workloads.Expected()
    by_type, by_kernel = analysis.get_gpu_kernel_breakdown(visualize=False)
    # Per kernel type HTA counts time exclusively: the time during which compute and communication
    # run together is a type of its own.
    sums = dict(zip(by_type["kernel_type"], by_type["sum"], strict=True))
    overlap = expected.overlap_us()
    assert sums["COMPUTATION"] == pytest.approx(ranks * (expected.compute_us - overlap))
    assert sums["COMMUNICATION"] == pytest.approx(ranks * (expected.communication_us - overlap))
    assert sums["COMPUTATION overlapping COMMUNICATION"] == pytest.approx(ranks * overlap)
    assert sums["MEMORY"] == pytest.approx(ranks * expected.memory_us)
    kernels = by_kernel[by_kernel["kernel_type"] == "COMPUTATION"]
    assert sorted(set(kernels["name"])) == [f"MatMulV2_{i}" for i in range(workloads.KERNELS)]
    for _, row in kernels.iterrows():
        assert row["sum (us)"] == pytest.approx(expected.steps * workloads.KERNEL_NS / 1000)
        assert row["mean (us)"] == pytest.approx(workloads.KERNEL_NS / 1000)
    communication = by_kernel[by_kernel["kernel_type"] == "COMMUNICATION"]
    assert set(communication["name"]) == {"ncclKernel_hcom_allReduce_"}
    assert sorted(communication["rank"]) == list(range(ranks))


def test_idle_time_breakdown(analysed: tuple[Any, int], workloads: ModuleType) -> None:
    analysis, ranks = analysed
    expected = workloads.Expected()
    for rank in range(ranks):
        table, _ = analysis.get_idle_time_breakdown(ranks=[rank], visualize=False)
        per_stream = table.groupby("stream")["idle_time"].sum().to_dict()
        assert set(per_stream) == {workloads.COMPUTE_STREAM, workloads.COMM_STREAM}
        for stream, idle in per_stream.items():
            assert idle == pytest.approx(expected.stream_idle_us(stream)), stream
        assert (table["idle_time"] >= 0).all()


def test_communication_computation_overlap(analysed: tuple[Any, int], workloads: ModuleType) -> None:
    analysis, ranks = analysed
    table = analysis.get_comm_comp_overlap(visualize=False)
    assert list(table["rank"]) == list(range(ranks))
    for value in table["comp_comm_overlap_pctg"]:
        assert value == pytest.approx(workloads.Expected().overlap_pct(), abs=0.01)


def test_kernel_launch_statistics(analysed: tuple[Any, int], workloads: ModuleType) -> None:
    analysis, ranks = analysed
    stats = analysis.get_cuda_kernel_launch_stats(ranks=list(range(ranks)), visualize=False)
    assert sorted(stats) == list(range(ranks))
    expected = workloads.Expected().launches()
    for table in stats.values():
        ordered = table.sort_values("correlation")
        found = list(
            zip(ordered["cpu_duration"], ordered["gpu_duration"], ordered["launch_delay"], strict=True)
        )
        assert len(found) == len(expected)
        for got, want in zip(found, expected, strict=True):
            assert got == pytest.approx(want)


def test_counts_hold_with_hta_rounding_to_microseconds(
    single_rank: tuple[Path, Any], workloads: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HTA_DISABLE_NS_ROUNDING", raising=False)
    analysis = _analyse(single_rank[0], monkeypatch, rounding=True)
    stats = analysis.get_cuda_kernel_launch_stats(ranks=[0], visualize=False)[0]
    assert len(stats) == len(workloads.Expected().launches())
    by_type, _ = analysis.get_gpu_kernel_breakdown(visualize=False)
    # The workload's times are whole microseconds: rounding changes nothing.
    sums = dict(zip(by_type["kernel_type"], by_type["sum"], strict=True))
    expected = workloads.Expected()
    assert sums["COMPUTATION"] == pytest.approx(expected.compute_us - expected.overlap_us())


def test_queue_length(analysed: tuple[Any, int], workloads: ModuleType) -> None:
    analysis, ranks = analysed
    summary = analysis.get_queue_length_summary(ranks=list(range(ranks)))
    expected = workloads.Expected().queue_lengths()
    for rank in range(ranks):
        row = summary.loc[(rank, workloads.COMPUTE_STREAM)]
        assert row[("queue_length", "count")] == len(expected)
        assert row[("queue_length", "max")] == max(expected)
        assert row[("queue_length", "mean")] == pytest.approx(sum(expected) / len(expected))


def test_memory_bandwidth(analysed: tuple[Any, int], workloads: ModuleType) -> None:
    analysis, ranks = analysed
    summary = analysis.get_memory_bw_summary(ranks=list(range(ranks)))
    for rank in range(ranks):
        row = summary.loc[(rank, "Memcpy HtoD")]
        # Bytes per ns are GB/s.
        assert row[("memory_bw_gbps", "mean")] == pytest.approx(workloads.COPY_BYTES / workloads.COPY_NS)


def test_critical_path(analysed: tuple[Any, int], workloads: ModuleType) -> None:
    analysis, ranks = analysed
    compute, gaps = workloads.Expected().critical_path_us()
    for rank in range(ranks):
        graph, ok = analysis.critical_path_analysis(rank=rank, annotation="ProfilerStep", instance_id=1)
        assert ok
        shares = graph.summary().to_dict()
        assert shares["gpu_compute_bound"] == pytest.approx(100 * compute / (compute + gaps))
        assert shares["gpu_kernel_kernel_overhead"] == pytest.approx(100 * gaps / (compute + gaps))


def test_frequent_kernel_sequences_of_each_step(
    analysed: tuple[Any, int], workloads: ModuleType, tmp_path: Path
) -> None:
    analysis, ranks = analysed
    w = workloads
    device_ops = sorted(
        [(w.kernel_start(0, i) - w.T0, f"MatMulV2_{i}") for i in range(w.KERNELS)]
        + [(w.ALLREDUCE_START_NS, "ncclKernel_hcom_allReduce_")]
        + [(w.COPY_START_NS, "Memcpy HtoD (Host -> Device)")]
    )
    sequence = "|".join(name for _, name in device_ops)
    for rank in range(ranks):
        table = analysis.get_frequent_cuda_kernel_sequences(
            operator_name="ProfilerStep", output_dir=str(tmp_path), visualize=False, rank=rank
        )
        steps = range(w.Expected().steps)
        assert list(table["pattern"]) == [f"ProfilerStep#{step}|{sequence}" for step in steps]
        assert set(table["count"]) == {1}
        gpu = (w.KERNELS * w.KERNEL_NS + w.ALLREDUCE_NS + w.COPY_NS) / 1000
        assert list(table["GPU kernel duration (us)"]) == pytest.approx([gpu] * len(steps))
        assert list(table["CPU op duration (us)"]) == pytest.approx([w.STEP_RANGE_NS / 1000] * len(steps))


def test_profiler_steps(analysed: tuple[Any, int], workloads: ModuleType) -> None:
    analysis, _ = analysed
    assert analysis.get_profiler_steps() == list(range(workloads.STEPS - 1))


def test_stragglers_find_the_rank_whose_collectives_start_late(
    straggling: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory, late = straggling
    analysis = _analyse(directory, monkeypatch)
    assert analysis.get_potential_stragglers(num_candidates=1) == [late]
    # HTA compares the steps after the first (its "iteration > 0"): step 1 alone here.
    assert analysis.get_potential_stragglers(profiler_steps=[1], num_candidates=1) == [late]
    assert sorted(analysis.get_potential_stragglers(num_candidates=2)) == [0, 1]


def test_no_negative_launch_duration_with_hta_rounding(
    short_calls: tuple[Path, Any], workloads: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HTA_DISABLE_NS_ROUNDING", raising=False)
    analysis = _analyse(short_calls[0], monkeypatch, rounding=True)
    stats = analysis.get_cuda_kernel_launch_stats(ranks=[0, 1], visualize=False)
    for table in stats.values():
        assert len(table) == len(workloads.Expected().launches())
        # Calls of 600 ns inside one microsecond: rounded, they last 0 us, never -1.
        assert set(table["cpu_duration"]) == {0}
        assert (table["launch_delay"] >= 0).all()
