"""fuzz/make_seeds.py: the seeds cover every activity kind of the record schema."""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path
from types import ModuleType

import pytest

from mspti_base.record_layouts import KIND_RECORD, record_size

MAKE_SEEDS = Path(__file__).resolve().parents[2] / "fuzz" / "make_seeds.py"


@pytest.fixture(scope="module")
def seeds() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_seeds", MAKE_SEEDS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kinds_of(records: bytes) -> list[int]:
    """The kinds of a run of whole records, walked by the schema's record sizes."""
    kinds = []
    offset = 0
    while offset < len(records):
        kind = struct.unpack_from("<i", records, offset)[0]
        assert record_size(kind) > 0, f"kind {kind} at offset {offset} has no record in the schema"
        kinds.append(kind)
        offset += record_size(kind)
    assert offset == len(records)
    return kinds


def test_all_kinds_seed_holds_one_record_of_every_schema_kind(seeds: ModuleType) -> None:
    every = seeds.next_record_seeds()["all-kinds"][2:]  # after the cursor and limit bytes
    assert kinds_of(every) == sorted(KIND_RECORD)


def test_unknown_kind_is_past_every_schema_kind(seeds: ModuleType) -> None:
    assert seeds.UNKNOWN_KIND not in KIND_RECORD and record_size(seeds.UNKNOWN_KIND) == 0
    middle = seeds.next_record_seeds()["unknown-kind-middle"][2:]
    after_first = record_size(7)
    assert struct.unpack_from("<i", middle, after_first)[0] == seeds.UNKNOWN_KIND


def test_enable_all_switches_every_schema_kind(seeds: ModuleType) -> None:
    ops = seeds.enable_all()
    assert ops == b"".join(bytes([seeds.ENABLE, 0, kind]) for kind in sorted(KIND_RECORD))
