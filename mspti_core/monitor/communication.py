"""CommunicationMonitor: a CommunicationData per communication operator."""

from __future__ import annotations

from collections.abc import Callable

from mspti_core.data import CommunicationData
from mspti_core.enums import MsptiActivityKind, MsptiResult
from mspti_core.monitor.base import BaseMonitor

__all__ = ["CommunicationMonitor"]

_KIND = MsptiActivityKind.MSPTI_ACTIVITY_KIND_COMMUNICATION


class CommunicationMonitor(BaseMonitor):
    def start(self, cb: Callable[[CommunicationData], None]) -> MsptiResult | int:
        """Enables COMMUNICATION records and calls ``cb`` with each one."""
        if not callable(cb):
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        return self._start([_KIND], [(_KIND, cb)])

    def stop(self) -> MsptiResult | int:
        return self._stop()
