"""Hand-made logs of conforming Python-package and re-entrancy runs, and how to grade them.

Each ``*_events`` function returns the events a conforming run logs, in order (``seq`` is assigned
by position); a test mutates the list and checks that the clause it broke fails.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from conformance.abi import ENUMS
from conformance.catalogue import load_catalogue
from conformance.checks import CheckContext, ClauseResult
from conformance.execute import Invocation, RunResult
from conformance.log import RunLog
from conformance.pydriver.monitors import BUFFER_SIZES
from conformance.pydriver.py_import import NAMES
from conformance.scenarios import SCENARIOS
from conformance.scenarios.python_monitors import OPTIONAL_MEMBERS, PY_ENUMS

Event = dict[str, Any]
PID, TID, STREAM = 4242, 4242, 3


def call(label: str, fn: str, ret: int | None = 0, **data: Any) -> Event:
    return {"ev": "call", "fn": fn, "label": label, "ret": ret, "tid": TID, "t0": 1, "t1": 2, **data}


def pydata(cb: str, cls: str, gil: int = 1, **data: Any) -> Event:
    return {"ev": "pydata", "cb": cb, "cls": cls, "data": data, "tid": 777, "main": False, "gil": gil}


def enum(name: str, value: int) -> dict[str, Any]:
    return {"enum": name, "name": f"M{value}", "value": value}


def kernel(cb: str, name: str, stream: int = STREAM, corr: int = 5) -> Event:
    return pydata(
        cb,
        "KernelData",
        kind=enum("MsptiActivityKind", 2),
        start=10,
        end=20,
        device_id=0,
        stream_id=stream,
        correlation_id=corr,
        type="KERNEL_AIVEC",
        name=name,
    )


def marker(
    cb: str, name: str, flag: int = 1, source: int = 0, domain: str = "default", id_: int = 1
) -> Event:
    ids = {"process_id": PID, "thread_id": TID, "device_id": -1, "stream_id": -1}
    if source == 1:
        ids = {"process_id": -1, "thread_id": -1, "device_id": 0, "stream_id": STREAM}
    return pydata(
        cb,
        "MarkerData",
        kind=enum("MsptiActivityKind", 1),
        flag=enum("MsptiActivityFlag", flag),
        source_kind=enum("MsptiActivitySourceKind", source),
        timestamp=5,
        id=id_,
        object_id=ids,
        name=name,
        domain=domain,
    )


def launches(kernel_name: str, count: int) -> list[Event]:
    return [call(f"launch_{kernel_name}_{i}", "aclrtLaunchKernel") for i in range(count)]


def header() -> list[Event]:
    return [
        {"ev": "features", "pid": PID},
        {"ev": "py_import", "package": "mspti_core", "ok": True, "file": "x"},
        {"ev": "stream", "var": "s", "stream_id": STREAM},
    ]


def import_events() -> list[Event]:
    names = {n: ("enum" if n.startswith("Mspti") and n != "MsptiObjectId" else "class") for n in NAMES}
    enums = {
        py: {m: v for m, v in ENUMS[c].items() if m not in OPTIONAL_MEMBERS} for py, c in PY_ENUMS.items()
    }
    return [*header(), {"ev": "py_names", "names": names}, {"ev": "py_enums", "enums": enums}]


def monitors_events() -> list[Event]:
    start, stop = "KernelMonitor.start", "KernelMonitor.stop"
    events = [*header(), call("stop_never", stop)]
    events += [call(label, start, 1) for label in ("bad_kernel", "bad_hccl", "bad_comm")]
    events += [
        call(f"enabled_{k}", "msptiActivityIsEnabled", value=False) for k in ("kernel", "hccl", "comm")
    ]
    events += [call("probe_subscribe", "msptiSubscribe"), call("probe_unsubscribe", "msptiUnsubscribe")]
    events += [
        call(f"buf_{s}", "set_buffer_size", 1 if i < 5 else 0) for i, (s, _v) in enumerate(BUFFER_SIZES)
    ]
    events += [call("start_kernel", start), *launches("py_alpha", 3), *launches("py_beta", 2)]
    events += [kernel("kernel", "py_alpha") for _ in range(3)] + [
        kernel("kernel", "py_beta") for _ in range(2)
    ]
    events += [call("stop_kernel", stop), {"ev": "note", "text": "kernel_stopped"}, *launches("py_gamma", 1)]
    events += [call("flush_after_stop", "KernelMonitor.flush_all"), call("start_raising", start)]
    events += [*launches("py_delta", 4), *(kernel("raising", "py_delta") for _ in range(4))]
    events += [
        call("stop_raising", stop),
        call("start_kernel3", start),
        call("start_marks", "MstxMonitor.start"),
    ]
    events += [call(f"mark_{i}", "mstxMarkA") for i in range(3)] + launches("py_eps", 1)
    events += [marker("marks", f"py_flush_mark_{i}") for i in range(3)] + [kernel("kernel3", "py_eps")]
    events += [call("flush_all", "KernelMonitor.flush_all"), {"ev": "note", "text": "flushed"}]
    events += [call("stop_kernel3", stop), call("mark_after", "mstxMarkA"), *launches("py_zeta", 1)]
    events += [marker("marks", "py_after_kernel_stop"), call("stop_marks", "MstxMonitor.stop")]
    events += [call("restart_kernel", start), *launches("py_eta", 1), kernel("kernel4", "py_eta")]
    return [*events, call("stop_kernel4", stop)]


def c_subscriber_events() -> list[Event]:
    return [
        *header(),
        call("c_subscribe", "msptiSubscribe"),
        call("start_with_c_subscriber", "KernelMonitor.start", 2),
        call("stop_with_c_subscriber", "KernelMonitor.stop"),
    ]


def no_preload_events() -> list[Event]:
    return [*header(), call("hccl_no_preload", "HcclMonitor.start", 6)]


def mstx_events() -> list[Event]:
    events = [*header(), call("start_neither", "MstxMonitor.start", 1)]
    for label in ("start_mark_only", "start_range_only"):
        events += [call(label, "MstxMonitor.start"), call(f"{label}_stop", "MstxMonitor.stop")]
    for label in ("dom_enable_empty", "dom_disable_empty", "dom_enable_int", "dom_disable_none"):
        events.append(call(label, "MstxMonitor.enable_domain", 1, ret_enum=True))
    for label in ("dom_disable_valid", "dom_enable_valid"):
        events.append(call(label, "MstxMonitor.enable_domain", 0, ret_enum=True, ret_type="MsptiResult"))
    events.append(call("start", "MstxMonitor.start"))
    events += [
        call("m_host", "mstxMarkA"),
        call("m_dev", "mstxMarkA"),
        call("r_host", "mstxRangeStartA", id=11),
    ]
    events += [call("r_dev", "mstxRangeStartA", id=12), call("m_dom", "mstxDomainMarkA")]
    events.append(call("r_dom", "mstxDomainRangeStartA", id=13))
    events += [
        marker("mark", "py_host_mark", id_=1),
        marker("mark", "py_dev_mark", flag=8, id_=2),
        marker("mark", "", flag=8, source=1, domain="", id_=2),
        marker("mark", "py_dom_mark", domain="py_domain", id_=3),
    ]
    host = {"process_id": PID, "thread_id": TID, "device_id": -1, "stream_id": -1}
    device = {"process_id": -1, "thread_id": -1, "device_id": 0, "stream_id": STREAM}
    for name, id_, domain, ids, source in (
        ("py_host_range", 11, "default", host, 0),
        ("py_dev_range", 12, "default", host, 0),
        ("", 12, "", device, 1),
        ("py_dom_range", 13, "py_domain", host, 0),
    ):
        events.append(
            pydata(
                "range",
                "RangeMarkerData",
                kind=enum("MsptiActivityKind", 1),
                source_kind=enum("MsptiActivitySourceKind", source),
                id=id_,
                object_id=ids,
                name=name,
                domain=domain,
                start=5,
                end=9,
            )
        )
    return [*events, call("stop", "MstxMonitor.stop")]


def find(events: list[Event], **match: Any) -> int:
    """The index of the first event with all the ``match`` fields."""
    for index, event in enumerate(events):
        if all(event.get(k) == v for k, v in match.items()):
            return index
    raise LookupError(f"no event matches {match}")


def grade(
    scenario: str,
    runs: Mapping[str, list[Event]],
    tmp_path: Path,
    profile: str = "spec",
    *,
    stderr: str = "",
    outcome: Callable[[str], tuple[int | None, bool]] | None = None,
) -> dict[str, ClauseResult]:
    """Runs the scenario's checker over the logs, as the runner does: clauses the profile does not
    grade are skips, the others get the checker's verdict. ``outcome(run) -> (exit code, timed out)``."""
    mine = [c for c in load_catalogue() if c.scenario == scenario]
    clauses = {c.id: c for c in mine if c.expectation(profile).applies}
    results = {}
    for name, events in runs.items():
        exit_code, timed_out = outcome(name) if outcome else (0, False)
        results[name] = RunResult(
            scenario,
            Invocation(name=name, crash_ok=scenario == "reentrancy_probe"),
            RunLog.from_events(events),
            tmp_path,
            exit_code=exit_code,
            timed_out=timed_out,
            stderr=stderr,
        )
    ctx = CheckContext(scenario, results, clauses, profile)
    check = SCENARIOS[scenario].check
    assert check is not None
    check(ctx)
    graded = {c.id: ClauseResult(c.id, "skip", "not graded by the profile") for c in mine}
    graded.update({k: v for k, v in ctx.results.items() if k in clauses})
    return graded


def hccl_events(ranks: int = 2) -> list[Event]:
    events = [
        *header(),
        call("start_hccl", "HcclMonitor.start"),
        call("start_comm", "CommunicationMonitor.start"),
    ]
    events.append(call("init", "HcclCommInitAll", ranks=ranks))
    for rank in range(ranks):
        events += [
            {"ev": "stream", "var": f"st{rank}", "stream_id": 10 + rank},
            call(f"name{rank}", "HcclGetCommName", name="comm_a"),
            call(f"allreduce{rank}", "HcclAllReduce"),
        ]
    for rank in range(ranks):
        events.append(
            pydata(
                "hccl",
                "HcclData",
                kind=enum("MsptiActivityKind", 4),
                start=1,
                end=9,
                device_id=rank,
                stream_id=10 + rank,
                bandwidth=1.5,
                name="HcclAllReduce",
                comm_name="comm_a",
            )
        )
        events.append(
            pydata(
                "comm",
                "CommunicationData",
                kind=enum("MsptiActivityKind", 9),
                data_type=enum("MsptiCommunicationDataType", 4),
                count=1024,
                device_id=rank,
                stream_id=10 + rank,
                start=1,
                end=9,
                alg_type="ring",
                name="hcom_allReduce_",
                comm_name="comm_a",
                correlation_id=7,
            )
        )
    return [*events, call("stop_hccl", "HcclMonitor.stop"), call("stop_comm", "CommunicationMonitor.stop")]


def reentrancy_events(name: str, flush_ret: int = 0, reentries: int = 2, records: int = 4) -> list[Event]:
    events: list[Event] = [{"ev": "features", "pid": PID}]
    events += [call(f"alloc{i}", "aclrtMalloc") for i in range(2)]
    events += [call(f"free{i}", "aclrtFree") for i in range(2)]
    for _ in range(reentries):
        if name == "flush_in_complete":
            events.append(
                {"ev": "reenter", "site": "complete", "fn": "msptiActivityFlushAll", "ret": flush_ret}
            )
        else:
            events.append({"ev": "reenter", "site": "request", "fn": "aclrtMalloc", "ret": 0})
    events.append({"ev": "complete", "cid": 1, "buf": 64, "size": 4096, "valid": 64 * records})
    events += [{"ev": "record", "cid": 1, "off": 64 * i, "kind": 5} for i in range(records)]
    return events
