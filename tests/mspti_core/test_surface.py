"""The package surface without an msPTI library: names, enums, data classes and argument checks.

Nothing here loads a library (argument errors are found before one is needed), so it runs in the
test process.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import mspti_core
from conformance.pydriver.py_import import NAMES as PACKAGE_NAMES
from conformance.scenarios.python_hccl import COMM_FIELDS, HCCL_FIELDS
from mspti_core import (
    CommunicationData,
    CommunicationMonitor,
    Constant,
    HcclData,
    HcclMonitor,
    KernelData,
    KernelMonitor,
    MarkerData,
    MsptiActivityFlag,
    MsptiActivityKind,
    MsptiActivitySourceKind,
    MsptiCommunicationDataType,
    MsptiObjectId,
    MsptiResult,
    MstxMonitor,
    RangeMarkerData,
    _mspti,
    activity,
    data,
    enums,
    mstx,
)

INVALID = MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
SUCCESS = MsptiResult.MSPTI_SUCCESS


def test_exports_the_cann_names() -> None:
    """PY-IMPORT-01."""
    for name in (*PACKAGE_NAMES, "callback_errors"):
        assert hasattr(mspti_core, name), name
        assert name in mspti_core.__all__


def test_enum_values_match_the_c_api() -> None:
    """PY-ENUM-01."""
    assert {m.name: m.value for m in MsptiResult} == {
        "MSPTI_SUCCESS": 0,
        "MSPTI_ERROR_INVALID_PARAMETER": 1,
        "MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED": 2,
        "MSPTI_ERROR_MAX_LIMIT_REACHED": 3,
        "MSPTI_ERROR_DEVICE_OFFLINE": 4,
        "MSPTI_ERROR_QUEUE_EMPTY": 5,
        "MSPTI_ERROR_WITHOUT_LD_PRELOAD": 6,
        "MSPTI_ERROR_NOT_INITIALIZED": 7,
        "MSPTI_ERROR_INVALID_KIND": 8,
        "MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT": 9,
        "MSPTI_ERROR_INNER": 999,
        "MSPTI_ERROR_FORCE_INT": 0x7FFFFFFF,
    }
    assert [m.value for m in MsptiActivityKind] == [*range(15), 0x7FFFFFFF]
    assert MsptiActivityKind.MSPTI_ACTIVITY_KIND_OVERHEAD == 13
    assert MsptiActivityKind.MSPTI_ACTIVITY_KIND_COMMUNICATION == 9
    assert MsptiActivityKind.MSPTI_ACTIVITY_KIND_RUNTIME_API == 12
    assert [m.value for m in MsptiActivityFlag] == [0, 1, 2, 4, 8, 16, 32]
    assert [m.value for m in MsptiActivitySourceKind] == [0, 1]
    values = [m.value for m in MsptiCommunicationDataType]
    assert values == [*range(13), *range(14, 18), 0xFFFF]
    assert MsptiCommunicationDataType.MSPTI_ACTIVITY_COMMUNICATION_HIF8 == 14
    assert enums.result(0) is SUCCESS
    assert enums.result(12345) == 12345


@pytest.mark.parametrize(
    ("cls", "fields"),
    [
        (KernelData, ["kind", "start", "end", "device_id", "stream_id", "correlation_id", "type", "name"]),
        (HcclData, list(HCCL_FIELDS)),
        (CommunicationData, list(COMM_FIELDS)),
        (MarkerData, ["kind", "flag", "source_kind", "timestamp", "id", "object_id", "name", "domain"]),
        (RangeMarkerData, ["kind", "source_kind", "id", "object_id", "name", "domain", "start", "end"]),
        (MsptiObjectId, ["process_id", "thread_id", "device_id", "stream_id"]),
    ],
)
def test_data_class_fields(cls: type, fields: list[str]) -> None:
    """PY-DATA-01..03: the fields of each data class, in order."""
    assert dataclasses.is_dataclass(cls)
    assert [f.name for f in dataclasses.fields(cls)] == fields
    assert hasattr(cls, "__slots__")


def test_data_class_defaults() -> None:
    assert KernelData().kind is MsptiActivityKind.MSPTI_ACTIVITY_KIND_KERNEL
    assert HcclData().kind is MsptiActivityKind.MSPTI_ACTIVITY_KIND_HCCL
    assert CommunicationData().kind is MsptiActivityKind.MSPTI_ACTIVITY_KIND_COMMUNICATION
    assert MarkerData().kind is RangeMarkerData().kind is MsptiActivityKind.MSPTI_ACTIVITY_KIND_MARKER
    assert MsptiObjectId() == MsptiObjectId(-1, -1, -1, -1)
    assert MarkerData().object_id is not MarkerData().object_id


def test_from_dict_takes_the_c_field_names() -> None:
    kernel = KernelData.from_dict(
        {
            "kind": 2,
            "start": 5,
            "end": 9,
            "deviceId": 1,
            "streamId": 3,
            "correlationId": 7,
            "type": "KERNEL_AICORE",
            "name": "matmul",
            "extra": 1,
        }
    )
    assert kernel == KernelData(
        MsptiActivityKind.MSPTI_ACTIVITY_KIND_KERNEL, 5, 9, 1, 3, 7, "KERNEL_AICORE", "matmul"
    )
    assert isinstance(kernel.kind, MsptiActivityKind)
    marker = MarkerData.from_dict(
        {
            "kind": 1,
            "flag": 2,
            "sourceKind": 0,
            "timestamp": 11,
            "id": 4,
            "processId": 100,
            "threadId": 101,
            "name": "step",
            "domain": "default",
        }
    )
    assert marker.flag is MsptiActivityFlag.MSPTI_ACTIVITY_FLAG_MARKER_START
    assert marker.object_id == MsptiObjectId(process_id=100, thread_id=101)
    communication = CommunicationData.from_dict({"dataType": 13, "count": 8})
    assert communication.data_type == 13
    assert not isinstance(communication.data_type, MsptiCommunicationDataType)
    assert data.to_dict(kernel, c_names=True)["deviceId"] == 1
    assert data.to_dict(marker, c_names=True)["objectId"]["processId"] == 100
    assert data.to_dict(HcclData(bandwidth=1.5))["bandwidth"] == 1.5


def test_data_class_for_every_kind_with_records() -> None:
    for kind in range(1, 13):
        assert dataclasses.is_dataclass(data.data_class_for(kind))
    with pytest.raises(KeyError):
        data.data_class_for(0)


@pytest.mark.parametrize("size", [1, 8, 255, 256, True])
def test_set_buffer_size_accepts_1_to_256(size: int) -> None:
    """PY-BUF-01 (True counts as 1: bool is an int)."""
    try:
        assert KernelMonitor.set_buffer_size(size) is SUCCESS
        assert _mspti.buffer_size() == int(size)
    finally:
        KernelMonitor.set_buffer_size(Constant.DEFAULT_BUFFER_SIZE)


@pytest.mark.parametrize("size", [0, -1, 257, 1 << 40, 1.0, 8.5, "8", None, [8]])
def test_set_buffer_size_rejects_the_rest(size: object) -> None:
    """PY-BUF-01: the monitors' class method answers INVALID_PARAMETER and keeps the size;
    mspti_core.set_buffer_size raises ValueError saying what is allowed."""
    before = mspti_core.buffer_size()
    for monitor in (KernelMonitor, HcclMonitor, CommunicationMonitor, MstxMonitor):
        assert monitor.set_buffer_size(size) is INVALID  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"1\.\.256"):
        mspti_core.set_buffer_size(size)  # type: ignore[arg-type]
    assert mspti_core.buffer_size() == before


@pytest.mark.parametrize("monitor", [KernelMonitor, HcclMonitor, CommunicationMonitor])
@pytest.mark.parametrize("callback", [None, 3, "print", object()])
def test_start_needs_a_callable(monitor: type, callback: object) -> None:
    """PY-START-01: nothing is started (no library is even loaded)."""
    instance = monitor()
    assert instance.start(callback) is INVALID
    assert not instance.running


def test_mstx_start_needs_one_callable() -> None:
    """PY-START-03."""
    assert MstxMonitor().start(None, None) is INVALID  # type: ignore[arg-type]
    assert MstxMonitor().start(1, "x") is INVALID  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["", None, 5, b"default", ["x"]])
def test_domain_names_must_be_non_empty_strings(name: object) -> None:
    """PY-DOM-01."""
    monitor = MstxMonitor()
    assert monitor.enable_domain(name) is INVALID  # type: ignore[arg-type]
    assert monitor.disable_domain(name) is INVALID  # type: ignore[arg-type]


@pytest.mark.parametrize("period", [-1, 1.5, "10", 1 << 33])
def test_flush_period_rejects_bad_periods(period: object) -> None:
    assert KernelMonitor.flush_period(period) is INVALID  # type: ignore[arg-type]


@pytest.mark.parametrize("kinds", [(), (0,), (13,), (2, 99), ("KERNEL",), (True,)])
def test_collector_rejects_bad_kinds(kinds: tuple[object, ...]) -> None:
    with pytest.raises(ValueError):
        activity.Collector(*kinds)  # type: ignore[arg-type]


def test_mstx_streams_are_handles() -> None:
    class Stream:
        handle = 77

    assert mstx._handle(None) == 0
    assert mstx._handle(5) == 5
    assert mstx._handle(Stream()) == 77
    for bad in ("s", 1.5, True):
        with pytest.raises(TypeError):
            mstx._handle(bad)


def test_loading_a_missing_or_foreign_library_fails_clearly(tmp_path: Path) -> None:
    with pytest.raises(mspti_core.LibraryNotFoundError, match="does not exist"):
        mspti_core.load_library(tmp_path / "libmspti.so")
    not_elf = tmp_path / "libnot.so"
    not_elf.write_text("text")
    with pytest.raises(ValueError, match="cannot load the msPTI library"):
        mspti_core.load_library(not_elf)
    libm = next(
        (
            p
            for p in ("/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib64/libm.so.6", "/lib64/libm.so.6")
            if Path(p).exists()
        ),
        None,
    )
    if libm is not None:
        with pytest.raises(ValueError, match="not an msPTI library: it lacks msptiActivityRegisterCallbacks"):
            mspti_core.load_library(libm)
    assert _mspti.loaded_path() is None
