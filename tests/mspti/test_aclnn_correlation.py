"""Correlation of aclnn operators (ACT-CORR-04/05/07): an operator launches each kernel through
aclrtLaunchKernelWithHostArgs (as CANN's do) and reports a node launch after it, with an interval
that contains the launch call (an operator of three kernels makes three such pairs, each node report
beginning where the previous one ended). The operator's NODE_API and API records must carry the
launch call's id, the one its KERNEL, ACL_API and RUNTIME_API records carry, whether msPTI
interposes the launch or not, on either clock."""

import pytest

ACLNN_LIBS = ("ascendcl", "nnopbase", "opapi")
KERNELS_PER_ITERATION = 5  # Add; MatMulV2; Cast, Add, Cast
LAUNCH = "aclrtLaunchKernelWithHostArgs"

# How msPTI is present: (libraries in link order, LD_PRELOAD, extra compiler flags, interposed).
MODES = {
    "preload": (("mspti", *ACLNN_LIBS), True, [], True),
    "linked_first": (("mspti", *ACLNN_LIBS), False, [], True),
    "linked_last": ((*ACLNN_LIBS, "mspti"), False, [], False),
    "dlopen": (ACLNN_LIBS, False, ["-DMSPTI_DLOPEN"], False),
}


def run_ops(mspti_programs, mode, clock, iterations=6, threads=1, start="first"):
    libs, preload, flags, interposed = MODES[mode]
    run = mspti_programs.run(
        "aclnn_correlation.c",
        libs=libs,
        preload=preload,
        extra_flags=flags,
        args=[str(iterations), str(threads), start],
        NPU_SIM_CLOCK=clock,
    ).check()
    assert run.facts["interposed"] == str(int(interposed))
    return run


def check_operator_correlation(run, expected_kernels):
    kernels = run.of("KERNEL")
    assert len(kernels) == expected_kernels
    assert run.summary["dropped"] == 0
    nodes, apis = run.of("NODE_API"), run.of("API")
    launches = [r for r in run.of("ACL_API") if r["name"] == LAUNCH]
    runtime = run.of("RUNTIME_API")
    assert len(nodes) == len(apis) == len(launches) == expected_kernels
    problems = []
    for k in kernels:
        corr = k["correlationId"]
        what = f"{k['name']} id {corr}"
        node = [r for r in nodes if r["correlationId"] == corr]
        api = [r for r in apis if r["correlationId"] == corr]
        launch = [r for r in launches if r["correlationId"] == corr]
        if len(node) != 1 or len(api) != 1 or len(launch) != 1:
            problems.append(f"{what}: {len(node)} NODE_API, {len(api)} API, {len(launch)} launches")
            continue
        node, api, launch = node[0], api[0], launch[0]
        if (node["start"], node["end"], node["name"]) != (api["start"], api["end"], api["name"]):
            problems.append(f"{what}: NODE_API {node} and API {api} differ")
        if node["name"].rsplit("_", 1)[-1] != k["name"].split("_", 1)[0]:
            problems.append(f"{what}: the node record {node['name']} names another kernel")
        if not (node["start"] <= launch["start"] and launch["end"] <= node["end"]):
            problems.append(f"{what}: launch {launch} outside the node record {node}")
        if node["threadId"] != launch["threadId"]:
            problems.append(f"{what}: node on thread {node['threadId']}, launch on {launch['threadId']}")
        if not any(r["correlationId"] == corr for r in runtime):
            problems.append(f"{what}: no RUNTIME_API record")
    assert not problems, "\n".join(problems[:20])
    # Every node-level record names an operator whose kernel carries its id (API -> KERNEL).
    kernel_ids = {k["correlationId"] for k in kernels}
    assert {r["correlationId"] for r in nodes + apis} == kernel_ids
    assert len(kernel_ids) == expected_kernels


@pytest.mark.parametrize("clock", ["virtual", "wall"])
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("start", ["first", "warm"])
def test_node_records_take_the_launch_id(mspti_programs, mode, clock, start):
    run = run_ops(mspti_programs, mode, clock, start=start)
    check_operator_correlation(run, KERNELS_PER_ITERATION * 6)


@pytest.mark.parametrize("clock", ["virtual", "wall"])
@pytest.mark.parametrize("mode", ["preload", "dlopen"])
def test_node_records_take_the_launch_id_on_each_thread(mspti_programs, mode, clock):
    run = run_ops(mspti_programs, mode, clock, iterations=10, threads=3)
    check_operator_correlation(run, KERNELS_PER_ITERATION * 10 * 3)


@pytest.mark.parametrize("clock", ["virtual", "wall"])
@pytest.mark.parametrize("interposed", [True, False])
def test_node_reports_made_by_the_program(mspti_programs, interposed, clock):
    """The rule at its edges: several launch calls inside one node report (the first call's id, the
    documented limit), and a report that begins exactly where a launch ended (not that launch)."""
    libs = ("mspti", "ascendcl", "profapi") if interposed else ("ascendcl", "profapi", "mspti")
    run = mspti_programs.run("node_reports.c", libs=libs, preload=interposed, NPU_SIM_CLOCK=clock).check()
    kernels = sorted(run.of("KERNEL"), key=lambda k: k["start"])
    assert len(kernels) == 4
    ids = [k["correlationId"] for k in kernels]
    assert len(set(ids)) == 4
    node = {r["name"]: r for r in run.of("NODE_API")}
    api = {r["name"]: r for r in run.of("API")}
    assert set(node) == set(api) == {"node_one", "node_two", "node_none"}
    assert all(node[n]["correlationId"] == api[n]["correlationId"] for n in node)
    assert node["node_one"]["correlationId"] == ids[0]
    assert node["node_two"]["correlationId"] == ids[1]
    assert node["node_none"]["correlationId"] not in ids
    # The non-interposed call inside node_none is the call the node record stands for.
    get_function = [r for r in run.of("ACL_API") if r["name"] == "aclrtBinaryGetFunction"]
    assert get_function and get_function[-1]["correlationId"] == node["node_none"]["correlationId"]
    # Records that carry a launch's id describe that launch only.
    for corr in ids:
        names = {r["name"] for r in run.of("ACL_API") + run.of("RUNTIME_API") if r["correlationId"] == corr}
        assert names and all("Launch" in n for n in names), names
