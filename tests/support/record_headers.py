"""msPTI's public C headers, and a copy of them with a field added to a record (the tests that show a
new field reaching every view of the record schema with no other change)."""

from __future__ import annotations

import shutil
from pathlib import Path

__all__ = ["ADDED_FIELD", "INCLUDE", "headers_with_added_field"]

#: The include folder of msPTI's public headers (``mspti/*.h``).
INCLUDE = Path(__file__).resolve().parents[2] / "csrc" / "mspti" / "include"
#: The field the copy adds at the end of msptiActivityMemcpy, and its C type.
ADDED_FIELD = ("addedCount", "uint32_t")


def headers_with_added_field(parent: Path) -> Path:
    """A copy of the headers under ``parent`` whose msptiActivityMemcpy ends with ``ADDED_FIELD``;
    returns its include folder."""
    include = parent / "include"
    shutil.copytree(INCLUDE, include)
    header = include / "mspti" / "mspti_activity.h"
    text = header.read_text(encoding="utf-8")
    end = text.index("} msptiActivityMemcpy;")
    name, c_type = ADDED_FIELD
    header.write_text(f"{text[:end]}    {c_type} {name};\n{text[end:]}", encoding="utf-8")
    return include
