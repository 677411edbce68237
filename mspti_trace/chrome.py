"""Export of captures to the Chrome trace event format (JSON), which Perfetto and chrome://tracing
load.

Layout: one process per host process (one slice per call and host markers on one track per
thread; a copy or fill timed on the host is part of its call, see mspti_trace.calls) and one
process per device (tracks per stream for kernels, device-timed copies and fills, device markers;
separate tracks per stream for HCCL and communication records; one track for device-timed copies
without a stream). Flow
arrows join each API call to the device operations it launched (same correlation id); a counter
per device shows the memory allocated (MEMORY records).

The events are formatted from numpy columns in bulk and streamed to the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mspti_trace.calls import NAME_COLUMNS, OUTER_TO_INNER, host_calls
from mspti_trace.joins import (
    COMMUNICATION_LAUNCH_PREFERENCE,
    KERNEL_LAUNCH_PREFERENCE,
    launchers,
    marker_spans,
)
from mspti_trace.json_stream import JsonArrayStream
from mspti_trace.kinds import INVALID_STREAM, KIND_NAMES, ActivityKind
from mspti_trace.reader import Capture, Trace

__all__ = [
    "COMM_LANE",
    "DEVICE_PID_BASE",
    "HCCL_LANE",
    "LANE_STRIDE",
    "SYNC_LANE",
    "ChromeExportStats",
    "device_pid",
    "export_chrome_trace",
]

#: Device d appears as process DEVICE_PID_BASE + d (above any Linux pid).
DEVICE_PID_BASE = 0x40000000
#: Track ids inside a device process: a stream's own id for its compute track, these bases plus the
#: stream id for its HCCL and communication tracks, and one track for copies without a stream.
HCCL_LANE = 0x10000000
COMM_LANE = 0x20000000
SYNC_LANE = 0x30000000
#: When several processes use one device, the tracks of the n-th capture are offset by n strides
#: (the simulator models the device per process, so their operations may overlap).
LANE_STRIDE = 0x100000
_LANE_KIND = 0x30000000
#: Host track of copies and fills timed on the host that no API record shares a correlation id
#: with (above any Linux thread id).
HOST_UNMATCHED_TRACK = 0x3FFFFFFF
_COPY_KINDS = {
    0: "Memcpy",
    1: "Memcpy HtoH",
    2: "Memcpy HtoD",
    3: "Memcpy DtoH",
    4: "Memcpy DtoD",
    5: "Memcpy",
}


def device_pid(device_id: int) -> int:
    return DEVICE_PID_BASE + device_id


@dataclass
class ChromeExportStats:
    events: int = 0
    flows: int = 0
    by_category: dict[str, int] = field(default_factory=dict)
    time_base_ns: int = 0

    def add(self, category: str, count: int) -> None:
        self.by_category[category] = self.by_category.get(category, 0) + count
        self.events += count


def _time_base(trace: Trace) -> int:
    lows = []
    for capture in trace.captures:
        for kind, array in capture.records.items():
            if len(array) == 0:
                continue
            if kind == ActivityKind.MARKER:
                lows.append(int(array["timestamp"].min()))
            elif "start" in (array.dtype.names or ()):
                starts = array["start"]
                starts = starts[starts > 0]
                if len(starts):
                    lows.append(int(starts.min()))
    return min(lows) if lows else 0


def _us(values: np.ndarray, base: int) -> list[float]:
    return ((values.astype(np.int64) - base) / 1000.0).tolist()


def _dur(start: np.ndarray, end: np.ndarray) -> list[float]:
    return (np.maximum(end.astype(np.int64) - start.astype(np.int64), 0) / 1000.0).tolist()


class _Exporter:
    def __init__(
        self,
        capture: Capture,
        base: int,
        stats: ChromeExportStats,
        writer: JsonArrayStream,
        flow_base: int,
        position: int,
    ):
        self.c = capture
        self.offset = position * LANE_STRIDE
        self.base = base
        self.stats = stats
        self.w = writer
        self.names = [json.dumps(text) for text in capture.strings.tolist()]
        self.flow_id = flow_base
        self.device_lanes: dict[int, set[int]] = {}
        self.host_threads: set[int] = set()
        self.calls = host_calls(capture)

    def lane(self, streams: np.ndarray, kind: int = 0) -> np.ndarray:
        """Track ids of ``streams`` for tracks of ``kind`` (0, HCCL_LANE or COMM_LANE)."""
        streams = streams.astype(np.int64)
        lanes = kind + self.offset + (streams % LANE_STRIDE)
        if kind == 0:
            lanes = np.where(streams == INVALID_STREAM, SYNC_LANE + self.offset, lanes)
        return lanes

    def _lanes(self, devices: np.ndarray, lanes: np.ndarray) -> None:
        if len(devices) == 0:
            return
        pairs = np.unique(np.stack([devices.astype(np.int64), lanes.astype(np.int64)], axis=1), axis=0)
        for device, lane in pairs.tolist():
            self.device_lanes.setdefault(device, set()).add(lane)

    def api_events(self) -> None:
        """One slice per call (its records share thread, correlation id and span), named after its
        outermost kind; the other records and a host-timed copy or fill are listed in its args."""
        calls = self.calls.records
        pid = self.c.pid
        names = self.names
        self.host_threads.update(np.unique(calls["thread_id"]).tolist())
        extra = [(KIND_NAMES[kind], calls[NAME_COLUMNS[kind]].tolist()) for kind in OUTER_TO_INNER]
        copies, fills = self.c.table(ActivityKind.MEMCPY), self.c.table(ActivityKind.MEMSET)
        copy_rows, fill_rows = calls["memcpy"].tolist(), calls["memset"].tolist()

        def args(i: int, correlation: int) -> str:
            listed = ",".join(f'"{label}":{names[column[i]]}' for label, column in extra if column[i])
            text = f'"correlation_id":{correlation},"records":{{{listed}}}'
            if copy_rows[i] >= 0:
                row = copies[copy_rows[i]]
                title = _COPY_KINDS.get(int(row["copy_kind"]), "Memcpy")
                text += f',"memcpy":{{"kind":"{title}","bytes":{int(row["bytes"])},"host_timed":true}}'
            if fill_rows[i] >= 0:
                text += f',"memset":{{"bytes":{int(fills[fill_rows[i]]["bytes"])},"host_timed":true}}'
            return text

        kinds = self.calls.outer_kinds()
        self.w.write(
            f'{{"ph":"X","cat":"{KIND_NAMES[ActivityKind(k)]}","name":{names[n]},"pid":{pid},"tid":{t},'
            f'"ts":{s:.3f},"dur":{d:.3f},"args":{{{args(i, c)}}}}}'
            for i, (k, n, t, s, d, c) in enumerate(
                zip(
                    kinds.tolist(),
                    self.calls.outer_names().tolist(),
                    calls["thread_id"].tolist(),
                    _us(calls["start"], self.base),
                    _dur(calls["start"], calls["end"]),
                    calls["correlation_id"].tolist(),
                    strict=True,
                )
            )
        )
        self.stats.add("api", len(calls))
        self.unmatched_copies()

    def unmatched_copies(self) -> None:
        """Host-timed copies and fills that no API record shares a correlation id with: on a host
        track of their own (no record says which thread made them)."""
        for kind, clocks, label in (
            (ActivityKind.MEMCPY, self.calls.copies, "memcpy"),
            (ActivityKind.MEMSET, self.calls.fills, "memset"),
        ):
            records = self.c.table(kind)[clocks.host_timed & (clocks.call < 0)]
            if len(records) == 0:
                continue
            self.host_threads.add(HOST_UNMATCHED_TRACK)
            if kind == ActivityKind.MEMCPY:
                titles = [json.dumps(_COPY_KINDS.get(k, "Memcpy")) for k in records["copy_kind"].tolist()]
            else:
                titles = ['"Memset"'] * len(records)
            self.w.write(
                f'{{"ph":"X","cat":"{label}","name":{title},"pid":{self.c.pid},"tid":{HOST_UNMATCHED_TRACK},'
                f'"ts":{s:.3f},"dur":{u:.3f},"args":{{"bytes":{b},"host_timed":true,"correlation_id":{c}}}}}'
                for title, s, u, b, c in zip(
                    titles,
                    _us(records["start"], self.base),
                    _dur(records["start"], records["end"]),
                    records["bytes"].tolist(),
                    records["correlation_id"].tolist(),
                    strict=True,
                )
            )
            self.stats.add(label, len(records))

    def device_table(self, kind: ActivityKind) -> np.ndarray:
        """The records of ``kind`` drawn on device tracks: copies and fills only when they carry
        device time."""
        records = self.c.table(kind)
        if kind == ActivityKind.MEMCPY:
            return records[self.calls.copies.device_timed]
        if kind == ActivityKind.MEMSET:
            return records[self.calls.fills.device_timed]
        return records

    def _device_ops(self, kind: ActivityKind) -> tuple[np.ndarray, np.ndarray]:
        """The records of ``kind`` and their track ids."""
        records = self.device_table(kind)
        base = {ActivityKind.HCCL: HCCL_LANE, ActivityKind.COMMUNICATION: COMM_LANE}.get(kind, 0)
        lanes = self.lane(records["stream_id"], base)
        self._lanes(records["device_id"], lanes)
        return records, lanes

    def _span_columns(
        self, records: np.ndarray, lanes: np.ndarray
    ) -> tuple[list[int], list[int], list[float], list[float]]:
        """The columns every device op's event has: device, track, start and duration (us)."""
        start, end = records["start"], records["end"]
        return records["device_id"].tolist(), lanes.tolist(), _us(start, self.base), _dur(start, end)

    def device_events(self) -> None:
        names = self.names
        kernels, lanes = self._device_ops(ActivityKind.KERNEL)
        self.w.write(
            f'{{"ph":"X","cat":"kernel","name":{names[n]},"pid":{DEVICE_PID_BASE + d},"tid":{t},"ts":{s:.3f},'
            f'"dur":{u:.3f},"args":{{"type":{names[y]},"correlation_id":{c}}}}}'
            for n, d, t, s, u, y, c in zip(
                kernels["name"].tolist(),
                *self._span_columns(kernels, lanes),
                kernels["type"].tolist(),
                kernels["correlation_id"].tolist(),
                strict=True,
            )
        )
        self.stats.add("kernel", len(kernels))
        for kind, label in ((ActivityKind.MEMCPY, "memcpy"), (ActivityKind.MEMSET, "memset")):
            records, lanes = self._device_ops(kind)
            if kind == ActivityKind.MEMCPY:
                titles = [json.dumps(_COPY_KINDS.get(k, "Memcpy")) for k in records["copy_kind"].tolist()]
            else:
                titles = ['"Memset"'] * len(records)
            self.w.write(
                f'{{"ph":"X","cat":"{label}","name":{title},"pid":{DEVICE_PID_BASE + d},"tid":{t},'
                f'"ts":{s:.3f},"dur":{u:.3f},"args":{{"bytes":{b},"async":{a},"correlation_id":{c}}}}}'
                for title, d, t, s, u, b, a, c in zip(
                    titles,
                    *self._span_columns(records, lanes),
                    records["bytes"].tolist(),
                    records["is_async"].tolist(),
                    records["correlation_id"].tolist(),
                    strict=True,
                )
            )
            self.stats.add(label, len(records))
        records, lanes = self._device_ops(ActivityKind.COMMUNICATION)
        self.w.write(
            f'{{"ph":"X","cat":"communication","name":{names[n]},"pid":{DEVICE_PID_BASE + d},"tid":{t},'
            f'"ts":{s:.3f},"dur":{u:.3f},"args":{{"comm_name":{names[g]},"alg_type":{names[a]},'
            f'"data_type":{y},"count":{k},"correlation_id":{c}}}}}'
            for n, d, t, s, u, g, a, y, k, c in zip(
                records["name"].tolist(),
                *self._span_columns(records, lanes),
                records["comm_name"].tolist(),
                records["alg_type"].tolist(),
                records["data_type"].tolist(),
                records["count"].tolist(),
                records["correlation_id"].tolist(),
                strict=True,
            )
        )
        self.stats.add("communication", len(records))
        records, lanes = self._device_ops(ActivityKind.HCCL)
        self.w.write(
            f'{{"ph":"X","cat":"hccl","name":{names[n]},"pid":{DEVICE_PID_BASE + d},"tid":{t},"ts":{s:.3f},'
            f'"dur":{u:.3f},"args":{{"comm_name":{names[g]},"bandwidth_gbps":{b!r}}}}}'
            for n, d, t, s, u, g, b in zip(
                records["name"].tolist(),
                *self._span_columns(records, lanes),
                records["comm_name"].tolist(),
                np.nan_to_num(records["bandwidth"], nan=0.0, posinf=0.0, neginf=0.0).tolist(),
                strict=True,
            )
        )
        self.stats.add("hccl", len(records))

    def flow_events(self) -> None:
        kernel_launchers = launchers(self.c, KERNEL_LAUNCH_PREFERENCE)
        if len(kernel_launchers.records) == 0:
            return
        comm_launchers = launchers(self.c, COMMUNICATION_LAUNCH_PREFERENCE)
        pid = self.c.pid
        for kind in (
            ActivityKind.KERNEL,
            ActivityKind.MEMCPY,
            ActivityKind.MEMSET,
            ActivityKind.COMMUNICATION,
        ):
            found = comm_launchers if kind == ActivityKind.COMMUNICATION else kernel_launchers
            records = self.device_table(kind)
            if len(records) == 0:
                continue
            index = found.find(records["correlation_id"])
            hit = index >= 0
            if not hit.any():
                continue
            targets = records[hit]
            apis = found.records[index[hit]]
            lanes = self.lane(targets["stream_id"], COMM_LANE if kind == ActivityKind.COMMUNICATION else 0)
            ids = range(self.flow_id, self.flow_id + len(targets))
            self.flow_id += len(targets)
            self.w.write(
                line
                for i, t, s, d, lane, ks in zip(
                    ids,
                    apis["thread_id"].tolist(),
                    _us(apis["start"], self.base),
                    targets["device_id"].tolist(),
                    lanes.tolist(),
                    _us(targets["start"], self.base),
                    strict=True,
                )
                for line in (
                    f'{{"ph":"s","cat":"launch","name":"launch","id":{i},"pid":{pid},"tid":{t},"ts":{s:.3f}}}',
                    f'{{"ph":"f","bp":"e","cat":"launch","name":"launch","id":{i},'
                    f'"pid":{DEVICE_PID_BASE + d},"tid":{lane},"ts":{ks:.3f}}}',
                )
            )
            self.stats.flows += len(targets)
            self.stats.add("flow", 2 * len(targets))

    def marker_events(self) -> None:
        spans = marker_spans(self.c)
        names = self.names
        ranges = spans.ranges
        host = ranges[ranges["source_kind"] == 0]
        device = ranges[ranges["source_kind"] == 1]
        self.host_threads.update(np.unique(host["object_b"]).tolist())
        self.w.write(
            f'{{"ph":"X","cat":"mstx","name":{names[n]},"pid":{self.c.pid},"tid":{t},"ts":{s:.3f},'
            f'"dur":{u:.3f},"args":{{"domain":{names[m]},"range_id":{i}}}}}'
            for n, t, s, u, m, i in zip(
                host["name"].tolist(),
                host["object_b"].tolist(),
                _us(host["start"], self.base),
                _dur(host["start"], host["end"]),
                host["domain"].tolist(),
                host["id"].tolist(),
                strict=True,
            )
        )
        device_lanes = self.lane(device["object_b"])
        self._lanes(device["object_a"], device_lanes)
        self.w.write(
            f'{{"ph":"X","cat":"mstx","name":"range {i}","pid":{DEVICE_PID_BASE + d},"tid":{t},"ts":{s:.3f},'
            f'"dur":{u:.3f},"args":{{"range_id":{i}}}}}'
            for i, d, t, s, u in zip(
                device["id"].tolist(),
                device["object_a"].tolist(),
                device_lanes.tolist(),
                _us(device["start"], self.base),
                _dur(device["start"], device["end"]),
                strict=True,
            )
        )
        self.stats.add("range", len(ranges))
        instants = spans.instants
        pids = np.where(
            instants["source_kind"] == 0, self.c.pid, DEVICE_PID_BASE + instants["object_a"].astype(np.int64)
        )
        device_instants = instants[instants["source_kind"] == 1]
        self._lanes(device_instants["object_a"], self.lane(device_instants["object_b"]))
        tids = np.where(instants["source_kind"] == 0, instants["object_b"], self.lane(instants["object_b"]))
        self.host_threads.update(np.unique(instants[instants["source_kind"] == 0]["object_b"]).tolist())
        self.w.write(
            f'{{"ph":"i","s":"t","cat":"mstx","name":{names[n] if n else json.dumps(f"mark {i}")},"pid":{p},'
            f'"tid":{t},"ts":{s:.3f},"args":{{"domain":{names[m]},"mark_id":{i}}}}}'
            for n, p, t, s, m, i in zip(
                instants["name"].tolist(),
                pids.tolist(),
                tids.tolist(),
                _us(instants["timestamp"], self.base),
                instants["domain"].tolist(),
                instants["id"].tolist(),
                strict=True,
            )
        )
        self.stats.add("mark", len(instants))

    def memory_counters(self) -> None:
        memory = self.c.table(ActivityKind.MEMORY)
        if len(memory) == 0:
            return
        order = np.lexsort((memory["start"], memory["device_id"]))
        memory = memory[order]
        signed = np.where(memory["operation_type"] == 0, 1, -1) * memory["bytes"].astype(np.int64)
        devices = memory["device_id"].astype(np.int64)
        total = np.cumsum(signed)
        # Restart the running sum at each device.
        first = np.ones(len(memory), dtype=bool)
        first[1:] = devices[1:] != devices[:-1]
        offsets = np.maximum.accumulate(np.where(first, np.arange(len(memory)), 0))
        before = np.where(offsets > 0, total[offsets - 1], 0)
        allocated = total - before
        label = json.dumps(f"Memory allocated by pid {self.c.pid}")
        self.w.write(
            f'{{"ph":"C","cat":"memory","name":{label},"pid":{DEVICE_PID_BASE + d},"ts":{s:.3f},'
            f'"args":{{"bytes":{b}}}}}'
            for d, s, b in zip(
                devices.tolist(), _us(memory["start"], self.base), allocated.tolist(), strict=True
            )
        )
        for device in np.unique(devices).tolist():
            self.device_lanes.setdefault(device, set())
        self.stats.add("counter", len(memory))


def _metadata(exporter: _Exporter, sort_index: int) -> Iterator[str]:
    capture = exporter.c
    argv = capture.meta.get("argv") or []
    program = Path(argv[0]).name if argv else "process"
    yield (
        f'{{"ph":"M","name":"process_name","pid":{capture.pid},'
        f'"args":{{"name":{json.dumps(f"Host {capture.pid} ({program})")}}}}}'
    )
    yield f'{{"ph":"M","name":"process_sort_index","pid":{capture.pid},"args":{{"sort_index":{sort_index}}}}}'
    for tid in sorted(exporter.host_threads):
        label = f"Main thread {tid}" if tid == capture.pid else f"Thread {tid}"
        if tid == HOST_UNMATCHED_TRACK:
            label = "Copies without an API record"
        yield (
            f'{{"ph":"M","name":"thread_name","pid":{capture.pid},"tid":{tid},'
            f'"args":{{"name":{json.dumps(label)}}}}}'
        )


def _lane_name(lane: int, pids: list[int]) -> tuple[str, int]:
    """The track title and its sort position (``pids``: the host pid of each capture position)."""
    kind, rest = lane & _LANE_KIND, lane & ~_LANE_KIND
    position, stream = divmod(rest, LANE_STRIDE)
    owner = f" (pid {pids[position]})" if len(pids) > 1 and position < len(pids) else ""
    order = 4 * rest
    if kind == SYNC_LANE:
        return f"Synchronous copies{owner}", order + 3
    if kind == COMM_LANE:
        return f"Stream {stream} communication{owner}", order + 2
    if kind == HCCL_LANE:
        return f"Stream {stream} HCCL{owner}", order + 1
    return f"Stream {stream}{owner}", order


def _device_metadata(lanes: dict[int, set[int]], sort_base: int, pids: list[int]) -> Iterator[str]:
    for position, device in enumerate(sorted(lanes)):
        pid = DEVICE_PID_BASE + device
        yield f'{{"ph":"M","name":"process_name","pid":{pid},"args":{{"name":"NPU {device}"}}}}'
        order = sort_base + position
        yield f'{{"ph":"M","name":"process_sort_index","pid":{pid},"args":{{"sort_index":{order}}}}}'
        for lane in sorted(lanes[device]):
            title, order = _lane_name(lane, pids)
            label = json.dumps(title)
            yield f'{{"ph":"M","name":"thread_name","pid":{pid},"tid":{lane},"args":{{"name":{label}}}}}'
            yield (
                f'{{"ph":"M","name":"thread_sort_index","pid":{pid},"tid":{lane},'
                f'"args":{{"sort_index":{order}}}}}'
            )


def export_chrome_trace(trace: Trace, out: Path | str, *, flows: bool = True) -> ChromeExportStats:
    """Writes ``trace`` as Chrome trace event JSON to ``out``; returns what was written."""
    stats = ChromeExportStats(time_base_ns=_time_base(trace))
    lanes: dict[int, set[int]] = {}
    path = Path(out)
    with path.open("w", encoding="utf-8") as handle:
        other = {
            "exporter": "npu-sim trace",
            "time_base_ns": stats.time_base_ns,
            "time_unit": "timestamps are microseconds after time_base_ns (Unix epoch ns)",
            "captures": [
                {"pid": c.pid, "soc": c.meta.get("soc"), "clock": c.meta.get("clock")} for c in trace.captures
            ],
        }
        handle.write('{"displayTimeUnit":"ns","otherData":' + json.dumps(other) + ',"traceEvents":[')
        writer = JsonArrayStream(handle)
        flow_base = 1
        for position, capture in enumerate(trace.captures):
            exporter = _Exporter(capture, stats.time_base_ns, stats, writer, flow_base, position)
            exporter.api_events()
            exporter.device_events()
            exporter.marker_events()
            exporter.memory_counters()
            if flows:
                exporter.flow_events()
            flow_base = exporter.flow_id
            writer.write(_metadata(exporter, position))
            for device, device_lanes in exporter.device_lanes.items():
                lanes.setdefault(device, set()).update(device_lanes)
        writer.write(_device_metadata(lanes, len(trace.captures), [c.pid for c in trace.captures]))
        handle.write("\n]}\n")
    return stats
