"""KernelMonitor: a KernelData per kernel execution."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import mspti_core
from mspti.activity_data import KernelData
from mspti.constant import MsptiResult
from mspti.monitor.base_monitor import Channel, SingleKindMonitor

__all__ = ["KernelMonitor"]


class KernelMonitor(SingleKindMonitor):
    _channel: ClassVar[Channel] = Channel(mspti_core.KernelMonitor, "_receive")
    _data_class = KernelData
    _label = "kernel"

    def start(self, cb: Callable[[KernelData], None]) -> MsptiResult:
        """Enables KERNEL records; ``cb`` gets each one as a KernelData, on a delivery thread."""
        return self._start(cb)
