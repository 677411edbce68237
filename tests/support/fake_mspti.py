"""A tiny stand-in libmspti.so, compiled in the test: every entry point a workload links returns
MSPTI_SUCCESS and delivers nothing. With ``ext=False`` it lacks the mspti_ext.h extensions (as the
vendor's library does), so it is told apart from this project's library and lets programs that look
those up at run time be tested without them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.abi import PUBLIC_FUNCTIONS

#: The mspti_ext.h extensions only this project's library exports.
EXT_FUNCTIONS = ("msptiActivityGetDroppedRecords", "msptiActivityGetDroppedRecordsByReason")


def build_fake_mspti(directory: Path, *, ext: bool, extra_source: str = "") -> Path:
    """``directory/libmspti.so``: the documented API (conformance.abi.PUBLIC_FUNCTIONS), plus the
    extensions when ``ext``, plus ``extra_source`` (more C, e.g. a destructor)."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler to build a fake libmspti.so")
    names = PUBLIC_FUNCTIONS + (EXT_FUNCTIONS if ext else ())
    source = directory / "fake_mspti.c"
    directory.mkdir(parents=True, exist_ok=True)
    functions = "".join(f"int {name}(void) {{ return 0; }}\n" for name in names)
    source.write_text(functions + extra_source, encoding="utf-8")
    library = directory / "libmspti.so"
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-o", str(library), str(source), "-Wl,-soname,libmspti.so"],
        check=True,
        capture_output=True,
    )
    return library
