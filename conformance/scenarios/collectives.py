"""HCCL records of a single-process multi-rank job (one thread per rank)."""

from __future__ import annotations

from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import Record, RunLog
from conformance.scenarios.common import lines
from conformance.scenarios.registry import ScenarioEnv, scenario

HCCL = 4
#: (driver operation, HCCL function, element count, whether the byte count is multiplied by the rank count)
OPERATIONS = (
    ("allreduce", "HcclAllReduce", 1024, False),
    ("broadcast", "HcclBroadcast", 256, False),
    ("allgather", "HcclAllGather", 128, True),
    ("reducescatter", "HcclReduceScatter", 128, True),
)


def ranks(env: ScenarioEnv) -> int:
    return max(2, min(env.devices, 4))


@scenario(
    "hccl_records",
    "AllReduce, Broadcast, AllGather, ReduceScatter and Barrier on every rank",
    needs=("mspti", "acl", "hccl", "multi"),
)
def hccl_records(env: ScenarioEnv) -> list[Invocation]:
    count = ranks(env)
    body = [f"hccl_{op} %t st%t {elements} @{op}%t" for op, _fn, elements, _scaled in OPERATIONS]
    return [
        Invocation(
            script=lines(
                "subscribe",
                "register A A",
                "enable HCCL",
                "enable MARKER",
                "acl_init",
                f"hccl_init_all {count} @init",
                f"threads {count} {{",
                "set_device %t",
                "create_stream st%t",
                "hccl_comm_name %t @name%t",
                *body,
                "hccl_barrier %t st%t @barrier%t",
                "sync st%t @sync%t",
                "}",
                "disable HCCL",
                "disable MARKER",
                "flush 1",
                "hccl_destroy",
            ),
            timeout=120,
        )
    ]


def _rank_count(log: RunLog) -> int:
    return int(log.call("init")["ranks"])


def _records(log: RunLog, function: str, rank: int) -> list[Record]:
    return [r for r in log.records_of(HCCL) if r.get("name") == function and int(r["device"]) == rank]


def _workload_ok(c: ClauseCheck, log: RunLog) -> bool:
    """The runtime created the communicators; a runtime without HCCL on this SoC skips the clause."""
    init = log.call("init")
    if init.missing:
        c.skip("the target runtime does not export HcclCommInitAll")
    if init.ret != 0:
        c.skip(
            f"the target runtime could not create {init.get('ranks')} communicators (HcclCommInitAll "
            f"returned {init.ret})"
        )
    return True


@hccl_records.checker
def check_hccl_records(ctx: CheckContext) -> None:
    with ctx.clause("ACT-HCCL-01") as c:
        log = ctx.log()
        if _workload_ok(c, log):
            for rank in range(_rank_count(log)):
                for op, function, _elements, _scaled in OPERATIONS:
                    call = log.call(f"{op}{rank}")
                    c.check(call.ret == 0, f"{function} on rank {rank} failed on the runtime ({call.ret})")
                    c.equal(
                        len(_records(log, function, rank)), 1, f"HCCL records of {function} on rank {rank}"
                    )
            barriers = [r for r in log.records_of(HCCL) if r.get("name") == "HcclBarrier"]
            if ctx.profile == "upstream":
                c.equal(len(barriers), 0, "HCCL records of HcclBarrier")
            else:
                c.note(f"{len(barriers)} HcclBarrier record(s) (not graded by the spec profile)")
    with ctx.clause("ACT-HCCL-02") as c:
        log = ctx.log()
        if _workload_ok(c, log):
            streams = log.stream_ids()
            for rank in range(_rank_count(log)):
                comm_name = log.call(f"name{rank}").get("name")
                for _op, function, _elements, _scaled in OPERATIONS:
                    for record in _records(log, function, rank):
                        what = f"{function} on rank {rank}"
                        c.equal(record.get("comm"), comm_name, f"commName of {what}")
                        c.equal(record["stream"], streams.get(f"st{rank}"), f"streamId of {what}")
                        c.check(
                            int(record["start"]) < int(record["end"]),
                            f"{what}: start {record['start']} >= end {record['end']}",
                        )
    with ctx.clause("ACT-HCCL-03") as c:
        log = ctx.log()
        if _workload_ok(c, log):
            count = _rank_count(log)
            for rank in range(count):
                for _op, function, elements, scaled in OPERATIONS:
                    for record in _records(log, function, rank):
                        duration = int(record["end"]) - int(record["start"])
                        data = elements * 4 * (count if scaled else 1)
                        expected = data / duration if duration > 0 else 0.0
                        actual = float(record.get("bandwidth") or 0.0)
                        c.check(
                            abs(actual - expected) <= 0.01 * max(expected, 1e-12),
                            f"bandWidth of {function} on rank {rank} is {actual}; expected {data} bytes / "
                            f"{duration} ns = {expected}",
                            f"{function}: {actual:.6f} GB/s",
                        )
    with ctx.clause("ACT-HCCL-04") as c:
        log = ctx.log()
        if _workload_ok(c, log):
            c.check(bool(log.records_of(HCCL)), "no HCCL record was delivered")
            c.equal(
                len(log.records_of(1)), 0, "MARKER records (the workload made no mark; MARKER was enabled)"
            )


COMMUNICATION = 9
API_KIND = 3


@scenario(
    "communication_records",
    "COMMUNICATION and API records of an AllReduce and an AllGather on every rank",
    needs=("mspti", "acl", "hccl", "multi"),
)
def communication_records(env: ScenarioEnv) -> list[Invocation]:
    count = ranks(env)
    kinds = ("COMMUNICATION", "API", "NODE_API")
    return [
        Invocation(
            script=lines(
                "subscribe",
                "register A A",
                *(f"enable {k}" for k in kinds),
                "acl_init",
                f"hccl_init_all {count} @init",
                f"threads {count} {{",
                "set_device %t",
                "create_stream st%t",
                "hccl_comm_name %t @name%t",
                "hccl_allreduce %t st%t 1024 @allreduce%t",
                "hccl_allgather %t st%t 64 @allgather%t",
                "sync st%t",
                "}",
                *(f"disable {k}" for k in kinds),
                "flush 1",
                "hccl_destroy",
            ),
            timeout=120,
        )
    ]


@communication_records.checker
def check_communication_records(ctx: CheckContext) -> None:
    with ctx.clause("ACT-COMM-01") as c:
        log = ctx.log()
        if _workload_ok(c, log):
            records = log.records_of(COMMUNICATION)
            streams = log.stream_ids()
            for rank in range(_rank_count(log)):
                mine = [r for r in records if int(r["device"]) == rank]
                c.equal(len(mine), 2, f"COMMUNICATION records on rank {rank} (an AllReduce and an AllGather)")
                counts = sorted(int(r["count"]) for r in mine)
                c.equal(counts, [64, 1024], f"element counts of the records on rank {rank}")
                for record in mine:
                    what = f"COMMUNICATION {record.get('name')!r} on rank {rank}"
                    c.check(bool(record.get("name")), f"{what} has no name")
                    c.check(bool(record.get("comm")), f"{what} has no commName")
                    c.check(record.get("alg") is not None, f"{what} has a NULL algType")
                    c.equal(record["dtype"], 4, f"dataType of {what} (FP32)")
                    c.equal(record["stream"], streams.get(f"st{rank}"), f"streamId of {what}")
                    c.check(int(record["start"]) <= int(record["end"]), f"{what}: start > end")
    with ctx.clause("ACT-CORR-06") as c:
        log = ctx.log()
        if _workload_ok(c, log):
            api = {(int(r["corr"]), str(r.get("name"))) for r in log.records_of(API_KIND)}
            records = log.records_of(COMMUNICATION)
            c.check(bool(records), "no COMMUNICATION record was delivered")
            for record in records:
                key = (int(record["corr"]), str(record.get("name")))
                c.check(
                    key in api,
                    f"COMMUNICATION {key[1]!r} (correlationId {key[0]}) has no API record with "
                    "the same id and name",
                    None,
                )
            c.note(f"{len(records)} COMMUNICATION records each joined an API record of the same name")
