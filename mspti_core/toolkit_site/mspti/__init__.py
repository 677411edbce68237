"""CANN's msPTI Python package (``import mspti``), on this project's mspti_core.

Code written for the package CANN ships runs unchanged: the same names, plain-Enum result and enum
types (``MsptiResult.MSPTI_SUCCESS == 0`` is False), data classes with the package's fields, and
its semantics where monitors share state (one session, one callback per activity kind). The
records come from mspti_core, which also offers a richer API (docs/python.md compares the two).
This package is not part of the mspti_core wheel's top level: the simulated CANN toolkit puts it on
``PYTHONPATH`` as ``<toolkit>/python/site-packages/mspti``.
"""

from __future__ import annotations

from mspti.activity_data import (
    CommunicationData,
    HcclData,
    KernelData,
    MarkerData,
    MsptiObjectId,
    RangeMarkerData,
)
from mspti.constant import (
    MsptiActivityFlag,
    MsptiActivityKind,
    MsptiActivitySourceKind,
    MsptiCommunicationDataType,
    MsptiResult,
)
from mspti.monitor.communication_monitor import CommunicationMonitor
from mspti.monitor.hccl_monitor import HcclMonitor
from mspti.monitor.kernel_monitor import KernelMonitor
from mspti.monitor.mstx_monitor import MstxMonitor

__all__ = [
    "CommunicationData",
    "CommunicationMonitor",
    "HcclData",
    "HcclMonitor",
    "KernelData",
    "KernelMonitor",
    "MarkerData",
    "MsptiActivityFlag",
    "MsptiActivityKind",
    "MsptiActivitySourceKind",
    "MsptiCommunicationDataType",
    "MsptiObjectId",
    "MsptiResult",
    "MstxMonitor",
    "RangeMarkerData",
]
