"""What every package of mspti-sim builds on, at the bottom of the layers (docs/architecture.md).

``record_layouts``: the record layouts of msPTI's C ABI (one table for every reader of raw records).
``checkout``: a source checkout's package defers to the installed copy that has the compiled parts.
Imports nothing but the standard library (and ``tomli`` on Python 3.10).
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
