"""Records driven by CANN's reports alone (no interposition): correlation derived from the reports of
a thread, node-level API records, COMMUNICATION from an emulated communication operator."""

import pytest
from mspti_harness import KIND


@pytest.fixture(scope="module")
def seam_run(mspti_programs):
    # The real runtime first in the link order: msPTI's aclrt* wrappers are not what the program calls.
    return mspti_programs.run("seam_reports.c", libs=("ascendcl", "profapi", "mspti")).check()


def test_no_interposition_no_callbacks(seam_run):
    assert not seam_run.callbacks


def test_kernels_share_the_id_of_their_launch_api(seam_run):
    run = seam_run
    kernels = run.of("KERNEL")
    assert len(kernels) == 8 and all(k["name"] == "vec_add" for k in kernels)
    ids = [k["correlationId"] for k in kernels]
    assert len(set(ids)) == len(ids) and all(ids)
    for k in kernels:
        same = {
            r["kind"]: r for r in run.records if r.get("correlationId") == k["correlationId"] and r is not k
        }
        assert same[KIND["ACL_API"]]["name"] == "aclrtLaunchKernel"
        assert KIND["RUNTIME_API"] in same


def test_node_api_and_api_share_one_id_with_the_kernel(seam_run):
    run = seam_run
    node = [r for r in run.of("NODE_API") if r["name"] == "my_op_node"]
    api = [r for r in run.of("API") if r["name"] == "my_op_node"]
    assert len(node) == len(api) == 1
    assert node[0]["correlationId"] == api[0]["correlationId"]
    assert node[0]["threadId"] == int(run.facts["tid"])
    kernel_ids = [k["correlationId"] for k in run.of("KERNEL")]
    assert kernel_ids.count(node[0]["correlationId"]) == 1  # the kernel launched inside the node


def test_communication_record(seam_run):
    run = seam_run
    comm = run.of("COMMUNICATION")
    assert [c["name"] for c in comm] == ["hcom_allReduce_", "hcom_allGather_"]
    c = comm[0]
    assert (c["name"], c["commName"], c["algType"], c["dataType"], c["count"]) == (
        "hcom_allReduce_",
        "group_name_0",
        "RING-NHR",
        4,
        1024,
    )
    assert (c["deviceId"], c["streamId"]) == (0, int(run.facts["stream"]))
    # Its id is the id of the API record of the same name.
    api = [r for r in run.of("API") if r["name"] == "hcom_allReduce_"]
    assert len(api) == 1 and api[0]["correlationId"] == c["correlationId"]
    # It spans its two tasks on the device.
    kernels = sorted(run.of("KERNEL"), key=lambda k: k["start"])
    assert c["start"] == kernels[4]["start"] and c["end"] == kernels[5]["end"]


def test_communication_tasks_run_before_they_are_named(seam_run):
    run = seam_run
    c = next(r for r in run.of("COMMUNICATION") if r["name"] == "hcom_allGather_")
    assert (c["commName"], c["algType"], c["dataType"], c["count"]) == ("group_name_1", "MESH", 3, 64)
    kernels = sorted(run.of("KERNEL"), key=lambda k: k["start"])
    assert c["start"] == kernels[6]["start"] and c["end"] == kernels[7]["end"]
    api = [r for r in run.of("API") if r["name"] == "hcom_allGather_"]
    assert len(api) == 1 and api[0]["correlationId"] == c["correlationId"]


def test_unregistered_names_are_counted_not_reported(seam_run):
    assert int(seam_run.facts["dropped_acl"]) == 1
    assert all(r["name"] for r in seam_run.records if "name" in r)
