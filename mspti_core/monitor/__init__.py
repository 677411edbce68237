"""The monitors: KernelMonitor, HcclMonitor, CommunicationMonitor and MstxMonitor."""

from __future__ import annotations

from mspti_core.monitor.base import BaseMonitor
from mspti_core.monitor.communication import CommunicationMonitor
from mspti_core.monitor.hccl import HcclMonitor
from mspti_core.monitor.kernel import KernelMonitor
from mspti_core.monitor.mstx import MstxMonitor

__all__ = ["BaseMonitor", "CommunicationMonitor", "HcclMonitor", "KernelMonitor", "MstxMonitor"]
