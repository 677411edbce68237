"""The msPTI C ABI as data: result codes, enumerations, record layouts and the public function set.

These are the facts every implementation must share (restated from the conformance reference,
sections 2.2, 2.3 and 2.5). The ABI-lock scenario compares a compiled program's view of the target's
headers with them; the checkers use them to name codes and kinds.
"""

from __future__ import annotations

from collections.abc import Mapping

from mspti_base.record_layouts import ENUMS as SCHEMA_ENUMS
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


def _short(enum: str, prefix: str, since: str = "") -> dict[str, int]:
    """The enumerators of ``enum`` (the record schema's) that ``since`` names, without ``prefix``
    and without FORCE_INT."""
    return {
        name.removeprefix(prefix): value
        for name, value in SCHEMA_ENUMS[enum].values(since).items()
        if not name.endswith("FORCE_INT")
    }


def _short_result(name: str) -> str:
    return name.removeprefix("MSPTI_").removeprefix("ERROR_")


#: msptiResult name (without the MSPTI_ / MSPTI_ERROR_ prefix) -> value, those every msPTI has.
RESULTS: Mapping[str, int] = {
    _short_result(name): value
    for name, value in SCHEMA_ENUMS["msptiResult"].values("").items()
    if not name.endswith("FORCE_INT")
}
_RESULT_NAMES = {
    value: _short_result(name)
    for name, value in SCHEMA_ENUMS["msptiResult"].values().items()
    if not name.endswith("FORCE_INT")
}

#: msptiActivityKind short name -> value (INVALID and COUNT included), those every msPTI has.
ACTIVITY_KINDS: Mapping[str, int] = _short("msptiActivityKind", "MSPTI_ACTIVITY_KIND_")
_KIND_NAMES = {value: name for name, value in ACTIVITY_KINDS.items()}
_KIND_NAMES.update(
    {
        value: name
        for name, value in _short("msptiActivityKind", "MSPTI_ACTIVITY_KIND_", "overhead").items()
        if name != "COUNT"
    }
)
#: Kinds whose records come from the device and arrive asynchronously.
DEVICE_KINDS: frozenset[int] = frozenset({1, 2, 4, 9})
#: Kinds that share the msptiActivityApi layout.
API_FAMILY_KINDS: frozenset[int] = frozenset(
    k for k, name in KIND_RECORD.items() if name == "msptiActivityApi"
)

EXTERNAL_KINDS: Mapping[str, int] = _short("msptiExternalCorrelationKind", "MSPTI_EXTERNAL_CORRELATION_KIND_")
MARKER_FLAGS: Mapping[str, int] = {
    name.removeprefix("MARKER_"): value
    for name, value in _short("msptiActivityFlag", "MSPTI_ACTIVITY_FLAG_").items()
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
    # The record schema's enumerations every msPTI has (this project's extensions are not CANN's).
    **{
        name: baseline
        for name, schema in SCHEMA_ENUMS.items()
        if not schema.ext and (baseline := schema.values(""))
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
    _short_result(name): value for name, value in SCHEMA_ENUMS["msptiResult"].values("overhead").items()
}
NEWER_KINDS: Mapping[str, int] = _short("msptiActivityKind", "MSPTI_ACTIVITY_KIND_", "overhead")
#: Enumerators whose value the newer API changed: C name -> the newer value (the older one is in ENUMS);
#: the ABI lock accepts either.
NEWER_VALUES: Mapping[str, int] = {
    member.name: member.value
    for schema in SCHEMA_ENUMS.values()
    for member in schema.members
    if member.older is not None
}
#: The newer API's enumerators of the other enumerations (the kinds and results are above).
NEWER_ENUMS: Mapping[str, Mapping[str, int]] = {
    name: {c: v for c, v in schema.values("overhead").items() if c not in NEWER_VALUES}
    for name, schema in SCHEMA_ENUMS.items()
    if name not in ("msptiResult", "msptiActivityKind") and schema.values("overhead")
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
