"""Types of command-line numbers, shared by ``npu-sim`` and ``mspti-conformance``: each refuses a bad
value with argparse's one-line usage error. (``mspti-trace`` imports nothing from the simulator and
keeps its own ``--timeout`` check.)"""

from __future__ import annotations

import argparse

__all__ = ["positive_int", "positive_seconds", "whole_number"]


def _integer(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def whole_number(text: str) -> int:
    """0 or more."""
    value = _integer(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}; expected a whole number (0 or more)")
    return value


def positive_int(text: str) -> int:
    """1 or more."""
    value = _integer(text)
    if value is None or value <= 0:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}; expected a positive whole number")
    return value


def positive_seconds(text: str) -> float:
    """A finite number of seconds above 0."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"invalid value {text!r}; expected a positive number of seconds")
    return seconds
