"""Native helpers written once: JSON string escaping lives in ``csrc/text/include/text/json_string.h``
(header-only, the bottom C++ layer), and the native parts that write JSON use it rather than a copy
(docs/architecture.md, "Source layout"); record sizes by kind come from the record schema only
("The record schema")."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HELPER = ROOT / "csrc" / "text" / "include" / "text" / "json_string.h"
#: What a hand-written JSON escaper spells: a \u00XX escape of a control character.
_ESCAPE = re.compile(r"\\\\u(%04x|00)")
#: The native parts built by CMake that write JSON files.
_JSON_WRITERS = ("csrc/sim/msprofiler/prof_dir.cpp", "csrc/tools/trace_collector/collector.cpp")


def test_json_escaping_is_written_once_in_csrc() -> None:
    assert _ESCAPE.search(HELPER.read_text(encoding="utf-8"))
    copies = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "csrc").rglob("*"))
        if path.suffix in (".cpp", ".h", ".cc") and path != HELPER and _ESCAPE.search(path.read_text("utf-8"))
    ]
    assert copies == []


def test_the_json_writers_include_the_helper() -> None:
    for name in _JSON_WRITERS:
        assert '#include "text/json_string.h"' in (ROOT / name).read_text(encoding="utf-8"), name


#: A kind -> record size table written by hand: a case returning a record struct's sizeof, or a list
#: of them. The record schema's views (record_schema.h, mspti_schema/record_kinds.h) are the one table.
_SIZE_CASE = re.compile(r"case\s+MSPTI_ACTIVITY_KIND_\w+\s*:\s*return\s+sizeof\s*\(\s*msptiActivity")
_SIZEOF_RECORD = re.compile(r"sizeof\s*\(\s*(msptiActivity\w*)\s*\)")
#: CANN's public headers keep CANN's text.
_CANN_HEADERS = ("csrc/sim/include/", "csrc/mspti/include/")


def test_no_native_source_restates_the_record_sizes() -> None:
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "*.c", "*.cpp", "*.cc", "*.h", "*.hpp"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    tables = []
    for name in tracked:
        if name.startswith(_CANN_HEADERS) or not (ROOT / name).is_file():
            continue
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        if _SIZE_CASE.search(text) or len(set(_SIZEOF_RECORD.findall(text))) >= 4:
            tables.append(name)
    assert len(tracked) > 100, "the tree's C/C++ sources were not found"
    assert tables == [], "kind -> record size tables outside the record schema"
