"""HcclMonitor and CommunicationMonitor on a multi-rank job (py_hccl_monitors).

The driver is conformance/pydriver/hccl_monitors.py: one thread per rank, one AllReduce each."""

from __future__ import annotations

from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import RunLog
from conformance.scenarios.collectives import ranks
from conformance.scenarios.python_common import PY_NEEDS, enum_value, objects, py_invocation, require_import
from conformance.scenarios.python_common import returned as returns
from conformance.scenarios.registry import ScenarioEnv, scenario

HCCL, COMMUNICATION, FP32 = 4, 9, 4
ELEMENTS = 1024
HCCL_FIELDS = ("kind", "start", "end", "device_id", "stream_id", "bandwidth", "name", "comm_name")
COMM_FIELDS = (
    "kind",
    "data_type",
    "count",
    "device_id",
    "stream_id",
    "start",
    "end",
    "alg_type",
    "name",
    "comm_name",
    "correlation_id",
)


@scenario(
    "py_hccl_monitors",
    "HcclMonitor and CommunicationMonitor on an AllReduce of every rank",
    needs=(*PY_NEEDS, "acl", "hccl", "multi"),
)
def py_hccl_monitors(env: ScenarioEnv) -> list[Invocation]:
    return [py_invocation(env, "hccl_monitors", str(ranks(env)), timeout=120)]


def _runtime_ok(c: ClauseCheck, log: RunLog) -> int:
    """The rank count; skips the clause when the runtime could not create the communicators."""
    init = log.call("init")
    if init.missing or init.ret != 0:
        c.skip(f"the target runtime could not create the communicators (HcclCommInitAll: {init.ret})")
    return int(init["ranks"])


@py_hccl_monitors.checker
def check_py_hccl_monitors(ctx: CheckContext) -> None:
    with ctx.clause("PY-DATA-02") as c:
        log = ctx.log()
        require_import(log)
        count = _runtime_ok(c, log)
        for label in ("start_hccl", "start_comm", "stop_hccl", "stop_comm"):
            returns(c, log.call(label), "SUCCESS")
        streams = log.stream_ids()
        for callback, cls, fields, kind in (
            ("hccl", "HcclData", HCCL_FIELDS, HCCL),
            ("comm", "CommunicationData", COMM_FIELDS, COMMUNICATION),
        ):
            delivered = objects(log, callback)
            for rank in range(count):
                call = log.call(f"allreduce{rank}")
                c.check(call.ret == 0, f"HcclAllReduce on rank {rank} failed on the runtime ({call.ret})")
                mine = [e for e in delivered if (e.get("data") or {}).get("device_id") == rank]
                if not c.equal(len(mine), 1, f"{cls} objects of rank {rank} (one AllReduce)"):
                    continue
                data = mine[0]["data"]
                what = f"{cls} of rank {rank}"
                missing = [f for f in fields if f not in data]
                if not c.check(not missing, f"{what} lacks {', '.join(missing)}"):
                    continue
                c.equal(mine[0].get("cls"), cls, f"class of {what}")
                c.equal(enum_value(data["kind"]), kind, f"{what}.kind")
                c.equal(data["stream_id"], streams.get(f"st{rank}"), f"{what}.stream_id")
                c.equal(data["comm_name"], log.call(f"name{rank}").get("name"), f"{what}.comm_name")
                c.check(
                    int(data["start"]) < int(data["end"]),
                    f"{what}: start {data['start']} >= end {data['end']}",
                )
                c.check(bool(data["name"]), f"{what}.name is empty")
                if callback == "hccl":
                    c.equal(data["name"], "HcclAllReduce", f"{what}.name")
                    c.check(float(data["bandwidth"]) > 0, f"{what}.bandwidth is {data['bandwidth']}")
                else:
                    c.equal(enum_value(data["data_type"]), FP32, f"{what}.data_type")
                    c.check(
                        isinstance(data["data_type"], dict),
                        f"{what}.data_type is not an enum member: {data['data_type']!r}",
                    )
                    c.equal(data["count"], ELEMENTS, f"{what}.count")
                    c.check(int(data["correlation_id"]) != 0, f"{what}.correlation_id is 0")
                    c.check(isinstance(data["alg_type"], str), f"{what}.alg_type is {data['alg_type']!r}")
