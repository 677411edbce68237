"""The vendor-compatible ``mspti`` package imported into the test process, and forgotten afterwards.

A module left in ``sys.modules`` would be what ``importlib.util.find_spec("mspti")`` answers for every
later test of the same worker (conformance's package discovery among them), so the import is undone.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType


@contextmanager
def imported_vendor_package(site: Path) -> Iterator[ModuleType]:
    """``import mspti`` with ``site`` first on the path; the path and the modules restored on exit."""
    sys.path.insert(0, str(site))
    try:
        yield importlib.import_module("mspti")
    finally:
        sys.path.remove(str(site))
        for name in [n for n in sys.modules if n == "mspti" or n.startswith("mspti.")]:
            del sys.modules[name]
