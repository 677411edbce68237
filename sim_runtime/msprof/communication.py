"""``msprof --analyze``: the communication analysis of one PROF_* directory.

Writes ``<PROF_*>/analyze/communication.json`` and ``communication_matrix.json`` with the keys, units
and totals of msprof's analyzer (Ascend/msprof 024471cf, ``analysis/analyzer/communication_analyzer.py``,
``communication_matrix_analyzer.py`` and ``analysis/msparser/cluster/``), from the collection's
COMMUNICATION records (one per collective operation). The operation entries and the total are
mspti_trace.communication_analysis's, which the ascend_pt export builds its communication.json
from too; it says which fields the records give and which are written as msprof writes them when
no HCCL task was collected. docs/msprof.md lists each field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mspti_trace.communication_analysis import (
    MSPROF_TOTAL,
    CommunicationOp,
    msprof_total,
    op_info,
)
from mspti_trace.communication_analysis import op_keys as _op_keys
from sim_runtime.msprof.raw import Collection, Communication

ANALYZE_DIR = "analyze"
COMMUNICATION_FILE = "communication.json"
MATRIX_FILE = "communication_matrix.json"
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
