"""One COMMUNICATION record per rank process (torchrun's shape without torch): two rank processes,
each with its own CommunicationMonitor, an all-reduce through the simulated libhccl and the
synchronisation torch.npu.synchronize() makes (aclrtSynchronizeDeviceWithTimeout), then the monitor
stops. The first rank's collective waits for the later one; its device half must have come by the
time the synchronisation returned, so that the monitor's stop delivers its record. The torchrun
program itself is tests/torch_npu/test_communication.py (slow)."""

from __future__ import annotations

RANK_SCRIPT = """
import ctypes, json, os, sys, time
from pathlib import Path

from mspti_core import CommunicationMonitor
from mspti_core.activity import dropped_records
from sim_runtime import npu

rank, folder = int(sys.argv[1]), Path(sys.argv[2])
ctypes.CDLL(os.path.join(os.environ["ASCEND_HOME_PATH"], "lib64", "libhccl.so"), mode=ctypes.RTLD_GLOBAL)
lib = ctypes.CDLL(None)


class RootInfo(ctypes.Structure):
    _fields_ = [("internal", ctypes.c_char * 4108)]


records = []
monitor = CommunicationMonitor()
assert monitor.start(records.append) == 0
device = npu.Device(rank)
stream = npu.Stream()
info = RootInfo()
if rank == 0:
    assert lib.HcclGetRootInfo(ctypes.byref(info)) == 0
    (folder / "root.tmp").write_bytes(bytes(info))
    (folder / "root.tmp").rename(folder / "root")
else:
    deadline = time.monotonic() + 30
    while not (folder / "root").exists():
        assert time.monotonic() < deadline, "rank 0 published no root info"
        time.sleep(0.01)
    ctypes.memmove(ctypes.byref(info), (folder / "root").read_bytes(), ctypes.sizeof(info))
comm = ctypes.c_void_p()
assert lib.HcclCommInitRootInfo(2, ctypes.byref(info), rank, ctypes.byref(comm)) == 0
send, recv = npu.Buffer(1024), npu.Buffer(1024)
if rank == 1:
    time.sleep(0.5)  # rank 0's collective is held, waiting for this one, while rank 0 synchronises
rc = lib.HcclAllReduce(ctypes.c_void_p(send.ptr), ctypes.c_void_p(recv.ptr), ctypes.c_uint64(256), 4, 0, comm,
                       ctypes.c_void_p(stream.handle))
assert rc == 0, rc
sync = lib.aclrtSynchronizeDeviceWithTimeout(ctypes.c_int32(-1))
assert monitor.stop() == 0
print("RANK " + json.dumps({"rank": rank, "sync": sync, "records": [[r.name, r.device_id] for r in records],
                            "dropped": dropped_records()}), flush=True)
lib.HcclCommDestroy(comm)
"""


def test_every_rank_process_gets_its_communication_record(run_sim, tmp_path) -> None:
    (tmp_path / "rank.py").write_text(RANK_SCRIPT)
    child = run_sim(
        f"""
        import json, subprocess, sys
        folder = {str(tmp_path)!r}
        command = [sys.executable, folder + "/rank.py"]
        ranks = [subprocess.Popen(command + [str(r), folder], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for r in range(2)]
        outs = [p.communicate(timeout=120) for p in ranks]
        lines = [line for out, _ in outs for line in out.splitlines() if line.startswith("RANK ")]
        report({{"codes": [p.returncode for p in ranks], "errors": [err[-2000:] for _, err in outs],
                 "ranks": sorted((json.loads(line[5:]) for line in lines), key=lambda r: r["rank"])}})
        """,
        NPU_SIM_DEVICES="2",
    ).check()
    result = child.result
    assert result["codes"] == [0, 0], result["errors"]
    assert [r["sync"] for r in result["ranks"]] == [0, 0]
    assert [r["records"] for r in result["ranks"]] == [[["hcom_allReduce_", 0]], [["hcom_allReduce_", 1]]]
    assert [r["dropped"] for r in result["ranks"]] == [0, 0]
