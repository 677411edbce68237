"""The structural check (mspti_trace/chrome_check.py) on both forms of the trace format."""

from __future__ import annotations

from mspti_trace import check_chrome_trace


def _slice(name: str, ts: object, dur: float) -> dict:
    return {"ph": "X", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": dur}


def test_a_bare_array_of_events_is_read() -> None:
    assert check_chrome_trace([_slice("a", 1.0, 2.0), _slice("b", 1.5, 0.5)]) == []
    problems = check_chrome_trace([_slice("a", 1.0, 2.0), _slice("b", 2.5, 1.0)])
    assert len(problems) == 1 and "overlaps" in problems[0]


def test_string_timestamps_keep_nanoseconds() -> None:
    """Absolute microseconds (16 digits before the point) do not fit a double to the ns: the
    check reads them exactly, so 10 ns apart nests and 1.5 ns too long overlaps."""
    parent = _slice("parent", "1780295077844643.830", 0.02)
    inside = _slice("inside", "1780295077844643.840", 0.01)
    assert check_chrome_trace([parent, inside]) == []
    beyond = _slice("beyond", "1780295077844643.840", 0.0115)
    assert len(check_chrome_trace([parent, beyond])) == 1


def test_a_timestamp_that_is_not_a_number_is_reported() -> None:
    problems = check_chrome_trace([_slice("a", "12:00", 1.0), _slice("b", None, 1.0)])
    assert problems == ["event 0: ts is not a number", "event 1: ts is not a number"]
