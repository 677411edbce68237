"""Export in the layout of the Ascend PyTorch profiler (torch_npu): one
``<name>_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json`` per rank, the file MindStudio Insight
and Perfetto open on an Ascend host.

The structure follows a trace_view.json written by torch_npu on an Ascend run (public in
hicann/oam-tools, ``experiment/task-book/msprof_tool_experience_imaginationhh/perf-data/
*_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json``, commit 3f0ca5c): a JSON array of events;
``ts`` absolute microseconds since the epoch as a string with three decimals, ``dur`` a number of
microseconds; every process named with ``process_name``, ``process_labels`` (``CPU`` or ``NPU <d>``)
and ``process_sort_index`` metadata, every thread with ``thread_name`` and ``thread_sort_index``.

- The program's process (its pid, a track per thread): the operator-level calls (NODE_API, else
  API) as ``cpu_op`` slices, host mstx ranges as ``cpu_op`` too (top-level ``step`` ranges named
  ``ProfilerStep#N``), marks as instants. No ``python_function`` events: msPTI records carry no
  Python frames.
- ``CANN`` (labels CPU): every other call as one slice named ``AscendCL@<name>`` (ACL level) or
  ``Runtime@<name>`` (runtime level only), args ``Thread Id``, ``Mode``, ``level``, ``id``,
  ``item_id``, ``connection_id`` (the correlation id).
- ``Ascend Hardware`` (labels NPU <d>): a ``Stream <s>`` track per stream with the kernels (args
  ``Task Type``, ``Physic Stream Id``, ``connection_id``), device-timed copies and fills.
- ``HCCL``: the communication ops, a ``Communication`` track per stream.
- ``Overlap Analysis``: tracks ``Communication`` (tid 0), ``Communication(Not Overlapped)`` (1),
  ``Computing`` (2), ``Free`` (3), the union of the device's compute and communication time, the
  communication not hidden by computing, and the gaps between, from the first device task to the
  last.
- ``AI Core Freq``: a counter at the SoC catalogue's cube clock (when the capture names its SoC).
- Flows ``torch_to_npu`` (category ``async_npu``, ``bp: "e"`` on both ends) from a ``cpu_op`` to
  each task it launched; ``HostToDevice<id>`` (category ``HostToDevice``) from a CANN slice.

Fields torch_npu has and msPTI records do not (task id, batch id, model id, input shapes, call
stacks) are left out rather than invented. Beside trace_view.json, every rank folder gets the other
files torch_npu writes (kernel_details.csv, op_statistic.csv, operator_details.csv,
step_trace_time.csv, api_statistic.csv, task_time.csv, analyse.done, communication.json and
communication_matrix.json (with communication ops),
profiler_info_<rank>.json, profiler_metadata.json and the device's info.json): ascend_pt_views.py.
Not drawn yet: MEMORY and HCCL records (so no memory_record.csv / operator_memory.csv).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO

import numpy as np

from mspti_trace.ascend_pt_views import RankViews, write_rank_views
from mspti_trace.json_stream import JsonArrayStream
from mspti_trace.kinds import INVALID_STREAM, ActivityKind
from mspti_trace.kineto import (
    DEVICE_OPS,
    CaptureView,
    RankFile,
    RankFiles,
    all_threads,
    devices_of,
    earliest_record_ns,
    plan_ranks,
    thread_devices,
)
from mspti_trace.reader import Trace, device_properties
from mspti_trace.task_types import task_type

__all__ = [
    "OUTPUT_FOLDER",
    "OVERLAP_TRACKS",
    "TRACE_VIEW",
    "AscendPtOptions",
    "AscendPtStats",
    "export_ascend_pt",
]

OUTPUT_FOLDER = "ASCEND_PROFILER_OUTPUT"
TRACE_VIEW = "trace_view.json"
#: Overlap Analysis tracks: name -> tid (and sort index), as torch_npu numbers them.
OVERLAP_TRACKS = {"Communication": 0, "Communication(Not Overlapped)": 1, "Computing": 2, "Free": 3}
#: Process ids of the synthetic processes (above any Linux pid) and their sort indices.
_CANN_PID, _HARDWARE_PID, _HCCL_PID, _OVERLAP_PID, _FREQ_PID = (0x50000000 + i for i in range(5))
_SORT = {_CANN_PID: 7, _HARDWARE_PID: 13, _FREQ_PID: 14, _HCCL_PID: 15, _OVERLAP_PID: 30}
#: Host track of host-timed copies and fills no API record shares a correlation id with.
_UNMATCHED_TRACK = 0x3FFFFFFF


@dataclass(frozen=True)
class AscendPtOptions:
    flows: bool = True
    #: Name of the top-level host ranges (default mstx domain) that delimit steps.
    step_range: str = "step"


@dataclass
class AscendPtStats(RankFiles):
    by_name: dict[str, int] = field(default_factory=dict)


def _ts(ns: int) -> str:
    """Absolute microseconds as torch_npu writes them: a string with three decimals (exact)."""
    return f'"{ns // 1000}.{ns % 1000:03d}"'


def _dur(start: int, end: int) -> float:
    return max(end - start, 0) / 1000.0


def _span(start: int, end: int) -> str:
    return f'"ts":{_ts(start)},"dur":{_dur(start, end)}'


def _meta(name: str, pid: int, tid: int, key: str, value: object) -> str:
    return json.dumps({"name": name, "pid": pid, "tid": tid, "ph": "M", "args": {key: value}})


def _union(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted disjoint intervals covering ``[starts, ends)``."""
    if len(starts) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    order = np.argsort(starts, kind="stable")
    s, e = starts[order].astype(np.int64), ends[order].astype(np.int64)
    reach = np.maximum.accumulate(e)
    new = np.ones(len(s), dtype=bool)
    new[1:] = s[1:] > reach[:-1]
    group = np.cumsum(new) - 1
    out_s = s[new]
    out_e = np.zeros(len(out_s), dtype=np.int64)
    np.maximum.at(out_e, group, e)
    return out_s, out_e


def _subtract(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> list[tuple[int, int]]:
    """The parts of intervals ``a`` not covered by the disjoint sorted intervals ``b``."""
    out: list[tuple[int, int]] = []
    b_starts, b_ends = b[0].tolist(), b[1].tolist()
    j = 0
    for start, end in zip(a[0].tolist(), a[1].tolist(), strict=True):
        while j < len(b_starts) and b_ends[j] <= start:
            j += 1
        k, cursor = j, start
        while k < len(b_starts) and b_starts[k] < end:
            if b_starts[k] > cursor:
                out.append((cursor, b_starts[k]))
            cursor = max(cursor, b_ends[k])
            k += 1
        if cursor < end:
            out.append((cursor, end))
    return out


class _Writer:
    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.stream = JsonArrayStream(out)
        self.events = 0
        self.by_name: dict[str, int] = {}

    def emit(self, lines: Iterable[str], label: str | None = None) -> None:
        written = self.stream.write(lines)
        self.events += written
        if label and written:
            self.by_name[label] = self.by_name.get(label, 0) + written


def _rank_events(
    view: CaptureView, rank: RankFile, mine: set[int], options: AscendPtOptions, w: _Writer
) -> tuple[int, dict[str, list[tuple[int, int]]]]:
    """Writes the events of one rank; returns the number of flows and the Overlap Analysis
    intervals."""
    capture, calls = view.capture, view.calls.records
    names, pid, device = view.names, rank.pid, rank.device
    threads: set[int] = set()
    cann_threads: set[int] = set()
    selected = np.isin(calls["thread_id"], np.array(sorted(mine), dtype=np.uint32))
    op_name = np.where(calls["node_api"] != 0, calls["node_api"], calls["api"])
    is_op = selected & (op_name != 0)
    is_cann = selected & (op_name == 0)
    # The program's process: operator-level calls.
    rows = np.flatnonzero(is_op)
    threads.update(np.unique(calls["thread_id"][rows]).tolist())
    w.emit(
        (
            f'{{"ph":"X","name":{names[n]},"pid":{pid},"tid":{t},{_span(s, e)},"cat":"cpu_op",'
            f'"args":{{"connection_id":{c}}}}}'
            for n, t, s, e, c in zip(
                op_name[rows].tolist(),
                calls["thread_id"][rows].tolist(),
                calls["start"][rows].tolist(),
                calls["end"][rows].tolist(),
                calls["correlation_id"][rows].tolist(),
                strict=True,
            )
        ),
        "cpu_op",
    )
    # CANN: the calls without an operator-level record, one slice each.
    rows = np.flatnonzero(is_cann)
    acl = calls["acl_api"][rows]
    level_name = np.where(acl != 0, acl, calls["runtime_api"][rows]).tolist()
    is_acl = (acl != 0).tolist()
    cann_threads.update(np.unique(calls["thread_id"][rows]).tolist())
    strings = capture.strings
    w.emit(
        (
            f'{{"name":{json.dumps(("AscendCL@" if a else "Runtime@") + strings[n])},"pid":{_CANN_PID},'
            f'"tid":{t},'
            f'{_span(s, e)},"ph":"X","args":{{"Thread Id":{t},'
            f'"Mode":"{"ACL_RTS" if a else "RUNTIME"}","level":"{"acl" if a else "runtime"}","id":{names[n]},'
            f'"item_id":"0","connection_id":{c}}}}}'
            for n, a, t, s, e, c in zip(
                level_name,
                is_acl,
                calls["thread_id"][rows].tolist(),
                calls["start"][rows].tolist(),
                calls["end"][rows].tolist(),
                calls["correlation_id"][rows].tolist(),
                strict=True,
            )
        ),
        "CANN",
    )
    # Host-timed copies and fills without an API record: a CANN track of their own.
    for kind, clocks in ((ActivityKind.MEMCPY, view.calls.copies), (ActivityKind.MEMSET, view.calls.fills)):
        records = capture.table(kind)[clocks.host_timed & (clocks.call < 0)]
        records = records[records["device_id"].astype(np.int64) == (device if device is not None else -1)]
        if len(records):
            cann_threads.add(_UNMATCHED_TRACK)
            w.emit(
                f'{{"name":"{kind.name}","pid":{_CANN_PID},"tid":{_UNMATCHED_TRACK},{_span(s, e)},'
                f'"ph":"X","args":{{"bytes":{b},"host timed":true,"connection_id":{c}}}}}'
                for s, e, b, c in zip(
                    records["start"].tolist(),
                    records["end"].tolist(),
                    records["bytes"].tolist(),
                    records["correlation_id"].tolist(),
                    strict=True,
                )
            )
    # Host mstx ranges and marks.
    spans = view.spans
    mine_array = np.array(sorted(mine), dtype=np.uint32)
    host = spans.ranges[(spans.ranges["source_kind"] == 0) & np.isin(spans.ranges["object_b"], mine_array)]
    threads.update(np.unique(host["object_b"]).tolist())
    steps = view.steps

    def range_name(n: int, tid: int, start: int, end: int, rid: int) -> str:
        step = steps.get((tid, start, end, rid)) if steps else None
        return names[n] if step is None else f'"ProfilerStep#{step}"'

    w.emit(
        (
            f'{{"ph":"X","name":{range_name(n, t, s, e, i)},"pid":{pid},"tid":{t},{_span(s, e)},'
            f'"cat":"cpu_op","args":{{"mstx name":{names[n]},"mstx domain":{names[d]},"range id":{i}}}}}'
            for n, t, s, e, i, d in zip(
                host["name"].tolist(),
                host["object_b"].tolist(),
                host["start"].tolist(),
                host["end"].tolist(),
                host["id"].tolist(),
                host["domain"].tolist(),
                strict=True,
            )
        ),
        "mstx range",
    )
    instants = spans.instants[
        (spans.instants["source_kind"] == 0) & np.isin(spans.instants["object_b"], mine_array)
    ]
    threads.update(np.unique(instants["object_b"]).tolist())
    w.emit(
        f'{{"ph":"i","s":"t","name":{names[n]},"pid":{pid},"tid":{t},"ts":{_ts(s)},"cat":"cpu_op",'
        f'"args":{{"mark id":{i}}}}}'
        for n, t, s, i in zip(
            instants["name"].tolist(),
            instants["object_b"].tolist(),
            instants["timestamp"].tolist(),
            instants["id"].tolist(),
            strict=True,
        )
    )
    # Device tasks, and the flows from the call that launched each.
    streams: set[int] = set()
    comm_streams: set[int] = set()
    compute: list[tuple[np.ndarray, np.ndarray]] = []
    communication: list[tuple[np.ndarray, np.ndarray]] = []
    flows = 0
    for kind in DEVICE_OPS:
        records, callers = view.device_ops[kind]
        keep = records["device_id"].astype(np.int64) == (device if device is not None else -1)
        records, callers = records[keep], callers[keep]
        if len(records) == 0:
            continue
        stream = records["stream_id"].astype(np.int64)
        if kind == ActivityKind.COMMUNICATION:
            process, tracks = _HCCL_PID, stream
            comm_streams.update(np.unique(tracks).tolist())
            communication.append((records["start"], records["end"]))
            titles = [names[n] for n in records["name"].tolist()]
            args = [
                f'"Physic Stream Id":{s},"group name":{names[g]},"algorithm":{names[a]},"connection_id":{c}'
                for s, g, a, c in zip(
                    stream.tolist(),
                    records["comm_name"].tolist(),
                    records["alg_type"].tolist(),
                    records["correlation_id"].tolist(),
                    strict=True,
                )
            ]
        else:
            process, tracks = _HARDWARE_PID, np.where(stream == INVALID_STREAM, _UNMATCHED_TRACK, stream)
            streams.update(np.unique(tracks).tolist())
            if kind == ActivityKind.KERNEL:
                compute.append((records["start"], records["end"]))
                titles = [names[n] for n in records["name"].tolist()]
                types = [task_type(strings[t]) for t in records["type"].tolist()]
            else:
                label = "MEMCPY_ASYNC" if kind == ActivityKind.MEMCPY else "MEMSET_ASYNC"
                titles = [f'"{label}"'] * len(records)
                types = [label] * len(records)
            args = [
                f'"Task Type":{json.dumps(t)},"Physic Stream Id":{s},"connection_id":{c}'
                for t, s, c in zip(types, stream.tolist(), records["correlation_id"].tolist(), strict=True)
            ]
        starts, ends = records["start"].tolist(), records["end"].tolist()
        track_list = tracks.tolist()
        w.emit(
            (
                f'{{"name":{n},"pid":{process},"tid":{k},{_span(s, e)},"ph":"X","args":{{{a}}}}}'
                for n, k, s, e, a in zip(titles, track_list, starts, ends, args, strict=True)
            ),
            "Ascend Hardware" if process == _HARDWARE_PID else "HCCL",
        )
        if not options.flows:
            continue
        hit = np.flatnonzero(callers >= 0)
        call_rows = callers[hit]
        op_call = is_op[call_rows]
        lines = []
        call_starts = calls["start"][call_rows].tolist()
        call_threads = calls["thread_id"][call_rows].tolist()
        for r, op, call_start, call_tid in zip(
            hit.tolist(), op_call.tolist(), call_starts, call_threads, strict=True
        ):
            flows += 1
            call_ts = _ts(call_start)
            task_ts = _ts(starts[r])
            if op:
                for phase, p, t, ts in (
                    ("s", pid, call_tid, call_ts),
                    ("f", process, track_list[r], task_ts),
                ):
                    lines.append(
                        f'{{"ph":"{phase}","bp":"e","name":"torch_to_npu","id":{flows},"pid":{p},"tid":{t},'
                        f'"ts":{ts},"cat":"async_npu"}}'
                    )
            else:
                lines.append(
                    f'{{"name":"HostToDevice{flows}","pid":{_CANN_PID},"tid":{call_tid},"ph":"s","cat":"HostToDevice",'
                    f'"id":"{flows}","ts":{call_ts}}}'
                )
                lines.append(
                    f'{{"name":"HostToDevice{flows}","pid":{process},"tid":{track_list[r]},"ph":"f",'
                    f'"cat":"HostToDevice","id":"{flows}","ts":{task_ts},"bp":"e"}}'
                )
        w.emit(lines, "flow")
    overlap = overlap_intervals(compute, communication)
    w.emit(_overlap_events(overlap), "Overlap Analysis")
    w.emit(_frequency(device_properties(capture).get("clockRateMHz"), compute + communication, device))
    w.emit(_metadata(capture, rank, threads, cann_threads, streams, comm_streams))
    return flows, overlap


def overlap_intervals(
    compute: list[tuple[np.ndarray, np.ndarray]], communication: list[tuple[np.ndarray, np.ndarray]]
) -> dict[str, list[tuple[int, int]]]:
    """The Overlap Analysis tracks' intervals (ns): name -> sorted disjoint intervals."""

    def joined(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
        if not parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return _union(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))

    computing, comm = joined(compute), joined(communication)
    busy = joined(compute + communication)
    if len(busy[0]) == 0:
        return {}
    free = list(zip(busy[1][:-1].tolist(), busy[0][1:].tolist(), strict=True))
    return {
        "Communication": list(zip(comm[0].tolist(), comm[1].tolist(), strict=True)),
        "Communication(Not Overlapped)": _subtract(comm, computing),
        "Computing": list(zip(computing[0].tolist(), computing[1].tolist(), strict=True)),
        "Free": free,
    }


def _overlap_events(tracks: dict[str, list[tuple[int, int]]]) -> Iterator[str]:
    for name, intervals in tracks.items():
        tid = OVERLAP_TRACKS[name]
        for start, end in intervals:
            yield (
                f'{{"name":"{name}","pid":{_OVERLAP_PID},"tid":{tid},{_span(start, end)},'
                f'"ph":"X","args":{{}}}}'
            )


def _rank_views(
    view: CaptureView,
    rank: RankFile,
    mine: set[int],
    overlap: dict[str, list[tuple[int, int]]],
    groups: dict[str, list[int]],
) -> RankViews:
    capture, calls = view.capture, view.calls.records
    device = rank.device if rank.device is not None else -1
    kernels, callers = view.device_ops[ActivityKind.KERNEL]
    keep = kernels["device_id"].astype(np.int64) == device
    kernels, callers = kernels[keep], callers[keep]
    communications, _ = view.device_ops[ActivityKind.COMMUNICATION]
    communications = communications[communications["device_id"].astype(np.int64) == device]
    selected = np.isin(calls["thread_id"], np.array(sorted(mine), dtype=np.uint32))
    is_op = selected & ((calls["node_api"] != 0) | (calls["api"] != 0))
    strings = capture.strings
    types, inverse = np.unique(kernels["type"], return_inverse=True)
    labels = [task_type(strings[t]) for t in types.tolist()]
    cores = [labels[i] for i in inverse.tolist()]
    steps = sorted((n, start, end) for (tid, start, end, _), n in view.steps.items() if tid in mine)
    stamps = [
        int(t[column].min())
        for t in (kernels, communications, calls[selected])
        for column in ("start",)
        if len(t)
    ]
    ends = [int(t["end"].max()) for t in (kernels, communications, calls[selected]) if len(t)]
    return RankViews(
        device=device,
        rank=rank.rank,
        pid=rank.pid,
        strings=strings,
        kernels=kernels,
        cores=cores,
        kernel_callers=callers,
        communications=communications,
        calls=calls,
        is_op=is_op,
        selected=selected,
        steps=steps,
        overlap=overlap,
        first_ns=min(stamps, default=0),
        last_ns=max(ends, default=0),
        mstx=len(capture.table(ActivityKind.MARKER)) > 0,
        properties=device_properties(capture),
        groups=groups,
    )


def _frequency(
    mhz: int | None, parts: list[tuple[np.ndarray, np.ndarray]], device: int | None
) -> Iterator[str]:
    if not mhz or device is None or not parts:
        return
    low = min(int(p[0].min()) for p in parts if len(p[0]))
    high = max(int(p[1].max()) for p in parts if len(p[1]))
    for ts in (low, high):
        yield (
            f'{{"name":"AI Core Freq","pid":{_FREQ_PID},"tid":0,"ts":{_ts(ts)},"ph":"C",'
            f'"args":{{"MHz":{mhz}}}}}'
        )


def _metadata(
    capture,
    rank: RankFile,
    threads: set[int],
    cann_threads: set[int],
    streams: set[int],
    comm_streams: set[int],
) -> Iterator[str]:
    argv = capture.meta.get("argv") or []
    program = Path(argv[0]).name if argv else "process"
    pid, device = rank.pid, rank.device
    npu = f"NPU {device}" if device is not None else "NPU"
    yield _meta("process_name", pid, 0, "name", program)
    yield _meta("process_labels", pid, 0, "labels", "CPU")
    yield _meta("process_sort_index", pid, 0, "sort_index", 5)
    for tid in sorted(threads):
        yield _meta("thread_name", pid, tid, "name", f"Thread {tid}")
        yield _meta("thread_sort_index", pid, tid, "sort_index", tid)
    processes = (
        (
            _CANN_PID,
            "CANN",
            "CPU",
            cann_threads,
            lambda t: "Copies without an API record" if t == _UNMATCHED_TRACK else f"Thread {t}",
        ),
        (
            _HARDWARE_PID,
            "Ascend Hardware",
            npu,
            streams,
            lambda t: "Synchronous copies" if t == _UNMATCHED_TRACK else f"Stream {t}",
        ),
        (_HCCL_PID, "HCCL", npu, comm_streams, lambda t: "Communication"),
        (_OVERLAP_PID, "Overlap Analysis", npu, set(OVERLAP_TRACKS.values()), None),
        (_FREQ_PID, "AI Core Freq", npu, set(), None),
    )
    overlap_names = {tid: name for name, tid in OVERLAP_TRACKS.items()}
    for process, name, labels, tids, thread_label in processes:
        if process not in (_OVERLAP_PID, _FREQ_PID) and not tids:
            continue
        yield _meta("process_name", process, 0, "name", name)
        yield _meta("process_labels", process, 0, "labels", labels)
        yield _meta("process_sort_index", process, 0, "sort_index", _SORT[process])
        for tid in sorted(tids):
            label = overlap_names[tid] if thread_label is None else thread_label(tid)
            yield _meta("thread_name", process, tid, "name", label)
            yield _meta("thread_sort_index", process, tid, "sort_index", tid)


def rank_folder(rank: RankFile, start_ns: int | None) -> str:
    """``<host>_<pid>_<time>_ascend_pt``, as torch_npu names the folder of one profiled process, with
    ``rank<r>`` for the host (captures record no host name; two ranks of one process stay apart)
    and the UTC time of the capture's first record, ``YYYYmmddHHMMSS`` and milliseconds."""
    when = datetime.fromtimestamp((start_ns or 0) // 1_000_000_000, tz=timezone.utc)
    millis = (start_ns or 0) // 1_000_000 % 1000
    return f"rank{rank.rank}_{rank.pid}_{when:%Y%m%d%H%M%S}{millis:03d}_ascend_pt"


def _groups(ranks: list[RankFile], captures: dict) -> dict[str, list[int]]:
    """Communication group name -> the ranks whose COMMUNICATION records name it."""
    members: dict[str, set[int]] = {}
    for rank in ranks:
        capture = captures[rank.pid]
        records = capture.table(ActivityKind.COMMUNICATION)
        device = rank.device if rank.device is not None else -1
        records = records[records["device_id"].astype(np.int64) == device]
        for name in np.unique(records["comm_name"]).tolist():
            members.setdefault(str(capture.strings[name]), set()).add(rank.rank)
    return {name: sorted(found) for name, found in members.items()}


def export_ascend_pt(
    trace: Trace, out_dir: Path | str, options: AscendPtOptions | None = None
) -> AscendPtStats:
    """Writes ``out_dir/<name>_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json`` for every rank
    (ranks as for the kineto export: one per process and device); returns what was written."""
    options = options or AscendPtOptions()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ranks = plan_ranks(trace, out)
    stats = AscendPtStats()
    captures = {c.pid: c for c in trace.captures}
    groups = _groups(ranks, captures)
    views: dict[int, CaptureView] = {}
    placements: dict[int, dict[int, int]] = {}
    for rank in ranks:
        capture = captures[rank.pid]
        if rank.pid not in views:
            views[rank.pid] = CaptureView.of(capture, options.step_range)
            devices = devices_of(capture)
            placements[rank.pid] = thread_devices(views[rank.pid], devices) if devices else {}
        placement = placements[rank.pid] or {t: -1 for t in all_threads(capture)}
        mine = {t for t, d in placement.items() if rank.device is None or d == rank.device}
        folder = out / rank_folder(rank, earliest_record_ns([capture])) / OUTPUT_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / TRACE_VIEW
        with path.open("w", encoding="utf-8") as handle:
            handle.write("[")
            writer = _Writer(handle)
            flows, overlap = _rank_events(views[rank.pid], rank, mine, options, writer)
            handle.write("\n]\n")
        write_rank_views(folder.parent, folder, _rank_views(views[rank.pid], rank, mine, overlap, groups))
        for name, count in writer.by_name.items():
            stats.by_name[name] = stats.by_name.get(name, 0) + count
        stats.files.append(
            RankFile(rank.rank, rank.pid, rank.device, path, events=writer.events, flows=flows)
        )
    return stats
