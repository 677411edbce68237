"""msprof's npu_mem (mindstudio_profiler_output/npu_mem_<time>.csv, the database's NPU_MEM) from the
collection's MEMORY records (collected with ACL_PROF_TASK_MEMORY, torch_npu's profile_memory=True).

CANN samples the device memory in use at a fixed rate, per process ("APP") and for the whole device
("DEVICE"); msprof writes one row per sample (npu_memory_assembler.cpp in Ascend/msprof 024471cf:
Device_id, event, ddr(KB), hbm(KB), memory(KB), timestamp(us), sizes in whole KB). Here the
application's device memory changes only at its allocations and releases, which the MEMORY records
give exactly, so there is one APP row at the collection's start and stop (what the process held then,
from the simulator's accounting) and one per change between: the bytes the process holds on that
device after it.
All device memory of the simulated SoC is HBM, so ddr is 0. The whole device's usage (DEVICE: other
processes and the driver's own) is not modelled: no DEVICE rows, as msprof writes none when that
sample is not collected. docs/msprof.md lists the fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim_runtime.msprof.raw import Collection, Memory, MemoryInUse
from sim_runtime.msprof.summaries import us

NPU_MEM_HEADERS = ["Device_id", "event", "ddr(KB)", "hbm(KB)", "memory(KB)", "timestamp(us)"]
APP = "APP"
DEVICE_MEMORY = 1  # MSPTI_ACTIVITY_MEMORY_DEVICE
RELEASE = 1  # MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE


@dataclass(frozen=True)
class MemorySample:
    """The application's device memory after one allocation or release."""

    device: int
    timestamp: int  # ns, msPTI's clock
    ddr: int  # bytes
    hbm: int  # bytes


def app_samples(collection: Collection) -> list[MemorySample]:
    """The application's device memory per device: at the collection's start and stop (what the
    process held then, libmsprofiler's samples) and after each allocation or release between (the
    MEMORY records of device memory), in time order.

    A release record whose size is 0 releases what was allocated at its address."""
    held: dict[int, int] = {}
    allocated: dict[tuple[int, int], int] = {}
    samples = []
    changes: list[MemoryInUse | Memory] = [m for m in collection.memory if m.memory_kind == DEVICE_MEMORY]
    changes += collection.memory_in_use
    for m in sorted(changes, key=lambda m: m.start):
        if isinstance(m, MemoryInUse):
            held[m.device] = m.bytes
        elif m.operation == RELEASE:
            size = m.bytes or allocated.pop((m.device, m.address), 0)
            held[m.device] = max(0, held.get(m.device, 0) - size)
        else:
            allocated[(m.device, m.address)] = m.bytes
            held[m.device] = held.get(m.device, 0) + m.bytes
        samples.append(MemorySample(m.device, m.start, 0, held[m.device]))
    return samples


def npu_mem_rows(collection: Collection) -> list[list[str]]:
    return [
        [
            str(s.device),
            APP,
            str(s.ddr // 1024),
            str(s.hbm // 1024),
            str((s.ddr + s.hbm) // 1024),
            us(s.timestamp) + "\t",
        ]
        for s in app_samples(collection)
    ]
