"""The ``mspti`` package (mspti_core/toolkit_site/mspti): CANN's msPTI Python surface over mspti_core.

The surface tests import the package in this process (nothing there loads a library). The
behaviour tests run a child Python with ``PYTHONPATH`` naming the toolkit_site folder, either on
the simulator under our libmspti.so (real kernels and mstx markers) or on the stand-in library
(records made to order: an unknown communication data type, no LD_PRELOAD, a C subscriber).
"""

from __future__ import annotations

import dataclasses
import enum
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import mspti_core
from conformance.pydriver.py_import import NAMES as VENDOR_NAMES
from mspti_core import enums as core_enums
from support.vendor_mspti import imported_vendor_package

PRELUDE = """\
import json, mspti
def report(value):
    print('RESULT ' + json.dumps(value, default=str), flush=True)
"""


def _toolkit_site() -> Path:
    """The folder holding the package: beside the installed mspti_core, else (an install that
    predates the package, or has only a stand-in for it) in this checkout."""
    for base in (Path(mspti_core.__file__).parent, Path(__file__).resolve().parents[2] / "mspti_core"):
        folder = base / "toolkit_site"
        if (folder / "mspti" / "monitor" / "base_monitor.py").is_file():
            return folder
    raise FileNotFoundError("no mspti_core/toolkit_site/mspti package found")


TOOLKIT_SITE = _toolkit_site()


@pytest.fixture(scope="module")
def mspti() -> Iterator[ModuleType]:
    """The package imported into this process (and forgotten afterwards)."""
    with imported_vendor_package(TOOLKIT_SITE) as package:
        yield package


def _with_package(env: dict[str, str]) -> str:
    return os.pathsep.join([str(TOOLKIT_SITE), env.get("PYTHONPATH", "")])


@pytest.fixture
def run_vendor_sim(run_sim, sim_env: dict[str, str]):
    """Runs a script that imports ``mspti`` on the simulator under our msPTI."""

    def run(script: str, **env: str):
        return run_sim(PRELUDE + textwrap.dedent(script), PYTHONPATH=_with_package(sim_env), **env)

    return run


@pytest.fixture
def run_vendor_fake(run_fake, fake_env: dict[str, str]):
    """Runs a script that imports ``mspti`` against the stand-in library (``fakelib`` names in
    scope; mspti_core's names too, so the script uses ``mspti.`` explicitly)."""

    def run(script: str, **env: str):
        return run_fake(textwrap.dedent(script), PYTHONPATH=_with_package(fake_env), **env)

    return run


# ---- the surface, in this process ----


def test_exposes_the_vendor_names_as_plain_enums_and_dataclasses(mspti: ModuleType) -> None:
    """PY-IMPORT-01: the package's names; its enums are plain Enum types, not IntEnum."""
    assert sorted(mspti.__all__) == sorted(VENDOR_NAMES)
    for name in VENDOR_NAMES:
        value = getattr(mspti, name)
        if name.startswith("Mspti") and name != "MsptiObjectId":
            assert issubclass(value, enum.Enum) and not issubclass(value, int), name
        elif name.endswith("Monitor"):
            assert issubclass(value, mspti.monitor.base_monitor.BaseMonitor), name
        else:
            assert dataclasses.is_dataclass(value), name
    success = mspti.MsptiResult.MSPTI_SUCCESS
    assert success != 0 and not success == 0  # noqa: SIM201 (the vendor's comparison, spelt out)
    assert success.value == 0
    with pytest.raises(TypeError):
        int(success)
    assert mspti.MsptiResult(0) is success
    assert mspti.MsptiResult.MSPTI_SUCCESS != mspti_core.MsptiResult.MSPTI_SUCCESS


def test_enum_values_follow_the_vendor_package(mspti: ModuleType) -> None:
    """PY-ENUM-01: every member mspti_core shares has its value; the vendor-only ones are there."""
    pairs = {
        "MsptiResult": core_enums.MsptiResult,
        "MsptiActivityKind": core_enums.MsptiActivityKind,
        "MsptiActivityFlag": core_enums.MsptiActivityFlag,
        "MsptiActivitySourceKind": core_enums.MsptiActivitySourceKind,
        "MsptiCommunicationDataType": core_enums.MsptiCommunicationDataType,
    }
    for name, core in pairs.items():
        vendor = getattr(mspti, name)
        differing = {
            m.name: (m.value, vendor[m.name].value if m.name in vendor.__members__ else None)
            for m in core
            if m.name not in vendor.__members__ or vendor[m.name].value != m.value
        }
        assert differing == {}, name
    kind, result = mspti.MsptiActivityKind, mspti.MsptiResult
    assert kind.MSPTI_ACTIVITY_KIND_OVERHEAD.value == 13
    assert [result(v).name for v in (7, 8, 9)] == [
        "MSPTI_ERROR_NOT_INITIALIZED",
        "MSPTI_ERROR_INVALID_KIND",
        "MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT",
    ]


def test_data_classes_have_the_vendor_fields_and_dict_constructors(mspti: ModuleType) -> None:
    """PY-DATA-01..03: field names; built from a C-keyed dict with the vendor's defaults."""

    def names(cls: type) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    assert names(mspti.KernelData) == [
        "kind", "start", "end", "device_id", "stream_id", "correlation_id", "type", "name",
    ]  # fmt: skip
    assert names(mspti.HcclData) == [
        "kind", "start", "end", "device_id", "stream_id", "bandwidth", "name", "comm_name",
    ]  # fmt: skip
    assert names(mspti.CommunicationData) == [
        "kind", "data_type", "count", "device_id", "stream_id", "start", "end", "alg_type", "name",
        "comm_name", "correlation_id",
    ]  # fmt: skip
    assert names(mspti.MarkerData) == [
        "kind", "flag", "source_kind", "timestamp", "id", "object_id", "name", "domain",
    ]  # fmt: skip
    assert names(mspti.RangeMarkerData) == [
        "kind", "source_kind", "id", "object_id", "name", "domain", "start", "end",
    ]  # fmt: skip
    assert names(mspti.MsptiObjectId) == ["process_id", "thread_id", "device_id", "stream_id"]

    kernel = mspti.KernelData({"kind": 2, "deviceId": 3, "correlationId": 9, "name": "k"})
    assert kernel.kind is mspti.MsptiActivityKind.MSPTI_ACTIVITY_KIND_KERNEL
    assert (kernel.device_id, kernel.correlation_id, kernel.name, kernel.stream_id) == (3, 9, "k", 0)
    assert mspti.KernelData.CORRELATION_ID == "correlationId" and mspti.HcclData.COMMNAME == "commName"
    hccl = mspti.HcclData({"bandWidth": 12.5, "commName": "world"})
    assert (hccl.bandwidth, hccl.comm_name) == (12.5, "world")
    marker = mspti.MarkerData({"kind": 1, "sourceKind": 1, "deviceId": 2, "streamId": 5, "processId": -1})
    assert marker.flag is mspti.MsptiActivityFlag.MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS  # default
    assert marker.source_kind is mspti.MsptiActivitySourceKind.MSPTI_ACTIVITY_SOURCE_KIND_DEVICE
    assert dataclasses.astuple(marker.object_id) == (-1, -1, 2, 5)
    assert dataclasses.astuple(mspti.MsptiObjectId({})) == (-1, -1, 0, 0)
    empty = mspti.RangeMarkerData()
    assert empty.kind is mspti.MsptiActivityKind.MSPTI_ACTIVITY_KIND_MARKER
    assert dataclasses.astuple(empty.object_id) == (-1, -1, 0, 0)
    assert mspti.KernelData(name="by field").name == "by field"

    with pytest.raises(ValueError, match="13"):
        mspti.CommunicationData({"dataType": 13})
    with pytest.raises(TypeError, match="dict"):
        mspti.KernelData([("kind", 2)])
    with pytest.raises(TypeError, match="colour"):
        mspti.KernelData(colour="red")


def test_argument_checks_return_vendor_results(mspti: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    """PY-START-01/03, PY-BUF-01, PY-DOM-01: rejected before any library is needed, printed."""
    invalid = mspti.MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
    assert mspti.KernelMonitor().start(42) is invalid
    assert mspti.HcclMonitor().start("not callable") is invalid
    assert mspti.CommunicationMonitor().start(None) is invalid
    assert mspti.MstxMonitor().start(None, None) is invalid
    for size in (0, -1, 257, 1.5, "8"):
        assert mspti.KernelMonitor.set_buffer_size(size) is invalid, size
    monitor = mspti.MstxMonitor()
    for name in ("", 5, None):
        assert monitor.enable_domain(name) is invalid and monitor.disable_domain(name) is invalid
    with pytest.raises(TypeError, match="NUL"):
        monitor.enable_domain("a\0b")
    with pytest.raises(TypeError, match="integer"):
        mspti.KernelMonitor.flush_period(1.5)
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 4 + 5 + 6
    assert all(" [ERROR] [MSPTI] [" in line for line in printed)


# ---- behaviour on the simulator ----


def test_kernel_monitor_delivers_vendor_typed_records(run_vendor_sim) -> None:
    """PY-START-02, PY-DATA-01, PY-STOP-01 with the vendor's types."""
    child = run_vendor_sim("""
        from collections import Counter
        from mspti import KernelMonitor, KernelData, MsptiActivityKind, MsptiResult
        from sim_runtime import npu
        got = []
        monitor = KernelMonitor()
        started = monitor.start(got.append)
        device = npu.Device(0)
        stream = npu.Stream()
        npu.Kernel("vendor_add", "AIV").launch_many(4, stream=stream)
        npu.Kernel("vendor_mm", "AIC").launch(blocks=8, stream=stream)
        stream.synchronize()
        stopped = monitor.stop()
        npu.Kernel("after_stop").launch(stream=stream)
        stream.synchronize()
        flushed = KernelMonitor.flush_all()
        report({
            "started": [type(started).__name__, started.name, started == 0,
                        started is MsptiResult.MSPTI_SUCCESS],
            "stopped": stopped.name, "flushed": flushed.name,
            "names": dict(Counter(k.name for k in got)),
            "classes": sorted({type(k).__module__ + "." + type(k).__name__ for k in got}),
            "kinds": sorted({(type(k.kind).__module__, k.kind.name) for k in got}),
            "vendor_kind": all(k.kind is MsptiActivityKind.MSPTI_ACTIVITY_KIND_KERNEL for k in got),
            "types": sorted({(k.name, k.type) for k in got}),
            "streams": sorted({k.stream_id for k in got}), "stream": stream.id,
            "devices": sorted({k.device_id for k in got}),
            "spans": all(k.start < k.end for k in got),
            "correlation": len({k.correlation_id for k in got}) == len(got)
                           and all(k.correlation_id for k in got),
        })
    """).check()
    result = child.result
    assert result["started"] == ["MsptiResult", "MSPTI_SUCCESS", False, True]
    assert result["stopped"] == result["flushed"] == "MSPTI_SUCCESS"
    assert result["names"] == {"vendor_add": 4, "vendor_mm": 1}
    assert result["classes"] == ["mspti.activity_data.KernelData"]
    assert result["kinds"] == [["mspti.constant", "MSPTI_ACTIVITY_KIND_KERNEL"]]
    assert result["vendor_kind"]
    assert result["types"] == [["vendor_add", "KERNEL_AIVEC"], ["vendor_mm", "KERNEL_AICORE"]]
    assert result["streams"] == [result["stream"]] and result["devices"] == [0]
    assert result["spans"] and result["correlation"]


def test_a_second_monitor_of_a_kind_takes_it_over(run_vendor_sim) -> None:
    """The vendor's one callback slot per kind: the newest start wins, any stop ends the kind, and
    a monitor started twice holds the session until it is stopped twice."""
    child = run_vendor_sim("""
        import ctypes
        from collections import Counter
        from mspti import KernelMonitor
        from sim_runtime import npu
        lib = ctypes.CDLL(None)
        lib.msptiSubscribe.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p, ctypes.c_void_p]
        lib.msptiUnsubscribe.argtypes = [ctypes.c_void_p]
        def c_subscribe():
            handle = ctypes.c_void_p()
            code = lib.msptiSubscribe(ctypes.byref(handle), None, None)
            if code == 0:
                lib.msptiUnsubscribe(handle)
            return code
        device = npu.Device(0)
        stream = npu.Stream()
        def launch(name, count):
            npu.Kernel(name).launch_many(count, stream=stream)
            stream.synchronize()
        first, second = [], []
        one, two = KernelMonitor(), KernelMonitor()
        results = [one.start(first.append)]
        launch("before", 2)
        results.append(KernelMonitor.flush_all())
        results.append(two.start(second.append))
        launch("after", 3)
        results.append(one.stop())
        launch("orphan", 1)
        results.append(two.stop())
        again = KernelMonitor()
        a, b = [], []
        results.append(again.start(a.append))
        results.append(again.start(b.append))
        launch("twice", 2)
        results.append(again.stop())
        held = c_subscribe()
        launch("after_one_stop", 1)
        results.append(again.stop())
        released = c_subscribe()
        report({"results": [r.name for r in results],
                "first": dict(Counter(k.name for k in first)),
                "second": dict(Counter(k.name for k in second)),
                "a": len(a), "b": dict(Counter(k.name for k in b)), "held": held, "released": released})
    """).check()
    result = child.result
    assert result["results"] == ["MSPTI_SUCCESS"] * 9
    assert result["first"] == {"before": 2}
    assert result["second"] == {"after": 3}  # nobody gets "orphan": one.stop() ended the kind
    assert result["a"] == 0 and result["b"] == {"twice": 2}
    assert result["held"] == 2  # MULTIPLE_SUBSCRIBERS: the second reference kept the session
    assert result["released"] == 0


def test_mstx_monitor_marks_ranges_and_domains(run_vendor_sim) -> None:
    """PY-RANGE-01/02, PY-DATA-03, PY-DOM-01: vendor-typed marks and ranges; domain results are ints."""
    child = run_vendor_sim("""
        import os, threading
        from mspti import (MstxMonitor, MarkerData, RangeMarkerData, MsptiActivityFlag,
                           MsptiActivitySourceKind, MsptiObjectId, MsptiResult)
        from mspti_core import mstx
        from sim_runtime import npu
        marks, ranges = [], []
        monitor = MstxMonitor()
        started = monitor.start(marks.append, ranges.append)
        device = npu.Device(0)
        stream = npu.Stream()
        mstx.mark("host mark")
        mstx.mark("device mark", stream)
        rid = mstx.range_start("device range", stream)
        npu.Kernel("inside").launch(stream=stream)
        mstx.range_end(rid)
        mstx.range_end(mstx.range_start("host range"))
        quiet = mstx.Domain("quiet")
        disabled = monitor.disable_domain("quiet")
        quiet.mark("dropped")
        enabled = monitor.enable_domain("quiet")
        quiet.mark("kept")
        stream.synchronize()
        stopped = monitor.stop()
        def obj(o):
            return [type(o).__name__, o.process_id, o.thread_id, o.device_id, o.stream_id]
        report({
            "started": started.name, "stopped": stopped.name,
            "domain_results": [type(disabled).__name__, disabled, type(enabled).__name__, enabled],
            "marks": sorted([type(m).__name__, m.flag.name, m.source_kind.name[27:], m.name, m.domain,
                             obj(m.object_id)] for m in marks),
            "mark_types": all(isinstance(m.flag, MsptiActivityFlag) and isinstance(m.source_kind,
                              MsptiActivitySourceKind) for m in marks),
            "ranges": sorted([type(r).__name__, r.kind.name, r.source_kind.name[27:], r.name, r.domain,
                              obj(r.object_id), r.start <= r.end] for r in ranges),
            "pid": os.getpid(), "tid": threading.get_native_id(), "stream": stream.id,
        })
    """).check()
    result = child.result
    pid, tid, stream = result["pid"], result["tid"], result["stream"]
    host = ["MsptiObjectId", pid, tid, -1, -1]
    on_device = ["MsptiObjectId", -1, -1, 0, stream]
    assert result["started"] == result["stopped"] == "MSPTI_SUCCESS"
    assert result["domain_results"] == ["int", 0, "int", 0]
    instant = "MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS"
    assert result["marks"] == sorted(
        [
            ["MarkerData", f"{instant}_WITH_DEVICE", "HOST", "device mark", "default", host],
            ["MarkerData", f"{instant}_WITH_DEVICE", "DEVICE", "", "", on_device],  # no strings on a device
            ["MarkerData", instant, "HOST", "host mark", "default", host],
            ["MarkerData", instant, "HOST", "kept", "quiet", host],
        ]
    )  # fmt: skip
    assert result["mark_types"]
    kind = "MSPTI_ACTIVITY_KIND_MARKER"
    assert result["ranges"] == sorted(
        [
            ["RangeMarkerData", kind, "HOST", "device range", "default", host, True],
            ["RangeMarkerData", kind, "DEVICE", "", "", on_device, True],
            ["RangeMarkerData", kind, "HOST", "host range", "default", host, True],
        ]
    )  # fmt: skip


def test_callback_errors_are_printed_and_collection_goes_on(run_vendor_sim) -> None:
    """PY-CB-01 as the vendor does it: printed on stdout, the record dropped, the rest delivered;
    an MstxMonitor given None for mark_cb still starts and prints an error per mark."""
    child = run_vendor_sim("""
        from mspti import KernelMonitor, MstxMonitor
        from mspti_core import mstx
        from sim_runtime import npu
        seen = []
        def picky(data):
            if not seen:
                seen.append(None)
                raise RuntimeError("first kernel refused")
            seen.append(data.name)
        kernels, marks = KernelMonitor(), MstxMonitor()
        ranges = []
        results = [kernels.start(picky), marks.start(None, ranges.append)]
        device = npu.Device(0)
        stream = npu.Stream()
        npu.Kernel("picky").launch_many(3, stream=stream)
        mstx.mark("to nobody")
        mstx.range_end(mstx.range_start("to the range callback"))
        stream.synchronize()
        results += [kernels.stop(), marks.stop()]
        report({"results": [r.name for r in results], "seen": seen, "ranges": [r.name for r in ranges]})
    """).check()
    result = child.result
    assert result["results"] == ["MSPTI_SUCCESS"] * 4
    assert result["seen"] == [None, "picky", "picky"]
    assert result["ranges"] == ["to the range callback"]
    errors = [line for line in child.stdout.splitlines() if " [ERROR] [MSPTI] [" in line]
    assert len(errors) == 2, child.stdout
    assert "first kernel refused" in errors[0] or "first kernel refused" in errors[1]
    assert any("NoneType" in line for line in errors)
    assert "Traceback" not in child.stderr


# ---- behaviour on the stand-in library ----


def test_unknown_communication_data_type_is_skipped_with_a_message(run_vendor_fake) -> None:
    """PY-DATA-04, PY-DATA-02: a record whose dataType is not a vendor enum member is dropped."""
    child = run_vendor_fake("""
        import mspti
        got = []
        monitor = mspti.CommunicationMonitor()
        started = monitor.start(got.append)
        emit(communication(4, 1024, 1, 7, 100, 200, "ring", "allreduce", "world", 11))
        emit(communication(13, 8, 1, 7, 300, 400, "ring", "odd", "world", 12))
        emit(communication(11, 64, 1, 7, 500, 600, "mesh", "allgather", "world", 13))
        stopped = monitor.stop()
        report({"results": [started.name, stopped.name],
                "got": [[c.name, c.data_type.name, type(c.data_type).__module__, c.count, c.device_id,
                         c.stream_id, c.start, c.end, c.alg_type, c.comm_name, c.correlation_id]
                        for c in got]})
    """)
    child.check()
    assert child.result == {
        "results": ["MSPTI_SUCCESS", "MSPTI_SUCCESS"],
        "got": [
            ["allreduce", "MSPTI_ACTIVITY_COMMUNICATION_FP32", "mspti.constant", 1024, 1, 7, 100, 200, "ring",
             "world", 11],
            ["allgather", "MSPTI_ACTIVITY_COMMUNICATION_BFP16", "mspti.constant", 64, 1, 7, 500, 600, "mesh",
             "world", 13],
        ],
    }  # fmt: skip
    errors = [line for line in child.stdout.splitlines() if " [ERROR] [MSPTI] [" in line]
    assert len(errors) == 1 and "13 is not a valid MsptiCommunicationDataType" in errors[0]


def test_session_results_without_preload_and_with_a_c_subscriber(run_vendor_fake) -> None:
    """PY-START-04, PY-STOP-03 and the session reference a failed HCCL start keeps (as the vendor)."""
    no_preload = run_vendor_fake(
        """
        import mspti
        hccl = mspti.HcclMonitor()
        results = [mspti.KernelMonitor().stop(), hccl.start(lambda d: None)]
        held = LIB.fake_subscribed()
        results.append(hccl.stop())
        report({"results": [r.name for r in results], "held": held, "after": LIB.fake_subscribed()})
        """,
        FAKE_MSPTI_NO_PRELOAD="1",
    ).check()
    assert no_preload.result == {
        "results": ["MSPTI_SUCCESS", "MSPTI_ERROR_WITHOUT_LD_PRELOAD", "MSPTI_SUCCESS"],
        "held": 1,
        "after": 0,
    }
    with_c = run_vendor_fake("""
        import ctypes, mspti
        handle = ctypes.c_void_p()
        assert LIB.msptiSubscribe(ctypes.byref(handle), None, None) == 0
        got = []
        monitor = mspti.KernelMonitor()
        refused = monitor.start(got.append)
        LIB.msptiUnsubscribe(handle)
        accepted = monitor.start(got.append)
        emit_kernels(3, "k")
        stopped = monitor.stop()
        report({"results": [refused.name, accepted.name, stopped.name], "n": len(got),
                "after": LIB.fake_subscribed()})
    """).check()
    assert with_c.result == {
        "results": ["MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED", "MSPTI_SUCCESS", "MSPTI_SUCCESS"],
        "n": 3,
        "after": 0,
    }


def test_flush_period_buffer_size_and_stop_inside_a_callback(run_vendor_fake) -> None:
    """flush_period takes a C unsigned int (wraps); set_buffer_size accepts 1..256; stop() from a
    callback returns MSPTI_ERROR_INNER with a message instead of raising."""
    child = run_vendor_fake("""
        import mspti
        Monitor = mspti.KernelMonitor
        periods = []
        for value in (250, -1, 0):
            periods.append(Monitor.flush_period(value).name)
            periods.append(LIB.fake_flush_period())
        sizes = [Monitor.set_buffer_size(v).name for v in (1, 256, 8)]
        inner = []
        monitor = Monitor()
        def stop_from_inside(data):
            inner.append(monitor.stop().name)
        monitor.start(stop_from_inside)
        emit_kernels(1, "k")
        outside = monitor.stop().name
        report({"periods": periods, "sizes": sizes, "inner": inner, "outside": outside,
                "after": LIB.fake_subscribed()})
    """).check()
    assert child.result == {
        "periods": ["MSPTI_SUCCESS", 250, "MSPTI_SUCCESS", 0xFFFFFFFF, "MSPTI_SUCCESS", 0],
        "sizes": ["MSPTI_SUCCESS"] * 3,
        "inner": ["MSPTI_ERROR_INNER"],
        "outside": "MSPTI_SUCCESS",
        "after": 0,
    }
    assert sum(" [ERROR] [MSPTI] [" in line for line in child.stdout.splitlines()) == 1
