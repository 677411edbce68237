"""msPTI for Python: our libmspti.so, its bindings and the monitor classes."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
