"""The msPTI conformance suite: clause catalogue, scenarios, checkers and reports."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
