"""Captures whose every count and duration is known, for the tests that run real consumers of the
Kineto export (HTA, the Torch-FL profiler contract).

Each rank is one process on its own device. Per step (``STEP_NS`` apart, ``step`` mstx range on the
main thread): ``KERNELS`` compute kernels of ``KERNEL_NS`` on stream 2, each launched by one call
(NODE_API operator + ACL_API/RUNTIME_API launch records sharing correlation id and span), one
all-reduce of ``ALLREDUCE_NS`` on stream 3 overlapping the third and fourth kernels, and one
asynchronous host-to-device copy of ``COPY_NS`` on stream 2 after the kernels.

Variants: ``late_ns`` makes a rank's all-reduces start that much later (ending as the others', as a
collective waits for its last rank): the straggler HTA must find; ``call_ns``/``call_offset_ns`` give
calls shorter than a microsecond that contain no whole one, for HTA's rounding to microseconds.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path

from mspti_trace.kinds import ActivityKind, MarkerFlag
from mspti_trace.writer import CaptureWriter, new_records
from sim_runtime.trace_launcher import device_properties

T0 = 1_700_000_000_000_000_000
STEP_NS = 200_000
STEPS = 3
KERNELS = 4
KERNEL_NS = 10_000
KERNEL_GAP_NS = 2_000
FIRST_KERNEL_NS = 20_000
LAUNCH_EVERY_NS = 10_000
CALL_NS = 4_000
ALLREDUCE_LAUNCH_NS = 41_000
ALLREDUCE_START_NS = 45_000
ALLREDUCE_NS = 20_000
COPY_LAUNCH_NS = 61_000
COPY_START_NS = 70_000
COPY_NS = 5_000
COPY_BYTES = 1 << 20
STEP_RANGE_NS = 180_000
COMPUTE_STREAM, COMM_STREAM = 2, 3
#: How much later one rank's all-reduces start in the straggling variants (conftest.py).
LATE_NS = 6_000


@dataclass
class _Rows:
    apis: list[tuple] = field(default_factory=list)
    kernels: list[tuple] = field(default_factory=list)
    comms: list[tuple] = field(default_factory=list)
    copies: list[tuple] = field(default_factory=list)
    markers: list[tuple] = field(default_factory=list)
    correlation: int = 0
    call_ns: int = CALL_NS
    call_offset_ns: int = 0

    def call(self, tid: int, start: int, kinds_names: list[tuple[ActivityKind, str]]) -> int:
        self.correlation += 1
        start += self.call_offset_ns
        for kind, name in kinds_names:
            self.apis.append((int(kind), start, start + self.call_ns, tid, self.correlation, name))
        return self.correlation


def kernel_start(step: int, i: int) -> int:
    return T0 + step * STEP_NS + FIRST_KERNEL_NS + i * (KERNEL_NS + KERNEL_GAP_NS)


def launch_start(step: int, i: int) -> int:
    return T0 + step * STEP_NS + 1_000 + i * LAUNCH_EVERY_NS


def write_rank(
    directory: Path,
    rank: int,
    *,
    allreduce: bool = True,
    soc: str = "Ascend910B3",
    late_ns: int = 0,
    call_ns: int = CALL_NS,
    call_offset_ns: int = 0,
) -> int:
    """Writes the capture of ``rank`` (pid 5000 + rank, device ``rank``); returns the pid."""
    pid = 5000 + rank
    rows = _Rows(call_ns=call_ns, call_offset_ns=call_offset_ns)
    for step in range(STEPS):
        s = T0 + step * STEP_NS
        rows.markers.append((int(MarkerFlag.START), s, step + 1, pid, "step"))
        rows.markers.append((int(MarkerFlag.END), s + STEP_RANGE_NS, step + 1, pid, ""))
        for i in range(KERNELS):
            corr = rows.call(
                pid,
                launch_start(step, i),
                [
                    (ActivityKind.NODE_API, f"aclnnMatmul_{i}"),
                    (ActivityKind.ACL_API, "aclrtLaunchKernel"),
                    (ActivityKind.RUNTIME_API, "KernelLaunch"),
                ],
            )
            start = kernel_start(step, i)
            rows.kernels.append((start, start + KERNEL_NS, corr, f"MatMulV2_{i}"))
        if allreduce:
            corr = rows.call(
                pid,
                s + ALLREDUCE_LAUNCH_NS,
                [(ActivityKind.API, "HcclAllReduce"), (ActivityKind.NODE_API, "hcom_allReduce_")],
            )
            start = s + ALLREDUCE_START_NS
            rows.comms.append((start + late_ns, start + ALLREDUCE_NS, corr))
        corr = rows.call(
            pid,
            s + COPY_LAUNCH_NS,
            [(ActivityKind.ACL_API, "aclrtMemcpyAsync"), (ActivityKind.RUNTIME_API, "MemcpyAsync")],
        )
        rows.copies.append((s + COPY_START_NS, s + COPY_START_NS + COPY_NS, corr))
    # What `npu-sim trace` records of the simulated device (run.json).
    meta = {
        "soc": soc,
        "device_properties": device_properties(soc),
        "clock": "virtual",
        "argv": [f"/bin/rank{rank}"],
    }
    writer = CaptureWriter(directory, pid, meta)
    m = new_records(ActivityKind.MARKER, len(rows.markers))
    cols = list(zip(*rows.markers, strict=True))
    m["flag"], m["timestamp"], m["id"], m["object_a"], m["object_b"] = cols[0], cols[1], cols[2], pid, cols[3]
    m["source_kind"] = 0
    m["name"] = writer.strings(list(cols[4]))
    m["domain"] = writer.strings(["default" if n else "" for n in cols[4]])
    writer.add(ActivityKind.MARKER, m)
    by_kind: dict[int, list[tuple]] = {}
    for row in rows.apis:
        by_kind.setdefault(row[0], []).append(row)
    for kind, kind_rows in sorted(by_kind.items()):
        a = new_records(ActivityKind(kind), len(kind_rows))
        cols = list(zip(*kind_rows, strict=True))
        a["start"], a["end"], a["thread_id"], a["correlation_id"] = cols[1:5]
        a["process_id"] = pid
        a["name"] = writer.strings(list(cols[5]))
        writer.add(ActivityKind(kind), a)
    k = new_records(ActivityKind.KERNEL, len(rows.kernels))
    cols = list(zip(*rows.kernels, strict=True))
    k["start"], k["end"], k["correlation_id"] = cols[:3]
    k["device_id"], k["stream_id"] = rank, COMPUTE_STREAM
    k["name"] = writer.strings(list(cols[3]))
    k["type"] = writer.string("KERNEL_AICORE")
    writer.add(ActivityKind.KERNEL, k)
    if rows.comms:
        x = new_records(ActivityKind.COMMUNICATION, len(rows.comms))
        cols = list(zip(*rows.comms, strict=True))
        x["start"], x["end"], x["correlation_id"] = cols
        x["device_id"], x["stream_id"], x["data_type"], x["count"] = rank, COMM_STREAM, 4, 1024
        x["name"] = writer.string("hcom_allReduce_")
        x["alg_type"] = writer.string("MESH")
        x["comm_name"] = writer.string("comm0")
        writer.add(ActivityKind.COMMUNICATION, x)
    c = new_records(ActivityKind.MEMCPY, len(rows.copies))
    cols = list(zip(*rows.copies, strict=True))
    c["start"], c["end"], c["correlation_id"] = cols
    c["copy_kind"], c["bytes"], c["device_id"], c["stream_id"], c["is_async"] = (
        2,
        COPY_BYTES,
        rank,
        COMPUTE_STREAM,
        1,
    )
    writer.add(ActivityKind.MEMCPY, c)
    writer.close()
    return pid


def write_workload(
    directory: Path, ranks: int, *, allreduce: bool = True, late: dict[int, int] | None = None, **calls: int
) -> list[int]:
    """``late``: rank -> how much later its all-reduces start; ``calls``: ``call_ns``, ``call_offset_ns``."""
    return [
        write_rank(directory, rank, allreduce=allreduce, late_ns=(late or {}).get(rank, 0), **calls)
        for rank in range(ranks)
    ]


@dataclass(frozen=True)
class Expected:
    """What HTA must find per rank. HTA analyses every step but the last (its default), so these
    cover ``STEPS - 1`` steps; times in microseconds."""

    steps: int = STEPS - 1

    @property
    def compute_us(self) -> float:
        return self.steps * KERNELS * KERNEL_NS / 1000

    @property
    def communication_us(self) -> float:
        return self.steps * ALLREDUCE_NS / 1000

    @property
    def memory_us(self) -> float:
        return self.steps * COPY_NS / 1000

    def intervals(self, allreduce: bool = True) -> list[tuple[int, int]]:
        spans = []
        for step in range(self.steps):
            s = T0 + step * STEP_NS
            spans += [(kernel_start(step, i), kernel_start(step, i) + KERNEL_NS) for i in range(KERNELS)]
            if allreduce:
                spans.append((s + ALLREDUCE_START_NS, s + ALLREDUCE_START_NS + ALLREDUCE_NS))
            spans.append((s + COPY_START_NS, s + COPY_START_NS + COPY_NS))
        return sorted(spans)

    def kernel_time_us(self, allreduce: bool = True) -> float:
        spans = self.intervals(allreduce)
        return (max(e for _, e in spans) - spans[0][0]) / 1000

    def busy_us(self, allreduce: bool = True) -> float:
        return _union(self.intervals(allreduce)) / 1000

    def idle_us(self, allreduce: bool = True) -> float:
        return self.kernel_time_us(allreduce) - self.busy_us(allreduce)

    def overlap_us(self) -> float:
        """Time during which the all-reduce runs beside a compute kernel."""
        return self.overlap_pct() / 100 * self.communication_us

    def overlap_pct(self) -> float:
        compute = [
            (kernel_start(step, i), kernel_start(step, i) + KERNEL_NS)
            for step in range(self.steps)
            for i in range(KERNELS)
        ]
        comm = [
            (
                T0 + step * STEP_NS + ALLREDUCE_START_NS,
                T0 + step * STEP_NS + ALLREDUCE_START_NS + ALLREDUCE_NS,
            )
            for step in range(self.steps)
        ]
        both = sum(max(0, min(a1, b1) - max(a0, b0)) for a0, a1 in comm for b0, b1 in compute)
        return 100.0 * both / sum(e - s for s, e in comm)

    def stream_idle_us(self, stream: int) -> float:
        """Sum of the gaps between consecutive operations of ``stream``."""
        spans = []
        for step in range(self.steps):
            s = T0 + step * STEP_NS
            if stream == COMM_STREAM:
                spans.append((s + ALLREDUCE_START_NS, s + ALLREDUCE_START_NS + ALLREDUCE_NS))
            else:
                spans += [(kernel_start(step, i), kernel_start(step, i) + KERNEL_NS) for i in range(KERNELS)]
                spans.append((s + COPY_START_NS, s + COPY_START_NS + COPY_NS))
        return sum(b[0] - a[1] for a, b in itertools.pairwise(sorted(spans))) / 1000

    def critical_path_us(self) -> tuple[float, float]:
        """(compute, kernel-to-kernel gaps) along one step's critical path: its kernels and copy,
        back to back on the compute stream (the all-reduce overlaps them)."""
        last_kernel_end = FIRST_KERNEL_NS + KERNELS * KERNEL_NS + (KERNELS - 1) * KERNEL_GAP_NS
        gaps = (KERNELS - 1) * KERNEL_GAP_NS + COPY_START_NS - last_kernel_end
        return (KERNELS * KERNEL_NS + COPY_NS) / 1000, gaps / 1000

    def queue_lengths(self) -> list[int]:
        """Operations launched on the compute stream and not yet started, after each launch and
        each start, in time order (launches first at equal times)."""
        changes = []
        for step in range(self.steps):
            s = T0 + step * STEP_NS
            for i in range(KERNELS):
                changes += [(launch_start(step, i), 0, 1), (kernel_start(step, i), 1, -1)]
            changes += [(s + COPY_LAUNCH_NS, 0, 1), (s + COPY_START_NS, 1, -1)]
        return list(itertools.accumulate(delta for _, _, delta in sorted(changes)))

    def launches(self) -> list[tuple[float, float, float]]:
        """(cpu duration, gpu duration, launch delay) of every kernel and copy launch, in time order."""
        found = []
        for step in range(self.steps):
            for i in range(KERNELS):
                delay = kernel_start(step, i) - (launch_start(step, i) + CALL_NS)
                found.append((CALL_NS / 1000, KERNEL_NS / 1000, delay / 1000))
            delay = COPY_START_NS - (COPY_LAUNCH_NS + CALL_NS)
            found.append((CALL_NS / 1000, COPY_NS / 1000, delay / 1000))
        return found


def _union(spans: list[tuple[int, int]]) -> int:
    total, end = 0, None
    start = None
    for s, e in sorted(spans):
        if end is None or s > end:
            if end is not None and start is not None:
                total += end - start
            start, end = s, e
        else:
            end = max(end, e)
    if end is not None and start is not None:
        total += end - start
    return total
