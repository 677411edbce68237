"""KernelMonitor: a KernelData per kernel execution."""

from __future__ import annotations

from collections.abc import Callable

from mspti_core.data import KernelData
from mspti_core.enums import MsptiActivityKind, MsptiResult
from mspti_core.monitor.base import BaseMonitor

__all__ = ["KernelMonitor"]

_KIND = MsptiActivityKind.MSPTI_ACTIVITY_KIND_KERNEL


class KernelMonitor(BaseMonitor):
    def start(self, cb: Callable[[KernelData], None]) -> MsptiResult | int:
        """Enables KERNEL records and calls ``cb`` with each one (on a delivery thread)."""
        if not callable(cb):
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        return self._start([_KIND], [(_KIND, cb)])

    def stop(self) -> MsptiResult | int:
        """Delivers the pending records, then stops; ``cb`` is not called afterwards."""
        return self._stop()
