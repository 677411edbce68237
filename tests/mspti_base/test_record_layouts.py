"""The record layout table (mspti_base/record_layouts.toml) is self-consistent."""

from __future__ import annotations

import pytest

from conformance.abi import ACTIVITY_KINDS, NEWER_KINDS
from mspti_base.record_layouts import KIND_RECORD, LAYOUTS, RecordLayout, record_size

RECORDS = [layout for name, layout in LAYOUTS.items() if name.startswith("msptiActivity")]


@pytest.mark.parametrize("layout", RECORDS, ids=lambda layout: layout.type_name)
def test_packed_records_have_no_gaps_and_round_up_to_eight(layout: RecordLayout) -> None:
    end = 0
    for field in layout.fields:
        assert field.offset == end, f"{layout.type_name}.{field.name} leaves a gap or overlaps"
        end = field.offset + field.size
    assert layout.size == (end + 7) // 8 * 8


def test_every_activity_kind_has_a_record_type() -> None:
    kinds = {value for name, value in ACTIVITY_KINDS.items() if name not in ("INVALID", "COUNT")}
    kinds.add(NEWER_KINDS["OVERHEAD"])
    assert set(KIND_RECORD) == kinds
    assert all(record_size(kind) >= 8 for kind in kinds)
    assert record_size(0) == 0


def test_the_object_id_union_views_share_its_bytes() -> None:
    union = LAYOUTS["msptiObjectId"]
    assert {(f.offset, f.size) for f in union.fields} == {(0, 4), (4, 4)}
    marker_object = next(f for f in LAYOUTS["msptiActivityMarker"].fields if f.name == "objectId")
    assert (marker_object.size, marker_object.type) == (union.size, "msptiObjectId")


def test_newer_structs_are_marked() -> None:
    assert LAYOUTS["msptiActivityOverhead"].since == "overhead"
    assert KIND_RECORD[13] == "msptiActivityOverhead" and record_size(13) == 56
    assert all(not layout.since for name, layout in LAYOUTS.items() if name != "msptiActivityOverhead")
