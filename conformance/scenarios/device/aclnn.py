"""aclnn calls: the API-family kinds and their correlation with KERNEL records."""

from __future__ import annotations

from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import RunLog
from conformance.model.invariants import (
    Violation,
    buffer_protocol,
    correlation_membership,
)
from conformance.scenarios.common import (
    API,
    DEVICE_SETUP,
    DEVICE_TEARDOWN,
    KERNEL,
    SUBSCRIBE,
    lines,
    report_violations,
)
from conformance.scenarios.device.calls import (
    HOST_TOLERANCE_NS,
    process_id,
    runtime_ok,
)
from conformance.scenarios.registry import ScenarioEnv, scenario

API_FAMILY = ("API", "ACL_API", "NODE_API", "RUNTIME_API")


@scenario(
    "aclnn_records",
    "two aclnnAdd calls with KERNEL and the API-family kinds enabled",
    needs=("mspti", "acl", "aclnn"),
)
def aclnn_records(env: ScenarioEnv) -> list[Invocation]:
    kinds = ("KERNEL", *API_FAMILY)
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                *(f"enable {kind}" for kind in kinds),
                DEVICE_SETUP,
                "aclnn_add s @add_1",
                "aclnn_add s @add_2",
                "sync s @sync",
                *(f"disable {kind}" for kind in kinds),
                "flush 1",
                DEVICE_TEARDOWN,
            )
        )
    ]


@aclnn_records.checker
def check_aclnn_records(ctx: CheckContext) -> None:
    from conformance.abi import API_FAMILY_KINDS

    def workload_ok(c: ClauseCheck, log: RunLog) -> bool:
        calls = [log.call("add_1"), log.call("add_2")]
        for call in calls:
            if not runtime_ok(c, call):
                return False
            c.check(bool(call.get("result_ok")), "aclnnAdd computed a wrong result on the target runtime")
        return True

    with ctx.clause("ACT-API-01") as c:
        log = ctx.log()
        if workload_ok(c, log):
            family = [r for r in log.records if r.kind in API_FAMILY_KINDS]
            c.check(any(r.kind == API for r in family), "no API record was delivered")
            layout = [v for v in buffer_protocol(log) if v.clause in ("GEN-ABI-01", "GEN-ABI-03")]
            report_violations(
                c, [Violation("ACT-API-01", v.message) for v in layout], "48-byte API-family records"
            )
            c.note("kinds delivered: " + ", ".join(sorted({str(r.kind) for r in family})))
    with ctx.clause("ACT-API-02") as c:
        log = ctx.log()
        if workload_ok(c, log):
            pid = process_id(log)
            main_tid = log.call("add_1").tid
            first, last = log.calls[0].t0, max(call.t1 for call in log.calls)
            family = [r for r in log.records if r.kind in API_FAMILY_KINDS]
            c.check(bool(family), "no API-family record was delivered")
            for record in family:
                what = f"kind {record.kind} record {record.get('name')!r}"
                c.equal(record["pid"], pid, f"processId of {what}")
                c.equal(record["tid"], main_tid, f"threadId of {what} (the calling thread)")
                c.check(bool(record.get("name")), f"{what} has no name")
                start, end = int(record["start"]), int(record["end"])
                c.check(
                    first - HOST_TOLERANCE_NS <= start <= end <= last + HOST_TOLERANCE_NS,
                    f"{what}: [{start}, {end}] outside the run [{first}, {last}] or start > end",
                )
    with ctx.clause("ACT-API-03") as c:
        log = ctx.log()
        if workload_ok(c, log):
            api = [str(r.get("name")) for r in log.records_of(API)]
            node = [str(r.get("name")) for r in log.records_of(11)]
            c.equal(len([n for n in api if "aclnnAdd" in n]), 2, "API records named after the aclnnAdd node")
            c.equal(sorted(node), sorted(api), "NODE_API records (the same node-level reports as API)")
            c.check(
                bool(log.records_of(10)), "no ACL_API record", f"{len(log.records_of(10))} ACL_API records"
            )
            c.check(
                bool(log.records_of(12)),
                "no RUNTIME_API record",
                f"{len(log.records_of(12))} RUNTIME_API records",
            )
    with ctx.clause("ACT-CORR-04") as c:
        log = ctx.log()
        if workload_ok(c, log):
            kernels = log.records_of(KERNEL)
            c.equal(len(kernels) >= 2, True, "at least one KERNEL record per aclnnAdd")
            report_violations(
                c,
                correlation_membership(kernels, log.records_of(API), clause="ACT-CORR-04", what="KERNEL"),
                "KERNEL -> API join",
            )
    with ctx.clause("ACT-CORR-05") as c:
        log = ctx.log()
        if workload_ok(c, log):
            kernel_ids = {int(r["corr"]) for r in log.records_of(KERNEL)}
            apis = [r for r in log.records_of(API) if not str(r.get("name", "")).startswith("hcom_")]
            c.check(bool(apis), "no API record was delivered")
            for record in apis:
                c.check(
                    int(record["corr"]) in kernel_ids,
                    f"API record {record.get('name')!r} (correlationId {record['corr']}) "
                    "has no KERNEL record",
                )
            c.note(f"{len(apis)} API record(s), each joined by a KERNEL record")
    with ctx.clause("ACT-CORR-07") as c:
        log = ctx.log()
        if workload_ok(c, log):
            kernel_ids = {int(r["corr"]) for r in log.records_of(KERNEL)}
            api_ids = {int(r["corr"]) for r in log.records_of(API)}
            if c.expect.get("shared") is True:
                c.equal(len(kernel_ids), len(api_ids), "distinct kernel correlation ids (one per API call)")
                c.check(
                    kernel_ids <= api_ids,
                    f"kernel ids {sorted(kernel_ids)} not all API ids {sorted(api_ids)}",
                )
            else:
                c.check(
                    True, "", f"kernel ids {sorted(kernel_ids)}, API ids {sorted(api_ids)} (either allowed)"
                )
