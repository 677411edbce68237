"""CommunicationMonitor: a CommunicationData per communication operator."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import mspti_core
from mspti.activity_data import CommunicationData
from mspti.constant import MsptiResult
from mspti.monitor.base_monitor import Channel, SingleKindMonitor

__all__ = ["CommunicationMonitor"]


class CommunicationMonitor(SingleKindMonitor):
    _channel: ClassVar[Channel] = Channel(mspti_core.CommunicationMonitor, "_receive")
    _data_class = CommunicationData
    _label = "communication"

    def start(self, cb: Callable[[CommunicationData], None]) -> MsptiResult:
        """Enables COMMUNICATION records; ``cb`` gets each one as a CommunicationData (a record
        whose data type is not a MsptiCommunicationDataType is skipped with a printed error)."""
        return self._start(cb)
