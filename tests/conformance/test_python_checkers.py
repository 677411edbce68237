"""The checkers of the Python-package scenarios on hand-made logs: a conforming run passes every
clause, and each mutation fails the clause it breaks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from support.conformance_pylogs import (
    Event,
    c_subscriber_events,
    find,
    grade,
    import_events,
    kernel,
    monitors_events,
    mstx_events,
    no_preload_events,
)

PROBE_STDERR = "RuntimeError: conformance probe: raising callback raised on object 1\n"


def verdicts(results: dict) -> dict[str, str]:
    return {clause: result.verdict for clause, result in results.items()}


def monitor_runs(
    main: list[Event] | None = None, c_sub: list[Event] | None = None, no_preload: list[Event] | None = None
) -> dict[str, list[Event]]:
    return {
        "main": monitors_events() if main is None else main,
        "c_subscriber": c_subscriber_events() if c_sub is None else c_sub,
        "no_preload": no_preload_events() if no_preload is None else no_preload,
    }


@pytest.mark.parametrize("profile", ["spec", "upstream"])
def test_conforming_logs_pass(tmp_path: Path, profile: str) -> None:
    graded = {
        **grade("py_import", {"main": import_events()}, tmp_path, profile),
        **grade("py_monitors", monitor_runs(), tmp_path, profile, stderr=PROBE_STDERR),
        **grade("py_mstx_monitor", {"main": mstx_events()}, tmp_path, profile),
    }
    assert graded, "no clause was graded"
    failing = {k: r.failures for k, r in graded.items() if r.verdict == "fail"}
    if profile == "upstream":  # the hand-made PY-DOM-01 log returns MsptiResult members (the spec side)
        assert set(failing) == {"PY-DOM-01"}, failing
    else:
        assert failing == {}


def _set(events: list[Event], index: int, **fields: object) -> list[Event]:
    events[index] = {**events[index], **fields}
    return events


def _drop(events: list[Event], index: int) -> list[Event]:
    del events[index]
    return events


def _move_after(events: list[Event], index: int, anchor: dict) -> list[Event]:
    event = events.pop(index)
    events.insert(find(events, **anchor) + 1, event)
    return events


MONITOR_MUTATIONS: dict[str, tuple[str, str, Callable[[list[Event]], list[Event]]]] = {
    "bad start succeeds": ("PY-START-01", "spec", lambda e: _set(e, find(e, label="bad_hccl"), ret=0)),
    "kind left enabled": (
        "PY-START-01",
        "spec",
        lambda e: _set(e, find(e, label="enabled_kernel"), value=True),
    ),
    "a record lost": ("PY-START-02", "spec", lambda e: _drop(e, find(e, cb="kernel"))),
    "a record twice": ("PY-START-02", "spec", lambda e: [*e, kernel("kernel", "py_beta")]),
    "wrong stream id": (
        "PY-DATA-01",
        "spec",
        lambda e: _set(e, find(e, cb="kernel"), data={**e[find(e, cb="kernel")]["data"], "stream_id": 99}),
    ),
    "callback after stop": (
        "PY-STOP-01",
        "spec",
        lambda e: _move_after(e, find(e, cb="kernel"), {"text": "kernel_stopped"}),
    ),
    "stop fails": ("PY-STOP-01", "spec", lambda e: _set(e, find(e, label="stop_kernel"), ret=1)),
    "second monitor starved": (
        "PY-STOP-02",
        "spec",
        lambda e: _drop(
            e, find(e, cb="marks", cls="MarkerData", data=e[find(e, label="mark_after") + 2]["data"])
        ),
    ),
    "restart fails": ("PY-STOP-02", "spec", lambda e: _set(e, find(e, label="restart_kernel"), ret=2)),
    "stop never started fails": (
        "PY-STOP-03",
        "upstream",
        lambda e: _set(e, find(e, label="stop_never"), ret=1),
    ),
    "flush leaves marks pending": (
        "PY-FLUSH-01",
        "spec",
        lambda e: _move_after(e, find(e, cb="marks"), {"text": "flushed"}),
    ),
    "float size accepted": ("PY-BUF-01", "spec", lambda e: _set(e, find(e, label="buf_float"), ret=0)),
    "max size rejected": ("PY-BUF-01", "spec", lambda e: _set(e, find(e, label="buf_max"), ret=1)),
    "raising callback stops delivery": ("PY-CB-01", "upstream", lambda e: _drop(e, find(e, cb="raising"))),
    "callback without the GIL": ("PY-CB-02", "spec", lambda e: _set(e, find(e, cb="kernel3"), gil=0)),
}


@pytest.mark.parametrize("mutation", sorted(MONITOR_MUTATIONS))
def test_monitor_mutations_fail_their_clause(tmp_path: Path, mutation: str) -> None:
    clause, profile, mutate = MONITOR_MUTATIONS[mutation]
    results = grade(
        "py_monitors", monitor_runs(main=mutate(monitors_events())), tmp_path, profile, stderr=PROBE_STDERR
    )
    assert results[clause].verdict == "fail", (mutation, results[clause])


def test_unprinted_callback_exception_fails(tmp_path: Path) -> None:
    results = grade("py_monitors", monitor_runs(), tmp_path, "upstream", stderr="")
    assert results["PY-CB-01"].verdict == "fail"


def test_start_with_a_c_subscriber_and_without_preload(tmp_path: Path) -> None:
    c_sub = _set(c_subscriber_events(), find(c_subscriber_events(), label="start_with_c_subscriber"), ret=0)
    results = grade("py_monitors", monitor_runs(c_sub=c_sub), tmp_path, "upstream", stderr=PROBE_STDERR)
    assert results["PY-START-04"].verdict == "fail"
    no_preload = _set(no_preload_events(), find(no_preload_events(), label="hccl_no_preload"), ret=0)
    results = grade(
        "py_monitors", monitor_runs(no_preload=no_preload), tmp_path, "upstream", stderr=PROBE_STDERR
    )
    assert results["PY-START-04"].verdict == "fail"
    assert grade("py_monitors", monitor_runs(), tmp_path, "spec")["PY-START-04"].verdict == "skip"


def test_import_failures(tmp_path: Path) -> None:
    broken = import_events()
    broken[find(broken, ev="py_import")] = {"ev": "py_import", "package": "mspti", "ok": False, "error": "E"}
    assert set(verdicts(grade("py_import", {"main": broken}, tmp_path)).values()) == {"fail"}
    missing = import_events()
    names = missing[find(missing, ev="py_names")]["names"]
    names["HcclData"] = "absent"
    assert verdicts(grade("py_import", {"main": missing}, tmp_path)) == {
        "PY-IMPORT-01": "fail",
        "PY-ENUM-01": "pass",
    }
    wrong = import_events()
    wrong[find(wrong, ev="py_enums")]["enums"]["MsptiActivityFlag"]["MSPTI_ACTIVITY_FLAG_MARKER_END"] = 3
    assert verdicts(grade("py_import", {"main": wrong}, tmp_path))["PY-ENUM-01"] == "fail"
    gap = import_events()
    del gap[find(gap, ev="py_enums")]["enums"]["MsptiResult"]["MSPTI_ERROR_FORCE_INT"]
    assert verdicts(grade("py_import", {"main": gap}, tmp_path))["PY-ENUM-01"] == "fail"


def _mstx_data(events: list[Event], cb: str, name: str, source: int = 0) -> dict:
    for event in events:
        if (
            event.get("cb") == cb
            and event["data"]["name"] == name
            and event["data"]["source_kind"]["value"] == source
        ):
            return event["data"]
    raise LookupError(name)


MSTX_MUTATIONS: dict[str, tuple[str, str, Callable[[list[Event]], None]]] = {
    "neither callable accepted": (
        "PY-START-03",
        "upstream",
        lambda e: e[find(e, label="start_neither")].update(ret=0),
    ),
    "flag not an enum": (
        "PY-DATA-03",
        "spec",
        lambda e: _mstx_data(e, "mark", "py_host_mark").update(flag=1),
    ),
    "host pid missing": (
        "PY-DATA-03",
        "spec",
        lambda e: _mstx_data(e, "mark", "py_dom_mark")["object_id"].update(process_id=-1),
    ),
    "device stream wrong": (
        "PY-DATA-03",
        "spec",
        lambda e: _mstx_data(e, "mark", "", 1)["object_id"].update(stream_id=0),
    ),
    "range name from the END": (
        "PY-RANGE-01",
        "spec",
        lambda e: _mstx_data(e, "range", "py_host_range").update(name="end"),
    ),
    "range domain lost": (
        "PY-RANGE-01",
        "spec",
        lambda e: _mstx_data(e, "range", "py_dom_range").update(domain="default"),
    ),
    "device range missing": (
        "PY-RANGE-01",
        "spec",
        lambda e: e.pop(find(e, cb="range", cls="RangeMarkerData", data=_mstx_data(e, "range", "", 1))),
    ),
    "range start after end": (
        "PY-RANGE-01",
        "spec",
        lambda e: _mstx_data(e, "range", "py_dev_range").update(start=99),
    ),
    "START record to mark_cb": (
        "PY-RANGE-02",
        "spec",
        lambda e: _mstx_data(e, "mark", "py_host_mark").update(
            flag={"enum": "MsptiActivityFlag", "name": "S", "value": 2}
        ),
    ),
    "empty domain accepted": (
        "PY-DOM-01",
        "spec",
        lambda e: e[find(e, label="dom_enable_empty")].update(ret=0),
    ),
    "plain int result": (
        "PY-DOM-01",
        "spec",
        lambda e: e[find(e, label="dom_enable_valid")].update(ret_enum=False, ret_type="int"),
    ),
}


@pytest.mark.parametrize("mutation", sorted(MSTX_MUTATIONS))
def test_mstx_mutations_fail_their_clause(tmp_path: Path, mutation: str) -> None:
    clause, profile, mutate = MSTX_MUTATIONS[mutation]
    events = mstx_events()
    mutate(events)
    results = grade("py_mstx_monitor", {"main": events}, tmp_path, profile)
    assert results[clause].verdict == "fail", (mutation, results[clause])


def test_dom_result_type_follows_the_profile(tmp_path: Path) -> None:
    events = mstx_events()
    for label in ("dom_disable_valid", "dom_enable_valid"):
        events[find(events, label=label)].update(ret_enum=False, ret_type="int")
    assert grade("py_mstx_monitor", {"main": events}, tmp_path, "upstream")["PY-DOM-01"].verdict == "pass"
    assert grade("py_mstx_monitor", {"main": events}, tmp_path, "spec")["PY-DOM-01"].verdict == "fail"
