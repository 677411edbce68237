"""CANN msPTI's sample workload (aclnnAdd) end to end on the simulator, with the checks its system
tests make, restated as relations."""

import pytest


@pytest.fixture(scope="module")
def sample_run(mspti_programs):
    return mspti_programs.run(
        "sample_add.c", libs=("mspti", "ascendcl", "nnopbase", "opapi"), preload=True
    ).check()


def test_results(sample_run):
    expected = [1.2, 2.2, 3.2, 5.4, 6.4, 7.4, 9.6, 10.6]
    assert [float(sample_run.facts[f"result{i}"]) for i in range(8)] == expected


def test_records(sample_run):
    run = sample_run
    kernels = run.of("KERNEL")
    assert len(kernels) == 1 and kernels[0]["type"].startswith("KERNEL_") and kernels[0]["name"]
    assert kernels[0]["start"] < kernels[0]["end"]
    apis = run.of("API")
    assert len(apis) == 1 and apis[0]["start"] < apis[0]["end"]
    # API <-> KERNEL by correlation id (both directions).
    assert apis[0]["correlationId"] == kernels[0]["correlationId"]
    memory = run.of("MEMORY")
    extra = 1 if int(run.facts["workspace"]) > 0 else 0
    assert sum(m["memoryOperationType"] == 0 for m in memory) == 3 + extra
    assert sum(m["memoryOperationType"] == 1 for m in memory) == 3 + extra
    copies = run.of("MEMCPY")
    assert [c["copyKind"] for c in copies] == [2, 2, 2, 3]


def test_launch_callbacks(sample_run):
    run = sample_run
    launches = [c for c in run.callbacks if c["cbid"] == 10]
    assert [c["site"] for c in launches] == [0, 1]
    assert launches[0]["corr"] == run.of("KERNEL")[0]["correlationId"]
    assert launches[1]["symbol"] == run.of("KERNEL")[0]["name"]


def test_operator_launch_is_seen_as_cann_entry_point(sample_run):
    # CANN's operators launch through aclrtLaunchKernelWithHostArgs, and so does the simulator's
    # aclnnAdd: a RUNTIME subscriber sees that function's name at both sites, and the domain is RUNTIME.
    launches = [c for c in sample_run.callbacks if c["cbid"] == 10]
    assert [(c["domain"], c["name"]) for c in launches] == [(1, "aclrtLaunchKernelWithHostArgs")] * 2
