"""mstx markers from Python: marks and ranges, host-only or also on a device stream.

The counterpart of ``torch_npu.npu.mstx``: the calls go through the mstx front end to the tool
named by ``MSTX_INJECTION_PATH`` (CANN's or the simulator's libprofapi), exactly like a C program's.
A ``stream`` is a stream handle (an int, or an object with a ``handle`` attribute such as
``sim_runtime.npu.Stream``); without one the marker is host-only.
"""

from __future__ import annotations

from typing import Any

from mspti_core import _mspti  # type: ignore[attr-defined]

__all__ = ["Domain", "mark", "range_end", "range_start", "tool_id"]

_front = _mspti.mstx


def _handle(stream: Any) -> int:
    if stream is None:
        return 0
    handle = getattr(stream, "handle", stream)
    if isinstance(handle, bool) or not isinstance(handle, int):
        raise TypeError(f"a stream is an int handle or has a .handle, not {stream!r}")
    return handle


def mark(message: str, stream: Any = None) -> None:
    """An instant mark."""
    _front.mark(message, _handle(stream))


def range_start(message: str, stream: Any = None) -> int:
    """Opens a range and returns its id (0 when no tool records it)."""
    return int(_front.range_start(message, _handle(stream)))


def range_end(range_id: int) -> None:
    _front.range_end(range_id)


def tool_id() -> int:
    """The id of the tool that receives the markers (0: none)."""
    return int(_front.tool_id())


class Domain:
    """A named marker domain (msPTI can switch domains off: MstxMonitor.disable_domain)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.handle = int(_front.domain_create(name))

    def mark(self, message: str, stream: Any = None) -> None:
        _front.domain_mark(self.handle, message, _handle(stream))

    def range_start(self, message: str, stream: Any = None) -> int:
        return int(_front.domain_range_start(self.handle, message, _handle(stream)))

    def range_end(self, range_id: int) -> None:
        _front.domain_range_end(self.handle, range_id)

    def destroy(self) -> None:
        if self.handle:
            _front.domain_destroy(self.handle)
            self.handle = 0
