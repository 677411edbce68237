"""msPTI for Python: monitors that deliver activity records to Python callables.

The API of CANN's msPTI Python package: ``KernelMonitor``, ``HcclMonitor``,
``CommunicationMonitor`` and ``MstxMonitor`` with their data classes and enums. Records are taken
from msPTI's activity buffers by a native delivery thread and handed to the callables in batches.
``mspti_core.activity`` collects records of any kind; ``mspti_core.mstx`` emits mstx markers.
Run a script under msPTI with ``python -m mspti_core run SCRIPT``.

After ``os.fork()`` the child keeps the parent's running monitors and gets a delivery thread of its
own, started at its first flush, start, stop or exit: its callables receive the records the child
makes, never the parent's (those stay with the parent).
"""

from __future__ import annotations

from mspti_base.checkout import prefer_installed

# In a source checkout's root the checkout shadows the installed package: use the installed files.
__path__ = prefer_installed(__name__, __path__, "_mspti*.so")

from mspti_core._library import (
    LibraryNotFoundError,
    buffer_size,
    ensure_loaded,
    library_path,
    load_library,
    set_buffer_size,
)
from mspti_core.activity import callback_errors
from mspti_core.constant import Constant
from mspti_core.data import (
    CommunicationData,
    HcclData,
    KernelData,
    MarkerData,
    MsptiObjectId,
    RangeMarkerData,
)
from mspti_core.enums import (
    MsptiActivityFlag,
    MsptiActivityKind,
    MsptiActivitySourceKind,
    MsptiCommunicationDataType,
    MsptiResult,
)
from mspti_core.monitor import CommunicationMonitor, HcclMonitor, KernelMonitor, MstxMonitor

__all__ = [
    "CommunicationData",
    "CommunicationMonitor",
    "Constant",
    "HcclData",
    "HcclMonitor",
    "KernelData",
    "KernelMonitor",
    "LibraryNotFoundError",
    "MarkerData",
    "MsptiActivityFlag",
    "MsptiActivityKind",
    "MsptiActivitySourceKind",
    "MsptiCommunicationDataType",
    "MsptiObjectId",
    "MsptiResult",
    "MstxMonitor",
    "RangeMarkerData",
    "__version__",
    "buffer_size",
    "callback_errors",
    "ensure_loaded",
    "library_path",
    "load_library",
    "set_buffer_size",
]

__version__ = "0.1.0"
