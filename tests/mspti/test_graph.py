"""KERNEL records of a captured (graph) model: one per execution, sharing the capture's correlation id."""

import itertools

import pytest


def run_graph(mspti_programs, executions: int, soc: str):
    return mspti_programs.run(
        "graph_replay.c",
        libs=("mspti", "ascendcl"),
        preload=True,
        args=[str(executions)],
        NPU_SIM_SOC=soc,
    ).check()


# Ascend950PR_9599 (chip type 15) logs carry no stream id: its task ids are unique per device.
@pytest.mark.parametrize(
    ("executions", "soc"), [(1, "Ascend910B3"), (4, "Ascend910B3"), (4, "Ascend950PR_9599")]
)
def test_each_execution_gives_one_kernel_record(mspti_programs, executions, soc):
    run = run_graph(mspti_programs, executions, soc)
    kernels = run.of("KERNEL")
    assert int(run.facts["dropped_kernels"]) == 0
    by_name = {
        name: list(group)
        for name, group in itertools.groupby(
            sorted(kernels, key=lambda k: k["name"]), key=lambda k: k["name"]
        )
    }
    assert sorted(by_name) == ["add_custom", "mul_custom"]
    launches = [c for c in run.callbacks if c["name"] == "aclrtLaunchKernel" and c["site"] == 0]
    assert len(launches) == 2  # launched once each, at capture
    for name, records in by_name.items():
        assert len(records) == executions, name
        assert len({r["correlationId"] for r in records}) == 1
        assert len({r["type"] for r in records}) == 1 and records[0]["type"].startswith("KERNEL_")
        assert len({(r["deviceId"], r["streamId"]) for r in records}) == 1
    # The kernels keep the ids of their launches at capture, one id per launch.
    assert sorted(r[0]["correlationId"] for r in by_name.values()) == sorted(c["corr"] for c in launches)
    # Executions follow one another on the model's stream: add, mul, add, mul, ...
    ordered = sorted(kernels, key=lambda k: k["start"])
    assert [k["name"] for k in ordered] == ["add_custom", "mul_custom"] * executions
    assert all(a["end"] <= b["start"] for a, b in itertools.pairwise(ordered))
    t0, t1 = int(run.facts["t0"]), int(run.facts["t1"])
    assert all(t0 - 1_000_000 <= k["start"] and k["end"] <= t1 + 1_000_000 for k in kernels)
