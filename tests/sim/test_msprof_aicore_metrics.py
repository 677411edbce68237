"""CANN's ContextPmu record and msprof's metric calculations (sim_runtime/msprof/aicore_metrics.py), on
records laid out byte by byte as chip4_pmu_parser_item.h places their fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim_runtime.msprof.aicore_metrics import (
    ARITHMETIC_UTILIZATION,
    L2_CACHE,
    MEMORY,
    MEMORY_ACCESS,
    MEMORY_L0,
    MEMORY_UB,
    METRIC_SETS,
    PIPE_UTILIZATION,
    PIPE_UTILIZATION_EXCT,
    RECORD_BYTES,
    ContextPmu,
    PmuDataError,
    compute_metrics,
    decode,
    read_device,
    summary_header,
    summary_headers,
    total_time_us,
)


def record(
    stream: int, task: int, cycles: int, counters: list[int], times: tuple[int, int] = (0, 0)
) -> bytes:
    """One record, each field written at its byte offset (not through the module's layout)."""
    out = bytearray(RECORD_BYTES)
    out[0:2] = (40 | (1 << 6)).to_bytes(2, "little")  # funcType 40, cnt 1
    out[4:6] = stream.to_bytes(2, "little")
    out[6:8] = task.to_bytes(2, "little")
    out[16:18] = (0xFFFF).to_bytes(2, "little")  # subTaskType, ovFlag: ignored
    out[32:40] = cycles.to_bytes(8, "little")
    for i, value in enumerate(counters):
        out[48 + 8 * i : 56 + 8 * i] = value.to_bytes(8, "little")
    out[112:120] = times[0].to_bytes(8, "little")
    out[120:128] = times[1].to_bytes(8, "little")
    return bytes(out)


def test_decode_reads_each_field_at_its_offset() -> None:
    data = record(7, 513, 10_000, [1, 2, 3, 4, 5, 6, 7, 8], (111, 222)) + record(3, 1, 5, [0] * 8)
    first, second = decode(data)
    assert first == ContextPmu(7, 513, 10_000, (1, 2, 3, 4, 5, 6, 7, 8), (111, 222), 0xFF, 0, 0)
    assert (second.stream, second.task, second.total_cycles) == (3, 1, 5)


def test_decode_rejects_a_cut_record_and_another_func_type() -> None:
    with pytest.raises(PmuDataError, match="whole number"):
        decode(record(1, 1, 1, [0] * 8)[:-1])
    other = bytearray(record(1, 1, 1, [0] * 8))
    other[0] = 41
    with pytest.raises(PmuDataError, match="funcType 41"):
        decode(bytes(other))


def test_total_time_follows_blocks_over_cores() -> None:
    # 1850 cycles at 1850 MHz on one block: 1 us; 48 blocks on 24 cores: two waves of 1/48 each.
    assert total_time_us(1850, 1, 24, 1850) == pytest.approx(1.0)
    assert total_time_us(1850 * 48, 48, 24, 1850) == pytest.approx(2.0)
    assert total_time_us(1850, 0, 24, 1850) == 0.0  # an unknown factor: 0, as msprof


def test_pipe_utilization_ratios_and_times() -> None:
    # counters in the set's event order: vec, mac, scalar, mte1, mte2, mte3, icache miss, request
    pmu = decode(record(1, 1, 2000, [100, 1500, 50, 200, 600, 300, 10, 40]))[0]
    m = compute_metrics(pmu, block_num=1, core_num=24, freq_mhz=1000)
    assert m["total_cycles"] == 2000 and m["total_time"] == pytest.approx(2.0)
    assert m["mac_ratio"] == pytest.approx(0.75) and m["mac_time"] == pytest.approx(1.5)
    assert m["vec_ratio"] == pytest.approx(0.05) and m["mte2_ratio"] == pytest.approx(0.3)
    assert m["mte3_time"] == pytest.approx(0.3) and m["scalar_ratio"] == pytest.approx(0.025)
    assert m["icache_miss_rate"] == pytest.approx(0.25)
    assert max(("vec_ratio", "mac_ratio", "scalar_ratio", "mte1_ratio"), key=m.__getitem__) == "mac_ratio"


def test_pipe_utilization_of_an_empty_task_and_wrong_events() -> None:
    pmu = decode(record(1, 1, 0, [5] * 8))[0]
    m = compute_metrics(pmu, block_num=1, core_num=1, freq_mhz=1000)
    assert m["vec_ratio"] == 0.0 and m["icache_miss_rate"] == 0.0
    with pytest.raises(PmuDataError, match="event 0xa"):
        compute_metrics(
            pmu,
            PIPE_UTILIZATION,
            [0x8, 0x1, 0x9, 0xB, 0xC, 0xD, 0x55, 0x54],
            block_num=1,
            core_num=1,
            freq_mhz=1,
        )
    with pytest.raises(PmuDataError, match="event 0x54"):  # a set's event beyond those programmed
        compute_metrics(
            pmu, PIPE_UTILIZATION, PIPE_UTILIZATION.events[:7], block_num=1, core_num=1, freq_mhz=1
        )
    with pytest.raises(PmuDataError, match="9 events"):
        compute_metrics(
            pmu, PIPE_UTILIZATION, [*PIPE_UTILIZATION.events, 1], block_num=1, core_num=1, freq_mhz=1
        )


def test_extended_set_reads_mac_from_two_events() -> None:
    # counters: mac (0x416, 0x417), scalar, mte1 (0x302), mte2, fixpipe (0x303), icache miss, request
    pmu = decode(record(1, 1, 1000, [300, 200, 10, 40, 100, 50, 1, 4]))[0]
    m = compute_metrics(pmu, PIPE_UTILIZATION_EXCT, block_num=2, core_num=24, freq_mhz=1000)
    assert m["total_time"] == pytest.approx(0.5)  # 1000 cycles at 1 GHz over 2 blocks in one wave
    assert m["mac_ratio_extra"] == pytest.approx(0.5) and m["mac_time"] == pytest.approx(0.25)
    assert m["mte1_ratio_extra"] == pytest.approx(0.04) and m["fixpipe_ratio"] == pytest.approx(0.05)


def test_op_summary_names_the_columns_as_msprof() -> None:
    assert summary_header("total_time") == "aicore_time(us)"
    assert summary_header("total_time", "aiv_") == "aiv_time(us)"
    assert summary_header("mac_ratio_extra", "aic_") == "aic_mac_ratio"
    assert summary_header("mte2_time", "aic_") == "aic_mte2_time(us)"
    headers = summary_headers()
    assert headers[:4] == ["aicore_time(us)", "total_cycles", "vec_time(us)", "vec_ratio"]
    assert headers[-1] == "icache_miss_rate" and len(headers) == 15
    # A chip with separate cube and vector cores: the extended set on the cube cores, the plain set
    # without mac and mte1 on the vector cores.
    assert summary_headers(PIPE_UTILIZATION_EXCT, "aic_") == [
        "aicore_time(us)", "aic_total_cycles", "aic_mac_time(us)", "aic_mac_ratio", "aic_scalar_time(us)",
        "aic_scalar_ratio", "aic_mte1_time(us)", "aic_mte1_ratio", "aic_mte2_time(us)", "aic_mte2_ratio",
        "aic_fixpipe_time(us)", "aic_fixpipe_ratio", "aic_icache_miss_rate",
    ]  # fmt: skip
    assert summary_headers(PIPE_UTILIZATION, "aiv_") == [
        "aiv_time(us)", "aiv_total_cycles", "aiv_vec_time(us)", "aiv_vec_ratio", "aiv_scalar_time(us)",
        "aiv_scalar_ratio", "aiv_mte2_time(us)", "aiv_mte2_ratio", "aiv_mte3_time(us)", "aiv_mte3_ratio",
        "aiv_icache_miss_rate",
    ]  # fmt: skip


def test_arithmetic_utilization_ratios_and_operations() -> None:
    # counters in the set's order: mac fp16, mac int8, vec fp32, vec fp16 (128, 64 lanes), int32, misc
    pmu = decode(record(1, 1, 1000, [600, 100, 50, 30, 20, 10, 5, 0]))[0]
    m = compute_metrics(pmu, ARITHMETIC_UTILIZATION, block_num=1, core_num=1, freq_mhz=1000)
    assert m["mac_fp16_ratio"] == pytest.approx(0.6) and m["mac_int8_ratio"] == pytest.approx(0.1)
    assert m["vec_fp16_ratio"] == pytest.approx(0.05) and m["vec_misc_ratio"] == pytest.approx(0.005)
    assert m["cube_fops"] == 600 * 8192 + 100 * 16384
    assert m["vector_fops"] == 30 * 128 + 20 * 64 + 50 * 64 + 10 * 64 + 5 * 32


def test_memory_bandwidths_follow_pipe_size_and_scale() -> None:
    # 1000 cycles at 1000 MHz: 1 us. main_mem_read_bw: count x 8 x 8 / 1e-6 s / 2^33 GB/s.
    counters = [0, 0, 0, 0, 0, 0, 2**27, 0]  # events 0x15 0x16 0x31 0x32 0xf 0x10 0x12 0x13
    pmu = decode(record(1, 1, 1000, counters))[0]
    m = compute_metrics(pmu, MEMORY, block_num=1, core_num=1, freq_mhz=1000)
    assert m["main_mem_read_bw"] == pytest.approx(2**27 * 64 / 1e-6 / 2**33)
    assert m["ub_read_bw"] == 0.0
    l0 = compute_metrics(
        decode(record(1, 1, 1000, [1] * 8))[0], MEMORY_L0, block_num=1, core_num=1, freq_mhz=1000
    )
    assert l0["l0c_read_bw_cube"] == pytest.approx(256 * 32 / 1e-6 / 2**33)
    ub = compute_metrics(
        decode(record(1, 1, 1000, [1] * 8))[0], MEMORY_UB, block_num=1, core_num=1, freq_mhz=1000
    )
    assert ub["ub_read_bw_vector"] == pytest.approx(128 * 2 / 1e-6 / 2**33)
    # No frequency or no cycles: 0, as msprof.
    assert compute_metrics(pmu, MEMORY, block_num=1, core_num=1, freq_mhz=0)["main_mem_read_bw"] == 0.0


def test_memory_access_and_l2_cache_count_without_cycles() -> None:
    # events 0x32 0x3d 0x3e 0x206 0x20c 0x50c 0x50d 0x50e; data in KB at 0.125 (GM to L1: 0.25)
    pmu = decode(record(1, 1, 0, [100, 8, 16, 40, 90, 24, 800, 8]))[0]
    m = compute_metrics(pmu, MEMORY_ACCESS, block_num=1, core_num=1, freq_mhz=1000)
    assert m["read_main_memory_datas"] == pytest.approx(101.0) and m["write_main_memory_datas"] == 3.0
    assert m["GM_to_L1_datas"] == pytest.approx(15.0) and m["L0C_to_GM_datas"] == pytest.approx(6.25)
    assert m["GM_to_UB_datas"] == 2.0 and m["UB_to_GM_datas"] == 1.0
    cache = decode(record(1, 1, 0, [3, 1, 4, 1, 5, 9, 0, 0]))[0]
    l2 = compute_metrics(cache, L2_CACHE, block_num=1, core_num=1, freq_mhz=1)
    assert (l2["write_cache_hit"], l2["r1_read_cache_miss_allocate"]) == (3.0, 9.0)


def test_every_set_names_its_columns_as_msprof() -> None:
    assert set(METRIC_SETS) == {
        "PipeUtilization", "ArithmeticUtilization", "Memory", "MemoryL0", "ResourceConflictRatio", "MemoryUB",
        "L2Cache", "MemoryAccess",
    }  # fmt: skip
    assert summary_headers(MEMORY, "aic_") == [
        "aicore_time(us)", "aic_total_cycles", "aic_l1_read_bw(GB/s)", "aic_l1_write_bw(GB/s)",
        "aic_main_mem_read_bw(GB/s)", "aic_main_mem_write_bw(GB/s)", "aic_l2_read_bw(GB/s)",
        "aic_l2_write_bw(GB/s)",
    ]  # fmt: skip
    assert summary_headers(ARITHMETIC_UTILIZATION, "aiv_")[2:] == [
        "aiv_vec_fp32_ratio", "aiv_vec_fp16_ratio", "aiv_vec_int32_ratio", "aiv_vec_misc_ratio",
        "aiv_vector_fops",
    ]  # fmt: skip
    assert summary_headers(ARITHMETIC_UTILIZATION, "aic_")[2:] == [
        "aic_mac_fp16_ratio", "aic_mac_int8_ratio", "aic_cube_fops",
    ]  # fmt: skip
    assert summary_headers(MEMORY_ACCESS)[2:4] == [
        "read_main_memory_datas(KB)",
        "write_main_memory_datas(KB)",
    ]
    assert summary_headers(MEMORY_L0, "aiv_")[2:] == ["aiv_l0c_read_bw(GB/s)", "aiv_l0c_write_bw(GB/s)"]


def test_a_sample_without_the_simulators_counted_events_counts_every_event(tmp_path: Path) -> None:
    # CANN's sample.json has no npu_sim_counted_events: every programmed event was counted, so no
    # metric is written N/A for it; the simulator's names those it counts.
    device = tmp_path / "device_0"
    (device / "data").mkdir(parents=True)
    (device / "data" / "ffts_profile.data.0.slice_0").write_bytes(record(1, 2, 100, [1] * 8))
    sample = {
        "ai_core_metrics": "Memory",
        "ai_core_profiling_events": "0x15,0x16",
        "aiv_profiling_events": "0x15",
    }
    (device / "sample.json").write_text(json.dumps(sample))
    read = read_device(tmp_path, 0)
    assert (read.metric_set, read.aic_events, read.counted) == ("Memory", (0x15, 0x16), None)
    assert [(r.stream, r.task) for r in read.records] == [(1, 2)]
    (device / "sample.json").write_text(json.dumps({**sample, "npu_sim_counted_events": "0x12"}))
    assert read_device(tmp_path, 0).counted == frozenset({0x12})
    (device / "sample.json").write_text("{}")
    with pytest.raises(PmuDataError, match=r"sample\.json"):
        read_device(tmp_path, 0)
