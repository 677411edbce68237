"""msPTI activity kinds and the packed record layouts as numpy structured dtypes.

The layouts are those of the public headers (csrc/mspti/include/mspti/mspti_activity.h): every
record is packed and its size rounded up to 8. In a capture every ``const char *`` field holds a
string id instead of a pointer (0 = NULL), so those fields are read as ``uint64``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

import numpy as np

__all__ = [
    "API_KINDS",
    "DEVICE_OP_KINDS",
    "DTYPES",
    "INVALID_STREAM",
    "KIND_NAMES",
    "RECORD_SIZES",
    "STRING_FIELDS",
    "ActivityKind",
    "MarkerFlag",
    "kind_from_name",
]


class ActivityKind(enum.IntEnum):
    MARKER = 1
    KERNEL = 2
    API = 3
    HCCL = 4
    MEMORY = 5
    MEMSET = 6
    MEMCPY = 7
    EXTERNAL_CORRELATION = 8
    COMMUNICATION = 9
    ACL_API = 10
    NODE_API = 11
    RUNTIME_API = 12


class MarkerFlag(enum.IntFlag):
    INSTANTANEOUS = 1
    START = 2
    END = 4
    INSTANTANEOUS_WITH_DEVICE = 8
    START_WITH_DEVICE = 16
    END_WITH_DEVICE = 32


#: The kinds that share the msptiActivityApi layout.
API_KINDS: tuple[ActivityKind, ...] = (
    ActivityKind.API,
    ActivityKind.ACL_API,
    ActivityKind.NODE_API,
    ActivityKind.RUNTIME_API,
)
#: Device-side operations that a host API launches (joined to it by correlation id).
DEVICE_OP_KINDS: tuple[ActivityKind, ...] = (
    ActivityKind.KERNEL,
    ActivityKind.MEMCPY,
    ActivityKind.MEMSET,
    ActivityKind.COMMUNICATION,
)

#: The names the collector and ``--kinds`` use.
KIND_NAMES: Mapping[ActivityKind, str] = {kind: kind.name.lower() for kind in ActivityKind}


def kind_from_name(name: str) -> ActivityKind:
    """``"kernel"`` -> ActivityKind.KERNEL (case-insensitive); ValueError for an unknown name."""
    try:
        return ActivityKind[name.strip().upper()]
    except KeyError:
        known = ", ".join(KIND_NAMES.values())
        raise ValueError(f"unknown activity kind {name!r}; expected one of: {known}") from None


def _packed(size: int, fields: list[tuple[str, str, int]]) -> np.dtype:
    names = [name for name, _, _ in fields]
    formats = [fmt for _, fmt, _ in fields]
    offsets = [offset for _, _, offset in fields]
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": size})


_API = _packed(
    48,
    [
        ("kind", "<u4", 0),
        ("start", "<u8", 4),
        ("end", "<u8", 12),
        ("process_id", "<u4", 20),
        ("thread_id", "<u4", 24),
        ("correlation_id", "<u8", 28),
        ("name", "<u8", 36),
    ],
)

DTYPES: Mapping[ActivityKind, np.dtype] = {
    ActivityKind.MARKER: _packed(
        56,
        [
            ("kind", "<u4", 0),
            ("flag", "<u4", 4),
            ("source_kind", "<u4", 8),
            ("timestamp", "<u8", 12),
            ("id", "<u8", 20),
            ("object_a", "<u4", 28),  # processId (host) or deviceId (device)
            ("object_b", "<u4", 32),  # threadId (host) or streamId (device)
            ("name", "<u8", 36),
            ("domain", "<u8", 44),
        ],
    ),
    ActivityKind.KERNEL: _packed(
        56,
        [
            ("kind", "<u4", 0),
            ("start", "<u8", 4),
            ("end", "<u8", 12),
            ("device_id", "<u4", 20),
            ("stream_id", "<u4", 24),
            ("correlation_id", "<u8", 28),
            ("type", "<u8", 36),
            ("name", "<u8", 44),
        ],
    ),
    ActivityKind.API: _API,
    ActivityKind.HCCL: _packed(
        56,
        [
            ("kind", "<u4", 0),
            ("start", "<u8", 4),
            ("end", "<u8", 12),
            ("device_id", "<u4", 20),
            ("stream_id", "<u4", 24),
            ("bandwidth", "<f8", 28),
            ("name", "<u8", 36),
            ("comm_name", "<u8", 44),
        ],
    ),
    ActivityKind.MEMORY: _packed(
        64,
        [
            ("kind", "<u4", 0),
            ("operation_type", "<u4", 4),
            ("memory_kind", "<u4", 8),
            ("correlation_id", "<u8", 12),
            ("start", "<u8", 20),
            ("end", "<u8", 28),
            ("address", "<u8", 36),
            ("bytes", "<u8", 44),
            ("process_id", "<u4", 52),
            ("device_id", "<u4", 56),
            ("stream_id", "<u4", 60),
        ],
    ),
    ActivityKind.MEMSET: _packed(
        56,
        [
            ("kind", "<u4", 0),
            ("value", "<u4", 4),
            ("bytes", "<u8", 8),
            ("start", "<u8", 16),
            ("end", "<u8", 24),
            ("device_id", "<u4", 32),
            ("stream_id", "<u4", 36),
            ("correlation_id", "<u8", 40),
            ("is_async", "u1", 48),
        ],
    ),
    ActivityKind.MEMCPY: _packed(
        56,
        [
            ("kind", "<u4", 0),
            ("copy_kind", "<u4", 4),
            ("bytes", "<u8", 8),
            ("start", "<u8", 16),
            ("end", "<u8", 24),
            ("device_id", "<u4", 32),
            ("stream_id", "<u4", 36),
            ("correlation_id", "<u8", 40),
            ("is_async", "u1", 48),
        ],
    ),
    ActivityKind.EXTERNAL_CORRELATION: _packed(
        24,
        [
            ("kind", "<u4", 0),
            ("external_kind", "<u4", 4),
            ("external_id", "<u8", 8),
            ("correlation_id", "<u8", 16),
        ],
    ),
    ActivityKind.COMMUNICATION: _packed(
        72,
        [
            ("kind", "<u4", 0),
            ("data_type", "<u4", 4),
            ("count", "<u8", 8),
            ("device_id", "<u4", 16),
            ("stream_id", "<u4", 20),
            ("start", "<u8", 24),
            ("end", "<u8", 32),
            ("alg_type", "<u8", 40),
            ("name", "<u8", 48),
            ("comm_name", "<u8", 56),
            ("correlation_id", "<u8", 64),
        ],
    ),
    ActivityKind.ACL_API: _API,
    ActivityKind.NODE_API: _API,
    ActivityKind.RUNTIME_API: _API,
}

RECORD_SIZES: Mapping[ActivityKind, int] = {kind: dtype.itemsize for kind, dtype in DTYPES.items()}

#: The fields that hold string ids in a capture.
STRING_FIELDS: Mapping[ActivityKind, tuple[str, ...]] = {
    ActivityKind.MARKER: ("name", "domain"),
    ActivityKind.KERNEL: ("type", "name"),
    ActivityKind.API: ("name",),
    ActivityKind.HCCL: ("name", "comm_name"),
    ActivityKind.COMMUNICATION: ("alg_type", "name", "comm_name"),
    ActivityKind.ACL_API: ("name",),
    ActivityKind.NODE_API: ("name",),
    ActivityKind.RUNTIME_API: ("name",),
}

INVALID_STREAM = 0xFFFFFFFF
