"""The conformance collector logs every record's fields from the record schema: for each kind, exactly
the schema's fields under their log names (mspti_base.record_layouts.log_name), each with the value its
bytes hold; and a field added to a header reaches the log with no edit of collector.cpp."""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.build import COLLECTOR_DIR
from conformance.log import RunLog
from mspti_base import record_header, record_layouts
from mspti_base.record_layouts import FieldLayout, log_name
from support.record_headers import ADDED_FIELD, headers_with_added_field

PROGRAM = Path(__file__).with_name("programs") / "collector_fields.cpp"
TABLE = Path(record_layouts.__file__).with_name("record_layouts.toml")
UNKNOWN_KIND = 255  # the program's kind without a record type
#: Keys of every record event that are not fields of the record.
EVENT_KEYS = {"ev", "seq", "cid", "off"}

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def pattern(kind: int, size: int) -> bytes:
    """The record bytes the program writes (its pattern, the kind in front), before string pointers."""
    body = bytearray((kind * 37 + i * 11 + 1) & 0xFF for i in range(size))
    body[0:4] = struct.pack("<i", kind)
    return bytes(body)


def expected_value(field: FieldLayout, record: bytes) -> Any:
    raw = record[field.offset : field.offset + field.size]
    if field.type == "string":
        return f"text@{field.offset}"
    if field.type == "float":
        value = struct.unpack("<d" if field.size == 8 else "<f", raw)[0]
        return value if math.isfinite(value) else None
    return int.from_bytes(raw, "little")


def collector_log(include: Path, schema_header: str, work: Path) -> RunLog:
    """Compiles the program and the collector against ``include`` and ``schema_header``, runs it."""
    schema_dir = work / "schema"
    (schema_dir / "mspti_schema").mkdir(parents=True)
    (schema_dir / "mspti_schema" / "record_schema.h").write_text(schema_header, encoding="utf-8")
    binary = work / "collector_fields"
    command = ["g++", "-std=c++17", "-O0", "-Wall", "-Wextra", "-Werror", f"-I{COLLECTOR_DIR}"]
    command += [f"-I{schema_dir}", "-isystem", str(include / "mspti")]
    command += [str(PROGRAM), str(COLLECTOR_DIR / "collector.cpp"), "-o", str(binary), "-lpthread"]
    built = subprocess.run(command, capture_output=True, text=True)
    assert built.returncode == 0, f"{' '.join(command)}\n{built.stderr}"
    log = work / "collector.log"
    ran = subprocess.run([str(binary)], env={**os.environ, "MSPTI_CONFORMANCE_LOG": str(log)}, timeout=60)
    assert ran.returncode == 0
    return RunLog.from_file(log)


def check_log(run: RunLog, layouts: dict[str, record_layouts.RecordLayout], kinds: dict[int, str]) -> None:
    by_kind = {record.cid: record for record in run.records}  # the program logs kind k as completion k
    assert sorted(by_kind) == [*sorted(kinds), UNKNOWN_KIND]
    object_id = layouts["msptiObjectId"]
    for kind, struct_name in sorted(kinds.items()):
        layout = layouts[struct_name]
        fields = record_layouts._flat_fields(layout, object_id)
        record = pattern(kind, layout.size)
        logged = dict(by_kind[kind].data)
        want = {log_name(f.name): expected_value(f, record) for f in fields}
        assert len(want) == len(fields), f"{struct_name}: two fields share a log name"
        assert set(logged) - EVENT_KEYS == set(want), f"kind {kind} ({struct_name})"
        for key, value in want.items():
            assert logged[key] == value, f"kind {kind} ({struct_name}) field {key}"
    assert set(by_kind[UNKNOWN_KIND].data) - EVENT_KEYS == {"kind"}
    assert by_kind[UNKNOWN_KIND]["kind"] == UNKNOWN_KIND


def test_each_kind_logs_exactly_the_schemas_fields_a_field_added_to_a_header_too(tmp_path: Path) -> None:
    # One build (the collector takes a couple of seconds to compile): the headers with a field added to
    # MEMCPY's record, every other record as built; a hand-written list of fields would lack the new one.
    pytest.importorskip("pycparser")
    include = headers_with_added_field(tmp_path)
    grown = record_header.read_headers(include)
    facts = tmp_path / "record_header.json"
    facts.write_text(json.dumps(grown), encoding="utf-8")
    generated = tmp_path / "record_schema.h"
    subprocess.run(
        [sys.executable, "-m", "mspti_base.record_layouts_cpp", str(generated)],
        env={**os.environ, "MSPTI_RECORD_HEADER": str(facts)},
        check=True,
    )
    layouts, kinds, _, _, _ = record_layouts._load(TABLE, grown)
    assert layouts["msptiActivityMemcpy"].fields[-1].name == ADDED_FIELD[0]
    assert {name: layouts[name] for name in record_layouts.LAYOUTS if name != "msptiActivityMemcpy"} == {
        name: layout for name, layout in record_layouts.LAYOUTS.items() if name != "msptiActivityMemcpy"
    }
    run = collector_log(include, generated.read_text(encoding="utf-8"), tmp_path)
    check_log(run, layouts, kinds)
    assert ADDED_FIELD[0] in run.records_of(7)[0].data
