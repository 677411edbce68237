"""MstxMonitor: start validation, MarkerData, range pairing, domains (py_mstx_monitor).

The driver is conformance/pydriver/mstx_monitor.py (its docstring lists the workload)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import RunLog
from conformance.scenarios.common import string_matches
from conformance.scenarios.python_common import PY_NEEDS, enum_value, objects, py_invocation, require_import
from conformance.scenarios.python_common import returned as returns
from conformance.scenarios.registry import ScenarioEnv, scenario

MARKER = 1
HOST, DEVICE = 0, 1
INSTANT, INSTANT_DEVICE = 1, 8
RANGE_FLAGS = frozenset({2, 4, 16, 32})
MARKER_FIELDS = ("kind", "flag", "source_kind", "timestamp", "id", "object_id", "name", "domain")
RANGE_FIELDS = ("kind", "source_kind", "id", "object_id", "name", "domain", "start", "end")


@scenario(
    "py_mstx_monitor",
    "MstxMonitor: start arguments, marks, ranges and domains on the host and a stream",
    needs=(*PY_NEEDS, "acl", "launch", "mstx"),
)
def py_mstx_monitor(env: ScenarioEnv) -> list[Invocation]:
    return [py_invocation(env, "mstx_monitor", timeout=120)]


def _source(event: Mapping[str, Any]) -> Any:
    return enum_value((event.get("data") or {}).get("source_kind"))


def _object_id(data: Mapping[str, Any]) -> Mapping[str, Any]:
    value = data.get("object_id")
    return value if isinstance(value, Mapping) else {}


def _host_object(c: ClauseCheck, log: RunLog, data: Mapping[str, Any], label: str, what: str) -> None:
    ids = _object_id(data)
    features = log.first("features") or {}
    c.equal(ids.get("process_id"), features.get("pid"), f"{what}.object_id.process_id")
    c.equal(ids.get("thread_id"), log.call(label).tid, f"{what}.object_id.thread_id (the marking thread)")
    c.equal((ids.get("device_id"), ids.get("stream_id")), (-1, -1), f"{what}.object_id device/stream")


def _device_object(c: ClauseCheck, log: RunLog, data: Mapping[str, Any], what: str) -> None:
    ids = _object_id(data)
    c.equal((ids.get("process_id"), ids.get("thread_id")), (-1, -1), f"{what}.object_id process/thread")
    c.equal(ids.get("device_id"), 0, f"{what}.object_id.device_id")
    c.equal(ids.get("stream_id"), log.stream_ids().get("s"), f"{what}.object_id.stream_id (stream s)")


def _by_name(events: list[Mapping[str, Any]], name: str, source: int) -> list[Mapping[str, Any]]:
    return [e for e in events if (e.get("data") or {}).get("name") == name and _source(e) == source]


@py_mstx_monitor.checker
def check_py_mstx_monitor(ctx: CheckContext) -> None:
    with ctx.clause("PY-START-03") as c:
        log = ctx.log()
        require_import(log)
        returns(c, log.call("start_neither"), "INVALID_PARAMETER")
        for label in ("start_mark_only", "start_range_only"):
            returns(c, log.call(label), "SUCCESS")
            returns(c, log.call(f"{label}_stop"), "SUCCESS")
    with ctx.clause("PY-DATA-03") as c:
        log = ctx.log()
        returns(c, log.call("start"), "SUCCESS")
        marks = objects(log, "mark")
        c.check(bool(marks), "mark_cb received nothing")
        for event in marks:
            data = event.get("data") or {}
            missing = [f for f in MARKER_FIELDS if f not in data]
            what = f"MarkerData {data.get('name')!r} ({'device' if _source(event) == DEVICE else 'host'})"
            if not c.check(not missing, f"{what} lacks {', '.join(missing)}"):
                continue
            c.equal(event.get("cls"), "MarkerData", f"class of {what}")
            c.equal(enum_value(data["kind"]), MARKER, f"{what}.kind")
            for field, enum in (("flag", "MsptiActivityFlag"), ("source_kind", "MsptiActivitySourceKind")):
                got = (
                    data[field].get("enum")
                    if isinstance(data[field], Mapping)
                    else type(data[field]).__name__
                )
                c.equal(got, enum, f"type of {what}.{field}")
        for name, label, flag, domain in (
            ("py_host_mark", "m_host", INSTANT, c.expect["default_domain"]),
            ("py_dev_mark", "m_dev", INSTANT_DEVICE, c.expect["default_domain"]),
            ("py_dom_mark", "m_dom", INSTANT, ["py_domain"]),
        ):
            host = _by_name(marks, name, HOST)
            if not c.equal(len(host), 1, f"host MarkerData of {name}"):
                continue
            data = host[0]["data"]
            c.equal(enum_value(data["flag"]), flag, f"flag of {name}")
            c.check(string_matches(data.get("domain"), domain), f"domain of {name} is {data.get('domain')!r}")
            _host_object(c, log, data, label, name)
        device = [e for e in marks if _source(e) == DEVICE]
        if c.equal(len(device), 1, "device MarkerData (one mark had a stream)"):
            data = device[0]["data"]
            _device_object(c, log, data, "the device MarkerData")
            allowed = c.expect["device_strings"]
            for field in ("name", "domain"):
                c.check(
                    string_matches(data.get(field), allowed),
                    f"device MarkerData {field} is {data.get(field)!r}; expected one of {allowed}",
                )
    with ctx.clause("PY-RANGE-01") as c:
        log = ctx.log()
        ranges = objects(log, "range")
        c.check(bool(ranges), "range_cb received nothing")
        for event in ranges:
            data = event.get("data") or {}
            missing = [f for f in RANGE_FIELDS if f not in data]
            if c.check(not missing, f"RangeMarkerData {data.get('name')!r} lacks {', '.join(missing)}"):
                c.equal(event.get("cls"), "RangeMarkerData", "class of a range_cb object")
                c.equal(enum_value(data["kind"]), MARKER, "RangeMarkerData.kind")
                c.check(int(data["start"]) <= int(data["end"]), f"range {data['id']}: start > end")
        expected = (
            ("py_host_range", "r_host", c.expect["default_domain"], False),
            ("py_dev_range", "r_dev", c.expect["default_domain"], True),
            ("py_dom_range", "r_dom", ["py_domain"], False),
        )
        for name, label, domain, on_device in expected:
            range_id = int(log.call(label)["id"])
            mine = [e for e in ranges if int((e.get("data") or {}).get("id", -1)) == range_id]
            host = [e for e in mine if _source(e) == HOST]
            device = [e for e in mine if _source(e) == DEVICE]
            c.equal(len(host), 1, f"host RangeMarkerData of {name} (id {range_id})")
            c.equal(len(device), 1 if on_device else 0, f"device RangeMarkerData of {name} (id {range_id})")
            for event in host:
                data = event["data"]
                c.equal(data.get("name"), name, f"name of the host range {range_id}")
                c.check(
                    string_matches(data.get("domain"), domain), f"domain of {name} is {data.get('domain')!r}"
                )
                _host_object(c, log, data, label, f"range {name}")
            for event in device:
                _device_object(c, log, event["data"], f"device range {name}")
        c.equal(len(ranges), 4, "RangeMarkerData objects (3 host ranges, 1 of them also on the device)")
    with ctx.clause("PY-RANGE-02") as c:
        log = ctx.log()
        marks = objects(log, "mark")
        flags = [enum_value((e.get("data") or {}).get("flag")) for e in marks]
        c.equal(sorted(f for f in flags if f in RANGE_FLAGS), [], "START/END flags among mark_cb objects")
        names = {(e.get("data") or {}).get("name") for e in marks}
        ranges = names & {"py_host_range", "py_dev_range", "py_dom_range"}
        c.equal(sorted(ranges), [], "range messages among mark_cb objects")
        c.equal(len(marks), 4, "mark_cb objects (3 host marks, 1 of them also on the device)")
    with ctx.clause("PY-DOM-01") as c:
        log = ctx.log()
        for label in ("dom_enable_empty", "dom_disable_empty", "dom_enable_int", "dom_disable_none"):
            returns(c, log.call(label), "INVALID_PARAMETER")
        for label in ("dom_disable_valid", "dom_enable_valid"):
            call = log.call(label)
            returns(c, call, "SUCCESS")
            kind = "MsptiResult" if call.get("ret_enum") else str(call.get("ret_type"))
            c.equal(kind, c.expect["valid_result_type"], f"type of what {call.fn} returned for a valid name")
