"""HCCL records and HCCL-domain callbacks through the interposed Hccl* functions.

The simulator's libhccl is not available yet, so the library behind the wrappers is a stand-in
(programs/fake_hccl.c) placed as $ASCEND_HOME_PATH/lib64/libhccl.so; the runtime, profapi and the
driver are the simulator's. Tests against the simulated HCCL come with it.
"""

import pytest
from mspti_harness import PROGRAMS

# bytes per operation: element size x count (x rank size 4 for the gathering/scattering ones)
EXPECTED = {
    "HcclAllReduce": 4 * 1000,
    "HcclBroadcast": 1 * 1000,
    "HcclAllGather": 2 * 100 * 4,
    "HcclReduceScatter": 4 * 100 * 4,
    "HcclReduce": 8 * 100,
    "HcclAlltoAll": 4 * 10 * 4,
    "HcclAlltoAllV": 4 * 100,  # max(sum of send counts, sum of receive counts) x element size
    "HcclScatter": 2 * 50 * 4,
    "HcclSend": 1 * 64,
    "HcclRecv": 2 * 64,
    "HcclBatchSendRecv": 8 * 8 + 2 * 16,
}
CBID = {
    "HcclAllReduce": 1,
    "HcclBroadcast": 2,
    "HcclAllGather": 3,
    "HcclReduceScatter": 4,
    "HcclReduce": 5,
    "HcclAlltoAll": 6,
    "HcclAlltoAllV": 7,
    "HcclBarrier": 8,
    "HcclScatter": 9,
    "HcclSend": 10,
    "HcclRecv": 11,
    "HcclBatchSendRecv": 12,
}


@pytest.fixture(scope="module")
def hccl_home(native, programs, tmp_path_factory):
    fake = programs.build([PROGRAMS / "fake_hccl.c"], libs=["ascendcl"], extra_flags=["-shared", "-fPIC"])
    home = tmp_path_factory.mktemp("ascend_home")
    lib64 = home / "lib64"
    lib64.mkdir()
    for lib in native.sim_lib64.iterdir():
        if lib.name != "libhccl.so":
            (lib64 / lib.name).symlink_to(lib)
    (lib64 / "libhccl.so").symlink_to(fake)
    return home


@pytest.fixture(scope="module")
def hccl_run(mspti_programs, hccl_home):
    return mspti_programs.run(
        "hccl_ops.c", libs=("mspti", "ascendcl"), preload=True, ASCEND_HOME_PATH=str(hccl_home)
    ).check()


def test_hccl_records(hccl_run):
    run = hccl_run
    records = run.of("HCCL")
    assert [r["name"] for r in records] == list(EXPECTED)  # no record for HcclBarrier
    stream = int(run.facts["stream"])
    for r in records:
        assert r["commName"] == "fake_comm_0"
        assert (r["deviceId"], r["streamId"]) == (0, stream)
        assert r["start"] < r["end"]
        expected = EXPECTED[r["name"]] / (r["end"] - r["start"])
        assert r["bandWidth"] == pytest.approx(expected, rel=1e-6)


def test_hidden_markers_are_not_marker_records(hccl_run):
    assert hccl_run.of("MARKER") == []


def test_hccl_callbacks(hccl_run):
    run = hccl_run
    names = [c["name"] for c in run.callbacks if c["site"] == 0]
    assert names == list(CBID)
    for c in run.callbacks:
        assert c["domain"] == 2 and c["cbid"] == CBID[c["name"]] and c["corr"] > 0 and c["shared"] == 1
        if c["site"] == 1:
            assert c["ret"] == 0
