"""KERNEL records of a captured (graph) model: one per execution, sharing the capture's correlation id."""

import itertools

import pytest


def run_graph(mspti_programs, executions: int, soc: str, *mode: str, **env: str):
    return mspti_programs.run(
        "graph_replay.c",
        libs=("mspti", "ascendcl"),
        preload=True,
        args=[str(executions), *mode],
        NPU_SIM_SOC=soc,
        **env,
    ).check()


# Ascend950PR_9599 (chip type 15) logs carry no stream id: its task ids are unique per device.
@pytest.mark.parametrize(
    ("executions", "soc"), [(1, "Ascend910B3"), (4, "Ascend910B3"), (4, "Ascend950PR_9599")]
)
def test_each_execution_gives_one_kernel_record(mspti_programs, executions, soc):
    run = run_graph(mspti_programs, executions, soc)
    all_launches = [c for c in run.callbacks if c["name"] == "aclrtLaunchKernel" and c["site"] == 0]
    assert len(all_launches) == 3  # each graph kernel once, at capture; one kernel after the model is gone
    launches, later_launch = all_launches[:2], all_launches[2]
    kernels = [k for k in run.of("KERNEL") if k["correlationId"] != later_launch["corr"]]
    assert len(run.of("KERNEL")) == len(kernels) + 1
    assert int(run.facts["dropped_kernels"]) == 0
    assert int(run.facts["dropped_kernels_at_end"]) == 0  # nor when Unsubscribe settles what was left
    by_name = {
        name: list(group)
        for name, group in itertools.groupby(
            sorted(kernels, key=lambda k: k["name"]), key=lambda k: k["name"]
        )
    }
    assert sorted(by_name) == ["add_custom", "mul_custom"]
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


@pytest.mark.parametrize(
    "env",
    [
        {},
        # F-9: every CANN host timestamp taken 1 ms late (as a slowed or preempted launching thread
        # would take it) while the device runs in real time. The kernel on the reused stream id
        # starts 6 us after its submission; its task track must still say it launched before that.
        {"NPU_SIM_CLOCK": "wall", "NPU_SIM_FAULTS": "MsprofSysCycleTime:delay=1ms"},
    ],
    ids=["default", "late-host-timestamps"],
)
def test_a_stream_that_reuses_a_destroyed_models_stream_id_gets_its_own_records(mspti_programs, env):
    run = run_graph(mspti_programs, 2, "Ascend910B3", **env)
    later_stream = int(run.facts["later_stream"])
    kernels = run.of("KERNEL")
    graph_streams = {k["streamId"] for k in kernels if k["name"] == "mul_custom"}
    assert graph_streams == {later_stream}  # the new stream got the model's stream id
    launches = [c for c in run.callbacks if c["name"] == "aclrtLaunchKernel" and c["site"] == 0]
    later = [k for k in kernels if k["correlationId"] == launches[-1]["corr"]]
    assert [(k["name"], k["streamId"]) for k in later] == [("add_custom", later_stream)]
    graph_adds = [k for k in kernels if k["name"] == "add_custom" and k not in later]
    assert [k["correlationId"] for k in graph_adds] == [launches[0]["corr"]] * 2  # the two executions


# A graph captured before msPTI subscribed: its executions give STARS logs of kernel tasks that no
# task track msPTI received belongs to. They are not KERNEL records msPTI owes (the launches were
# never given to it), so nothing is delivered or counted as dropped for them: an unmatched device
# half of a kernel task is not a lost record (docs/reliability.md).
@pytest.mark.parametrize("soc", ["Ascend910B3", "Ascend950PR_9599"])
def test_a_graph_captured_before_subscribing_is_neither_recorded_nor_counted(mspti_programs, soc):
    run = run_graph(mspti_programs, 3, soc, "late")
    launches = [c for c in run.callbacks if c["name"] == "aclrtLaunchKernel" and c["site"] == 0]
    assert len(launches) == 1  # only the kernel launched after subscribing
    kernels = run.of("KERNEL")
    assert [(k["name"], k["correlationId"]) for k in kernels] == [("add_custom", launches[0]["corr"])]
    assert int(run.facts["dropped_kernels"]) == 0
    assert int(run.facts["dropped_kernels_at_end"]) == 0  # nor when Unsubscribe settles what was left
