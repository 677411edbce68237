"""The Python package: its import surface (py_import) and the Kernel/Hccl/Communication monitors
(py_monitors). The drivers are conformance/pydriver/py_import.py and monitors.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.abi import ENUMS, NEWER_VALUES
from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import RunLog
from conformance.pydriver.monitors import BUFFER_SIZES, CTYPES_COPIES, CTYPES_LAUNCHES
from conformance.pydriver.py_import import NAMES
from conformance.scenarios.device.copy_timing import check_direct_copies
from conformance.scenarios.python_common import PY_NEEDS, enum_value, objects, py_invocation, require_import
from conformance.scenarios.python_common import returned as returns
from conformance.scenarios.registry import ScenarioEnv, scenario

KERNEL = 2
#: Python enum -> the C enum whose enumerators (same names) it mirrors.
PY_ENUMS: Mapping[str, str] = {
    "MsptiResult": "msptiResult",
    "MsptiActivityKind": "msptiActivityKind",
    "MsptiActivityFlag": "msptiActivityFlag",
    "MsptiActivitySourceKind": "msptiActivitySourceKind",
    "MsptiCommunicationDataType": "msptiCommunicationDataType",
}
#: C enumerators a Python enum may leave out (the reference lists the others).
OPTIONAL_MEMBERS = frozenset({"MSPTI_ACTIVITY_COMMUNICATION_INVALID_TYPE"})
KERNEL_FIELDS = ("kind", "start", "end", "device_id", "stream_id", "correlation_id", "type", "name")


@scenario("py_import", "import the package; its names and enum values", needs=PY_NEEDS)
def py_import(env: ScenarioEnv) -> list[Invocation]:
    return [py_invocation(env, "py_import", preload=False, timeout=60)]


@py_import.checker
def check_py_import(ctx: CheckContext) -> None:
    with ctx.clause("PY-IMPORT-01") as c:
        log = ctx.log()
        event = require_import(log)
        c.note(f"imported {event.get('package')} from {event.get('file')}")
        names = (log.first("py_names") or {}).get("names") or {}
        c.check(bool(names), "the driver logged no names")
        for name in NAMES:
            kind = names.get(name, "absent")
            expected = "enum" if name.startswith("Mspti") and name != "MsptiObjectId" else "class"
            c.check(kind == expected, f"{name}: {kind}; expected the package to expose it as a {expected}")
    with ctx.clause("PY-ENUM-01") as c:
        log = ctx.log()
        require_import(log)
        enums = (log.first("py_enums") or {}).get("enums") or {}
        for py_name, c_name in PY_ENUMS.items():
            members: Mapping[str, int] = enums.get(py_name) or {}
            if not c.check(bool(members), f"{py_name} is missing or has no members"):
                continue
            reference = ENUMS[c_name]
            for member, value in reference.items():
                if member in members:
                    allowed = (value, NEWER_VALUES[member]) if member in NEWER_VALUES else (value,)
                    shown = " or ".join(map(str, allowed))
                    c.check(
                        members[member] in allowed,
                        f"{py_name}.{member} = {members[member]}; the C value is {shown}",
                    )
                elif member not in OPTIONAL_MEMBERS:
                    c.check(False, f"{py_name} has no member {member} (C value {value})")
            extra = sorted(set(members) - set(reference))
            if extra:
                c.note(f"{py_name} also has {', '.join(extra)}")
            c.note(f"{py_name}: {len(members)} members checked against {c_name}")


@scenario(
    "py_monitors",
    "Kernel/Hccl/Communication monitors: start, stop, flush_all, set_buffer_size, callbacks",
    needs=(*PY_NEEDS, "acl", "launch", "mstx"),
)
def py_monitors(env: ScenarioEnv) -> list[Invocation]:
    return [
        py_invocation(env, "monitors", "main", timeout=120),
        py_invocation(env, "monitors", "c_subscriber", name="c_subscriber", timeout=60),
        py_invocation(env, "monitors", "no_preload", name="no_preload", preload=False, timeout=60),
    ]


def _named(events: list[Mapping[str, Any]], prefix: str) -> list[Mapping[str, Any]]:
    return [e for e in events if prefix in str((e.get("data") or {}).get("name", ""))]


def _launched(log: RunLog, kernel: str) -> int:
    """Launches of ``kernel`` the runtime accepted (ground truth)."""
    return sum(1 for call in log.labelled(f"launch_{kernel}_") if call.ret == 0)


def _delivered_once(c: ClauseCheck, log: RunLog, callback: str, kernel: str) -> None:
    launched = _launched(log, kernel)
    c.check(launched > 0, f"the runtime accepted no launch of {kernel}")
    got = len(_named(objects(log, callback), kernel))
    c.equal(got, launched, f"objects of {kernel} given to callback {callback!r} ({launched} launched)")


@py_monitors.checker
def check_py_monitors(ctx: CheckContext) -> None:
    with ctx.clause("PY-START-01") as c:
        log = ctx.log()
        require_import(log)
        for label in ("bad_kernel", "bad_hccl", "bad_comm"):
            returns(c, log.call(label), "INVALID_PARAMETER")
        for label in ("enabled_kernel", "enabled_hccl", "enabled_comm"):
            call = log.call(label)
            c.check(call.get("value") is False, f"after the failed starts, {label}: the kind is enabled")
        c.returns(
            log.call("probe_subscribe"), "SUCCESS", "msptiSubscribe after the failed starts (slot free)"
        )
    with ctx.clause("PY-START-02") as c:
        log = ctx.log()
        returns(c, log.call("start_kernel"), "SUCCESS")
        for kernel in ("py_alpha", "py_beta"):
            _delivered_once(c, log, "kernel", kernel)
        classes = {str(e.get("cls")) for e in objects(log, "kernel")}
        c.check(classes == {"KernelData"}, f"KernelMonitor delivered objects of class(es) {sorted(classes)}")
    with ctx.clause("PY-DATA-01") as c:
        log = ctx.log()
        stream = log.stream_ids().get("s")
        delivered = objects(log, "kernel")
        c.check(bool(delivered), "KernelMonitor delivered nothing")
        for event in delivered:
            data = event.get("data") or {}
            what = f"KernelData {data.get('name')!r}"
            missing = [f for f in KERNEL_FIELDS if f not in data]
            if not c.check(not missing, f"{what} lacks {', '.join(missing)}"):
                continue
            c.equal(enum_value(data["kind"]), KERNEL, f"{what}.kind")
            c.equal(data["device_id"], 0, f"{what}.device_id")
            c.equal(data["stream_id"], stream, f"{what}.stream_id (stream s)")
            c.check(
                int(data["start"]) < int(data["end"]), f"{what}: start {data['start']} >= end {data['end']}"
            )
            c.check(int(data["correlation_id"]) != 0, f"{what}.correlation_id is 0")
            c.check(isinstance(data["type"], str) and data["type"] != "", f"{what}.type is {data['type']!r}")
    with ctx.clause("PY-STOP-01") as c:
        log = ctx.log()
        returns(c, log.call("stop_kernel"), "SUCCESS")
        stopped = log.note_seq("kernel_stopped")
        late = [e for e in objects(log, "kernel") if int(e["seq"]) > stopped]
        c.equal(len(late), 0, "objects given to the stopped monitor's callback after stop() returned")
        before = len([e for e in objects(log, "kernel") if int(e["seq"]) < stopped])
        launched = _launched(log, "py_alpha") + _launched(log, "py_beta")
        c.equal(before, launched, "objects delivered before stop() returned (every launch of the monitor)")
        gamma = _named(list(log.of_type("pydata")), "py_gamma")
        c.equal(len(gamma), 0, "objects of py_gamma (launched while no monitor ran)")
        for label in ("stop_raising", "stop_kernel4"):
            returns(c, log.call(label), "SUCCESS")
    with ctx.clause("PY-STOP-02") as c:
        log = ctx.log()
        for label in ("start_kernel3", "start_marks", "stop_kernel3", "stop_marks", "restart_kernel"):
            returns(c, log.call(label), "SUCCESS")
        _delivered_once(c, log, "kernel3", "py_eps")
        c.equal(len(_named(objects(log, "kernel3"), "py_zeta")), 0, "py_zeta objects after kernel3 stopped")
        after = _named(objects(log, "marks"), "py_after_kernel_stop")
        c.equal(
            len(after), 1, "marks made after the kernel monitor stopped, given to the running MstxMonitor"
        )
        _delivered_once(c, log, "kernel4", "py_eta")
    with ctx.clause("PY-STOP-03") as c:
        returns(c, ctx.log().call("stop_never"), c.expect["never_started"])
    with ctx.clause("PY-FLUSH-01") as c:
        log = ctx.log()
        returns(c, log.call("flush_all"), "SUCCESS")
        flushed = log.note_seq("flushed")
        marks = [e for e in _named(objects(log, "marks"), "py_flush_mark_") if int(e["seq"]) < flushed]
        made = sum(1 for call in log.labelled("mark_") if call.label != "mark_after")
        c.equal(len(marks), made, "host marks delivered to the MstxMonitor when flush_all() returned")
        kernels = [e for e in _named(objects(log, "kernel3"), "py_eps") if int(e["seq"]) < flushed]
        c.note(
            f"{len(kernels)} kernel object(s) of py_eps delivered by flush_all() (device data: not graded)"
        )
    with ctx.clause("PY-BUF-01") as c:
        log = ctx.log()
        for index, (suffix, value) in enumerate(BUFFER_SIZES):
            expected = "INVALID_PARAMETER" if index < 5 else "SUCCESS"
            returns(c, log.call(f"buf_{suffix}"), expected, f"set_buffer_size({value!r})")
    with ctx.clause("PY-CB-01") as c:
        run = ctx.run()
        log = run.log
        returns(c, log.call("start_raising"), "SUCCESS")
        _delivered_once(c, log, "raising", "py_delta")
        c.check(log.has_call("stop_kernel4"), "the driver did not go on after the raising callback")
        printed = "conformance probe: raising callback raised"
        c.check(
            printed in run.stderr or printed in run.stdout,
            "the callback's exception was not printed (neither stderr nor stdout has its message)",
            "the exception was printed",
        )
    with ctx.clause("PY-CB-02") as c:
        log = ctx.log()
        delivered = list(log.of_type("pydata"))
        c.check(bool(delivered), "no callback ran")
        without = [e for e in delivered if int(e.get("gil", 0)) != 1]
        c.equal(len(without), 0, "callback invocations that did not hold the GIL")
        threads = {(int(e.get("tid", 0)), bool(e.get("main"))) for e in delivered}
        off_main = sum(1 for e in delivered if not e.get("main"))
        c.note(f"{len(delivered)} invocations on {len(threads)} thread(s); {off_main} off the main thread")
    with ctx.clause("PY-START-04") as c:
        log = ctx.log("c_subscriber")
        require_import(log)
        c.returns(log.call("c_subscribe"), "SUCCESS", "msptiSubscribe (the C subscriber)")
        returns(c, log.call("start_with_c_subscriber"), c.expect["with_c_subscriber"])
        without = ctx.log("no_preload")
        require_import(without)
        returns(c, without.call("hccl_no_preload"), c.expect["hccl_without_preload"])


@scenario(
    "py_ctypes_launch",
    'KernelMonitor over kernels launched through ctypes.CDLL("libascendcl.so")',
    needs=(*PY_NEEDS, "acl", "launch"),
)
def py_ctypes_launch(env: ScenarioEnv) -> list[Invocation]:
    return [py_invocation(env, "monitors", "ctypes_launch", timeout=120)]


@py_ctypes_launch.checker
def check_py_ctypes_launch(ctx: CheckContext) -> None:
    with ctx.clause("ACT-CORR-09") as c:
        log = ctx.log()
        require_import(log)
        launched = _launched(log, "py_ctypes")
        c.equal(launched, CTYPES_LAUNCHES, "launches the runtime accepted")
        kernels = _named(objects(log, "kernel"), "py_ctypes")
        c.equal(len(kernels), launched, "KernelData objects of the ctypes launches")
        ids = [int((e.get("data") or {}).get("correlation_id") or 0) for e in kernels]
        c.check(0 not in ids, f"a ctypes launch's KernelData has correlation_id 0: {ids}")
        if c.expect.get("distinct", True):
            c.equal(len(set(ids)), len(ids), f"distinct correlation ids of {len(ids)} launches ({ids})")
        c.note(f"{len(set(ids))} distinct ids over {len(ids)} ctypes launches")


@scenario(
    "py_ctypes_copies",
    'MEMCPY/MEMSET records of asynchronous copies and fills made through ctypes.CDLL("libascendcl.so")',
    needs=(*PY_NEEDS, "acl"),
)
def py_ctypes_copies(env: ScenarioEnv) -> list[Invocation]:
    return [py_invocation(env, "monitors", "ctypes_copies", timeout=120)]


@py_ctypes_copies.checker
def check_py_ctypes_copies(ctx: CheckContext) -> None:
    with ctx.clause("ACT-MEMCPY-06") as c:
        log = ctx.log()
        require_import(log)
        copies = sum(1 for call in log.labelled("py_copy_") if call.ret == 0)
        fills = sum(1 for call in log.labelled("py_fill_") if call.ret == 0)
        c.equal(copies, CTYPES_COPIES, "copies the runtime accepted")
        c.equal(fills, CTYPES_COPIES, "fills the runtime accepted")
        check_direct_copies(c, log, copies, fills, "ctypes")
