"""The on-disk capture format (docs/trace.md): constants and header parsing shared by the reader
and the writer. All integers are little-endian.

``trace-<pid>.records``::

    header   magic "NPUSIMTR", u32 version, u32 header size, u32 kind count, u32 reserved,
             then per kind {u32 kind, u32 record size}
    chunks   {u32 kind, u32 record size, u64 count} followed by count records of that kind,
             byte for byte as msPTI wrote them except that string pointers are string ids

``trace-<pid>.strings``: magic "NPUSIMST", u32 version, u32 reserved, then NUL-terminated strings;
string id k (k >= 1) is the k-th string, id 0 stands for a NULL pointer.

``trace-<pid>.json``: metadata (pid, argv, SoC, clock mode, record and drop counts, ``complete``).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CHUNK_HEADER",
    "FORMAT_VERSION",
    "RECORDS_MAGIC",
    "STRINGS_HEADER_SIZE",
    "STRINGS_MAGIC",
    "CaptureFormatError",
    "CaptureHeader",
    "capture_paths",
    "parse_header",
    "pids_in",
]

RECORDS_MAGIC = b"NPUSIMTR"
STRINGS_MAGIC = b"NPUSIMST"
FORMAT_VERSION = 1
HEADER_FIXED = struct.Struct("<8sIIII")
KIND_ENTRY = struct.Struct("<II")
CHUNK_HEADER = struct.Struct("<IIQ")
STRINGS_HEADER = struct.Struct("<8sII")
STRINGS_HEADER_SIZE = STRINGS_HEADER.size
_STEM = re.compile(r"^trace-(\d+)\.records$")


class CaptureFormatError(ValueError):
    """A capture file is not in the expected format; the message names the file and the problem."""


@dataclass(frozen=True)
class CaptureHeader:
    version: int
    size: int
    record_sizes: dict[int, int]


def parse_header(data: bytes | memoryview, path: Path) -> CaptureHeader:
    if len(data) < HEADER_FIXED.size:
        raise CaptureFormatError(f"{path}: too short for a capture header ({len(data)} bytes)")
    magic, version, size, count, _reserved = HEADER_FIXED.unpack_from(data, 0)
    if magic != RECORDS_MAGIC:
        raise CaptureFormatError(f"{path}: not a capture records file (magic {bytes(magic)!r})")
    if version != FORMAT_VERSION:
        raise CaptureFormatError(f"{path}: format version {version}, this reader knows {FORMAT_VERSION}")
    if size != HEADER_FIXED.size + KIND_ENTRY.size * count or size > len(data):
        raise CaptureFormatError(f"{path}: header size {size} does not match {count} kind entries")
    sizes = {}
    for index in range(count):
        kind, record_size = KIND_ENTRY.unpack_from(data, HEADER_FIXED.size + KIND_ENTRY.size * index)
        sizes[kind] = record_size
    return CaptureHeader(version=version, size=size, record_sizes=sizes)


def capture_paths(directory: Path, pid: int) -> tuple[Path, Path, Path]:
    """The records, strings and metadata files of ``pid`` in ``directory``."""
    stem = directory / f"trace-{pid}"
    return stem.with_suffix(".records"), stem.with_suffix(".strings"), stem.with_suffix(".json")


def pids_in(directory: Path) -> list[int]:
    """The pids that have a records file in ``directory``, ascending."""
    pids = []
    for entry in directory.iterdir():
        match = _STEM.match(entry.name)
        if match:
            pids.append(int(match.group(1)))
    return sorted(pids)
