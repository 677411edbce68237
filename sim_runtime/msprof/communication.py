"""``msprof --analyze``: the communication analysis of one PROF_* directory.

Writes ``<PROF_*>/analyze/communication.json`` and ``communication_matrix.json`` with the keys, units
and totals of msprof's analyzer (Ascend/msprof 024471cf, ``analysis/analyzer/communication_analyzer.py``,
``communication_matrix_analyzer.py`` and ``analysis/msparser/cluster/``), from the collection's
COMMUNICATION records (one per collective operation).

msprof derives the transit, wait and synchronisation times, the per-transport bandwidth and the
matrix's links from HCCL *task* records (Memcpy, Reduce_Inline, Notify_Wait, RDMA payloads with their
link and ranks). msPTI delivers operations, not tasks, so those fields are written as msprof writes
them when no such task was collected: times 0, the ratios 0, each transport's bandwidth entry 0 with
an empty size distribution, and no links in the matrix. What the operation records give is modelled:
the start (us) and elapse time (ms) of each operation, and Idle Time computed as msprof does
(elapse - transit - wait). docs/msprof.md lists each field.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from sim_runtime.msprof.raw import Collection, Communication

ANALYZE_DIR = "analyze"
COMMUNICATION_FILE = "communication.json"
MATRIX_FILE = "communication_matrix.json"
TOTAL = "Total HCCL Operators"
TIME_INFO = "Communication Time Info"
BANDWIDTH_INFO = "Communication Bandwidth Info"
START = "Start Timestamp(us)"
ELAPSE = "Elapse Time(ms)"
TRANSIT = "Transit Time(ms)"
WAIT = "Wait Time(ms)"
SYNCHRONIZATION = "Synchronization Time(ms)"
IDLE = "Idle Time(ms)"
WAIT_RATIO = "Wait Time Ratio"
SYNCHRONIZATION_RATIO = "Synchronization Time Ratio"
TIME_KEYS = (START, ELAPSE, TRANSIT, WAIT, SYNCHRONIZATION, IDLE, WAIT_RATIO, SYNCHRONIZATION_RATIO)
TRANSPORTS = ("RDMA", "HCCS", "PCIE", "SDMA", "SIO")
SIZE_MB = "Transit Size(MB)"
BANDWIDTH = "Bandwidth(GB/s)"
LARGE_PACKET_RATIO = "Large Packet Ratio"
SIZE_DISTRIBUTION = "Size Distribution"
NS_PER_MS = 1_000_000
NS_PER_US = 1_000


def op_keys(collection: Collection) -> list[tuple[str, Communication]]:
    """Each operation's key ``<name>_<n>@<communicator>``, in start order.

    msprof keys an operation by CANN's per-operation name and its group (``op_name@group_name``);
    the msPTI record's name is the operation type (``hcom_allReduce_``), so ``n`` numbers the
    operations of that name within the communicator (0, 1, ...) to keep the keys one per operation.
    """
    seen: dict[tuple[str, str], int] = defaultdict(int)
    keyed = []
    for op in sorted(collection.communications, key=lambda c: (c.start, c.correlation)):
        index = seen[(op.name, op.comm)]
        seen[(op.name, op.comm)] += 1
        keyed.append((f"{op.name}_{index}@{op.comm}", op))
    return keyed


def _ratios(times: dict[str, float]) -> None:
    # msprof's update_time_ratio: a zero divisor leaves the ratio as it was (0).
    if times[WAIT] + times[TRANSIT]:
        times[WAIT_RATIO] = round(times[WAIT] / (times[WAIT] + times[TRANSIT]), 4)
    if times[SYNCHRONIZATION] + times[TRANSIT]:
        times[SYNCHRONIZATION_RATIO] = round(
            times[SYNCHRONIZATION] / (times[SYNCHRONIZATION] + times[TRANSIT]), 4
        )


def _bandwidth_entry() -> dict[str, Any]:
    return {SIZE_MB: 0, TRANSIT: 0, BANDWIDTH: 0, LARGE_PACKET_RATIO: 0, SIZE_DISTRIBUTION: {}}


def _bandwidth(entry: dict[str, Any]) -> None:
    # GB/s from MB and ms, as msprof's analyze_bandwidth_info (decimal units).
    if entry[TRANSIT]:
        entry[BANDWIDTH] = round((entry[SIZE_MB] / 1000) / (entry[TRANSIT] / 1000), 4)


def _op_info(op: Communication) -> dict[str, Any]:
    times: dict[str, float] = dict.fromkeys(TIME_KEYS, 0)
    times[ELAPSE] = (op.end - op.start) / NS_PER_MS
    times[IDLE] = times[ELAPSE] - times[TRANSIT] - times[WAIT]
    _ratios(times)
    times[START] = op.start / NS_PER_US
    return {TIME_INFO: times, BANDWIDTH_INFO: {t: _bandwidth_entry() for t in TRANSPORTS}}


def _total(ops: list[dict[str, Any]]) -> dict[str, Any]:
    """msprof's combine(): sums every time but the start and the ratios, and each transport's size and
    time (size distributions too, but SDMA's), then recomputes the ratios and bandwidths."""
    times: dict[str, float] = dict.fromkeys(TIME_KEYS, 0)
    bandwidth = {t: _bandwidth_entry() for t in TRANSPORTS}
    for op in ops:
        for key, value in op[TIME_INFO].items():
            if key not in (START, WAIT_RATIO, SYNCHRONIZATION_RATIO):
                times[key] += value
        for transport, part in op[BANDWIDTH_INFO].items():
            total = bandwidth[transport]
            total[SIZE_MB] += part[SIZE_MB]
            total[TRANSIT] += part[TRANSIT]
            if transport != "SDMA":
                for size, (count, duration) in part[SIZE_DISTRIBUTION].items():
                    count0, duration0 = total[SIZE_DISTRIBUTION].get(size, (0, 0))
                    total[SIZE_DISTRIBUTION][size] = [count0 + count, duration0 + duration]
    _ratios(times)
    for entry in bandwidth.values():
        _bandwidth(entry)
    return {TIME_INFO: times, BANDWIDTH_INFO: bandwidth}


def communication(collection: Collection) -> dict[str, Any]:
    """communication.json: one entry per operation and the total; empty without operations."""
    ops = {key: _op_info(op) for key, op in op_keys(collection)}
    if ops:
        ops[TOTAL] = _total(list(ops.values()))
    return ops


def matrix(collection: Collection) -> dict[str, Any]:
    """communication_matrix.json: each operation's links ``<src rank>-<dst rank>`` and the total.

    Links come from HCCL task records with their ranks and transport, which are not collected, so
    every operation has no link (as msprof writes an operation whose tasks carry no valid link).
    """
    ops: dict[str, Any] = {key: {} for key, _ in op_keys(collection)}
    if ops:
        ops[TOTAL] = {}
    return ops


def analyze(collection: Collection) -> list[Path]:
    """Writes analyze/ of one collection; returns the files written (none without communication)."""
    comm = communication(collection)
    if not comm:
        return []
    out = collection.path / ANALYZE_DIR
    out.mkdir(exist_ok=True)
    written = []
    for name, data in ((COMMUNICATION_FILE, comm), (MATRIX_FILE, matrix(collection))):
        (out / name).write_text(json.dumps(data), encoding="utf-8")
        written.append(out / name)
    return written
