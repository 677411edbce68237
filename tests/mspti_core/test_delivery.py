"""Delivery of records to Python, on the stand-in msPTI (fixtures/fake_mspti.cpp).

The stand-in produces exactly the records a test asks for, so these tests know the ground truth
record by record: fields, order, buffer and batch boundaries, kinds nobody consumes, mstx ranges
split across buffers, callbacks that raise, several monitors and threads.
"""

from __future__ import annotations

from pathlib import Path

KERNEL_FIELDS = ["kind", "start", "end", "device_id", "stream_id", "correlation_id", "type", "name"]


def test_kernel_records_arrive_with_their_fields(run_fake) -> None:
    """PY-START-02, PY-DATA-01."""
    child = run_fake(
        """
        got = []
        monitor = KernelMonitor()
        assert monitor.start(got.append) is MsptiResult.MSPTI_SUCCESS
        emit(kernel("matmul_f16", 100, 250, device=3, stream=7, correlation=41, type_="KERNEL_AICORE"))
        emit(kernel("add", 300, 310, device=3, stream=8, correlation=42))
        assert monitor.stop() is MsptiResult.MSPTI_SUCCESS
        first = got[0]
        report({"n": len(got), "first": [getattr(first, f) for f in FIELDS],
                "second": got[1].name, "kind": type(first.kind).__name__, "cls": type(first).__name__})
    """.replace("FIELDS", repr(KERNEL_FIELDS))
    ).check()
    assert child.result == {
        "n": 2,
        "first": [2, 100, 250, 3, 7, 41, "KERNEL_AICORE", "matmul_f16"],
        "second": "add",
        "kind": "MsptiActivityKind",
        "cls": "KernelData",
    }


def test_many_records_cross_buffers_and_batches_in_order(run_fake) -> None:
    child = run_fake("""
        from mspti_core import _mspti
        KernelMonitor.set_buffer_size(1)
        ids = []
        monitor = KernelMonitor()
        monitor.start(lambda d: ids.append(d.correlation_id))
        written = emit_kernels(200_000, "k", first=1)
        monitor.stop()
        stats = _mspti.stats()
        report({"written": written, "n": len(ids), "in_order": ids == list(range(1, 200_001)),
                "buffers": stats["buffers_completed"], "batches": stats["batches"],
                "size": stats["buffer_size"], "count": stats["buffer_count"]})
    """).check()
    result = child.result
    assert result["written"] == result["n"] == 200_000
    assert result["in_order"]
    assert result["size"] == 1 << 20 and result["count"] == 256
    assert result["buffers"] >= 200_000 * 56 // (1 << 20)
    assert result["batches"] >= 200_000 // 4096


def test_kinds_nobody_consumes_are_skipped(run_fake) -> None:
    child = run_fake("""
        from mspti_core import _mspti
        got = []
        monitor = KernelMonitor()
        monitor.start(got.append)
        LIB.msptiActivityEnable(5)   # MEMORY records now share the buffers; no monitor takes them
        for i in range(50):
            emit(memory(0, 1, i, i, i + 1, 0x1000 + i, 64, 1, 0, 0xFFFFFFFF))
            emit(kernel("k%d" % i, i, i + 1))
        monitor.stop()
        stats = _mspti.stats()
        report({"n": len(got), "names": [d.name for d in got][:3], "skipped": stats["records_skipped"],
                "seen": stats["records_seen"]})
    """).check()
    assert child.result == {"n": 50, "names": ["k0", "k1", "k2"], "skipped": 50, "seen": 100}


def test_all_four_monitors_at_once_share_one_subscription(run_fake) -> None:
    """PY-STOP-02: each monitor gets its kind only; the last one out unsubscribes."""
    child = run_fake("""
        kernels, hccls, comms, marks = [], [], [], []
        monitors = [KernelMonitor(), HcclMonitor(), CommunicationMonitor(), MstxMonitor()]
        assert monitors[0].start(kernels.append) == 0
        assert monitors[1].start(hccls.append) == 0
        assert monitors[2].start(comms.append) == 0
        assert monitors[3].start(marks.append) == 0
        subscribed = [LIB.fake_subscribed()]
        for i in range(10):
            emit(kernel("k", i, i + 1))
            emit(hccl("HcclAllReduce", "group0", i, i + 5, 0, 2, 12.5))
            emit(communication(4, 1024, 0, 2, i, i + 5, "ring", "hcom_allReduce_", "group0", i))
            emit(marker(1, 0, i, i + 1, 100, 101, "tick", "default"))
        order = []
        for index in (2, 0, 3):
            assert monitors[index].stop() == 0
            subscribed.append(LIB.fake_subscribed())
        emit(hccl("HcclBroadcast", "group0", 50, 60, 0, 2, 1.0))
        assert monitors[1].stop() == 0
        subscribed.append(LIB.fake_subscribed())
        report({"n": [len(kernels), len(hccls), len(comms), len(marks)],
                "types": [type(x[0]).__name__ for x in (kernels, hccls, comms, marks)],
                "subscribed": subscribed, "last_hccl": hccls[-1].name,
                "hccl": [hccls[0].bandwidth, hccls[0].comm_name, hccls[0].device_id, hccls[0].stream_id],
                "comm": [comms[0].data_type.name, comms[0].count, comms[0].alg_type, comms[0].name,
                         comms[0].comm_name, comms[0].correlation_id, comms[0].end]})
    """).check()
    result = child.result
    assert result["n"] == [10, 11, 10, 10]
    assert result["types"] == ["KernelData", "HcclData", "CommunicationData", "MarkerData"]
    assert result["subscribed"] == [1, 1, 1, 1, 0]
    assert result["last_hccl"] == "HcclBroadcast"
    assert result["hccl"] == [12.5, "group0", 0, 2]
    assert result["comm"] == [
        "MSPTI_ACTIVITY_COMMUNICATION_FP32",
        1024,
        "ring",
        "hcom_allReduce_",
        "group0",
        0,
        5,
    ]


def test_two_monitors_of_one_kind_both_get_every_record(run_fake) -> None:
    child = run_fake("""
        a, b = [], []
        first, second = KernelMonitor(), KernelMonitor()
        first.start(a.append)
        second.start(b.append)
        emit_kernels(1000, "k")
        first.stop()
        enabled_after_first = LIB.msptiActivityIsEnabled(2)
        emit_kernels(10, "later")
        second.stop()
        report({"a": len(a), "b": len(b), "same": a == b[:1000], "enabled": enabled_after_first,
                "enabled_after_both": LIB.msptiActivityIsEnabled(2)})
    """).check()
    assert child.result == {"a": 1000, "b": 1010, "same": True, "enabled": 1, "enabled_after_both": 0}


def test_a_callback_that_raises_is_reported_and_delivery_continues(run_fake) -> None:
    """PY-CB-01: printed with its traceback, counted, later records still delivered."""
    child = run_fake("""
        seen = []
        def callback(data):
            seen.append(data.correlation_id)
            if data.correlation_id % 3 == 0:
                raise ValueError(f"boom {data.correlation_id}")
        monitor = KernelMonitor()
        monitor.start(callback)
        emit_kernels(30, "k", first=1)
        monitor.stop()
        report({"seen": len(seen), "errors": mspti_core.callback_errors()})
    """).check()
    assert child.result == {"seen": 30, "errors": 10}
    assert child.stderr.count("raised an exception; delivery continues") == 10
    assert child.stderr.count("Traceback (most recent call last)") == 10
    assert "ValueError: boom 3" in child.stderr and "ValueError: boom 30" in child.stderr
    assert "in callback" in child.stderr


def test_system_exit_in_a_callback_does_not_end_the_process(run_fake) -> None:
    child = run_fake("""
        import sys
        def callback(data):
            sys.exit(3)
        monitor = KernelMonitor()
        monitor.start(callback)
        emit_kernels(2, "k")
        monitor.stop()
        report({"errors": mspti_core.callback_errors()})
    """).check()
    assert child.result == {"errors": 2}
    assert "SystemExit: 3" in child.stderr


def test_stop_without_start_double_start_and_double_stop(run_fake) -> None:
    """PY-STOP-03; a second start of a running monitor is refused and leaves it running."""
    child = run_fake("""
        got = []
        monitor = KernelMonitor()
        results = [monitor.stop()]
        results.append(monitor.start(got.append))
        results.append(monitor.start(got.append))
        running = monitor.running
        emit_kernels(5, "k")
        results.append(monitor.stop())
        results.append(monitor.stop())
        results.append(MstxMonitor().stop())
        report({"results": [int(r) for r in results], "n": len(got), "running": running,
                "subscribed": LIB.fake_subscribed()})
    """).check()
    assert child.result == {"results": [0, 0, 1, 0, 0, 0], "n": 5, "running": True, "subscribed": 0}


def test_start_stop_cycles_deliver_exactly_what_ran_in_between(run_fake) -> None:
    child = run_fake("""
        counts = []
        monitor = KernelMonitor()
        for cycle in range(25):
            got = []
            assert monitor.start(got.append) == 0
            emit_kernels(cycle * 7 + 1, "k")
            assert monitor.stop() == 0
            emit_kernels(3, "while stopped")   # KERNEL is disabled: msPTI drops these
            counts.append(len(got))
        report({"counts": counts, "dropped": LIB.fake_dropped(), "subscribed": LIB.fake_subscribed()})
    """).check()
    assert child.result == {"counts": [c * 7 + 1 for c in range(25)], "dropped": 75, "subscribed": 0}


def test_no_callback_after_stop(run_fake) -> None:
    child = run_fake("""
        got = []
        kernels, marks = KernelMonitor(), MstxMonitor()
        kernels.start(got.append)
        marks.start(lambda d: None)          # keeps the session open after kernels stop
        emit_kernels(10, "before")
        kernels.stop()
        LIB.msptiActivityEnable(2)           # KERNEL records keep coming, for nobody
        emit_kernels(10, "after")
        KernelMonitor.flush_all()
        marks.stop()
        report({"names": sorted({d.name for d in got}), "n": len(got)})
    """).check()
    assert child.result == {"names": ["before"], "n": 10}


def test_a_c_subscriber_blocks_start_without_leaking_the_session(run_fake) -> None:
    """PY-START-04: MULTIPLE_SUBSCRIBERS; once the C subscriber leaves, start works."""
    child = run_fake("""
        import ctypes
        handle = ctypes.c_void_p()
        assert LIB.msptiSubscribe(ctypes.byref(handle), None, None) == 0
        monitor = KernelMonitor()
        first = monitor.start(lambda d: None)
        running = monitor.running
        LIB.msptiUnsubscribe(handle)
        got = []
        second = monitor.start(got.append)
        emit_kernels(4, "k")
        monitor.stop()
        report({"first": first.name, "running": running, "second": int(second), "n": len(got)})
    """).check()
    assert child.result == {
        "first": "MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED",
        "running": False,
        "second": 0,
        "n": 4,
    }


def test_hccl_without_preload_fails_and_rolls_back(run_fake) -> None:
    """PY-START-04: the library's WITHOUT_LD_PRELOAD reaches the caller; nothing stays subscribed."""
    child = run_fake(
        """
        hccl_monitor = HcclMonitor()
        result = hccl_monitor.start(lambda d: None)
        subscribed = LIB.fake_subscribed()
        got = []
        kernels = KernelMonitor()
        kernels.start(got.append)
        emit_kernels(3, "k")
        kernels.stop()
        report({"result": result.name, "subscribed": subscribed, "n": len(got),
                "running": hccl_monitor.running})
    """,
        FAKE_MSPTI_NO_PRELOAD="1",
    ).check()
    assert child.result == {
        "result": "MSPTI_ERROR_WITHOUT_LD_PRELOAD",
        "subscribed": 0,
        "n": 3,
        "running": False,
    }


MSTX_SCRIPT = """
    HOST, DEVICE = 0, 1
    INSTANT, START, END, INSTANT_DEV, START_DEV, END_DEV = 1, 2, 4, 8, 16, 32
    marks, ranges = [], []
    monitor = MstxMonitor()
    assert monitor.start(marks.append, ranges.append) == 0
    emit(marker(INSTANT, HOST, 10, 1, 500, 501, "hello", "default"))
    emit(marker(INSTANT_DEV, HOST, 11, 2, 500, 501, "on stream", "default"))
    emit(marker(INSTANT_DEV, DEVICE, 12, 2, 3, 9, "", ""))
    emit(marker(START_DEV, HOST, 20, 3, 500, 501, "mstx_matmul", "default"))
    emit(marker(START_DEV, DEVICE, 21, 3, 3, 9, "", ""))
    emit(marker(END_DEV, HOST, 30, 3, 500, 501, "", ""))
    emit(marker(END, HOST, 40, 4, 500, 502, "", ""))          # END before its START
    emit(marker(START, HOST, 35, 4, 500, 502, "step", "training"))
    emit(marker(START, HOST, 50, 5, 500, 501, "never ends", "default"))
    emit(marker(END_DEV, DEVICE, 31, 3, 3, 9, "", ""))
    monitor.stop()
    def obj(o):
        return [o.process_id, o.thread_id, o.device_id, o.stream_id]
    report({
        "marks": [[m.flag.name, m.source_kind.name, m.timestamp, m.id, obj(m.object_id), m.name, m.domain]
                  for m in marks],
        "ranges": [[r.kind.name, r.source_kind.name, r.id, obj(r.object_id), r.name, r.domain, r.start, r.end,
                    type(r).__name__] for r in ranges],
    })
"""


def test_mstx_marks_and_ranges(run_fake) -> None:
    """PY-RANGE-01, PY-RANGE-02, PY-DATA-03."""
    result = run_fake(MSTX_SCRIPT).check().result
    assert result["marks"] == [
        [
            "MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS",
            "MSPTI_ACTIVITY_SOURCE_KIND_HOST",
            10,
            1,
            [500, 501, -1, -1],
            "hello",
            "default",
        ],
        [
            "MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE",
            "MSPTI_ACTIVITY_SOURCE_KIND_HOST",
            11,
            2,
            [500, 501, -1, -1],
            "on stream",
            "default",
        ],
        [
            "MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE",
            "MSPTI_ACTIVITY_SOURCE_KIND_DEVICE",
            12,
            2,
            [-1, -1, 3, 9],
            "",
            "",
        ],
    ]
    assert result["ranges"] == [
        [
            "MSPTI_ACTIVITY_KIND_MARKER",
            "MSPTI_ACTIVITY_SOURCE_KIND_HOST",
            3,
            [500, 501, -1, -1],
            "mstx_matmul",
            "default",
            20,
            30,
            "RangeMarkerData",
        ],
        [
            "MSPTI_ACTIVITY_KIND_MARKER",
            "MSPTI_ACTIVITY_SOURCE_KIND_HOST",
            4,
            [500, 502, -1, -1],
            "step",
            "training",
            35,
            40,
            "RangeMarkerData",
        ],
        [
            "MSPTI_ACTIVITY_KIND_MARKER",
            "MSPTI_ACTIVITY_SOURCE_KIND_DEVICE",
            3,
            [-1, -1, 3, 9],
            "",
            "",
            21,
            31,
            "RangeMarkerData",
        ],
    ]


def test_mstx_callbacks_are_optional(run_fake) -> None:
    child = run_fake("""
        only_marks, only_ranges = [], []
        a = MstxMonitor()
        assert a.start(only_marks.append) == 0
        emit(marker(1, 0, 1, 1, 1, 1, "m", "default"))
        emit(marker(2, 0, 2, 2, 1, 1, "r", "default"))
        emit(marker(4, 0, 3, 2, 1, 1, "", ""))
        a.stop()
        b = MstxMonitor()
        assert b.start(range_cb=only_ranges.append) == 0
        emit(marker(1, 0, 4, 3, 1, 1, "m", "default"))
        emit(marker(2, 0, 5, 4, 1, 1, "r", "default"))
        emit(marker(4, 0, 6, 4, 1, 1, "", ""))
        b.stop()
        c = MstxMonitor()
        tolerated = c.start(None, only_ranges.append)
        c.stop()
        report({"marks": [m.id for m in only_marks], "ranges": [[r.id, r.start, r.end] for r in only_ranges],
                "tolerated": int(tolerated)})
    """).check()
    assert child.result == {"marks": [1], "ranges": [[4, 5, 6]], "tolerated": 0}


def test_many_distinct_strings_and_ranges_split_across_batches(run_fake) -> None:
    """Past the interned-string table (65536 strings) names still arrive intact, also in ranges
    whose START and END are delivered in different batches."""
    child = run_fake(
        """
        KernelMonitor.set_buffer_size(1)
        names, ranges = [], []
        kernels, markers = KernelMonitor(), MstxMonitor()
        kernels.start(lambda d: names.append(d.name))
        markers.start(range_cb=ranges.append)
        n = 70_000
        for i in range(n):
            emit(kernel(f"kernel_{i}", i, i + 1))
            emit(marker(2, 0, 10 * i, i + 1, 7, 8, f"range_{i}", f"domain_{i % 3}"))
        for i in range(n):
            emit(marker(4, 0, 10 * i + 5, i + 1, 7, 8, "", ""))
        kernels.stop()
        markers.stop()
        report({"names_ok": names == [f"kernel_{i}" for i in range(n)],
                "ranges_ok": [(r.name, r.domain, r.start, r.end) for r in ranges]
                             == [(f"range_{i}", f"domain_{i % 3}", 10 * i, 10 * i + 5) for i in range(n)]})
    """,
        timeout=300,
    ).check()
    assert child.result == {"names_ok": True, "ranges_ok": True}


def test_enable_and_disable_domain(run_fake) -> None:
    """PY-DOM-01: results are MsptiResult members; the library decides what a domain switch does."""
    child = run_fake("""
        marks = []
        monitor = MstxMonitor()
        monitor.start(marks.append)
        results = [monitor.disable_domain("noisy")]
        emit(marker(1, 0, 1, 1, 1, 1, "dropped", "noisy"))
        emit(marker(1, 0, 2, 2, 1, 1, "kept", "default"))
        results.append(monitor.enable_domain("noisy"))
        emit(marker(1, 0, 3, 3, 1, 1, "back", "noisy"))
        results.append(monitor.disable_domain("x" * 300))
        monitor.stop()
        report({"results": [type(r).__name__ + ":" + str(int(r)) for r in results],
                "names": [m.name for m in marks]})
    """).check()
    assert child.result == {
        "results": ["MsptiResult:0", "MsptiResult:0", "MsptiResult:1"],
        "names": ["kept", "back"],
    }


def test_unknown_communication_data_type_arrives_as_a_number(run_fake) -> None:
    """PY-DATA-04 (delivered, not skipped: the number is kept as it is)."""
    child = run_fake("""
        got = []
        monitor = CommunicationMonitor()
        monitor.start(got.append)
        for data_type in (0, 11, 13, 14, 0xFFFF):
            emit(communication(data_type, 8, 0, 1, 1, 2, "", "hcom_broadcast_", "g", 1))
        monitor.stop()
        report([[type(c.data_type).__name__, int(c.data_type)] for c in got])
    """).check()
    enum = "MsptiCommunicationDataType"
    assert child.result == [[enum, 0], [enum, 11], ["int", 13], [enum, 14], [enum, 0xFFFF]]


def test_collector_takes_every_kind(run_fake) -> None:
    """mspti_core.activity: records of any kind as data classes (and dicts with the C names)."""
    child = run_fake("""
        from mspti_core import activity
        from mspti_core.data import to_dict
        collector = activity.Collector(*range(1, 13))
        with collector as records:
            emit(marker(1, 0, 5, 1, 10, 11, "m", "default"))
            emit(kernel("k", 1, 2, 0, 1, 9))
            for kind in (3, 10, 11, 12):
                emit(api(kind, "aclrtMalloc", 3, 4, 10, 11, 12))
            emit(hccl("HcclAllReduce", "g", 1, 2, 0, 1, 2.0))
            emit(memory(1, 1, 5, 6, 7, 0xDEAD, 4096, 10, 2, 0xFFFFFFFF))
            emit(memset(7, 128, 1, 2, 0, 1, 13, 1))
            emit(memcpy(2, 256, 1, 2, 0, 1, 14, 0))
            emit(external(2, 777, 15))
            emit(communication(3, 4, 0, 1, 1, 2, "ring", "hcom_allGather_", "g", 16))
        report({"classes": [type(r).__name__ for r in records],
                "kinds": [int(r.kind) for r in records],
                "memory": to_dict(records[7], c_names=True),
                "memset": [records[8].value, records[8].bytes, records[8].is_async,
                           records[8].correlation_id],
                "memcpy": [records[9].copy_kind.name, records[9].bytes, records[9].is_async],
                "external": [records[10].external_kind.name, records[10].external_id,
                             records[10].correlation_id],
                "api": [records[3].name, records[3].process_id, records[3].thread_id,
                        records[3].correlation_id],
                "running": collector.running})
    """).check()
    result = child.result
    assert result["classes"] == [
        "MarkerData",
        "KernelData",
        "ApiData",
        "ApiData",
        "ApiData",
        "ApiData",
        "HcclData",
        "MemoryData",
        "MemsetData",
        "MemcpyData",
        "ExternalCorrelationData",
        "CommunicationData",
    ]
    assert result["kinds"] == [1, 2, 3, 10, 11, 12, 4, 5, 6, 7, 8, 9]
    assert result["memory"] == {
        "kind": 5,
        "memoryOperationType": 1,
        "memoryKind": 1,
        "correlationId": 5,
        "start": 6,
        "end": 7,
        "address": 0xDEAD,
        "bytes": 4096,
        "processId": 10,
        "deviceId": 2,
        "streamId": 0xFFFFFFFF,
    }
    assert result["memset"] == [7, 128, True, 13]
    assert result["memcpy"] == ["MSPTI_ACTIVITY_MEMCPY_KIND_HTOD", 256, False]
    assert result["external"] == ["MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0", 777, 15]
    assert result["api"] == ["aclrtMalloc", 10, 11, 12]
    assert result["running"] is False


def test_flush_all_delivers_before_returning(run_fake) -> None:
    """PY-FLUSH-01."""
    child = run_fake("""
        got = []
        kernels, marks = KernelMonitor(), MstxMonitor()
        kernels.start(got.append)
        marks.start(got.append)
        emit_kernels(7, "k")
        emit(marker(1, 0, 1, 1, 1, 1, "m", "default"))
        before = len(got)
        result = MstxMonitor.flush_all()
        after = len(got)
        kernels.stop()
        marks.stop()
        report({"before": before, "after": after, "result": result.name})
    """).check()
    assert child.result == {"before": 0, "after": 8, "result": "MSPTI_SUCCESS"}


def test_flush_period_and_other_pass_throughs(run_fake) -> None:
    child = run_fake("""
        from mspti_core import activity
        results = [int(KernelMonitor.flush_period(250)), LIB.fake_flush_period()]
        results.append(int(activity.push_external_correlation_id(2, 99)))
        results.append([int(x) for x in activity.pop_external_correlation_id(2)])
        results.append(int(activity.pop_external_correlation_id(2)[0]))
        results.append(activity.timestamp())
        results.append(activity.is_enabled(2))
        results.append(activity.dropped_records())
        report(results)
    """).check()
    assert child.result == [0, 250, 0, [0, 99], 5, 42, False, 0]


def test_buffer_size_takes_effect_at_the_next_session(run_fake) -> None:
    """PY-BUF-01."""
    child = run_fake("""
        from mspti_core import _mspti
        sizes = []
        monitor = KernelMonitor()
        monitor.start(lambda d: None)
        emit_kernels(1, "k")
        assert KernelMonitor.set_buffer_size(2) == 0
        sizes.append(_mspti.stats()["buffer_size"])
        monitor.stop()
        monitor.start(lambda d: None)
        emit_kernels(1, "k")
        sizes.append(_mspti.stats()["buffer_size"])
        sizes.append(_mspti.stats()["buffer_count"])
        monitor.stop()
        report(sizes)
    """).check()
    assert child.result == [8 << 20, 2 << 20, 128]


def test_a_single_256_mb_buffer_loses_nothing_silently(run_fake) -> None:
    """With one 256 MB buffer the pool may be empty while the buffer is being read; every record
    is then either delivered or counted as dropped by msPTI."""
    child = run_fake(
        """
        KernelMonitor.set_buffer_size(256)
        got = [0]
        def count(data):
            got[0] += 1
        monitor = KernelMonitor()
        monitor.start(count)
        written = emit_kernels(6_000_000, "k")
        monitor.stop()
        from mspti_core import _mspti
        report({"written": written, "delivered": got[0], "dropped": LIB.fake_dropped(),
                "count": _mspti.stats()["buffer_count"]})
    """,
        timeout=300,
    ).check()
    result = child.result
    assert result["count"] == 1
    assert result["delivered"] == result["written"]
    assert result["written"] + result["dropped"] == 6_000_000


def test_threads_emitting_while_monitors_start_and_stop(run_fake) -> None:
    """THR: four producer threads, one monitor collecting all the time, another one cycling."""
    child = run_fake(
        """
        import threading
        from collections import Counter
        names = Counter()
        kernels = KernelMonitor()
        kernels.start(lambda d: names.update([d.name]))
        def produce(index):
            for _ in range(10):
                emit_kernels(2_000, f"thread{index}")
        threads = [threading.Thread(target=produce, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        cycles = 0
        while True:  # at least one cycle, however fast the producers finish
            marks = MstxMonitor()
            assert marks.start(lambda d: None) == 0
            MstxMonitor.flush_all()
            assert marks.stop() == 0
            cycles += 1
            if not any(t.is_alive() for t in threads):
                break
        for t in threads:
            t.join()
        kernels.stop()
        report({"names": dict(names), "cycles": cycles > 0, "errors": mspti_core.callback_errors()})
    """,
        timeout=300,
    ).check()
    assert child.result == {"names": {f"thread{i}": 20_000 for i in range(4)}, "cycles": True, "errors": 0}


def test_callbacks_may_flush_but_not_stop(run_fake) -> None:
    """From inside a callback: flush_all works (no deadlock); stop raises, is reported, and the
    monitor keeps delivering."""
    child = run_fake(
        """
        got = []
        monitor = KernelMonitor()
        def callback(data):
            got.append(data.correlation_id)
            if data.correlation_id == 2:
                KernelMonitor.flush_all()
            if data.correlation_id == 3:
                monitor.stop()
            if data.correlation_id == 4:
                KernelMonitor().start(print)
        monitor.start(callback)
        emit_kernels(5, "k")
        KernelMonitor.flush_all()
        emit_kernels(5, "k", first=6)
        running = monitor.running
        monitor.stop()
        report({"got": got, "errors": mspti_core.callback_errors(), "running": running,
                "subscribed": LIB.fake_subscribed()})
    """,
        timeout=60,
    ).check()
    assert child.result == {"got": list(range(1, 11)), "errors": 2, "running": True, "subscribed": 0}
    assert "cannot be stopped from inside a monitor callback" in child.stderr
    assert "cannot be started from inside a monitor callback" in child.stderr


def test_start_monitor_and_stop_monitor_hold_the_session(run_fake) -> None:
    """The class methods join and leave the shared session without collecting anything."""
    child = run_fake("""
        states = [int(KernelMonitor.start_monitor()), LIB.fake_subscribed()]
        got = []
        monitor = KernelMonitor()
        monitor.start(got.append)
        emit_kernels(2, "k")
        monitor.stop()
        states += [LIB.fake_subscribed(), len(got), int(MstxMonitor.stop_monitor()), LIB.fake_subscribed()]
        states.append(int(MstxMonitor.stop_monitor()))
        report(states)
    """).check()
    assert child.result == [0, 1, 1, 2, 0, 0, 0]


def test_pending_records_are_delivered_at_exit(run_fake, tmp_path: Path) -> None:
    """A program that ends without stopping its monitor still gets its records, and exits cleanly."""
    out = tmp_path / "seen.txt"
    child = run_fake(f"""
        sink = open({str(out)!r}, "w", buffering=1)
        monitor = KernelMonitor()
        monitor.start(lambda d: sink.write(d.name + "\\n"))
        emit_kernels(1234, "k")
    """).check()
    assert out.read_text().splitlines() == ["k"] * 1234
    assert child.stderr == ""


def test_library_choice(fake_env: dict[str, str], fake_mspti: Path, run_child) -> None:
    """$MSPTI_CORE_LIBRARY and a preloaded libmspti.so are found; another library cannot follow."""
    script = """
        import mspti_core
        from mspti_core import _library, _mspti
        first = str(mspti_core.ensure_loaded())
        again = str(mspti_core.load_library(first))
        try:
            mspti_core.load_library("/bin/true")
            other = "loaded"
        except ValueError as error:
            other = str(error)
        print("RESULT " + __import__("json").dumps({"first": first, "again": again, "other": other,
              "found": _mspti.find_loaded(), "sources": [s for s, _ in _library.candidate_paths()]}))
    """
    by_variable = run_child(script, fake_env).check().result
    assert by_variable["first"] == by_variable["again"] == str(fake_mspti)
    assert "already loaded" in by_variable["other"]
    env = dict(fake_env)
    del env["MSPTI_CORE_LIBRARY"]
    env["LD_PRELOAD"] = " ".join(filter(None, [env.get("LD_PRELOAD", ""), str(fake_mspti)]))
    preloaded = run_child(script, env).check().result
    assert Path(preloaded["first"]).resolve() == fake_mspti.resolve()
    assert Path(preloaded["found"]).resolve() == fake_mspti.resolve()
    assert preloaded["sources"][0].startswith("already loaded")


def test_any_callable_works(run_fake) -> None:
    child = run_fake("""
        class Counter:
            def __init__(self):
                self.n = 0
            def __call__(self, data):
                self.n += 1
            def method(self, data):
                self.n += 10
        sink, counter = [], Counter()
        monitors = [KernelMonitor(), KernelMonitor(), KernelMonitor()]
        monitors[0].start(sink.append)
        monitors[1].start(counter)
        monitors[2].start(counter.method)
        emit_kernels(3, "k")
        for m in monitors:
            m.stop()
        report([len(sink), counter.n])
    """).check()
    assert child.result == [3, 33]


def test_stop_racing_a_callback_that_stops_does_not_deadlock(run_fake) -> None:
    child = run_fake(
        """
        import time
        monitor = KernelMonitor()
        seen = []
        def callback(data):
            seen.append(data.correlation_id)
            if len(seen) == 1:
                time.sleep(0.3)          # the main thread is inside stop() meanwhile
                monitor.stop()
        monitor.start(callback)
        emit_kernels(3, "k")
        KernelMonitor.flush_period(0)
        import threading
        flusher = threading.Thread(target=KernelMonitor.flush_all)
        flusher.start()
        time.sleep(0.1)
        result = monitor.stop()
        flusher.join()
        report({"result": int(result), "seen": seen, "errors": mspti_core.callback_errors(),
                "subscribed": LIB.fake_subscribed()})
    """,
        timeout=60,
    ).check()
    assert child.result == {"result": 0, "seen": [1, 2, 3], "errors": 1, "subscribed": 0}
