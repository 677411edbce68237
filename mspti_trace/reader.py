"""Loading captures into numpy structured arrays, one array per activity kind (no per-record
Python objects: each chunk of the records file becomes a view decoded by the kind's dtype)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mspti_trace.capture_format import (
    CHUNK_HEADER,
    STRINGS_HEADER_SIZE,
    STRINGS_MAGIC,
    CaptureFormatError,
    capture_paths,
    parse_header,
    pids_in,
)
from mspti_trace.kinds import API_KINDS, DTYPES, RECORD_SIZES, STRING_FIELDS, ActivityKind

__all__ = [
    "RUN_FILE",
    "Capture",
    "Trace",
    "capture_notices",
    "device_properties",
    "load_capture",
    "load_trace",
    "read_json_object",
]

#: Written by :func:`mspti_trace.capture` next to the captures: how the program was run.
RUN_FILE = "run.json"


@dataclass
class Capture:
    """The records of one process. ``strings[i]`` is the string of id ``i`` (``strings[0] == ""``
    stands for NULL)."""

    pid: int
    meta: dict[str, Any]
    strings: np.ndarray
    records: dict[ActivityKind, np.ndarray]
    truncated: bool = False
    skipped_chunks: int = 0

    def table(self, kind: ActivityKind) -> np.ndarray:
        """The records of ``kind`` (an empty array of the kind's dtype when there are none)."""
        found = self.records.get(kind)
        return found if found is not None else np.zeros(0, dtype=DTYPES[kind])

    def apis(self) -> np.ndarray:
        """Records of every API kind together (their ``kind`` field tells them apart)."""
        parts = [self.table(kind) for kind in API_KINDS]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=DTYPES[ActivityKind.API])

    def text(self, ids: np.ndarray) -> np.ndarray:
        """The strings of an array of string ids."""
        return self.strings[np.asarray(ids, dtype=np.int64)]

    def count(self, kind: ActivityKind) -> int:
        return len(self.table(kind))

    @property
    def total_records(self) -> int:
        return sum(len(array) for array in self.records.values())


@dataclass
class Trace:
    """Every capture of a capture directory, ordered by pid, and the run description if present."""

    directory: Path
    captures: list[Capture]
    run: dict[str, Any] = field(default_factory=dict)

    def capture(self, pid: int | None = None) -> Capture:
        """The capture of ``pid`` (default: the first, i.e. the lowest pid)."""
        if not self.captures:
            raise CaptureFormatError(f"{self.directory}: no capture (trace-<pid>.records) in it")
        if pid is None:
            return self.captures[0]
        for capture in self.captures:
            if capture.pid == pid:
                return capture
        known = ", ".join(str(c.pid) for c in self.captures)
        raise CaptureFormatError(f"{self.directory}: no capture of pid {pid} (captures: {known})")

    @property
    def total_records(self) -> int:
        return sum(c.total_records for c in self.captures)


def _read_strings(path: Path) -> np.ndarray:
    data = path.read_bytes() if path.exists() else b""
    if not data:
        return np.array([""], dtype=object)
    if len(data) < STRINGS_HEADER_SIZE or data[:8] != STRINGS_MAGIC:
        raise CaptureFormatError(f"{path}: not a capture strings file")
    body = data[STRINGS_HEADER_SIZE:]
    pieces = body.split(b"\0")
    if pieces and pieces[-1] == b"":
        pieces.pop()
    strings = np.empty(len(pieces) + 1, dtype=object)
    strings[0] = ""
    strings[1:] = [piece.decode("utf-8", errors="replace") for piece in pieces]
    return strings


def _read_records(path: Path) -> tuple[dict[ActivityKind, np.ndarray], bool, int]:
    data = path.read_bytes()
    header = parse_header(data, path)
    for kind, size in header.record_sizes.items():
        if kind in RECORD_SIZES and size != RECORD_SIZES[ActivityKind(kind)]:
            raise CaptureFormatError(
                f"{path}: kind {ActivityKind(kind).name} records are {size} bytes, expected "
                f"{RECORD_SIZES[ActivityKind(kind)]}"
            )
    parts: dict[ActivityKind, list[np.ndarray]] = {}
    offset, end = header.size, len(data)
    truncated = False
    skipped = 0
    while offset < end:
        if end - offset < CHUNK_HEADER.size:
            truncated = True
            break
        kind, size, count = CHUNK_HEADER.unpack_from(data, offset)
        offset += CHUNK_HEADER.size
        if size == 0:
            raise CaptureFormatError(f"{path}: chunk at byte {offset - CHUNK_HEADER.size} has record size 0")
        whole = min(count, (end - offset) // size)
        if whole < count:
            truncated = True
        known = kind in RECORD_SIZES and RECORD_SIZES[ActivityKind(kind)] == size
        if known and whole:
            activity = ActivityKind(kind)
            parts.setdefault(activity, []).append(
                np.frombuffer(data, dtype=DTYPES[activity], count=whole, offset=offset)
            )
        elif not known:
            skipped += 1
        offset += size * whole
        if truncated:
            break
    records = {
        kind: (chunks[0] if len(chunks) == 1 else np.concatenate(chunks)) for kind, chunks in parts.items()
    }
    return records, truncated, skipped


def load_capture(directory: Path, pid: int) -> Capture:
    """The capture of ``pid`` in ``directory``."""
    records_path, strings_path, meta_path = capture_paths(Path(directory), pid)
    if not records_path.exists():
        raise CaptureFormatError(f"{records_path}: no such capture")
    records, truncated, skipped = _read_records(records_path)
    strings = _read_strings(strings_path)
    meta: dict[str, Any] = read_json_object(meta_path) if meta_path.exists() else {}
    _check_string_ids(records, len(strings), records_path)
    return Capture(
        pid=pid, meta=meta, strings=strings, records=records, truncated=truncated, skipped_chunks=skipped
    )


def read_json_object(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; CaptureFormatError naming the file when it is empty, not JSON
    or not an object."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise CaptureFormatError(f"{path}: not UTF-8 text (byte {error.start})") from None
    if not text.strip():
        raise CaptureFormatError(f"{path}: empty; expected a JSON object")
    try:
        data = json.loads(text)
    except ValueError as error:
        raise CaptureFormatError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise CaptureFormatError(f"{path}: expected a JSON object, found {type(data).__name__}")
    return data


def capture_notices(trace: Trace) -> list[str]:
    """What is wrong with a capture that can still be read: no capture at all, a capture with no
    record, a records file cut short or with bytes after its last whole chunk, chunks of unknown
    kinds skipped, a process that did not finish its capture. Empty for a sound capture."""
    if not trace.captures:
        return [f"{trace.directory}: no capture (trace-<pid>.records) in it; nothing was captured"]
    notices = []
    for capture in trace.captures:
        name = trace.directory / f"trace-{capture.pid}.records"
        if capture.truncated:
            notices.append(
                f"{name}: ends inside a chunk (cut short, or bytes appended after its records); "
                f"the {capture.total_records} whole records before that point were read"
            )
        if capture.skipped_chunks:
            notices.append(f"{name}: {capture.skipped_chunks} chunk(s) of unknown kinds or sizes skipped")
        if capture.meta.get("complete") is False:
            notices.append(
                f"{name}: the process did not finish its capture (trace-{capture.pid}.json says complete: "
                "false); records it had not flushed are missing"
            )
        if capture.total_records == 0:
            notices.append(f"{name}: no records")
        refused = capture.meta.get("refused_subscriptions")
        if refused:
            notices.append(
                f"{name}: the program's own msptiSubscribe was refused {refused} "
                "time(s) while the collector held msPTI's only subscriber slot (capture with "
                "NPU_SIM_TRACE_SUBSCRIBE=0 to leave it to the program)"
            )
    return notices


def _check_string_ids(records: dict[ActivityKind, np.ndarray], count: int, path: Path) -> None:
    for kind, array in records.items():
        for name in STRING_FIELDS.get(kind, ()):
            if len(array) and int(array[name].max()) >= count:
                raise CaptureFormatError(
                    f"{path}: a {kind.name} record refers to string id {int(array[name].max())}, "
                    f"but the strings file defines {count - 1}"
                )


def load_trace(directory: Path | str, pids: Iterable[int] | None = None) -> Trace:
    """Every capture in ``directory`` (or those of ``pids``)."""
    root = Path(directory)
    if not root.is_dir():
        raise CaptureFormatError(f"{root}: not a capture directory")
    wanted = list(pids) if pids is not None else pids_in(root)
    run: dict[str, Any] = {}
    run_path = root / RUN_FILE
    if run_path.exists():
        run = read_json_object(run_path)
    captures = [load_capture(root, pid) for pid in wanted]
    if isinstance(run.get("device_properties"), dict):
        for one in captures:
            one.meta.setdefault("device_properties", run["device_properties"])
    return Trace(directory=root, captures=captures, run=run)


def device_properties(capture: Capture) -> dict[str, Any]:
    """What the capture says of its device, in Kineto's ``deviceProperties`` vocabulary
    (``name``, ``totalGlobalMem``, ``clockRateMHz``, ...): the ``device_properties`` the launcher
    recorded in run.json (``npu-sim trace`` records the simulated SoC's), else the SoC name alone,
    else nothing. Never looked up here, so the reader needs no device catalogue."""
    recorded = capture.meta.get("device_properties")
    properties: dict[str, Any] = dict(recorded) if isinstance(recorded, dict) else {}
    if capture.meta.get("soc"):
        properties.setdefault("name", capture.meta["soc"])
    return properties
