"""The record layouts come from the C headers: record_header reads them, record_layouts.toml adds
only what they cannot say, and a field added to a header reaches the schema with no other change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mspti_base import record_header, record_layouts
from mspti_base.record_layouts import LAYOUTS, python_name
from support.record_headers import INCLUDE, headers_with_added_field

TABLE = Path(record_layouts.__file__).with_name("record_layouts.toml")

pytest.importorskip("pycparser")


@pytest.fixture(scope="module")
def facts() -> dict:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler to preprocess the headers")
    return record_header.read_headers(INCLUDE)


def test_the_headers_facts_are_the_schemas(facts: dict) -> None:
    for name, layout in LAYOUTS.items():
        struct = facts["structs"][name]
        assert (struct["size"], struct["align"]) == (layout.size, layout.align)
        assert [(n, o, s) for n, o, s, _ in struct["fields"]] == [
            (f.name, f.offset, f.size) for f in layout.fields
        ]


def test_a_field_added_to_a_header_reaches_the_schema_with_no_table_line(facts: dict, tmp_path: Path) -> None:
    grown = record_header.read_headers(headers_with_added_field(tmp_path))
    layouts, _, _, _, _ = record_layouts._load(TABLE, grown)
    memcpy_layout = layouts["msptiActivityMemcpy"]
    added = memcpy_layout.fields[-1]
    assert (added.name, added.offset, added.size, added.type) == ("addedCount", 49, 4, "uint")
    assert python_name(added.name) == "added_count"
    assert memcpy_layout.size == 56  # 53 bytes, rounded up to 8
    # Nothing else moved.
    assert layouts["msptiActivityMemset"] == LAYOUTS["msptiActivityMemset"]


@pytest.mark.parametrize(
    ("table_line", "named"),
    [
        ('[python_names]\nbandWidth = "bandwidth"\nnoSuchField = "x"\n', "noSuchField"),
        ('[field_types]\nisAsync = "bool"\nwasAsync = "bool"\n', "wasAsync"),
    ],
)
def test_the_table_names_no_field_the_headers_lack(
    facts: dict, tmp_path: Path, table_line: str, named: str
) -> None:
    section = table_line.split("\n", 1)[0]
    text = TABLE.read_text(encoding="utf-8")
    start = text.index(f"\n{section}\n") + 1
    end = text.index("\n\n", start)
    table = tmp_path / "record_layouts.toml"
    table.write_text(text[:start] + table_line.rstrip("\n") + text[end:], encoding="utf-8")
    with pytest.raises(ValueError, match=named):
        record_layouts._load(table, facts)


def test_the_table_names_no_meaning_of_a_field_the_header_lacks(facts: dict, tmp_path: Path) -> None:
    text = TABLE.read_text(encoding="utf-8").replace(
        "meanings = { bandWidth", "meanings = { bandwidthGbps", 1
    )
    table = tmp_path / "record_layouts.toml"
    table.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="bandwidthGbps"):
        record_layouts._load(table, facts)


def test_an_unreadable_header_is_a_clear_error(tmp_path: Path) -> None:
    include = tmp_path / "include"
    shutil.copytree(INCLUDE, include)
    header = include / "mspti" / "mspti_activity.h"
    header.write_text(
        header.read_text(encoding="utf-8").replace("} msptiActivityMemcpy;", "} msptiActivityMemcpy")
    )
    with pytest.raises(record_header.HeaderError, match="parsing the msPTI headers failed"):
        record_header.read_headers(include)
