"""sim_runtime.fakes in the pytest process, on the simulator alone: names, the decoded table, each
behaviour (returns, times, after, call, outputs), expectations, channel feeding, report injection,
threads and fork."""

from __future__ import annotations

import ctypes
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim_runtime import _native, control, fakes, npu  # type: ignore[attr-defined]

REPO = Path(__file__).resolve().parents[3]
LIB64 = Path(_native.__file__).parent / "lib64"


@pytest.fixture(autouse=True)
def clean() -> Iterator[None]:
    fakes.reset()
    yield
    fakes.reset()


@pytest.fixture(scope="module")
def hal() -> ctypes.CDLL:
    return ctypes.CDLL(str(LIB64 / "libascend_hal.so"))


def test_unknown_name_lists_close_matches() -> None:
    with pytest.raises(ValueError, match=r"'aclrtLaunchKernal' is not .*did you mean aclrtLaunchKernel"):
        fakes.fake("aclrtLaunchKernal")
    with pytest.raises(ValueError, match="not an exported simulator function"):
        fakes.expect("no_such_function_at_all")


def test_every_fault_point_can_be_faked_with_a_code() -> None:
    names = fakes.fault_point_functions()
    assert len(names) > 150
    assert {"aclInit", "aclrtLaunchKernel", "HcclAllReduce", "aclnnAdd", "prof_channel_read"} <= set(names)
    for name in names:
        fakes.fake(name).will(returns=1)
    fakes.reset()


def test_decoded_table_matches_the_fault_points_that_pass_arguments() -> None:
    # The table (data/fakes.toml) and the sources (NPUSIM_FAULT_*_ARGS, scanned at build) agree.
    in_sources = dict(_native.decoded_functions())  # name -> arguments its fault point passes
    assert fakes.decoded_functions() == sorted(in_sources)
    for name in fakes.decoded_functions():
        assert name in fakes.fault_point_functions()
        assert len(fakes.function_spec(name).params) == in_sources[name], name


def test_decoded_table_parameters_match_the_headers() -> None:
    """Each decoded function's parameter names, in order, are those of its declaration."""
    headers = [
        REPO / "csrc/seam/include/seam/profapi.h",
        REPO / "csrc/seam/include/seam/hal.h",
        REPO / "csrc/sim/include/acl/acl_rt.h",
    ]
    text = " ".join(h.read_text() for h in headers)
    for name in fakes.decoded_functions():
        spec = fakes.function_spec(name)
        match = re.search(rf"\b{name}\s*\(([^;{{]*?)\)\s*;", text)
        assert match is not None, f"{name} is not declared in the seam or ACL headers"
        declared = [
            re.findall(r"\w+", p)[-1] for p in match.group(1).split(",") if p.strip() not in ("", "void")
        ]
        assert declared == [p.name for p in spec.params], name


def test_struct_sizes_match_the_seam() -> None:
    for name, size in {"MsprofApi": 40, "MsprofCompactInfo": 64, "MsprofAdditionalInfo": 256,
                       "StarsSocLog": 64, "StarsSocLogV6": 32, "prof_start_para": 32}.items():  # fmt: skip
        assert len(fakes.struct_bytes(fakes.struct_type(name)())) == size


def test_docs_list_the_decoded_table() -> None:
    doc = (REPO / "docs" / "fakes.md").read_text()
    assert fakes.doc_table() in doc, "regenerate the table: python -m sim_runtime.fakes --doc-table"


def test_returns_times_after_and_counts(hal: ctypes.CDLL) -> None:
    n = ctypes.c_uint32()
    f = fakes.fake("drvGetDevNum").will(returns=87).after(1).times(2)
    got = [hal.drvGetDevNum(ctypes.byref(n)) for _ in range(5)]
    assert got == [0, 87, 87, 0, 0]
    assert (f.calls, f.acted) == (5, 2)
    f.remove()
    assert hal.drvGetDevNum(ctypes.byref(n)) == 0


def test_outputs_replace_the_call(hal: ctypes.CDLL) -> None:
    n = ctypes.c_uint32(0)
    fakes.fake("drvGetDevNum").will(outputs={"numDev": 7})
    assert hal.drvGetDevNum(ctypes.byref(n)) == 0
    assert n.value == 7
    with pytest.raises(ValueError, match="not out-parameters; out-parameters: numDev"):
        fakes.fake("drvGetDevNum").will(outputs={"devices": 1})


def test_callable_gets_decoded_arguments(hal: ctypes.CDLL) -> None:
    seen = []

    def info(dev_id: int, module: int, info_type: int, value: int) -> fakes.Result | None:
        seen.append((dev_id, module, info_type, value != 0))
        return fakes.Result(0, {"value": -5}) if info_type == 3 else None

    fakes.fake("halGetDeviceInfo").will(call=info)
    v = ctypes.c_int64()
    assert hal.halGetDeviceInfo(0, 0, 3, ctypes.byref(v)) == 0 and v.value == -5
    assert hal.halGetDeviceInfo(0, 0, 1, ctypes.byref(v)) == 0 and v.value == 5 << 8  # the real one ran
    assert hal.halGetDeviceInfo(0, 0, 3, None) == 0  # replaced: nothing written at NULL
    assert hal.halGetDeviceInfo(0, 0, 1, None) != 0  # not replaced: the real function refuses NULL
    assert seen == [(0, 0, 3, True), (0, 0, 1, True), (0, 0, 3, False), (0, 0, 1, False)]


def test_callable_sees_structs_and_buffers() -> None:
    got = []
    fakes.fake("MsprofReportApi").will(call=lambda aging, api: got.append((aging, api)) or 0)
    fakes.fake("MsprofReportCompactInfo").will(call=lambda aging, data, length: got.append(data[:4]) or 0)
    api = fakes.struct_type("MsprofApi")(level=20000, type=7, beginTime=10, endTime=20, itemId=3)
    assert fakes.report("api", api, aging=0) == 0
    compact = fakes.struct_type("MsprofCompactInfo")(level=5000, type=802, data=b"\x01\x02")
    assert fakes.report("compact", compact) == 0
    assert got[0] == (0, api)
    assert got[1] == fakes.struct_bytes(compact)[:4]


def test_callable_errors_are_reported_at_scope_exit(hal: ctypes.CDLL) -> None:
    n = ctypes.c_uint32()

    def broken(num_dev: int) -> int:
        raise RuntimeError("boom")

    with (
        pytest.raises(fakes.FakeError, match=r"drvGetDevNum call #1: the fake raised RuntimeError\('boom'\)"),
        fakes.scope(),
    ):
        fakes.fake("drvGetDevNum").will(call=broken)
        assert hal.drvGetDevNum(ctypes.byref(n)) == 0  # the real function ran


def test_call_and_outputs_need_a_decoded_function() -> None:
    with pytest.raises(ValueError, match="aclInit is not a decoded function"):
        fakes.fake("aclInit").will(call=lambda: 0)
    with pytest.raises(ValueError, match="needs returns=, call= or outputs="):
        fakes.fake("aclInit").will()
    with pytest.raises(ValueError, match=r"times\(0\)"):
        fakes.fake("aclInit").times(0)


def test_expectation_message_names_it_and_the_calls(hal: ctypes.CDLL) -> None:
    v = ctypes.c_int64()
    with pytest.raises(fakes.FakeError) as info, fakes.scope():
        fakes.expect("halGetDeviceInfo").called(exactly=2).with_args(infoType=25)
        hal.halGetDeviceInfo(0, 0, 25, ctypes.byref(v))
        hal.halGetDeviceInfo(0, 0, 3, ctypes.byref(v))
    text = str(info.value)
    assert "expect('halGetDeviceInfo').called(at_least=2, at_most=2).with_args(infoType=25) not met" in text
    assert "1 matching call(s) of 2 seen" in text
    assert "#2 halGetDeviceInfo(devId=0, moduleType=0, infoType=3," in text
    with pytest.raises(ValueError, match="no parameter infoTyp; parameters: devId"):
        fakes.expect("halGetDeviceInfo").with_args(infoTyp=1)


def test_expectation_met_passes_and_counts_only_calls_after_it(hal: ctypes.CDLL) -> None:
    v = ctypes.c_int64()
    hal.halGetDeviceInfo(0, 0, 1, ctypes.byref(v))
    with fakes.scope():
        fakes.expect("halGetDeviceInfo").called(exactly=1)
        hal.halGetDeviceInfo(0, 0, 1, ctypes.byref(v))


def test_channel_feed_is_readable_at_once(hal: ctypes.CDLL) -> None:
    # Fed bytes need no started channel and no clock: a read returns them as they were fed.
    fakes.channel(0, 44).feed(b"\x01\x02\x03")
    fakes.channel(0, 44).feed(b"\x04")
    assert _native.channel_pending_bytes(0, 44) == 4
    buf = ctypes.create_string_buffer(2)
    assert hal.prof_channel_read(0, 44, buf, 2) == 2 and buf.raw == b"\x01\x02"
    buf = ctypes.create_string_buffer(8)
    assert hal.prof_channel_read(0, 44, buf, 8) == 2 and buf.raw[:2] == b"\x03\x04"
    with pytest.raises(ValueError, match="cannot feed device 0 channel 7"):
        fakes.channel(0, 7).feed(b"x")
    with pytest.raises(ValueError, match="cannot feed device 99 channel 50"):
        fakes.channel(99, 50).feed(b"x")


def test_short_fault_caps_a_read_by_its_whole_byte_count(hal: ctypes.CDLL) -> None:
    # short=N caps a read at N bytes: a cap of 2^32 + 1 bytes is no cap for an 8-byte buffer (it
    # must not wrap to 1 byte), while short=3 still cuts the read to 3.
    fakes.channel(0, 44).feed(bytes(range(16)))
    buf = ctypes.create_string_buffer(8)
    try:
        control.set_fault_plan(f"prof_channel_read:short={2**32 + 1}")
        assert hal.prof_channel_read(0, 44, buf, 8) == 8 and buf.raw == bytes(range(8))
        control.set_fault_plan("prof_channel_read:short=3")
        assert hal.prof_channel_read(0, 44, buf, 8) == 3 and buf.raw[:3] == bytes(range(8, 11))
    finally:
        control.clear_fault_plan()
    assert hal.prof_channel_read(0, 44, buf, 8) == 5


def test_report_checks_kind_and_size() -> None:
    with pytest.raises(ValueError, match="unknown report kind 'node'"):
        fakes.report("node", b"")
    with pytest.raises(ValueError, match="report kind 'api' takes a MsprofApi of 40 bytes, not 3"):
        fakes.report("api", b"abc")
    with pytest.raises(ValueError, match="report kind 'event' takes a MsprofEvent, not a MsprofApi"):
        fakes.report("event", fakes.struct_type("MsprofApi")())
    assert fakes.report("compact", b"short") == 5  # libprofapi refuses the length: PROFAPI_ERROR


def test_callable_runs_for_calls_from_other_threads(hal: ctypes.CDLL) -> None:
    threads = set()

    def count(num_dev: int) -> int:
        threads.add(threading.get_ident())
        return 0

    fakes.fake("drvGetDevNum").will(call=count)
    together = threading.Barrier(4)

    def work() -> None:
        n = ctypes.c_uint32()
        together.wait(timeout=30)  # all four alive at once: four distinct thread ids
        for _ in range(50):
            hal.drvGetDevNum(ctypes.byref(n))

    workers = [threading.Thread(target=work) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=30)
    assert not any(w.is_alive() for w in workers)
    assert fakes.fake("drvGetDevNum").acted == 200
    assert len(threads) == 4


def test_launch_from_the_workload_api_is_seen_with_its_arguments() -> None:
    device = npu.Device(0)
    stream = npu.Stream()
    kernel = npu.Kernel("vec_add", "AIV")
    with fakes.scope():
        launch = fakes.fake("aclrtLaunchKernel").will(returns=507899).times(1)
        fakes.expect("aclrtLaunchKernel").called(exactly=2).with_args(numBlocks=16, stream=stream.handle)
        with pytest.raises(npu.AclError, match="507899"):
            kernel.launch(blocks=16, stream=stream)
        kernel.launch(blocks=16, stream=stream)
        stream.synchronize()
        assert (launch.calls, launch.acted) == (2, 1)
    stream.destroy()
    device.close()


def test_forked_child_starts_without_fakes(hal: ctypes.CDLL) -> None:
    fakes.fake("drvGetDevNum").will(returns=33)
    n = ctypes.c_uint32()
    assert hal.drvGetDevNum(ctypes.byref(n)) == 33
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = hal.drvGetDevNum(ctypes.byref(n))
        os.write(write, bytes([code & 0xFF]))
        os._exit(0)
    os.close(write)
    child_code = os.read(read, 1)
    os.waitpid(pid, 0)
    os.close(read)
    assert child_code == b"\x00"
    assert hal.drvGetDevNum(ctypes.byref(n)) == 33  # the parent keeps its fake


def test_expectation_on_a_function_that_is_not_decoded_counts_its_calls() -> None:
    lib = ctypes.CDLL(str(LIB64 / "libascendcl.so"))
    lib.aclrtGetSocName.restype = ctypes.c_char_p
    unmet = r"expect\('aclrtGetSocName'\).called\(at_least=3\) not met: 2"
    with pytest.raises(fakes.FakeError, match=unmet), fakes.scope():
        fakes.expect("aclrtGetSocName").called(at_least=3)
        assert lib.aclrtGetSocName() and lib.aclrtGetSocName()
    with pytest.raises(ValueError, match="aclrtGetSocName is not a decoded function"):
        fakes.expect("aclrtGetSocName").with_args(x=1)


def test_channel_feed_beyond_the_limit_is_refused_whole(hal: ctypes.CDLL) -> None:
    limit = 64 << 20
    fakes.channel(0, 44).feed(b"\x00" * (limit - 1))
    with pytest.raises(ValueError, match="at most 64 MiB unread"):
        fakes.channel(0, 44).feed(b"\x01\x02")  # nothing of it is appended
    fakes.channel(0, 44).feed(b"\x03")  # exactly at the limit
    buf = ctypes.create_string_buffer(limit + 16)
    assert hal.prof_channel_read(0, 44, buf, limit + 16) == limit
    assert buf.raw[limit - 1 : limit] == b"\x03"
    assert _native.channel_pending_bytes(0, 44) == 0
