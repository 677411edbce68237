"""Builds captures in memory, the way a fake profiler backend would: a small host program model
(threads, mstx ranges, API calls launching kernels) turned into packed records with numpy and
written in the collector's format."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from mspti_trace.kinds import ActivityKind, MarkerFlag
from mspti_trace.writer import CaptureWriter, new_records
from sim_runtime.trace_launcher import device_properties

BASE_NS = 1_700_000_000_000_000_000


@dataclass
class FakeProcess:
    pid: int = 4242
    tid: int = 4242
    stream: int = 2
    device: int = 0
    now: int = BASE_NS
    correlation: int = 0
    range_id: int = 0
    markers: list[tuple] = field(default_factory=list)
    apis: list[tuple] = field(default_factory=list)
    kernels: list[tuple] = field(default_factory=list)
    copies: list[tuple] = field(default_factory=list)
    memory: list[tuple] = field(default_factory=list)
    communications: list[tuple] = field(default_factory=list)
    device_free_at: int = 0

    def advance(self, ns: int) -> None:
        self.now += ns

    @contextlib.contextmanager
    def range(self, name: str, domain: str = "default", tid: int | None = None) -> Iterator[int]:
        self.range_id += 1
        rid = self.range_id
        thread = self.tid if tid is None else tid
        self.markers.append((int(MarkerFlag.START), 0, self.now, rid, self.pid, thread, name, domain))
        self.advance(10)
        yield rid
        self.advance(10)
        self.markers.append((int(MarkerFlag.END), 0, self.now, rid, self.pid, thread, "", ""))

    def mark(self, name: str, domain: str = "default") -> None:
        self.range_id += 1
        self.markers.append(
            (int(MarkerFlag.INSTANTANEOUS), 0, self.now, self.range_id, self.pid, self.tid, name, domain)
        )

    def launch(
        self,
        api: str,
        kernel: str,
        kernel_type: str = "KERNEL_AICORE",
        duration: int = 1000,
        tid: int | None = None,
        correlation: int | None = None,
        kind: ActivityKind = ActivityKind.NODE_API,
    ) -> int:
        """One API call that launches one kernel; returns the correlation id."""
        self.correlation += 1
        corr = self.correlation if correlation is None else correlation
        thread = self.tid if tid is None else tid
        self.apis.append((int(kind), self.now, self.now + 50, self.pid, thread, corr, api))
        start = max(self.now + 100, self.device_free_at)
        self.kernels.append((start, start + duration, self.device, self.stream, corr, kernel_type, kernel))
        self.device_free_at = start + duration + 20
        self.advance(200)
        return corr

    def orphan_kernel(self, kernel: str, correlation: int = 999_999) -> None:
        start = max(self.now, self.device_free_at)
        self.kernels.append(
            (start, start + 500, self.device, self.stream, correlation, "KERNEL_AIVEC", kernel)
        )
        self.device_free_at = start + 520

    def allreduce(self, duration: int = 3000) -> int:
        self.correlation += 1
        corr = self.correlation
        self.apis.append(
            (int(ActivityKind.API), self.now, self.now + 80, self.pid, self.tid, corr, "HcclAllReduce")
        )
        start = max(self.now + 100, self.device_free_at)
        self.communications.append((start, start + duration, self.device, self.stream, corr))
        self.device_free_at = start + duration + 20
        self.advance(200)
        return corr

    def copy(self, nbytes: int = 4096, stream: int = 0xFFFFFFFF, host_timed: bool = False) -> int:
        """One copy call; returns its correlation id. ``host_timed``: the record is timed around
        the runtime's call, as msPTI's interposed copies are (it starts 20 ns before the call's
        ACL and runtime records and ends 20 ns after them); otherwise it lies inside the call, as
        a device-timed record of a synchronous copy does."""
        self.correlation += 1
        kinds = ((ActivityKind.ACL_API, "aclrtMemcpy"), (ActivityKind.RUNTIME_API, "MemCopySync"))
        for kind, name in kinds if host_timed else kinds[:1]:
            self.apis.append(
                (int(kind), self.now + 20, self.now + 300, self.pid, self.tid, self.correlation, name)
            )
        start, end = (self.now, self.now + 320) if host_timed else (self.now + 40, self.now + 280)
        self.copies.append((2, nbytes, start, end, self.device, stream, self.correlation))
        self.advance(400)
        return self.correlation

    def async_copy(self, nbytes: int = 4096, duration: int = 2000) -> int:
        """An asynchronous copy on the stream, timed on the device after the kernels before it."""
        self.correlation += 1
        for kind, name in (
            (ActivityKind.ACL_API, "aclrtMemcpyAsync"),
            (ActivityKind.RUNTIME_API, "MemcpyAsync"),
        ):
            self.apis.append((int(kind), self.now, self.now + 50, self.pid, self.tid, self.correlation, name))
        start = max(self.now + 100, self.device_free_at)
        self.copies.append(
            (2, nbytes, start, start + duration, self.device, self.stream, self.correlation, 1)
        )
        self.device_free_at = start + duration + 20
        self.advance(200)
        return self.correlation

    def alloc(self, nbytes: int, release: bool = False) -> None:
        self.correlation += 1
        self.memory.append(
            (
                1 if release else 0,
                self.correlation,
                self.now,
                self.now + 30,
                0x1000,
                nbytes,
                self.pid,
                self.device,
            )
        )
        self.advance(50)

    def write(self, directory: Path, meta: dict | None = None) -> Path:
        if meta and meta.get("soc") and "device_properties" not in meta:
            # What `npu-sim trace` records of a simulated SoC, so the exporters can name it.
            meta = {**meta, "device_properties": device_properties(meta["soc"])}
        writer = CaptureWriter(directory, self.pid, meta)
        m = new_records(ActivityKind.MARKER, len(self.markers))
        if self.markers:
            cols = list(zip(*self.markers, strict=True))
            m["flag"], m["source_kind"], m["timestamp"], m["id"] = cols[0], cols[1], cols[2], cols[3]
            m["object_a"], m["object_b"] = cols[4], cols[5]
            m["name"] = writer.strings(list(cols[6]))
            m["domain"] = writer.strings(list(cols[7]))
        writer.add(ActivityKind.MARKER, m)
        by_kind: dict[int, list[tuple]] = {}
        for row in self.apis:
            by_kind.setdefault(row[0], []).append(row)
        for kind, rows in by_kind.items():
            a = new_records(ActivityKind(kind), len(rows))
            cols = list(zip(*rows, strict=True))
            a["start"], a["end"], a["process_id"], a["thread_id"], a["correlation_id"] = cols[1:6]
            a["name"] = writer.strings(list(cols[6]))
            writer.add(ActivityKind(kind), a)
        k = new_records(ActivityKind.KERNEL, len(self.kernels))
        if self.kernels:
            cols = list(zip(*self.kernels, strict=True))
            k["start"], k["end"], k["device_id"], k["stream_id"], k["correlation_id"] = cols[:5]
            k["type"] = writer.strings(list(cols[5]))
            k["name"] = writer.strings(list(cols[6]))
        # Two chunks, as two completed buffers would give.
        writer.add(ActivityKind.KERNEL, k[: len(k) // 2])
        writer.add(ActivityKind.KERNEL, k[len(k) // 2 :])
        if self.copies:
            c = new_records(ActivityKind.MEMCPY, len(self.copies))
            c["is_async"] = [row[7] if len(row) > 7 else 0 for row in self.copies]
            cols = list(zip(*(row[:7] for row in self.copies), strict=True))
            (
                c["copy_kind"],
                c["bytes"],
                c["start"],
                c["end"],
                c["device_id"],
                c["stream_id"],
                c["correlation_id"],
            ) = cols
            writer.add(ActivityKind.MEMCPY, c)
        if self.memory:
            r = new_records(ActivityKind.MEMORY, len(self.memory))
            cols = list(zip(*self.memory, strict=True))
            (
                r["operation_type"],
                r["correlation_id"],
                r["start"],
                r["end"],
                r["address"],
                r["bytes"],
                r["process_id"],
                r["device_id"],
            ) = cols
            r["memory_kind"] = 1
            r["stream_id"] = 0xFFFFFFFF
            writer.add(ActivityKind.MEMORY, r)
        if self.communications:
            x = new_records(ActivityKind.COMMUNICATION, len(self.communications))
            cols = list(zip(*self.communications, strict=True))
            x["start"], x["end"], x["device_id"], x["stream_id"], x["correlation_id"] = cols
            x["data_type"], x["count"] = 4, 1024
            x["name"] = writer.string("hcom_allReduce_")
            x["alg_type"] = writer.string("RING")
            x["comm_name"] = writer.string("comm0")
            writer.add(ActivityKind.COMMUNICATION, x)
        return writer.close()


LAYER_OPS = (
    ("input_norm", None, "RmsNorm", "KERNEL_AIVEC"),
    ("q_proj", "attention", "MatMulV2", "KERNEL_AICORE"),
    ("softmax", "attention", "SoftmaxV2", "KERNEL_AIVEC"),
    ("o_proj", "attention", "MatMulV2", "KERNEL_AICORE"),
    ("gate_proj", "mlp", "MatMulV2", "KERNEL_AICORE"),
    ("act", "mlp", "Silu", "KERNEL_AIVEC"),
    ("down_proj", "mlp", "MatMulV2", "KERNEL_AICORE"),
)


def decoder_step(process: FakeProcess, layers: int, allreduce: bool = False) -> None:
    """One step: embedding stage, ``layers`` decoder layers (attention, mlp), lm_head, runtime copy."""
    with process.range("step"):
        with process.range("embedding"):
            process.launch("aclnnAdd", "Add_embedding", "KERNEL_AIVEC")
        for _layer in range(layers):
            with process.range("layer", "decoder_layers"):
                module: str | None = None
                scope: contextlib.ExitStack | None = None
                for leaf, parent, kernel, kernel_type in LAYER_OPS:
                    if parent != module:
                        if scope is not None:
                            scope.close()
                        scope = contextlib.ExitStack()
                        if parent is not None:
                            scope.enter_context(process.range(parent))
                        module = parent
                    with process.range(leaf):
                        process.launch(f"aclnn{kernel}", f"{kernel}_{leaf}", kernel_type)
                if scope is not None:
                    scope.close()
        with process.range("lm_head"):
            process.launch("aclnnMatmul", "MatMulV2_lm_head")
        if allreduce:
            with process.range("logits_allreduce"):
                process.allreduce()
        with process.range("fetch_logits", "runtime"):
            process.copy()


def decoder_capture(
    directory: Path,
    *,
    layers: int = 3,
    steps: int = 2,
    pid: int = 4242,
    allreduce: bool = False,
    meta: dict | None = None,
) -> FakeProcess:
    """A decoder-like capture: setup (allocations, a copy, one kernel outside any step), ``steps``
    steps, written to ``directory``."""
    process = FakeProcess(pid=pid, tid=pid)
    process.alloc(1 << 20)
    process.alloc(1 << 16)
    process.copy(stream=2)
    process.launch("aclnnCast", "Cast_setup", "KERNEL_AIVEC")
    for _ in range(steps):
        decoder_step(process, layers, allreduce)
    process.alloc(1 << 16, release=True)
    process.write(directory, meta)
    return process


KERNELS_PER_STEP_PER_LAYER = len(LAYER_OPS)


def kernels_per_step(layers: int, allreduce: bool = False) -> int:
    return 2 + layers * KERNELS_PER_STEP_PER_LAYER + (1 if allreduce else 0)
