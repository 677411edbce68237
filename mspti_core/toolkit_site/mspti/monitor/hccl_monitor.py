"""HcclMonitor: an HcclData per HCCL operation (needs msPTI in LD_PRELOAD)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import mspti_core
from mspti.activity_data import HcclData
from mspti.constant import MsptiResult
from mspti.monitor.base_monitor import Channel, SingleKindMonitor

__all__ = ["HcclMonitor"]


class HcclMonitor(SingleKindMonitor):
    _channel: ClassVar[Channel] = Channel(mspti_core.HcclMonitor, "_receive")
    _data_class = HcclData
    _label = "hccl"

    def start(self, cb: Callable[[HcclData], None]) -> MsptiResult:
        """Enables HCCL records; ``cb`` gets each one as an HcclData.

        Without msPTI in LD_PRELOAD it returns MSPTI_ERROR_WITHOUT_LD_PRELOAD and, as in CANN's
        package, keeps its session reference until stop().
        """
        return self._start(cb)
