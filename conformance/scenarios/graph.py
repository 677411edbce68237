"""A captured (graph) model executed several times: KERNEL records per execution (ACT-KERNEL-04)."""

from __future__ import annotations

from conformance.checks import CheckContext, ClauseCheck
from conformance.execute import Invocation
from conformance.log import Call
from conformance.scenarios.common import DEVICE_SETUP, DEVICE_TEARDOWN, KERNEL, SUBSCRIBE, lines
from conformance.scenarios.device.kernels import named_kernels
from conformance.scenarios.registry import ScenarioEnv, scenario

EXECUTIONS = 4
GRAPH_KERNELS = ("conformance_graph_first", "conformance_graph_second")


@scenario(
    "graph_replay",
    "two kernels captured on a stream (aclmdlRICaptureBegin/End) and the model executed several times",
    needs=("mspti", "acl", "launch"),
)
def graph_replay(env: ScenarioEnv) -> list[Invocation]:
    launches = [f"launch {name} s plain 8 @launch_{index}" for index, name in enumerate(GRAPH_KERNELS)]
    executions = [f"model_execute m x @execute_{index}" for index in range(EXECUTIONS)]
    return [
        Invocation(
            script=lines(
                SUBSCRIBE,
                "enable KERNEL",
                DEVICE_SETUP,
                "create_stream x",
                "capture_begin s global @capture_begin",
                *launches,
                "capture_end s m @capture_end",
                *executions,
                "sync x @sync_x",
                "disable KERNEL",
                "flush 1",
                "model_destroy m @model_destroy",
                "destroy_stream x",
                DEVICE_TEARDOWN,
            )
        )
    ]


def _worked(c: ClauseCheck, call: Call) -> bool:
    """Whether a runtime call the scenario depends on worked (a runtime without capture is a skip)."""
    if call.missing:
        c.skip(f"{call.fn} is not exported by the target runtime")
        return False
    return c.check(
        call.ret == 0, f"{call.fn} returned {call.ret}; the runtime must capture and execute the model"
    )


@graph_replay.checker
def check_graph_replay(ctx: CheckContext) -> None:
    with ctx.clause("ACT-KERNEL-04") as c:
        log = ctx.log()
        setup = ["capture_begin", *(f"launch_{i}" for i in range(len(GRAPH_KERNELS))), "capture_end"]
        setup += [f"execute_{i}" for i in range(EXECUTIONS)]
        if not all(_worked(c, log.call(label)) for label in setup):
            return
        kernels = log.records_of(KERNEL)
        c.equal(len(kernels), EXECUTIONS * len(GRAPH_KERNELS), "KERNEL records in total")
        ids = []
        for name in GRAPH_KERNELS:
            records = named_kernels(kernels, name)
            c.equal(len(records), EXECUTIONS, f"KERNEL records of {name} ({EXECUTIONS} executions)")
            if not records:
                continue
            corr = {int(r["corr"]) for r in records}
            names = {str(r.get("name")) for r in records}
            types = {str(r.get("type")) for r in records}
            c.check(len(corr) == 1, f"executions of {name} carry different correlation ids {sorted(corr)}")
            c.check(0 not in corr, f"an execution of {name} has correlation id 0")
            c.check(len(names) == 1, f"executions of {name} carry different names {sorted(names)}")
            c.check(
                len(types) == 1 and next(iter(types)).startswith("KERNEL_"),
                f"executions of {name} carry types {sorted(types)}; expected one KERNEL_* type",
                f"{name}: {len(records)} records, correlation id {sorted(corr)}, type {sorted(types)}",
            )
            ids.append(min(corr))
        c.check(len(set(ids)) == len(ids), f"the two captured kernels share a correlation id: {ids}")
