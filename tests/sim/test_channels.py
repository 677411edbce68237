"""The driver's profiling channels, decoded back to the modelled task times.

A C program starts channels 44 and 50 on every device, launches thousands of kernels on three
streams per device plus one device marker, reads the channels in small pieces (records split
across reads) and prints every decoded record. The checks rebuild the device timeline from the
bytes alone and compare it with the model's rules and the SoC table.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from pathlib import Path

import pytest

from sim_runtime.kernel_costs import load_kernel_costs
from sim_runtime.soc import load_catalogue
from support.native import NativeTree, ProgramBuilder, run_program

PROGRAM = Path(__file__).resolve().parent / "programs" / "channel_decode.c"
PER_STREAM = 400
STREAMS = 3
DEVICES = 2
STARS_SIZE = {5: 64, 7: 64, 15: 32}


def run_decode(native: NativeTree, programs: ProgramBuilder, soc: str) -> list[list[str]]:
    exe = programs.build([PROGRAM], libs=["ascendcl", "ascend_hal"])
    env = native.env(NPU_SIM_SOC=soc, NPU_SIM_DEVICES=str(DEVICES), NPU_SIM_CLOCK="virtual", NPU_SIM_SEED="3")
    result = run_program(exe, env, [str(PER_STREAM)], timeout=120)
    assert result.returncode == 0, result.stderr
    return [line.split() for line in result.stdout.splitlines()]


@pytest.mark.parametrize("soc", ["Ascend910B3", "Ascend950PR_9599", "Ascend310B1"])
def test_channel_bytes_decode_to_the_modelled_timeline(
    native: NativeTree, programs: ProgramBuilder, soc: str
) -> None:
    spec = load_catalogue().get(soc)
    cost = load_kernel_costs().lookup("empty_kernel")
    assert cost.duration_ns is not None
    duration = cost.duration_ns + spec.task_overhead_ns
    jitter = load_catalogue().defaults.jitter_pct / 100.0
    lines = run_decode(native, programs, soc)

    begins: dict[tuple[int, int, int], int] = {}
    spans: dict[tuple[int, int], list[tuple[int, int, int]]] = defaultdict(list)
    for fields in (f for f in lines if f[0] == "S"):
        dev, stream, task, func, ts = map(int, fields[1:])
        key = (dev, stream, task)
        if func == 0:
            assert key not in begins, f"two begin records for {key}"
            begins[key] = ts
        else:
            assert func == 1, f"unexpected funcType {func}"
            start = begins.pop(key)
            assert ts >= start
            spans[(dev, stream)].append((task, start, ts))
    assert not begins, f"begin records without an end: {list(begins)[:5]}"

    tasks = sum(len(v) for v in spans.values())
    # Every kernel plus the profiling-trace task of each device left a begin/end pair.
    assert tasks == DEVICES * (STREAMS * PER_STREAM + 1)
    kernels = 0
    for (_, _), records in spans.items():
        records.sort()
        for (_, _, end), (_, next_start, _) in itertools.pairwise(records):
            assert next_start >= end + spec.task_gap_ns, "tasks of a stream run in order, one gap apart"
        for _, start, end in records:
            if end - start > 300:  # kernels (at least 750 ns on every SoC tested); the trace task is 100 ns
                kernels += 1
                assert abs((end - start) - duration) <= duration * jitter + 1
    assert kernels == DEVICES * STREAMS * PER_STREAM
    if spec.chip_type != 15:
        assert {stream for (_, stream) in spans} >= {1, 2, 3}

    traces = [list(map(int, f[1:])) for f in lines if f[0] == "T"]
    assert sorted((t[0], t[3], t[4], t[5]) for t in traces) == [(d, 7 + d, 8, 11) for d in range(DEVICES)]

    flushed = {int(f[1]): int(f[3]) for f in lines if f[0] == "FLUSH"}
    per_device = 2 * (STREAMS * PER_STREAM + 1) * STARS_SIZE[spec.chip_type]
    assert flushed == {d: per_device for d in range(DEVICES)}


def test_poll_blocks_until_its_timeout_when_nothing_is_pending(
    native: NativeTree, programs: ProgramBuilder
) -> None:
    lines = run_decode(native, programs, "Ascend910B3")
    ((waited_ms, ready),) = [(float(f[1]), int(f[2])) for f in lines if f[0] == "POLL_EMPTY"]
    assert ready == 0
    assert 900 <= waited_ms <= 3000


LIMIT_PROGRAM = Path(__file__).resolve().parent / "programs" / "channel_limit.c"
CHANNEL_LIMIT = 64 << 20  # bytes a channel holds unread (core/channels.h)
STARS_PAIR = 128  # a kernel's begin and end logs on chip types 5 and 7


def test_a_channel_holds_its_limit_unread_and_takes_bytes_again_once_read(
    native: NativeTree, programs: ProgramBuilder
) -> None:
    fitting = CHANNEL_LIMIT // STARS_PAIR
    exe = programs.build([LIMIT_PROGRAM], libs=["ascendcl", "ascend_hal"])
    env = native.env(NPU_SIM_SOC="Ascend910B3", NPU_SIM_CLOCK="virtual")
    result = run_program(exe, env, [str(fitting + 5000), "1000"], timeout=300)
    assert result.returncode == 0, result.stderr
    lines = [line.split() for line in result.stdout.splitlines()]
    out = {fields[0]: [int(v) for v in fields[1:]] for fields in lines}
    # Whole launches up to the limit, then nothing: a log pair is taken or dropped as one piece.
    assert out["READ"] == [CHANNEL_LIMIT, fitting, fitting]
    assert out["AGAIN"] == [1000 * STARS_PAIR]
    assert out["STOPPED"] == [0]
    assert out["RESTART"] == [0]


THREADS_PROGRAM = Path(__file__).resolve().parent / "programs" / "channel_threads.c"


def test_logs_from_many_launching_threads_arrive_once_and_whole(
    native: NativeTree, programs: ProgramBuilder
) -> None:
    threads, per_thread = 4, 20_000
    exe = programs.build([THREADS_PROGRAM], libs=["ascendcl", "ascend_hal"])
    env = native.env(NPU_SIM_SOC="Ascend910B3", NPU_SIM_CLOCK="virtual")
    result = run_program(exe, env, [str(threads), str(per_thread)], timeout=300)
    assert result.returncode == 0, result.stderr
    (fields,) = [line.split() for line in result.stdout.splitlines() if line.startswith("LOGS ")]
    launches = threads * per_thread
    assert [int(v) for v in fields[1:]] == [launches, launches, launches]
