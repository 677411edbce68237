"""Writing captures from numpy arrays, in the collector's format: for tests, benchmarks and tools
that build records in memory (the way a fake profiler backend would)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from mspti_trace.capture_format import (
    CHUNK_HEADER,
    FORMAT_VERSION,
    HEADER_FIXED,
    KIND_ENTRY,
    RECORDS_MAGIC,
    STRINGS_HEADER,
    STRINGS_MAGIC,
    capture_paths,
)
from mspti_trace.kinds import DTYPES, KIND_NAMES, RECORD_SIZES, ActivityKind

__all__ = ["CaptureWriter", "new_records"]


def new_records(kind: ActivityKind, count: int) -> np.ndarray:
    """``count`` zeroed records of ``kind`` with their ``kind`` field set."""
    array = np.zeros(count, dtype=DTYPES[kind])
    array["kind"] = int(kind)
    return array


class CaptureWriter:
    """Builds the capture of one process; :meth:`close` writes the three files."""

    def __init__(self, directory: Path | str, pid: int, meta: dict[str, Any] | None = None) -> None:
        self.directory = Path(directory)
        self.pid = pid
        self.meta = dict(meta or {})
        self._ids: dict[str, int] = {}
        self._strings: list[str] = []
        self._chunks: list[tuple[ActivityKind, np.ndarray]] = []

    def string(self, text: str | None) -> int:
        """The id of ``text`` (0 for None)."""
        if text is None:
            return 0
        found = self._ids.get(text)
        if found is None:
            self._strings.append(text)
            found = self._ids[text] = len(self._strings)
        return found

    def strings(self, texts: list[str | None]) -> np.ndarray:
        return np.array([self.string(text) for text in texts], dtype=np.uint64)

    def add(self, kind: ActivityKind, records: np.ndarray) -> None:
        """Appends a chunk of records (an array of the kind's dtype)."""
        if records.dtype != DTYPES[kind]:
            records = records.astype(DTYPES[kind])
        self._chunks.append((kind, records))

    def close(self) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        records_path, strings_path, meta_path = capture_paths(self.directory, self.pid)
        kinds = list(ActivityKind)
        header = HEADER_FIXED.pack(
            RECORDS_MAGIC, FORMAT_VERSION, HEADER_FIXED.size + KIND_ENTRY.size * len(kinds), len(kinds), 0
        )
        header += b"".join(KIND_ENTRY.pack(int(kind), RECORD_SIZES[kind]) for kind in kinds)
        counts = dict.fromkeys(KIND_NAMES.values(), 0)
        with records_path.open("wb") as out:
            out.write(header)
            for kind, records in self._chunks:
                out.write(CHUNK_HEADER.pack(int(kind), RECORD_SIZES[kind], len(records)))
                out.write(records.tobytes())
                counts[KIND_NAMES[kind]] += len(records)
        body = b"".join(text.encode("utf-8") + b"\0" for text in self._strings)
        strings_path.write_bytes(STRINGS_HEADER.pack(STRINGS_MAGIC, FORMAT_VERSION, 0) + body)
        meta = {
            "format": "npu-sim-trace",
            "version": FORMAT_VERSION,
            "pid": self.pid,
            "argv": [],
            "soc": None,
            "clock": None,
            "devices": None,
            "time_base": "unix_epoch_ns",
            "subscribed": True,
            "kinds_enabled": list(KIND_NAMES.values()),
            "records": counts,
            "dropped": None,
            "complete": True,
        }
        meta.update(self.meta)
        meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        return records_path
