"""The enumerations and limits of CANN's msPTI Python package, with its types.

Every enumeration here is a plain :class:`enum.Enum`, as in CANN's package: members do not compare
equal to numbers (``MsptiResult.MSPTI_SUCCESS == 0`` is False) and ``int()`` of a member fails;
``member.value`` is the number of the C API. ``mspti_core.enums`` holds the same values as
:class:`enum.IntEnum` types.

The values are those of CANN's package and of this project's C headers alike:
``MsptiActivityKind`` has ``MSPTI_ACTIVITY_KIND_OVERHEAD = 13`` and ``MSPTI_ACTIVITY_KIND_COUNT =
14``, and ``MsptiResult`` has the codes 7 to 9.
"""

from __future__ import annotations

from enum import Enum

__all__ = [
    "Constant",
    "MsptiActivityFlag",
    "MsptiActivityKind",
    "MsptiActivitySourceKind",
    "MsptiCommunicationDataType",
    "MsptiResult",
]


class Constant:
    #: Largest buffer size set_buffer_size accepts, in MB.
    MAX_BUFFER_SIZE = 256
    #: Seconds CANN's package waits after leaving the session before it flushes (see
    #: BaseMonitor.stop_monitor: here mspti_core decides whether the library needs that wait).
    FLUSH_SLEEP_TIME = 0.05


class MsptiResult(Enum):
    MSPTI_SUCCESS = 0
    MSPTI_ERROR_INVALID_PARAMETER = 1
    MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED = 2
    MSPTI_ERROR_MAX_LIMIT_REACHED = 3
    MSPTI_ERROR_DEVICE_OFFLINE = 4
    MSPTI_ERROR_QUEUE_EMPTY = 5
    MSPTI_ERROR_WITHOUT_LD_PRELOAD = 6
    MSPTI_ERROR_NOT_INITIALIZED = 7
    MSPTI_ERROR_INVALID_KIND = 8
    MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT = 9
    MSPTI_ERROR_INNER = 999
    MSPTI_ERROR_FORCE_INT = 0x7FFFFFFF


class MsptiActivityKind(Enum):
    MSPTI_ACTIVITY_KIND_INVALID = 0
    MSPTI_ACTIVITY_KIND_MARKER = 1
    MSPTI_ACTIVITY_KIND_KERNEL = 2
    MSPTI_ACTIVITY_KIND_API = 3
    MSPTI_ACTIVITY_KIND_HCCL = 4
    MSPTI_ACTIVITY_KIND_MEMORY = 5
    MSPTI_ACTIVITY_KIND_MEMSET = 6
    MSPTI_ACTIVITY_KIND_MEMCPY = 7
    MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION = 8
    MSPTI_ACTIVITY_KIND_COMMUNICATION = 9
    MSPTI_ACTIVITY_KIND_ACL_API = 10
    MSPTI_ACTIVITY_KIND_NODE_API = 11
    MSPTI_ACTIVITY_KIND_RUNTIME_API = 12
    MSPTI_ACTIVITY_KIND_OVERHEAD = 13
    MSPTI_ACTIVITY_KIND_COUNT = 14
    MSPTI_ACTIVITY_KIND_FORCE_INT = 0x7FFFFFFF


class MsptiActivityFlag(Enum):
    MSPTI_ACTIVITY_FLAG_NONE = 0
    MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS = 1
    MSPTI_ACTIVITY_FLAG_MARKER_START = 2
    MSPTI_ACTIVITY_FLAG_MARKER_END = 4
    MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE = 8
    MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE = 16
    MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE = 32


class MsptiActivitySourceKind(Enum):
    MSPTI_ACTIVITY_SOURCE_KIND_HOST = 0
    MSPTI_ACTIVITY_SOURCE_KIND_DEVICE = 1


class MsptiCommunicationDataType(Enum):
    """Element types of communication operations (13 is unassigned)."""

    MSPTI_ACTIVITY_COMMUNICATION_INT8 = 0
    MSPTI_ACTIVITY_COMMUNICATION_INT16 = 1
    MSPTI_ACTIVITY_COMMUNICATION_INT32 = 2
    MSPTI_ACTIVITY_COMMUNICATION_FP16 = 3
    MSPTI_ACTIVITY_COMMUNICATION_FP32 = 4
    MSPTI_ACTIVITY_COMMUNICATION_INT64 = 5
    MSPTI_ACTIVITY_COMMUNICATION_UINT64 = 6
    MSPTI_ACTIVITY_COMMUNICATION_UINT8 = 7
    MSPTI_ACTIVITY_COMMUNICATION_UINT16 = 8
    MSPTI_ACTIVITY_COMMUNICATION_UINT32 = 9
    MSPTI_ACTIVITY_COMMUNICATION_FP64 = 10
    MSPTI_ACTIVITY_COMMUNICATION_BFP16 = 11
    MSPTI_ACTIVITY_COMMUNICATION_INT128 = 12
    MSPTI_ACTIVITY_COMMUNICATION_HIF8 = 14
    MSPTI_ACTIVITY_COMMUNICATION_FP8E4M3 = 15
    MSPTI_ACTIVITY_COMMUNICATION_FP8E5M2 = 16
    MSPTI_ACTIVITY_COMMUNICATION_FP8E8M0 = 17
    MSPTI_ACTIVITY_COMMUNICATION_INVALID_TYPE = 0xFFFF
