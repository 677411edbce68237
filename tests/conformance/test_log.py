"""Parsing scenario logs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conformance.log import LogError, RunLog


def test_lines_are_parsed_in_sequence_order_and_a_torn_last_line_is_tolerated() -> None:
    lines = [
        json.dumps(
            {
                "ev": "call",
                "fn": "msptiSubscribe",
                "label": "sub",
                "ret": 0,
                "tid": 7,
                "t0": 1,
                "t1": 2,
                "seq": 2,
            }
        ),
        json.dumps({"ev": "start", "pid": 9, "seq": 1}),
        "",
        '{"ev": "record", "cid": 1, "of',
    ]
    log = RunLog.from_lines(lines)
    assert log.truncated
    assert [e["ev"] for e in log] == ["start", "call"]
    call = log.call("sub")
    assert (call.fn, call.ret, call.tid, call.t0, call.t1) == ("msptiSubscribe", 0, 7, 1, 2)


def test_completions_collect_their_records_and_iteration_end(log_builder: Any, marker: Any) -> None:
    log_builder.request(0x1000)
    cid = log_builder.complete(0x1000, [("MARKER", marker(1)), ("MARKER", marker(2))])
    log = log_builder.build()
    completion = log.completion(cid)
    assert completion is not None
    assert [r["id"] for r in completion.records] == [1, 2]
    assert (completion.status, completion.count, completion.end_offset, completion.valid) == (3, 2, 112, 112)
    assert [r.offset for r in log.records_of(1)] == [0, 56]


def test_lookups_fail_with_a_clear_message(log_builder: Any) -> None:
    log_builder.call("msptiActivityEnable", "twice")
    log_builder.call("msptiActivityEnable", "twice")
    log = log_builder.build()
    with pytest.raises(LogError, match="no call labelled 'absent'"):
        log.call("absent")
    with pytest.raises(LogError, match="2 calls labelled 'twice'"):
        log.call("twice")
    with pytest.raises(LogError, match="no note 'x'"):
        log.note_seq("x")


def test_notes_delimit_records_and_quiet_totals_add_up(log_builder: Any, marker: Any) -> None:
    log_builder.complete(0x10, [("MARKER", marker(1, "before"))])
    log_builder.note("phase")
    log_builder.complete(0x20, [("MARKER", marker(2, "inside")), ("KERNEL", {"corr": 3})])
    log_builder.note("end")
    log_builder.add("quiet", fn="mstxMarkA", count=10, fails=0, tid=1)
    log_builder.add("quiet", fn="mstxMarkA", count=5, fails=1, tid=2)
    log = log_builder.build()
    inside = log.records_between(log.note_seq("phase"), log.note_seq("end"))
    assert [r.get("name") for r in inside] == ["inside", None]
    assert [r.kind for r in log.records_between(log.note_seq("phase"), log.note_seq("end"), 2)] == [2]
    assert log.quiet_total("mstxMarkA") == (15, 1)
    assert log.quiet_total("other") == (0, 0)


def test_missing_functions_and_driver_diagnostics(log_builder: Any) -> None:
    log_builder.add("call", fn="aclrtMallocWithCfg", missing=True, tid=1)
    log_builder.add("unsupported", command="launch", line=3)
    log_builder.add("stream", var="s", stream_id=4)
    log = log_builder.build()
    assert log.calls[0].missing
    assert log.unsupported() == "launch"
    assert log.driver_error() is None
    assert log.stream_ids() == {"s": 4}
