"""Device logs released at synchronisations (``NPU_SIM_DEVICE_LOGS=sync``, core/channels.h).

The program (programs/channel_sync_release.c) lets the device finish its kernels without
synchronising: under the default release the logs are then readable, under ``sync`` they are not —
not read, not counted by a flush, not reported by a poll — until the stream is synchronised. A
reader thread that polls and reads as msPTI's does then takes exactly one stretch between two
synchronisations per batch, however its thread is scheduled: the batching the instruction benchmark
fixes (docs/performance.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAM = Path(__file__).resolve().parent / "programs" / "channel_sync_release.c"
KERNELS, CHUNKS, STARS_BYTES = 64, 12, 64


def run_release(
    native: NativeTree, programs: ProgramBuilder, clock: str, device_logs: str
) -> list[list[str]]:
    exe = programs.build([PROGRAM], libs=["ascendcl", "ascend_hal"])
    env = native.env(NPU_SIM_CLOCK=clock, NPU_SIM_SEED="3", NPU_SIM_DEVICE_LOGS=device_logs)
    result = run_program(exe, env, timeout=60)
    assert result.returncode == 0, result.stderr
    return [line.split() for line in result.stdout.splitlines()]


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_logs_wait_for_a_synchronisation_under_sync_release(
    native: NativeTree, programs: ProgramBuilder, clock: str
) -> None:
    lines = run_release(native, programs, clock, "sync")
    due = next(f for f in lines if f[0] == "DUE")
    assert due[1:] == ["0", "0", "0"], "done but not synchronised: nothing read, pending or polled"
    synced = next(f for f in lines if f[0] == "SYNCED")
    assert int(synced[1]) == KERNELS * 2 * STARS_BYTES
    batches = [int(f[1]) for f in lines if f[0] == "BATCH"]
    assert batches == [KERNELS * 2] * CHUNKS, "each batch is one stretch between synchronisations"


@pytest.mark.parametrize("clock", ["virtual", "wall"])
def test_logs_are_readable_once_due_by_default(
    native: NativeTree, programs: ProgramBuilder, clock: str
) -> None:
    lines = run_release(native, programs, clock, "due")
    due = next(f for f in lines if f[0] == "DUE")
    assert int(due[1]) == KERNELS * 2 * STARS_BYTES, "the default release hands out what the device did"
    batches = [int(f[1]) for f in lines if f[0] == "BATCH"]
    assert sum(batches) == KERNELS * 2 * CHUNKS
