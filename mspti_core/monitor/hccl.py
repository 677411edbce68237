"""HcclMonitor: an HcclData per HCCL operation (needs msPTI in LD_PRELOAD)."""

from __future__ import annotations

from collections.abc import Callable

from mspti_core.data import HcclData
from mspti_core.enums import MsptiActivityKind, MsptiResult
from mspti_core.monitor.base import BaseMonitor

__all__ = ["HcclMonitor"]

_KIND = MsptiActivityKind.MSPTI_ACTIVITY_KIND_HCCL


class HcclMonitor(BaseMonitor):
    def start(self, cb: Callable[[HcclData], None]) -> MsptiResult | int:
        """Enables HCCL records and calls ``cb`` with each one.

        Returns MSPTI_ERROR_WITHOUT_LD_PRELOAD when msPTI was not preloaded.
        """
        if not callable(cb):
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        return self._start([_KIND], [(_KIND, cb)])

    def stop(self) -> MsptiResult | int:
        return self._stop()
