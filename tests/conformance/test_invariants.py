"""The log invariants, on hand-made logs that keep or break each of them (each names its clause)."""

from __future__ import annotations

from typing import Any

from conformance.log import Call, Record, RunLog
from conformance.model.invariants import (
    accounting,
    buffer_protocol,
    callback_pairs,
    causality,
    correlation_membership,
    leftover_buffers,
    range_pairs,
    result_codes,
    stream_monotonic,
    unique_ids,
)


def clauses(violations: list[Any]) -> list[str]:
    return sorted(v.clause for v in violations)


def test_a_well_behaved_log_has_no_violation(log_builder: Any, marker: Any) -> None:
    log_builder.request(0x1000)
    log_builder.request(0x2000)
    log_builder.complete(0x1000, [("MARKER", marker(1)), ("KERNEL", {"corr": 1}), ("API", {"corr": 1})])
    log_builder.complete(0x2000, [("MEMORY", {"corr": 2}), ("EXTERNAL_CORRELATION", {"corr": 2})])
    log_builder.request(0x1000)  # a freed buffer handed out again is a new buffer
    log_builder.complete(0x1000, [("MEMCPY", {"corr": 3})])
    log = log_builder.build()
    assert buffer_protocol(log, serialized_requests=True) == []
    assert leftover_buffers(log) == []


def test_a_buffer_completed_twice_or_never_handed_out(log_builder: Any, marker: Any) -> None:
    log_builder.request(0x1000)
    log_builder.complete(0x1000, [("MARKER", marker(1))])
    log_builder.complete(0x1000, [("MARKER", marker(2))])
    log_builder.complete(0x9000, [("MARKER", marker(3))])
    violations = buffer_protocol(log_builder.build())
    assert clauses(violations) == ["ACT-BUF-03", "ACT-BUF-03"]
    assert "completed twice" in violations[0].message
    assert "never handed out" in violations[1].message


def test_complete_arguments_and_iteration_end(log_builder: Any, marker: Any) -> None:
    log_builder.request(0x1000, size=1024)
    log_builder.complete(0x1000, [("MARKER", marker(1))], size=2048)  # size differs from the request
    log_builder.request(0x2000, size=64)
    log_builder.complete(0x2000, [("MARKER", marker(2))], size=64, valid=100, end=56)  # validSize > size
    log_builder.request(0x3000)
    log_builder.complete(0x3000, [("MARKER", marker(3))], status=999)  # iteration did not reach the end
    log_builder.request(0x4000)
    log_builder.complete(0x4000, [("MARKER", marker(4))], valid=112)  # records end before validSize
    violations = buffer_protocol(log_builder.build())
    assert clauses(violations) == ["ACT-BUF-02", "ACT-BUF-02", "ACT-BUF-02", "ACT-BUF-02", "ACT-BUF-04"]


def test_record_offsets_must_be_aligned_and_sizeof_apart(log_builder: Any, marker: Any) -> None:
    log_builder.request(0x1000)
    log_builder.complete(0x1000, [("MARKER", marker(1)), ("MARKER", marker(2))], offsets=[0, 60])
    log_builder.request(0x2000)
    log_builder.complete(0x2000, [("API", {"corr": 1}), ("MARKER", marker(3))], offsets=[0, 56])
    log_builder.request(0x3000)
    log_builder.complete(0x3000, [(77, {})])
    violations = buffer_protocol(log_builder.build())
    assert clauses(violations) == ["GEN-ABI-01", "GEN-ABI-01", "GEN-ABI-01", "GEN-ABI-03"]
    assert any("kind 77" in v.message for v in violations)


def test_requests_and_null_completions(log_builder: Any) -> None:
    log_builder.request(0, declined=True)
    log_builder.complete(0, [], size=0)  # complete(NULL, 0, 0) after a declined request is allowed
    log_builder.complete(0, [], size=64, valid=0)  # but not with a size
    log_builder.request(0x1000, args_ok=False)
    log_builder.request(0x2000, inflight=2)
    log = log_builder.build()
    assert clauses(buffer_protocol(log)) == ["ACT-BUF-01", "ACT-BUF-03"]
    assert clauses(buffer_protocol(log, serialized_requests=True)) == [
        "ACT-BUF-01",
        "ACT-BUF-01",
        "ACT-BUF-03",
    ]
    assert clauses(leftover_buffers(log)) == ["ACT-BUF-03"]


def test_result_codes_outside_the_enumeration(log_builder: Any) -> None:
    log_builder.call("msptiActivityEnable", ret=1)
    log_builder.call("msptiActivityIsEnabled", ret=0, value=True)
    log_builder.call("aclrtMalloc", ret=107000)
    log_builder.call("msptiActivityFlushAll", ret=42)
    violations = result_codes(log_builder.build())
    assert clauses(violations) == ["GEN-RES-01"]
    assert "msptiActivityFlushAll returned 42" in violations[0].message


def test_accounting_with_and_without_a_drop_counter() -> None:
    assert accounting(10, 8, 2, clause="EXT-DROP-01") == []
    assert clauses(accounting(10, 8, 1, clause="EXT-DROP-01")) == ["EXT-DROP-01"]
    assert accounting(10, 10, None, clause="ACT-BUF-12") == []
    lost = accounting(10, 9, None, clause="ACT-BUF-12")
    assert clauses(lost) == ["ACT-BUF-12"] and "reports no drops" in lost[0].message


def test_unique_ids() -> None:
    assert unique_ids([1, 2, 3], clause="MSTX-05", what="marker ids") == []
    found = unique_ids([1, 2, 2, 3, 3], clause="MSTX-05", what="marker ids")
    assert clauses(found) == ["MSTX-05"] and "2 duplicate marker ids" in found[0].message


def test_enter_exit_pairs_per_thread(log_builder: Any) -> None:
    log_builder.callback(0, "aclrtMalloc", tid=1)
    log_builder.callback(0, "aclrtMalloc", tid=2)  # another thread interleaves
    log_builder.callback(0, "aclrtMemset", tid=1, cbid=27)  # nested call
    log_builder.callback(1, "aclrtMemset", tid=1, cbid=27)
    log_builder.callback(1, "aclrtMalloc", tid=1)
    log_builder.callback(1, "aclrtMalloc", tid=2)
    assert callback_pairs(log_builder.build()) == []


def test_broken_enter_exit_pairs(log_builder: Any) -> None:
    log_builder.callback(1, "aclrtFree", tid=1, cbid=16)  # EXIT without ENTER
    log_builder.callback(0, "aclrtMalloc", tid=1)
    log_builder.callback(1, "aclrtMemset", tid=1, cbid=27)  # closes the wrong call
    log_builder.callback(0, "aclrtMalloc", tid=3)  # never closed
    violations = callback_pairs(log_builder.build())
    assert clauses(violations) == ["CB-ORDER-01"] * 3
    messages = " | ".join(v.message for v in violations)
    assert (
        "without an ENTER" in messages
        and "closes ENTER of aclrtMalloc" in messages
        and "has no EXIT" in messages
    )


def record(kind: int, seq: int, **data: Any) -> Record:
    return Record(seq, 1, 0, kind, data)


def test_range_pairs() -> None:
    good = [
        record(1, 1, flag=2, id=1, source=0, timestamp=10),
        record(1, 2, flag=4, id=1, source=0, timestamp=20),
        record(1, 3, flag=16, id=2, source=1, timestamp=10),
        record(1, 4, flag=32, id=2, source=1, timestamp=11),
    ]
    assert range_pairs(good) == []
    bad = [
        record(1, 1, flag=2, id=1, source=0, timestamp=10),
        record(1, 2, flag=4, id=1, source=0, timestamp=5),
        record(1, 3, flag=4, id=1, source=0, timestamp=30),
        record(1, 4, flag=4, id=9, source=0, timestamp=30),
        record(1, 5, flag=2, id=3, source=0, timestamp=1),
        record(1, 6, flag=2, id=3, source=0, timestamp=2),
    ]
    messages = [v.message for v in range_pairs(bad)]
    assert all(v.clause == "MSTX-03" for v in range_pairs(bad))
    assert messages == [
        "range id 3 started twice",
        "range id 1 ends before it starts",
        "range id 1 ended twice",
        "END record for range id 9 without a START",
    ]


def kernel(seq: int, start: int, end: int, stream: int = 1, name: str = "k") -> Record:
    return record(2, seq, start=start, end=end, device=0, stream=stream, name=name, corr=seq)


def test_kernels_of_one_stream_do_not_overlap() -> None:
    assert stream_monotonic([kernel(1, 0, 10), kernel(2, 10, 20), kernel(3, 5, 30, stream=2)]) == []
    violations = stream_monotonic([kernel(1, 0, 10, name="a"), kernel(2, 9, 20, name="b")])
    assert clauses(violations) == ["ACT-KERNEL-03"] and "'a' and 'b' overlap" in violations[0].message


def call(t0: int, t1: int) -> Call:
    return Call(1, "aclrtLaunchKernel", "", 0, 1, t0, t1, {})


def test_launch_device_synchronize_order() -> None:
    assert causality(kernel(1, 100, 200), call(90, 95), call(150, 210), tolerance_ns=0) == []
    early = causality(kernel(1, 80, 200), call(90, 95), call(150, 210), tolerance_ns=0)
    late = causality(kernel(1, 100, 300), call(90, 95), call(150, 210), tolerance_ns=0)
    assert clauses(early + late) == ["ACT-KERNEL-03", "ACT-KERNEL-03"]
    assert "before its launch" in early[0].message and "after the synchronize" in late[0].message
    assert causality(kernel(1, 80, 200), call(90, 95), None, tolerance_ns=20) == []


def test_async_records_must_join_an_api_record() -> None:
    apis = [record(3, 1, corr=5), record(3, 2, corr=6)]
    kernels = [record(2, 3, corr=5), record(2, 4, corr=7)]
    violations = correlation_membership(kernels, apis, clause="ACT-CORR-04", what="KERNEL")
    assert clauses(violations) == ["ACT-CORR-04"] and "[7]" in violations[0].message
    assert correlation_membership(kernels[:1], apis, clause="ACT-CORR-04", what="KERNEL") == []


def test_logs_from_events_number_them() -> None:
    log = RunLog.from_events([{"ev": "note", "text": "a"}, {"ev": "note", "text": "b"}])
    assert log.note_seq("a") == 1 and log.note_seq("b") == 2
