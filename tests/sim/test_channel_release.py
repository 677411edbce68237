"""Device logs reach the host once the device has done the work, in device order.

The program (programs/channel_release.c) queues a long kernel and a profiler trace behind it,
then, in the vendor msPTI's order, would register the marker id: before the stream has run, the
trace is neither readable, nor counted by a flush, nor reported by a poll, in either clock. After
synchronising it is; every record is read only once the clock has passed its time, in device-time
order. Stopping a channel releases everything written, as if waiting for the device.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAM = Path(__file__).resolve().parent / "programs" / "channel_release.c"
LONG_NS = 30_000_000  # the long kernel: 30 ms of device time
TS_FW, STARS = 44, 50


def run_release(native: NativeTree, programs: ProgramBuilder, tmp_path: Path, clock: str) -> list[list[str]]:
    costs = tmp_path / "costs.toml"
    costs.write_text(f'[[kernel]]\npattern = "long_kernel"\nduration_ns = {LONG_NS}\nper_block = false\n')
    exe = programs.build([PROGRAM], libs=["ascendcl", "ascend_hal"])
    env = native.env(NPU_SIM_CLOCK=clock, NPU_SIM_SEED="5", NPU_SIM_KERNEL_COSTS=str(costs))
    result = run_program(exe, env, timeout=60)
    assert result.returncode == 0, result.stderr
    return [line.split() for line in result.stdout.splitlines()]


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_step_trace_is_not_readable_before_its_modelled_time(
    native: NativeTree, programs: ProgramBuilder, tmp_path: Path, clock: str
) -> None:
    lines = run_release(native, programs, tmp_path, clock)
    early = {int(f[1]): tuple(map(int, f[2:])) for f in lines if f[0] == "EARLY"}
    # Right after aclrtProfTrace: no step trace to read, none pending for a flush, none polled.
    assert early[TS_FW] == (0, 0, 0)
    if clock == "virtual":
        # Nothing has run: polls and flushes do not move the virtual clock.
        assert early[STARS] == (0, 0, 0)
    now = int(next(f for f in lines if f[0] == "NOW")[1])

    traces = [tuple(map(int, f[1:])) for f in lines if f[0] == "T"]
    # Device order: the trace on stream b runs before the one behind the long kernel on stream a.
    assert [(phase, index) for phase, index, _, _ in traces] == [(1, 41), (2, 43), (2, 42)]
    phase1_trace = traces[0]
    assert phase1_trace[2] > now, "the trace runs after the long kernel, later than the early look"
    assert phase1_trace[2] - now >= LONG_NS * 0.9
    for phase, _, ts, read_at in traces:
        if phase == 1:
            assert read_at >= ts, "a record is read only once the clock has passed its time"

    stars = [tuple(map(int, f[1:])) for f in lines if f[0] == "S"]
    for phase, _, _, _, ts, read_at in stars:
        if phase == 1:
            assert read_at >= ts
    # Phase 1: the long kernel and the trace task, each a begin and an end.
    assert sum(1 for s in stars if s[0] == 1) == 4


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_logs_come_in_device_order_and_a_stop_releases_everything(
    native: NativeTree, programs: ProgramBuilder, tmp_path: Path, clock: str
) -> None:
    lines = run_release(native, programs, tmp_path, clock)
    stars = [tuple(map(int, f[1:])) for f in lines if f[0] == "S" and f[1] == "2"]
    # Stopped before the work ran: the long kernel, three short kernels, two trace tasks.
    assert len(stars) == 2 * 6
    times = [s[4] for s in stars]
    assert times == sorted(times), "read in device-time order across streams"
    # The short kernels on stream b were written after the long one but end before it.
    long_end = max(times)
    stream_b = [s for s in stars if s[1] != stars[0][1]]
    assert stream_b and all(s[4] < long_end for s in stream_b)
    # Begin before end for every task.
    seen: dict[tuple[int, int], int] = {}
    for _, stream, task, func, _, _ in stars:
        assert (func == 0) == ((stream, task) not in seen), (stream, task, func)
        seen[(stream, task)] = func
    assert set(seen.values()) == {1}
    if clock == "virtual":
        # Nothing synchronised in phase 2: the virtual clock is still before the long kernel's end.
        assert all(s[5] < long_end for s in stars)
