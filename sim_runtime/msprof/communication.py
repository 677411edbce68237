"""``msprof --analyze``: the communication analysis of one PROF_* directory.

Writes ``<PROF_*>/analyze/communication.json`` and ``communication_matrix.json`` (text export) and
``communication_analyzer.db`` (both exports, as msprof does) with the keys, units and totals of
msprof's analyzer (Ascend/msprof 024471cf, ``analysis/analyzer/communication_analyzer.py``,
``communication_matrix_analyzer.py`` and ``analysis/msparser/cluster/``), from the collection's
COMMUNICATION records (one per collective operation). The operation entries and the total are
mspti_trace.communication_analysis's, which the ascend_pt export builds its communication.json
from too; it says which fields the records give and which are written as msprof writes them when
no HCCL task was collected. docs/msprof.md lists each field.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from mspti_trace.communication_analysis import (
    BANDWIDTH,
    BANDWIDTH_INFO,
    LARGE_PACKET_RATIO,
    MSPROF_TOTAL,
    SIZE_DISTRIBUTION,
    SIZE_MB,
    TIME_INFO,
    TRANSIT,
    CommunicationOp,
    msprof_total,
    op_info,
)
from mspti_trace.communication_analysis import op_keys as _op_keys
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
TOTAL = MSPROF_TOTAL


def op_keys(collection: Collection) -> list[tuple[str, Communication]]:
    """Each operation's key ``<name>_<n>@<communicator>``, in start order
    (communication_analysis.op_keys)."""
    ops = [_op(c) for c in collection.communications]
    record = {id(op): c for op, c in zip(ops, collection.communications, strict=True)}
    return [(key, record[id(op)]) for key, op in _op_keys(ops)]


def _op(c: Communication) -> CommunicationOp:
    return CommunicationOp(c.start, c.end, c.name, c.comm, c.correlation)


def communication(collection: Collection) -> dict[str, Any]:
    """communication.json: one entry per operation and the total; empty without operations."""
    ops = {key: op_info(_op(op)) for key, op in op_keys(collection)}
    if ops:
        ops[TOTAL] = msprof_total(list(ops.values()))
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
    the analyzer database, and for the text export the two JSON files. A Level0 collection gets none:
    msprof's analyzers read HCCL task events, which CANN collects only above Level0, so torch_npu
    writes communication.json and communication_matrix.json at Level1 and Level2 only."""
    if collection.is_level0:
        return []
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
