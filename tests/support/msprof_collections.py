"""PROF_* directories in libmsprofiler's raw format (docs/msprof.md), written from given msPTI records
for the msprof export's tests."""

from __future__ import annotations

import json
from pathlib import Path

from sim_runtime.msprof import raw

PROF_NAME = "PROF_000001_20261207040000000_ABCDEFGHIJKLMNOP"


def synthetic_collection(
    folder: Path, records: list[dict[str, object]], pid: int = 1, data_types: int = 0x22
) -> Path:
    """A PROF_* directory holding the given msPTI records (device 0; data types TASK_TIME | HCCL_TRACE
    unless given)."""
    prof = folder / PROF_NAME
    (prof / raw.RAW_DIR).mkdir(parents=True)
    meta = {
        "format": "npu-sim msprof raw 1",
        "pid": pid,
        "devices": [0],
        "data_types": data_types,
        "aicore_metrics": 0,
    }
    (prof / raw.COLLECTION_FILE).write_text(json.dumps(meta))
    (prof / raw.RECORDS_FILE).write_text("".join(json.dumps(r) + "\n" for r in records))
    return prof


def allreduce(start: int, end: int, correlation: int) -> dict[str, object]:
    """An msPTI COMMUNICATION record of an all-reduce on device 0's stream 5 in communicator `world`."""
    return {
        "kind": "communication", "start": start, "end": end, "device": 0, "stream": 5,
        "correlation": correlation, "data_type": 4, "count": 4096, "alg": "RING", "name": "hcom_allReduce_",
        "comm": "world",
    }  # fmt: skip
