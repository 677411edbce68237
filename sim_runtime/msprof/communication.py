"""``msprof --analyze``: the communication analysis of one PROF_* directory.

Writes ``<PROF_*>/analyze/communication.json`` and ``communication_matrix.json`` (text export) and
``communication_analyzer.db`` (both exports, as msprof does) with the keys, units and totals of
msprof's analyzer (Ascend/msprof 024471cf, ``analysis/analyzer/communication_analyzer.py``,
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
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

from sim_runtime.msprof.raw import Collection, Communication

ANALYZE_DIR = "analyze"
COMMUNICATION_FILE = "communication.json"
MATRIX_FILE = "communication_matrix.json"
#: msprof's analyzer database (written for --type=text and --type=db alike, as msprof does).
ANALYZER_DB = "communication_analyzer.db"
# tables_config.py's CommAnalyzer*Map columns (TEXT or NUMERIC, all nullable).
ANALYZER_TABLES = {
    "CommAnalyzerTime": ("hccl_op_name TEXT", "group_name TEXT", "start_timestamp NUMERIC",
                         "elapse_time NUMERIC", "transit_time NUMERIC", "wait_time NUMERIC",
                         "synchronization_time NUMERIC", "idle_time NUMERIC"),
    "CommAnalyzerBandwidth": ("hccl_op_name TEXT", "group_name TEXT", "transport_type TEXT",
                              "transit_size NUMERIC", "transit_time NUMERIC", "bandwidth NUMERIC",
                              "large_packet_ratio NUMERIC", "package_size NUMERIC", "count NUMERIC",
                              "total_duration NUMERIC"),
    "CommAnalyzerMatrix": ("hccl_op_name TEXT", "group_name TEXT", "src_rank TEXT", "dst_rank TEXT",
                           "transport_type TEXT", "transit_size NUMERIC", "transit_time NUMERIC",
                           "bandwidth NUMERIC"),
}  # fmt: skip
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


def analyzer_rows(comm: dict[str, Any], links: dict[str, Any]) -> dict[str, list[list[Any]]]:
    """The rows of the analyzer database from the two JSON documents, as msprof's
    CommunicationAnalyzerModel flattens them: no total; a time row per operation (the times but the
    ratios); a bandwidth row per transport that carried data (per packet size when distributed); a
    matrix row per link."""
    rows: dict[str, list[list[Any]]] = {table: [] for table in ANALYZER_TABLES}
    for key, info in comm.items():
        if key == TOTAL:
            continue
        names = key.split("@", 1)
        times = info[TIME_INFO]
        rows["CommAnalyzerTime"].append(names + [v for k, v in times.items() if "Ratio" not in k])
        for transport, entry in info[BANDWIDTH_INFO].items():
            values = [entry[SIZE_MB], entry[TRANSIT], entry[BANDWIDTH], entry[LARGE_PACKET_RATIO]]
            if sum(values) == 0:
                continue
            sizes = entry[SIZE_DISTRIBUTION].items() or [(0, (0, 0))]
            rows["CommAnalyzerBandwidth"] += [[*names, transport, *values, size, *cd] for size, cd in sizes]
    for key, op_links in links.items():
        if key == TOTAL:
            continue
        for link, entry in op_links.items():
            rows["CommAnalyzerMatrix"].append(key.split("@", 1) + link.split("-", 1) + list(entry.values()))
    return rows


def _write_analyzer_db(path: Path, rows: dict[str, list[list[Any]]]) -> None:
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    try:
        with db:
            for table, columns in ANALYZER_TABLES.items():
                db.execute(f"CREATE TABLE {table} ({', '.join(columns)})")
                marks = ", ".join("?" * len(columns))
                db.executemany(f"INSERT INTO {table} VALUES ({marks})", rows[table])
    finally:
        db.close()


def analyze(collection: Collection, export_type: str = "text") -> list[Path]:
    """Writes analyze/ of one collection; returns the files written (none without communication):
    the analyzer database, and for the text export the two JSON files."""
    comm = communication(collection)
    if not comm:
        return []
    links = matrix(collection)
    out = collection.path / ANALYZE_DIR
    out.mkdir(exist_ok=True)
    written = []
    if export_type == "text":
        for name, data in ((COMMUNICATION_FILE, comm), (MATRIX_FILE, links)):
            (out / name).write_text(json.dumps(data), encoding="utf-8")
            written.append(out / name)
    _write_analyzer_db(out / ANALYZER_DB, analyzer_rows(comm, links))
    written.append(out / ANALYZER_DB)
    return written
