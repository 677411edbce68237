"""Reading captures: packed layouts (built here with struct, independently of the reader's
dtypes), chunking, strings and damaged files."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from mspti_trace import CaptureFormatError, load_capture, load_trace
from mspti_trace.capture_format import CHUNK_HEADER, HEADER_FIXED, KIND_ENTRY, STRINGS_HEADER
from mspti_trace.kinds import DTYPES, RECORD_SIZES, ActivityKind

# (struct format of the packed record, its sizeof) per kind, from the record layout table.
PACKED = {
    ActivityKind.MARKER: ("<IIIQQIIQQ", 56),
    ActivityKind.KERNEL: ("<IQQIIQQQ", 56),
    ActivityKind.API: ("<IQQIIQQ", 48),
    ActivityKind.HCCL: ("<IQQIIdQQ", 56),
    ActivityKind.MEMORY: ("<IIIQQQQQIII", 64),
    ActivityKind.MEMSET: ("<IIQQQIIQB", 56),
    ActivityKind.MEMCPY: ("<IIQQQIIQB", 56),
    ActivityKind.EXTERNAL_CORRELATION: ("<IIQQ", 24),
    ActivityKind.COMMUNICATION: ("<IIQIIQQQQQQ", 72),
}


def write_raw(
    directory: Path, pid: int, chunks: list[tuple[int, int, bytes, int]], strings: list[str]
) -> None:
    kinds = list(ActivityKind)
    header = HEADER_FIXED.pack(
        b"NPUSIMTR", 1, HEADER_FIXED.size + KIND_ENTRY.size * len(kinds), len(kinds), 0
    )
    header += b"".join(KIND_ENTRY.pack(int(k), RECORD_SIZES[k]) for k in kinds)
    body = b"".join(CHUNK_HEADER.pack(kind, size, count) + data for kind, size, data, count in chunks)
    (directory / f"trace-{pid}.records").write_bytes(header + body)
    text = b"".join(s.encode() + b"\0" for s in strings)
    (directory / f"trace-{pid}.strings").write_bytes(STRINGS_HEADER.pack(b"NPUSIMST", 1, 0) + text)
    (directory / f"trace-{pid}.json").write_text(json.dumps({"pid": pid, "complete": True}))


def pack(kind: ActivityKind, *values: object) -> bytes:
    fmt, size = PACKED[ActivityKind.API if kind in (10, 11, 12) else kind]
    raw = struct.pack(fmt, int(kind), *values)
    return raw + b"\0" * (size - len(raw))


@pytest.mark.parametrize("kind", list(ActivityKind))
def test_dtype_sizes_match_the_packed_layouts(kind: ActivityKind) -> None:
    fmt, size = PACKED[ActivityKind.API if kind in (10, 11, 12) else kind]
    assert struct.calcsize(fmt) <= size and size % 8 == 0
    assert DTYPES[kind].itemsize == size


def test_kernel_and_api_records_decode_field_by_field(tmp_path: Path) -> None:
    kernel = pack(ActivityKind.KERNEL, 1000, 3000, 1, 7, 42, 2, 1)  # type id 2, name id 1
    api = pack(ActivityKind.ACL_API, 900, 950, 55, 56, 42, 3)
    write_raw(
        tmp_path, 55, [(2, 56, kernel, 1), (10, 48, api, 1)], ["MatMulV2_x", "KERNEL_AICORE", "aclnnMatmul"]
    )
    capture = load_capture(tmp_path, 55)
    k = capture.table(ActivityKind.KERNEL)[0]
    assert (int(k["start"]), int(k["end"]), int(k["device_id"]), int(k["stream_id"])) == (1000, 3000, 1, 7)
    assert int(k["correlation_id"]) == 42
    assert (
        capture.strings[int(k["name"])] == "MatMulV2_x" and capture.strings[int(k["type"])] == "KERNEL_AICORE"
    )
    a = capture.table(ActivityKind.ACL_API)[0]
    assert (int(a["process_id"]), int(a["thread_id"]), int(a["correlation_id"])) == (55, 56, 42)
    assert capture.text(np.array([a["name"]]))[0] == "aclnnMatmul"
    assert len(capture.apis()) == 1 and capture.meta["complete"] is True


def test_marker_memory_and_communication_fields(tmp_path: Path) -> None:
    marker = pack(ActivityKind.MARKER, 2, 0, 123456789, 9, 55, 56, 1, 2)
    memory = pack(ActivityKind.MEMORY, 1, 1, 77, 10, 20, 0xDEAD, 4096, 55, 3, 0xFFFFFFFF)
    comm = pack(ActivityKind.COMMUNICATION, 4, 1024, 3, 9, 100, 200, 3, 4, 5, 88)
    write_raw(
        tmp_path,
        55,
        [(1, 56, marker, 1), (5, 64, memory, 1), (9, 72, comm, 1)],
        ["layer", "decoder_layers", "RING", "hcom_allReduce_", "comm0"],
    )
    capture = load_capture(tmp_path, 55)
    m = capture.table(ActivityKind.MARKER)[0]
    assert (int(m["flag"]), int(m["timestamp"]), int(m["id"]), int(m["object_b"])) == (2, 123456789, 9, 56)
    assert (
        capture.strings[int(m["name"])] == "layer" and capture.strings[int(m["domain"])] == "decoder_layers"
    )
    r = capture.table(ActivityKind.MEMORY)[0]
    assert (int(r["operation_type"]), int(r["bytes"]), int(r["device_id"]), int(r["stream_id"])) == (
        1,
        4096,
        3,
        0xFFFFFFFF,
    )
    c = capture.table(ActivityKind.COMMUNICATION)[0]
    assert (int(c["count"]), int(c["stream_id"]), int(c["correlation_id"])) == (1024, 9, 88)
    assert capture.strings[int(c["alg_type"])] == "RING" and capture.strings[int(c["comm_name"])] == "comm0"


def test_chunks_of_a_kind_are_concatenated_in_order(decoder_dir: Path) -> None:
    capture = load_trace(decoder_dir).capture()
    kernels = capture.table(ActivityKind.KERNEL)
    assert len(kernels) == capture.meta["records"]["kernel"]
    assert np.all(np.diff(kernels["start"].astype(np.int64)) > 0)


def test_a_truncated_file_keeps_its_whole_records(tmp_path: Path) -> None:
    records = b"".join(pack(ActivityKind.KERNEL, i, i + 1, 0, 0, i, 0, 0) for i in range(4))
    write_raw(tmp_path, 9, [(2, 56, records, 4)], [])
    path = tmp_path / "trace-9.records"
    path.write_bytes(path.read_bytes()[:-30])
    capture = load_capture(tmp_path, 9)
    assert capture.truncated and len(capture.table(ActivityKind.KERNEL)) == 3


def test_a_chunk_of_an_unknown_kind_is_skipped(tmp_path: Path) -> None:
    kernel = pack(ActivityKind.KERNEL, 1, 2, 0, 0, 1, 0, 0)
    write_raw(tmp_path, 9, [(77, 16, b"\0" * 32, 2), (2, 56, kernel, 1)], [])
    capture = load_capture(tmp_path, 9)
    assert capture.skipped_chunks == 1 and len(capture.table(ActivityKind.KERNEL)) == 1


def test_bad_magic_and_dangling_string_ids_are_reported(tmp_path: Path) -> None:
    kernel = pack(ActivityKind.KERNEL, 1, 2, 0, 0, 1, 0, 5)  # name id 5, but no strings
    write_raw(tmp_path, 9, [(2, 56, kernel, 1)], [])
    with pytest.raises(CaptureFormatError, match="string id 5"):
        load_capture(tmp_path, 9)
    (tmp_path / "trace-9.records").write_bytes(b"NOTATRACE" * 4)
    with pytest.raises(CaptureFormatError, match="not a capture records file"):
        load_capture(tmp_path, 9)


def test_a_directory_holds_one_capture_per_pid(fakes, tmp_path: Path) -> None:
    for pid in (300, 100, 200):
        fakes.decoder_capture(tmp_path, layers=1, steps=1, pid=pid)
    trace = load_trace(tmp_path)
    assert [c.pid for c in trace.captures] == [100, 200, 300]
    assert trace.capture(200).pid == 200
    with pytest.raises(CaptureFormatError, match="no capture of pid 7"):
        trace.capture(7)
