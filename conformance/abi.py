"""The msPTI C ABI as data: result codes, enumerations, record layouts and the public function set.

These are the facts every implementation must share (restated from the conformance reference,
sections 2.2, 2.3 and 2.5). The ABI-lock scenario compares a compiled program's view of the target's
headers with them; the checkers use them to name codes and kinds.
"""

from __future__ import annotations

from collections.abc import Mapping

from mspti_base.record_layouts import KIND_RECORD, LAYOUTS, FieldLayout, RecordLayout, record_size

__all__ = [
    "ACTIVITY_KINDS",
    "API_FAMILY_KINDS",
    "CALLBACK_DOMAINS",
    "DEVICE_KINDS",
    "ENUMS",
    "EXTERNAL_KINDS",
    "HCCL_CBIDS",
    "INVALID_ID",
    "KIND_RECORD",
    "LAYOUTS",
    "MARKER_FLAGS",
    "NEWER_ENUMS",
    "NEWER_FUNCTIONS",
    "NEWER_KINDS",
    "NEWER_RESULTS",
    "NEWER_VALUES",
    "PUBLIC_FUNCTIONS",
    "RESULTS",
    "RUNTIME_CBIDS",
    "FieldLayout",
    "RecordLayout",
    "kind_name",
    "kind_value",
    "record_size",
    "result_name",
    "result_value",
]

#: msptiResult name (without the MSPTI_ / MSPTI_ERROR_ prefix) -> value.
RESULTS: Mapping[str, int] = {
    "SUCCESS": 0,
    "INVALID_PARAMETER": 1,
    "MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED": 2,
    "MAX_LIMIT_REACHED": 3,
    "DEVICE_OFFLINE": 4,
    "QUEUE_EMPTY": 5,
    "WITHOUT_LD_PRELOAD": 6,
    "INNER": 999,
}
_RESULT_NAMES = {value: name for name, value in RESULTS.items()}
_RESULT_NAMES.update({7: "NOT_INITIALIZED", 8: "INVALID_KIND", 9: "PARAMETER_SIZE_NOT_SUFFICIENT"})

#: msptiActivityKind short name -> value (INVALID and COUNT included).
ACTIVITY_KINDS: Mapping[str, int] = {
    "INVALID": 0,
    "MARKER": 1,
    "KERNEL": 2,
    "API": 3,
    "HCCL": 4,
    "MEMORY": 5,
    "MEMSET": 6,
    "MEMCPY": 7,
    "EXTERNAL_CORRELATION": 8,
    "COMMUNICATION": 9,
    "ACL_API": 10,
    "NODE_API": 11,
    "RUNTIME_API": 12,
    "COUNT": 13,
}
_KIND_NAMES = {value: name for name, value in ACTIVITY_KINDS.items()}
_KIND_NAMES[13] = "OVERHEAD"
#: Kinds whose records come from the device and arrive asynchronously.
DEVICE_KINDS: frozenset[int] = frozenset({1, 2, 4, 9})
#: Kinds that share the msptiActivityApi layout.
API_FAMILY_KINDS: frozenset[int] = frozenset({3, 10, 11, 12})

EXTERNAL_KINDS: Mapping[str, int] = {
    "INVALID": 0,
    "UNKNOWN": 1,
    "CUSTOM0": 2,
    "CUSTOM1": 3,
    "CUSTOM2": 4,
    "SIZE": 5,
}
MARKER_FLAGS: Mapping[str, int] = {
    "NONE": 0,
    "INSTANTANEOUS": 1,
    "START": 2,
    "END": 4,
    "INSTANTANEOUS_WITH_DEVICE": 8,
    "START_WITH_DEVICE": 16,
    "END_WITH_DEVICE": 32,
}
CALLBACK_DOMAINS: Mapping[str, int] = {"INVALID": 0, "RUNTIME": 1, "HCCL": 2, "SIZE": 3}

#: Runtime-domain callback ids (msptiCallbackIdRuntime) by short name.
RUNTIME_CBIDS: Mapping[str, int] = {
    name: value
    for value, name in enumerate(
        [
            "INVALID",
            "DEVICE_SET",
            "DEVICE_RESET",
            "DEVICE_SET_EX",
            "CONTEXT_CREATED_EX",
            "CONTEXT_CREATED",
            "CONTEXT_DESTROY",
            "STREAM_CREATED",
            "STREAM_DESTROY",
            "STREAM_SYNCHRONIZED",
            "LAUNCH",
            "CPU_LAUNCH",
            "AICPU_LAUNCH",
            "AIV_LAUNCH",
            "FFTS_LAUNCH",
            "MALLOC",
            "FREE",
            "MALLOC_HOST",
            "FREE_HOST",
            "MALLOC_CACHED",
            "FLUSH_CACHE",
            "INVALID_CACHE",
            "MEMCPY",
            "MEMCPY_HOST",
            "MEMCPY_ASYNC",
            "MEM_CPY2D",
            "MEM_CPY2D_ASYNC",
            "MEM_SET",
            "MEM_SET_ASYNC",
            "MEM_GET_INFO",
            "RESERVE_MEM_ADDRESS",
            "RELEASE_MEM_ADDRESS",
            "MALLOC_PHYSICAL",
            "FREE_PHYSICAL",
            "MEM_EXPORT_TO_SHAREABLE_HANDLE",
            "MEM_IMPORT_FROM_SHAREABLE_HANDLE",
            "MEM_SET_PID_TO_SHAREABLE_HANDLE",
            "SIZE",
        ]
    )
}
HCCL_CBIDS: Mapping[str, int] = {
    name: value
    for value, name in enumerate(
        [
            "INVALID",
            "ALLREDUCE",
            "BROADCAST",
            "ALLGATHER",
            "REDUCE_SCATTER",
            "REDUCE",
            "ALL_TO_ALL",
            "ALL_TO_ALLV",
            "BARRIER",
            "SCATTER",
            "SEND",
            "RECV",
            "SENDRECV",
            "SIZE",
        ]
    )
}

FORCE_INT = 0x7FFFFFFF
INVALID_ID = 0xFFFFFFFF

#: Every enumerator the ABI lock compares: C enum type -> {C enumerator name: value}.
ENUMS: Mapping[str, Mapping[str, int]] = {
    "msptiResult": {
        **{
            ("MSPTI_" if name == "SUCCESS" else "MSPTI_ERROR_") + name: value
            for name, value in RESULTS.items()
        },
        "MSPTI_ERROR_FORCE_INT": FORCE_INT,
    },
    "msptiActivityKind": {
        **{f"MSPTI_ACTIVITY_KIND_{name}": value for name, value in ACTIVITY_KINDS.items()},
        "MSPTI_ACTIVITY_KIND_FORCE_INT": FORCE_INT,
    },
    "msptiActivitySourceKind": {"MSPTI_ACTIVITY_SOURCE_KIND_HOST": 0, "MSPTI_ACTIVITY_SOURCE_KIND_DEVICE": 1},
    "msptiExternalCorrelationKind": {
        **{f"MSPTI_EXTERNAL_CORRELATION_KIND_{name}": value for name, value in EXTERNAL_KINDS.items()},
        "MSPTI_EXTERNAL_CORRELATION_KIND_FORCE_INT": FORCE_INT,
    },
    "msptiActivityFlag": {
        "MSPTI_ACTIVITY_FLAG_NONE": 0,
        **{
            f"MSPTI_ACTIVITY_FLAG_MARKER_{name}": value
            for name, value in MARKER_FLAGS.items()
            if name != "NONE"
        },
    },
    "msptiActivityMemoryOperationType": {
        "MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION": 0,
        "MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE": 1,
    },
    "msptiActivityMemoryKind": {"MSPTI_ACTIVITY_MEMORY_UNKNOWN": 0, "MSPTI_ACTIVITY_MEMORY_DEVICE": 1},
    "msptiActivityMemcpyKind": {
        f"MSPTI_ACTIVITY_MEMCPY_KIND_{name}": value
        for value, name in enumerate(["UNKNOWN", "HTOH", "HTOD", "DTOH", "DTOD", "DEFAULT"])
    },
    "msptiCommunicationDataType": {
        **{
            f"MSPTI_ACTIVITY_COMMUNICATION_{name}": value
            for value, name in enumerate(
                [
                    "INT8",
                    "INT16",
                    "INT32",
                    "FP16",
                    "FP32",
                    "INT64",
                    "UINT64",
                    "UINT8",
                    "UINT16",
                    "UINT32",
                    "FP64",
                    "BFP16",
                    "INT128",
                ]
            )
        },
        "MSPTI_ACTIVITY_COMMUNICATION_HIF8": 14,
        "MSPTI_ACTIVITY_COMMUNICATION_FP8E4M3": 15,
        "MSPTI_ACTIVITY_COMMUNICATION_FP8E5M2": 16,
        "MSPTI_ACTIVITY_COMMUNICATION_FP8E8M0": 17,
        "MSPTI_ACTIVITY_COMMUNICATION_INVALID_TYPE": 0xFFFF,
    },
    "msptiCallbackDomain": {
        **{f"MSPTI_CB_DOMAIN_{name}": value for name, value in CALLBACK_DOMAINS.items()},
        "MSPTI_CB_DOMAIN_FORCE_INT": FORCE_INT,
    },
    "msptiApiCallbackSite": {
        "MSPTI_API_ENTER": 0,
        "MSPTI_API_EXIT": 1,
        "MSPTI_API_CBSITE_FORCE_INT": FORCE_INT,
    },
    "msptiCallbackIdRuntime": {
        **{f"MSPTI_CBID_RUNTIME_{name}": value for name, value in RUNTIME_CBIDS.items()},
        "MSPTI_CBID_RUNTIME_FORCE_INT": FORCE_INT,
    },
    "msptiCallbackIdHccl": {
        **{f"MSPTI_CBID_HCCL_{name}": value for name, value in HCCL_CBIDS.items()},
        "MSPTI_CBID_HCCL_FORCE_INT": FORCE_INT,
    },
}


#: The 15 public functions of the C API.
PUBLIC_FUNCTIONS: tuple[str, ...] = (
    "msptiActivityRegisterCallbacks",
    "msptiActivityEnable",
    "msptiActivityDisable",
    "msptiActivityIsEnabled",
    "msptiActivityEnableMarkerDomain",
    "msptiActivityDisableMarkerDomain",
    "msptiActivityGetNextRecord",
    "msptiActivityFlushAll",
    "msptiActivityFlushPeriod",
    "msptiActivityPushExternalCorrelationId",
    "msptiActivityPopExternalCorrelationId",
    "msptiSubscribe",
    "msptiUnsubscribe",
    "msptiEnableCallback",
    "msptiEnableDomain",
)


#: CANN's newer API (MSPTI_ACTIVITY_KIND_OVERHEAD and the functions that came with it). The ABI lock
#: grades only the 15 functions and the enumerators above, which every msPTI has; the newer functions
#: are reported as informational symbols, and these tables name the newer codes and kinds.
NEWER_RESULTS: Mapping[str, int] = {
    "NOT_INITIALIZED": 7,
    "INVALID_KIND": 8,
    "PARAMETER_SIZE_NOT_SUFFICIENT": 9,
}
NEWER_KINDS: Mapping[str, int] = {"OVERHEAD": 13, "COUNT": 14}
#: Enumerators whose value the newer API changed: C name -> the newer value (the older one is in ENUMS);
#: the ABI lock accepts either.
NEWER_VALUES: Mapping[str, int] = {"MSPTI_ACTIVITY_KIND_COUNT": NEWER_KINDS["COUNT"]}
NEWER_ENUMS: Mapping[str, Mapping[str, int]] = {
    "msptiActivityOverheadKind": {
        "MSPTI_ACTIVITY_OVERHEAD_UNKNOWN": 0,
        "MSPTI_ACTIVITY_OVERHEAD_MSPTI_RESOURCE": 1,
        "MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST": 2,
        "MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_FLUSH": 3,
    },
    "msptiActivityObjectKind": {
        "MSPTI_ACTIVITY_OBJECT_UNKNOWN": 0,
        "MSPTI_ACTIVITY_OBJECT_PROCESS": 1,
        "MSPTI_ACTIVITY_OBJECT_THREAD": 2,
        "MSPTI_ACTIVITY_OBJECT_DEVICE": 3,
        "MSPTI_ACTIVITY_OBJECT_FORCE_INT": FORCE_INT,
    },
    "msptiActivityAttribute": {
        "MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE": 0,
        "MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK": 1,
        "MSPTI_ACTIVITY_ATTR_FORCE_INT": FORCE_INT,
    },
    "msptiActivityMemoryKind": {"MSPTI_ACTIVITY_MEMORY_HOST": 2, "MSPTI_ACTIVITY_MEMORY_MANAGED": 3},
}
NEWER_FUNCTIONS: tuple[str, ...] = (
    "msptiGetVersion",
    "msptiGetTimestamp",
    "msptiActivityGetStructSize",
    "msptiActivityGetEnabledKinds",
    "msptiActivityGetNumDroppedRecords",
    "msptiActivityRegisterTimestampCallback",
    "msptiActivitySetAttribute",
    "msptiActivityGetAttribute",
    "msptiGetResultString",
)


def result_name(value: int) -> str:
    """``SUCCESS``, ``INVALID_PARAMETER``, ... or ``<value>`` for a value outside the enumeration."""
    return _RESULT_NAMES.get(value, f"<{value}>")


def result_value(name: str | int) -> int:
    """The code of a result name (with or without the MSPTI_/MSPTI_ERROR_ prefix) or an int as is."""
    if isinstance(name, int):
        return name
    key = name.upper().removeprefix("MSPTI_").removeprefix("ERROR_")
    if key not in RESULTS:
        raise KeyError(f"unknown msptiResult name {name!r}")
    return RESULTS[key]


def kind_name(value: int) -> str:
    return _KIND_NAMES.get(value, f"<kind {value}>")


def kind_value(name: str | int) -> int:
    if isinstance(name, int):
        return name
    key = name.upper().removeprefix("MSPTI_ACTIVITY_KIND_")
    if key not in ACTIVITY_KINDS:
        raise KeyError(f"unknown activity kind {name!r}")
    return ACTIVITY_KINDS[key]
