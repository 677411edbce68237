"""Export of captures in the vocabulary of PyTorch's profiler (Kineto's trace JSON), one file per
rank, which HolisticTraceAnalysis (``TraceAnalysis(trace_dir=...)``), TensorBoard's profiler plugin
and Perfetto read.

Vocabulary (docs/trace.md, "Kineto export"):

- host: ``cpu_op`` (the operator-level API record of a call: NODE_API, else API), the runtime call
  (``privateuse1_runtime``: ACL_API, else RUNTIME_API), ``user_annotation`` (host mstx ranges; the
  top-level ``step`` ranges become ``ProfilerStep#N``), ``cpu_instant_event`` (marks, ``[memory]``);
- device (pid = device id, tid = stream id): ``kernel`` (kernels and communication ops),
  ``gpu_memcpy``, ``gpu_memset``, ``gpu_user_annotation`` (device ranges), ``hccl_op``;
- args ``correlation`` (runtime call <-> device op), ``External id`` (the operator's id, on the
  operator, its runtime call and its device ops), ``device``, ``stream``; flows ``ac2g``;
- top level: ``schemaVersion``, ``deviceProperties`` (SoC catalogue), ``distributedInfo`` (rank,
  world size), ``baseTimeNanoseconds`` (timestamps are microseconds after it, as Kineto writes them).

Records of one call (same thread, correlation id and span) become at most one operator slice and
one runtime slice. HTA recognises launches, communication and memory ops by name; unless
``native_names`` is set, a runtime call that launched a kernel, copy or fill is named after the CUDA
call of that role (``cudaLaunchKernel``, ``cudaMemcpyAsync``, ...) and a communication op gets the
``ncclDevKernel_`` prefix; the CANN names stay in the args (``npu name``).
"""

from __future__ import annotations

import json
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim_runtime.trace.breakdown.forest import build_forest
from sim_runtime.trace.breakdown.options import DEFAULT_DOMAIN, BreakdownError
from sim_runtime.trace.joins import (
    COMMUNICATION_LAUNCH_PREFERENCE,
    KERNEL_LAUNCH_PREFERENCE,
    launchers,
    marker_spans,
)
from sim_runtime.trace.kinds import INVALID_STREAM, ActivityKind
from sim_runtime.trace.reader import Capture, Trace

__all__ = [
    "KINETO_SCHEMA_VERSION",
    "PRIVATEUSE1_DEVICE_TYPE",
    "KinetoExportStats",
    "KinetoOptions",
    "RankFile",
    "export_kineto_traces",
    "plan_ranks",
]

KINETO_SCHEMA_VERSION = 1
#: c10::DeviceType::PrivateUse1, the device type of an NPU in PyTorch's ``[memory]`` events.
PRIVATEUSE1_DEVICE_TYPE = 20
#: Track of a device's copies that carry no stream (synchronous copies), and of its HCCL records.
SYNC_TRACK = 0x7FFF0000
HCCL_TRACK = 0x7FFE0000
#: Track of the capture span (``cat: Trace``) in each host process (no Linux thread has id 0).
SPAN_TRACK = 0
_COPY_NAMES = {
    1: "Memcpy HtoH (Host -> Host)",
    2: "Memcpy HtoD (Host -> Device)",
    3: "Memcpy DtoH (Device -> Host)",
    4: "Memcpy DtoD (Device -> Device)",
}
_OP_KINDS = (ActivityKind.NODE_API, ActivityKind.API)
_RUNTIME_KINDS = (ActivityKind.ACL_API, ActivityKind.RUNTIME_API)
_HCCL_DATA_TYPES = {
    0: "int8",
    1: "int16",
    2: "int32",
    3: "float16",
    4: "float32",
    5: "int64",
    6: "uint64",
    7: "uint8",
    8: "uint16",
    9: "uint32",
    10: "float64",
    11: "bfloat16",
}


@dataclass(frozen=True)
class KinetoOptions:
    flows: bool = True
    #: Keep CANN's names for launches and communication ops (HTA then finds no launches and no
    #: communication kernels).
    native_names: bool = False
    #: Name of the top-level host ranges (default mstx domain) that delimit steps.
    step_range: str = "step"
    #: ``distributedInfo.backend``.
    backend: str = "hccl"


@dataclass(frozen=True)
class RankFile:
    """One rank: the records of process ``pid`` on ``device`` (None: the process used no device)."""

    rank: int
    pid: int
    device: int | None
    path: Path
    events: int = 0
    flows: int = 0


@dataclass
class KinetoExportStats:
    files: list[RankFile] = field(default_factory=list)
    world_size: int = 0
    base_time_ns: int = 0
    by_category: dict[str, int] = field(default_factory=dict)

    @property
    def events(self) -> int:
        return sum(f.events for f in self.files)

    @property
    def flows(self) -> int:
        return sum(f.flows for f in self.files)


# ---------------------------------------------------------------------------------------------------
# Ranks


_DEVICE_OPS = (ActivityKind.KERNEL, ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.COMMUNICATION)


def _preference(kind: ActivityKind) -> tuple[ActivityKind, ...]:
    return COMMUNICATION_LAUNCH_PREFERENCE if kind == ActivityKind.COMMUNICATION else KERNEL_LAUNCH_PREFERENCE


def _meta(kind: str, pid: int, tid: int, **args: object) -> dict:
    return {"ph": "M", "name": kind, "pid": pid, "tid": tid, "args": args}


def _devices_of(capture: Capture) -> list[int]:
    found: set[int] = set()
    for kind in (
        ActivityKind.KERNEL,
        ActivityKind.MEMCPY,
        ActivityKind.MEMSET,
        ActivityKind.COMMUNICATION,
        ActivityKind.HCCL,
        ActivityKind.MEMORY,
    ):
        found.update(np.unique(capture.table(kind)["device_id"]).tolist())
    return sorted(int(d) for d in found)


def _thread_devices(capture: Capture, devices: list[int]) -> dict[int, int]:
    """Each host thread's device: the one most of the operations it launched ran on (ties: the
    lowest); threads that launched nothing go with the lowest device."""
    votes: dict[int, Counter[int]] = {}
    for kind in _DEVICE_OPS:
        records = capture.table(kind)
        found = launchers(capture, _preference(kind))
        index = found.find(records["correlation_id"])
        hit = index >= 0
        for tid, device in zip(
            found.records["thread_id"][index[hit]].tolist(), records["device_id"][hit].tolist(), strict=True
        ):
            votes.setdefault(int(tid), Counter())[int(device)] += 1
    threads = {int(t) for t in np.unique(capture.apis()["thread_id"]).tolist()}
    threads.update(int(t) for t in np.unique(marker_spans(capture).ranges["object_b"]).tolist())
    result = {}
    for tid in threads:
        counted = votes.get(tid)
        result[tid] = min(counted, key=lambda d: (-counted[d], d)) if counted else devices[0]
    return result


def plan_ranks(trace: Trace, out_dir: Path) -> list[RankFile]:
    """One rank per (process, device) pair, ordered by device then pid; a process that used no
    device is one rank of its own."""
    pairs: list[tuple[int, int, int | None]] = []
    for capture in trace.captures:
        devices = _devices_of(capture)
        for device in devices or [None]:
            pairs.append((-1 if device is None else device, capture.pid, device))
    pairs.sort()
    return [
        RankFile(
            rank=rank,
            pid=pid,
            device=device,
            path=out_dir / f"rank{rank}_pid{pid}{'' if device is None else f'_npu{device}'}.pt.trace.json",
        )
        for rank, (_, pid, device) in enumerate(pairs)
    ]


# ---------------------------------------------------------------------------------------------------
# Events


def _base_time(trace: Trace) -> int:
    """The whole second before the earliest record: timestamps stay exact in a double."""
    lows = []
    for capture in trace.captures:
        for kind, array in capture.records.items():
            column = "timestamp" if kind == ActivityKind.MARKER else "start"
            if len(array) and column in (array.dtype.names or ()):
                values = array[column]
                values = values[values > 0]
                if len(values):
                    lows.append(int(values.min()))
    return (min(lows) // 1_000_000_000) * 1_000_000_000 if lows else 0


def _cbid(name: str) -> int:
    """A stable id for an API name (msPTI records carry no callback id): CRC-32 of the name."""
    return zlib.crc32(name.encode("utf-8"))


@dataclass
class _Call:
    """The records of one API call (same thread, correlation id and span)."""

    tid: int
    correlation: int
    start: int
    end: int
    names: dict[ActivityKind, str]

    @property
    def op_name(self) -> str | None:
        return next((self.names[k] for k in _OP_KINDS if k in self.names), None)

    @property
    def runtime_name(self) -> str | None:
        return next((self.names[k] for k in _RUNTIME_KINDS if k in self.names), None)


def _calls(capture: Capture) -> tuple[list[_Call], dict[tuple[int, int, int, int], int]]:
    apis = capture.apis()
    if len(apis) == 0:
        return [], {}
    order = np.lexsort((apis["kind"], apis["end"], apis["start"], apis["correlation_id"], apis["thread_id"]))
    apis = apis[order]
    strings = capture.strings
    calls: list[_Call] = []
    keys: dict[tuple[int, int, int, int], int] = {}
    for kind, name, tid, corr, start, end in zip(
        apis["kind"].tolist(),
        apis["name"].tolist(),
        apis["thread_id"].tolist(),
        apis["correlation_id"].tolist(),
        apis["start"].tolist(),
        apis["end"].tolist(),
        strict=True,
    ):
        key = (tid, corr, start, end)
        index = keys.get(key)
        if index is None:
            index = keys[key] = len(calls)
            calls.append(_Call(tid, corr, start, end, {}))
        calls[index].names.setdefault(ActivityKind(kind), str(strings[name]))
    calls.sort(key=lambda c: (c.start, -(c.end - c.start), c.tid, c.correlation))
    keys = {(c.tid, c.correlation, c.start, c.end): i for i, c in enumerate(calls)}
    return calls, keys


def _launching_calls(
    capture: Capture, kind: ActivityKind, records: np.ndarray, keys: dict[tuple[int, int, int, int], int]
) -> list[int]:
    """For each record of ``kind``, the index of the call that launched it (-1: none)."""
    found = launchers(capture, _preference(kind))
    index = found.find(records["correlation_id"])
    result = []
    chosen = found.records
    for i in index.tolist():
        if i < 0:
            result.append(-1)
            continue
        row = chosen[i]
        key = (int(row["thread_id"]), int(row["correlation_id"]), int(row["start"]), int(row["end"]))
        result.append(keys.get(key, -1))
    return result


def _role_name(kind: ActivityKind, asynchronous: bool) -> str:
    if kind == ActivityKind.KERNEL:
        return "cudaLaunchKernel"
    if kind == ActivityKind.MEMCPY:
        return "cudaMemcpyAsync" if asynchronous else "cudaMemcpy"
    return "cudaMemsetAsync" if asynchronous else "cudaMemset"


class _RankWriter:
    def __init__(self, capture: Capture, rank: RankFile, base: int, options: KinetoOptions) -> None:
        self.c = capture
        self.rank = rank
        self.base = base
        self.options = options
        self.events: list[dict] = []
        self.flows = 0
        self.threads: set[int] = set()
        self.streams: set[int] = set()

    def us(self, ns: int) -> float:
        return round((ns - self.base) / 1000.0, 3)

    @staticmethod
    def dur(start: int, end: int) -> float:
        return round(max(end - start, 0) / 1000.0, 3)

    def keep_device(self, devices: np.ndarray) -> np.ndarray:
        if self.rank.device is None:
            return np.zeros(len(devices), dtype=bool)
        return devices.astype(np.int64) == self.rank.device

    def build(self, thread_device: dict[int, int]) -> None:
        capture, device = self.c, self.rank.device
        mine = {t for t, d in thread_device.items() if device is None or d == device}
        calls, keys = _calls(capture)
        # Device operations of this rank and the calls that launched them.
        launched: dict[int, list[tuple[ActivityKind, bool]]] = {}
        device_ops: list[tuple[ActivityKind, np.ndarray, list[int]]] = []
        for kind in _DEVICE_OPS:
            records = capture.table(kind)
            records = records[self.keep_device(records["device_id"])]
            callers = _launching_calls(capture, kind, records, keys)
            asynchronous = (
                records["is_async"].astype(bool).tolist()
                if "is_async" in (records.dtype.names or ())
                else [True] * len(records)
            )
            for caller, is_async in zip(callers, asynchronous, strict=True):
                if caller >= 0:
                    launched.setdefault(caller, []).append((kind, bool(is_async)))
            device_ops.append((kind, records, callers))
        self.host_calls(calls, mine, launched)
        self.host_ranges(mine)
        self.memory(mine)
        for kind, records, callers in device_ops:
            self.device_records(kind, records, callers, calls)
        self.hccl_records()
        self.device_ranges()

    # -- host ----------------------------------------------------------------------------------

    def host_calls(self, calls: list[_Call], mine: set[int], launched: dict[int, list]) -> None:
        pid = self.rank.pid
        # msPTI can give one correlation id to several calls (a call and the queries it makes):
        # only the call that launched a device operation, or the only call with its id, carries
        # it as "correlation", which consumers join on.
        sharing = Counter(call.correlation for call in calls)
        for index, call in enumerate(calls):
            if call.tid not in mine:
                continue
            self.threads.add(call.tid)
            op, runtime = call.op_name, call.runtime_name
            ops = launched.get(index, [])
            ts, dur = self.us(call.start), self.dur(call.start, call.end)
            others = {k.name.lower(): n for k, n in sorted(call.names.items())}
            if op is not None:
                args: dict[str, object] = {"External id": call.correlation}
                if runtime is None and ops:
                    args["correlation"] = call.correlation
                args["npu api"] = others
                slice_ = {"ph": "X", "cat": "cpu_op", "name": op, "pid": pid, "tid": call.tid}
                self.events.append(slice_ | {"ts": ts, "dur": dur, "args": args})
            if runtime is not None:
                name = runtime
                device_kinds = [k for k, _ in ops if k != ActivityKind.COMMUNICATION]
                if device_kinds and not self.options.native_names:
                    asynchronous = any(a for k, a in ops if k == device_kinds[0])
                    name = _role_name(device_kinds[0], asynchronous)
                args = {"cbid": _cbid(runtime)}
                if ops or sharing[call.correlation] == 1:
                    args["correlation"] = call.correlation
                else:
                    args["npu correlation id"] = call.correlation
                if op is not None:
                    args["External id"] = call.correlation
                args["npu name"] = runtime
                if op is None:
                    args["npu api"] = others
                self.events.append(
                    {
                        "ph": "X",
                        "cat": "privateuse1_runtime",
                        "name": name,
                        "pid": pid,
                        "tid": call.tid,
                        "ts": ts,
                        "dur": dur,
                        "args": args,
                    }
                )

    def host_ranges(self, mine: set[int]) -> None:
        capture, pid = self.c, self.rank.pid
        spans = marker_spans(capture)
        steps = self.step_ranges()
        strings = capture.strings
        host = spans.ranges[spans.ranges["source_kind"] == 0]
        for row in host:
            tid = int(row["object_b"])
            if tid not in mine:
                continue
            self.threads.add(tid)
            start, end = int(row["start"]), int(row["end"])
            name = str(strings[row["name"]])
            args: dict[str, object] = {"domain": str(strings[row["domain"]]) or DEFAULT_DOMAIN}
            step = steps.get((tid, start, end, int(row["id"])))
            if step is not None:
                args["mstx name"] = name
                name = f"ProfilerStep#{step}"
            args["range id"] = int(row["id"])
            self.events.append(
                {
                    "ph": "X",
                    "cat": "user_annotation",
                    "name": name,
                    "pid": pid,
                    "tid": tid,
                    "ts": self.us(start),
                    "dur": self.dur(start, end),
                    "args": args,
                }
            )
        instants = spans.instants[spans.instants["source_kind"] == 0]
        for row in instants:
            tid = int(row["object_b"])
            if tid not in mine:
                continue
            self.threads.add(tid)
            name = str(strings[row["name"]]) or f"mark {int(row['id'])}"
            domain = str(strings[row["domain"]]) or DEFAULT_DOMAIN
            self.events.append(
                {
                    "ph": "i",
                    "s": "t",
                    "cat": "cpu_instant_event",
                    "name": name,
                    "pid": pid,
                    "tid": tid,
                    "ts": self.us(int(row["timestamp"])),
                    "args": {"domain": domain, "mark id": int(row["id"])},
                }
            )

    def step_ranges(self) -> dict[tuple[int, int, int, int], int]:
        """(tid, start, end, range id) of each top-level step range -> its step number."""
        try:
            forest, _ = build_forest(self.c)
        except BreakdownError:
            return {}
        found = []
        for i in range(len(forest.ranges)):
            if (
                forest.parent[i] < 0
                and forest.names[i] == self.options.step_range
                and forest.domains[i] == DEFAULT_DOMAIN
            ):
                row = forest.ranges[i]
                found.append((int(row["start"]), int(row["object_b"]), int(row["end"]), int(row["id"])))
        found.sort()
        return {(tid, start, end, rid): n for n, (start, tid, end, rid) in enumerate(found)}

    def memory(self, mine: set[int]) -> None:
        memory = self.c.table(ActivityKind.MEMORY)
        memory = memory[self.keep_device(memory["device_id"])]
        if len(memory) == 0:
            return
        memory = memory[np.argsort(memory["start"], kind="stable")]
        tid = self.rank.pid if self.rank.pid in mine or not mine else min(mine)
        self.threads.add(tid)
        total = 0
        for op, start, address, nbytes in zip(
            memory["operation_type"].tolist(),
            memory["start"].tolist(),
            memory["address"].tolist(),
            memory["bytes"].tolist(),
            strict=True,
        ):
            signed = nbytes if op == 0 else -nbytes
            total += signed
            self.events.append(
                {
                    "ph": "i",
                    "s": "t",
                    "cat": "cpu_instant_event",
                    "name": "[memory]",
                    "pid": self.rank.pid,
                    "tid": tid,
                    "ts": self.us(start),
                    "args": {
                        "Device Type": PRIVATEUSE1_DEVICE_TYPE,
                        "Device Id": self.rank.device,
                        "Addr": address,
                        "Bytes": signed,
                        "Total Allocated": total,
                    },
                }
            )

    # -- device --------------------------------------------------------------------------------

    def device_records(
        self, kind: ActivityKind, records: np.ndarray, callers: list[int], calls: list[_Call]
    ) -> None:
        strings = self.c.strings
        device = self.rank.device
        names = records.dtype.names or ()
        for i, row in enumerate(records):
            stream = int(row["stream_id"])
            track = SYNC_TRACK if stream == INVALID_STREAM else stream
            self.streams.add(track)
            start, end = int(row["start"]), int(row["end"])
            caller = callers[i]
            args: dict[str, object] = {}
            if caller >= 0 and calls[caller].op_name is not None:
                args["External id"] = calls[caller].correlation
            args |= {"device": device, "stream": stream, "correlation": int(row["correlation_id"])}
            if kind == ActivityKind.KERNEL:
                cat, name = "kernel", str(strings[row["name"]])
                args["kernel type"] = str(strings[row["type"]])
            elif kind == ActivityKind.COMMUNICATION:
                native = str(strings[row["name"]])
                cat = "kernel"
                name = native if self.options.native_names else f"ncclDevKernel_{native}"
                args |= {
                    "npu name": native,
                    "Collective name": native,
                    "Process Group Name": str(strings[row["comm_name"]]),
                    "algorithm": str(strings[row["alg_type"]]),
                    "In msg nelems": int(row["count"]),
                    "Out msg nelems": int(row["count"]),
                    "dtype": _HCCL_DATA_TYPES.get(int(row["data_type"]), str(int(row["data_type"]))),
                }
            else:
                nbytes = int(row["bytes"])
                seconds = max(end - start, 0) / 1e9
                if kind == ActivityKind.MEMCPY:
                    cat, name = "gpu_memcpy", _COPY_NAMES.get(int(row["copy_kind"]), "Memcpy")
                else:
                    cat, name = "gpu_memset", "Memset (Device)"
                args |= {
                    "bytes": nbytes,
                    "memory bandwidth (GB/s)": round(nbytes / seconds / 1e9, 6) if seconds else 0.0,
                    "async": bool(row["is_async"]) if "is_async" in names else True,
                }
            ts = self.us(start)
            self.events.append(
                {
                    "ph": "X",
                    "cat": cat,
                    "name": name,
                    "pid": device,
                    "tid": track,
                    "ts": ts,
                    "dur": self.dur(start, end),
                    "args": args,
                }
            )
            if caller >= 0 and self.options.flows:
                call = calls[caller]
                self.flows += 1
                self.events.append(
                    {
                        "ph": "s",
                        "id": self.flows,
                        "pid": self.rank.pid,
                        "tid": call.tid,
                        "ts": self.us(call.start),
                        "cat": "ac2g",
                        "name": "ac2g",
                    }
                )
                self.events.append(
                    {
                        "ph": "f",
                        "id": self.flows,
                        "pid": device,
                        "tid": track,
                        "ts": ts,
                        "cat": "ac2g",
                        "name": "ac2g",
                        "bp": "e",
                    }
                )

    def hccl_records(self) -> None:
        records = self.c.table(ActivityKind.HCCL)
        records = records[self.keep_device(records["device_id"])]
        strings = self.c.strings
        for row in records:
            track = HCCL_TRACK + (int(row["stream_id"]) & 0xFFFF)
            self.streams.add(track)
            start, end = int(row["start"]), int(row["end"])
            bandwidth = float(np.nan_to_num(row["bandwidth"], nan=0.0, posinf=0.0, neginf=0.0))
            # No "stream" arg: an HCCL record is the span of a collective as HCCL reports it, not a
            # device task (its COMMUNICATION record is); consumers must not count it as device time.
            self.events.append(
                {
                    "ph": "X",
                    "cat": "hccl_op",
                    "name": str(strings[row["name"]]),
                    "pid": self.rank.device,
                    "tid": track,
                    "ts": self.us(start),
                    "dur": self.dur(start, end),
                    "args": {
                        "device": self.rank.device,
                        "hccl stream": int(row["stream_id"]),
                        "Process Group Name": str(strings[row["comm_name"]]),
                        "bandwidth (GB/s)": bandwidth,
                    },
                }
            )

    def device_ranges(self) -> None:
        spans = marker_spans(self.c)
        ranges = spans.ranges[spans.ranges["source_kind"] == 1]
        ranges = ranges[self.keep_device(ranges["object_a"])]
        for row in ranges:
            stream = int(row["object_b"])
            track = SYNC_TRACK if stream == INVALID_STREAM else stream
            self.streams.add(track)
            start, end = int(row["start"]), int(row["end"])
            self.events.append(
                {
                    "ph": "X",
                    "cat": "gpu_user_annotation",
                    "name": f"range {int(row['id'])}",
                    "pid": self.rank.device,
                    "tid": track,
                    "ts": self.us(start),
                    "dur": self.dur(start, end),
                    "args": {"device": self.rank.device, "range id": int(row["id"])},
                }
            )

    # -- framing -------------------------------------------------------------------------------

    def span(self) -> dict | None:
        slices = [e for e in self.events if e["ph"] in ("X", "i")]
        if not slices:
            return None
        low = min(e["ts"] for e in slices)
        high = max(e["ts"] + e.get("dur", 0.0) for e in slices)
        return {
            "ph": "X",
            "cat": "Trace",
            "name": "npu-sim trace (0)",
            "pid": self.rank.pid,
            "tid": SPAN_TRACK,
            "ts": low,
            "dur": round(high - low, 3),
            "args": {"Op count": sum(1 for e in slices if e["cat"] == "cpu_op")},
        }

    def metadata(self) -> Iterator[dict]:
        argv = self.c.meta.get("argv") or []
        program = Path(argv[0]).name if argv else "process"
        pid, device = self.rank.pid, self.rank.device
        yield _meta("process_name", pid, 0, name=program)
        yield _meta("process_labels", pid, 0, labels="CPU")
        yield _meta("process_sort_index", pid, 0, sort_index=0)
        yield _meta("thread_name", pid, SPAN_TRACK, name="capture span")
        for tid in sorted(self.threads):
            yield _meta("thread_name", pid, tid, name=f"thread {tid}")
        if device is None:
            return
        yield _meta("process_name", device, 0, name=f"NPU {device}")
        yield _meta("process_labels", device, 0, labels=f"NPU {device}")
        yield _meta("process_sort_index", device, 0, sort_index=0x1000000 + device)
        for track in sorted(self.streams):
            if track == SYNC_TRACK:
                label = "synchronous copies"
            elif HCCL_TRACK <= track < SYNC_TRACK:
                label = f"stream {track - HCCL_TRACK} HCCL"
            else:
                label = f"stream {track}"
            yield _meta("thread_name", device, track, name=label)
            yield _meta("thread_sort_index", device, track, sort_index=track)


def _device_properties(capture: Capture, device: int | None) -> list[dict]:
    if device is None:
        return []
    entry: dict[str, object] = {"id": device}
    name = capture.meta.get("soc")
    if name:
        entry["name"] = name
        try:
            from sim_runtime.soc import default_catalogue

            spec = default_catalogue().get(name)
        except (ValueError, OSError):
            spec = None
        if spec is not None:
            entry |= {
                "totalGlobalMem": spec.memory_bytes,
                "chipType": spec.chip_type,
                "family": spec.family,
                "aicCores": spec.aic,
                "aivCores": spec.aiv,
                "aicpuCores": spec.aicpu,
                "clockRateMHz": spec.cube_mhz,
                "l2CacheBytes": spec.l2_bytes,
                "hbmBandwidthGBps": spec.hbm_gbps,
            }
    return [entry]


def _order(event: dict) -> tuple:
    """Deterministic order: metadata first, then by time, longer slices first (parents before
    children), flow starts after the slices they bind to."""
    phase = event["ph"]
    rank = {"M": 0, "X": 1, "i": 2, "s": 3, "f": 3}[phase]
    if phase == "M":
        return (0, 0.0, 0.0, event["pid"], event.get("tid", 0), event["name"])
    return (1, event["ts"], -event.get("dur", 0.0), rank, event["pid"], event.get("tid", 0), event["name"])


def export_kineto_traces(
    trace: Trace, out_dir: Path | str, options: KinetoOptions | None = None
) -> KinetoExportStats:
    """Writes one Kineto trace JSON per rank into ``out_dir`` (created; stale ``*.pt.trace.json``
    files there are removed, so that the directory holds exactly one file per rank)."""
    options = options or KinetoOptions()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.pt.trace.json"):
        stale.unlink()
    base = _base_time(trace)
    ranks = plan_ranks(trace, out)
    stats = KinetoExportStats(world_size=len(ranks), base_time_ns=base)
    captures = {c.pid: c for c in trace.captures}
    thread_devices: dict[int, dict[int, int]] = {}
    for rank in ranks:
        capture = captures[rank.pid]
        if rank.pid not in thread_devices:
            devices = _devices_of(capture)
            thread_devices[rank.pid] = _thread_devices(capture, devices) if devices else {}
        writer = _RankWriter(capture, rank, base, options)
        writer.build(thread_devices[rank.pid] or {t: -1 for t in _all_threads(capture)})
        events = sorted(writer.events, key=_order)
        span = writer.span()
        if span is not None:
            events.insert(0, span)
        events = list(writer.metadata()) + events
        for event in events:
            if event["ph"] in ("X", "i"):
                stats.by_category[event["cat"]] = stats.by_category.get(event["cat"], 0) + 1
        _write(rank.path, events, capture, rank, len(ranks), base, options)
        stats.files.append(
            RankFile(rank.rank, rank.pid, rank.device, rank.path, events=len(events), flows=writer.flows)
        )
    return stats


def _all_threads(capture: Capture) -> set[int]:
    threads = {int(t) for t in np.unique(capture.apis()["thread_id"]).tolist()}
    threads.update(int(t) for t in np.unique(marker_spans(capture).ranges["object_b"]).tolist())
    threads.add(capture.pid)
    return threads


def _write(
    path: Path,
    events: list[dict],
    capture: Capture,
    rank: RankFile,
    world_size: int,
    base: int,
    options: KinetoOptions,
) -> None:
    # distributedInfo comes first and on one line: HTA finds a file's rank with a line-by-line
    # search for '"rank": N' before it parses the file.
    distributed = {"backend": options.backend, "rank": rank.rank, "world_size": world_size}
    other = {
        "exporter": "npu-sim trace export --format kineto",
        "pid": capture.pid,
        "soc": capture.meta.get("soc"),
        "clock": capture.meta.get("clock"),
        "names": "native" if options.native_names else "role names for launches and communication",
    }
    with path.open("w", encoding="utf-8") as handle:
        handle.write("{\n")
        handle.write(f'  "distributedInfo": {json.dumps(distributed)},\n')
        handle.write(f'  "schemaVersion": {KINETO_SCHEMA_VERSION},\n')
        handle.write(f'  "deviceProperties": {json.dumps(_device_properties(capture, rank.device))},\n')
        handle.write(f'  "otherData": {json.dumps(other)},\n')
        handle.write('  "displayTimeUnit": "ms",\n')
        handle.write(f'  "baseTimeNanoseconds": {base},\n')
        handle.write('  "traceEvents": [')
        handle.write(",".join("\n  " + json.dumps(e, separators=(",", ":")) for e in events))
        handle.write("\n  ],\n")
        handle.write(f'  "traceName": {json.dumps(path.name)}\n')
        handle.write("}\n")
