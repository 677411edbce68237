"""Native helpers written once: JSON string escaping lives in ``csrc/text/include/text/json_string.h``
(header-only, the bottom C++ layer), and the native parts that write JSON use it rather than a copy
(docs/architecture.md, "Source layout")."""

from __future__ import annotations

import re
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
