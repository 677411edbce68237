"""CANN's ContextPmu record and msprof's PipeUtilization calculation (sim_runtime/msprof/aicore_metrics.py),
on records laid out byte by byte as chip4_pmu_parser_item.h places their fields."""

from __future__ import annotations

import pytest

from sim_runtime.msprof.aicore_metrics import (
    PIPE_UTILIZATION,
    PIPE_UTILIZATION_EXCT,
    RECORD_BYTES,
    ContextPmu,
    PmuDataError,
    decode,
    pipe_utilization,
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
    m = pipe_utilization(pmu, block_num=1, core_num=24, freq_mhz=1000)
    assert m["total_cycles"] == 2000 and m["total_time"] == pytest.approx(2.0)
    assert m["mac_ratio"] == pytest.approx(0.75) and m["mac_time"] == pytest.approx(1.5)
    assert m["vec_ratio"] == pytest.approx(0.05) and m["mte2_ratio"] == pytest.approx(0.3)
    assert m["mte3_time"] == pytest.approx(0.3) and m["scalar_ratio"] == pytest.approx(0.025)
    assert m["icache_miss_rate"] == pytest.approx(0.25)
    assert max(("vec_ratio", "mac_ratio", "scalar_ratio", "mte1_ratio"), key=m.__getitem__) == "mac_ratio"


def test_pipe_utilization_of_an_empty_task_and_wrong_events() -> None:
    pmu = decode(record(1, 1, 0, [5] * 8))[0]
    m = pipe_utilization(pmu, block_num=1, core_num=1, freq_mhz=1000)
    assert m["vec_ratio"] == 0.0 and m["icache_miss_rate"] == 0.0
    with pytest.raises(PmuDataError, match="event 0xa"):
        pipe_utilization(
            pmu,
            PIPE_UTILIZATION,
            [0x8, 0x1, 0x9, 0xB, 0xC, 0xD, 0x55, 0x54],
            block_num=1,
            core_num=1,
            freq_mhz=1,
        )
    with pytest.raises(PmuDataError, match="7 events"):
        pipe_utilization(
            pmu, PIPE_UTILIZATION, PIPE_UTILIZATION.events[:7], block_num=1, core_num=1, freq_mhz=1
        )


def test_extended_set_reads_mac_from_two_events() -> None:
    # counters: mac (0x416, 0x417), scalar, mte1 (0x302), mte2, fixpipe (0x303), icache miss, request
    pmu = decode(record(1, 1, 1000, [300, 200, 10, 40, 100, 50, 1, 4]))[0]
    m = pipe_utilization(pmu, PIPE_UTILIZATION_EXCT, block_num=2, core_num=24, freq_mhz=1000)
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
