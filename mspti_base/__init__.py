"""What every package of mspti-sim builds on, at the bottom of the layers (docs/architecture.md).

``record_header``: the record layouts and enumerations read from msPTI's C headers (at build time).
``record_layouts``: the record schema of msPTI's C ABI (one table for every reader of raw records).
``checkout``: a source checkout's package defers to the installed copy that has the compiled parts.
Imports nothing but the standard library (and ``tomli`` on Python 3.10), and ``pycparser`` where it
reads the headers.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
