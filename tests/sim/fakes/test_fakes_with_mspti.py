"""Acceptance of sim_runtime.fakes: our msPTI, in the process that holds the fakes, against faked
CANN behaviour (device info of another SoC, a failing channel start, hand-made STARS bytes, an
injected report sequence, argument checks of kernel launches)."""

from __future__ import annotations

# One workload for the tests that look at KERNEL records: a device, a stream, a KernelMonitor.
WORKLOAD = """
from mspti_core import KernelMonitor, MsptiResult
from mspti_core import activity
from mspti_core.enums import MsptiActivityKind, MsptiDropReason
from sim_runtime import fakes, npu

kernels = []
monitor = KernelMonitor()
device = stream = vec_add = None

def open_device():
    global device, stream, vec_add
    device = npu.Device(0)
    stream = npu.Stream()
    vec_add = npu.Kernel("vec_add", "AIV")

starts = []

def run_kernels(n, blocks=1):
    starts.append(monitor.start(kernels.append).name)
    for _ in range(n):
        vec_add.launch(blocks=blocks, stream=stream)
    stream.synchronize()
    monitor.stop()

def kernel_drops(reason):
    return activity.dropped_records_by_reason(MsptiActivityKind.MSPTI_ACTIVITY_KIND_KERNEL, reason)
"""
OPEN = "open_device()\n"

INFO_TYPE_VERSION = 1
CHIP_310P = 4  # a SoC our msPTI does not collect device data on (chip types 5, 7 and 15 only)


def test_device_info_of_another_soc_turns_device_data_off(run_with_mspti) -> None:
    script = (
        WORKLOAD
        + f"""
def version(devId, moduleType, infoType, value):
    if infoType == {INFO_TYPE_VERSION}:
        return fakes.Result(0, {{"value": {CHIP_310P} << 8}})
    return None  # every other query: the simulator's answer

with fakes.scope():
    info = fakes.fake("halGetDeviceInfo").will(call=version)
    fakes.expect("halGetDeviceInfo").called(at_least=1).with_args(infoType={INFO_TYPE_VERSION})
    open_device()
    run_kernels(4)
    acted = info.acted
report({{"kernels": len(kernels), "acted": acted}})
"""
    )
    faked = run_with_mspti(script).check().result
    assert faked["acted"] >= 1
    assert faked["kernels"] == 0  # msPTI saw a 310P and collected no device data
    # The same workload with the simulator's own answer (chip type 5) gives every kernel.
    plain = (
        run_with_mspti(WORKLOAD + OPEN + "run_kernels(4)\nreport({'kernels': len(kernels)})\n").check().result
    )
    assert plain["kernels"] == 4


def test_failing_channel_start_is_reported_at_start(run_with_mspti) -> None:
    script = (
        WORKLOAD
        + OPEN
        + """
with fakes.scope():
    start = fakes.fake("prof_drv_start").will(returns=-1)  # PROF_ERROR for every channel
    fakes.expect("prof_drv_start").called(at_least=1).with_args(deviceId=0, channelId=50)
    run_kernels(3)
    acted = start.acted
report({"kernels": len(kernels), "acted": acted, "starts": starts})
"""
    )
    run = run_with_mspti(script).check()
    got = run.result
    assert got["acted"] >= 1
    assert got["starts"] == ["MSPTI_ERROR_DEVICE_OFFLINE"]  # the caller learns it (F-19)
    assert got["kernels"] == 0
    assert "prof_drv_start(0, 50): -1" in run.stderr  # and msPTI's log names the call that failed


def test_failing_channel_start_once_then_working(run_with_mspti) -> None:
    """.times(1): the first start fails; a later session starts the channel and gets its kernels."""
    script = (
        WORKLOAD
        + OPEN
        + """
with fakes.scope():
    start = fakes.fake("prof_drv_start").will(returns=-1).times(1)
    run_kernels(2)
    first = len(kernels)
    run_kernels(2)
    counts = (start.calls, start.acted)
report({"first": first, "all": len(kernels), "calls": counts[0], "acted": counts[1], "starts": starts})
"""
    )
    got = run_with_mspti(script).check().result
    assert got["starts"] == ["MSPTI_ERROR_DEVICE_OFFLINE", "MSPTI_SUCCESS"]
    assert got["acted"] == 1
    assert got["calls"] > 1
    assert got["first"] == 0
    assert got["all"] == 2


# Hand-made device logs for a kernel the runtime never ran: a task track (the host half, injected
# as the runtime would report it) and its STARS begin/end logs (the device half, fed to channel 50).
HAND_MADE = """
import ctypes
from pathlib import Path
from sim_runtime import _native

profapi = ctypes.CDLL(str(Path(_native.__file__).parent / "lib64" / "libprofapi.so"))
profapi.MsprofGetHashId.restype = ctypes.c_uint64
profapi.MsprofGetHashId.argtypes = [ctypes.c_char_p, ctypes.c_size_t]

Track = fakes.struct_type("MsprofRuntimeTrack")
Compact = fakes.struct_type("MsprofCompactInfo")
Log = fakes.struct_type("StarsSocLog")
KERNEL_AIVEC = 66  # the runtime's task type registered as "KERNEL_AIVEC"
STREAM, TASK = 1000, 4321  # no real task has these ids

def inject_kernel(name, begin, end, feed_logs=True, garbage=b""):
    name_id = profapi.MsprofGetHashId(name.encode(), len(name))
    track = Track(deviceId=0, streamId=STREAM, taskId=TASK, taskType=KERNEL_AIVEC, kernelName=name_id)
    compact = Compact(magicNumber=0x5A5A, level=5000, type=802, threadId=0, dataLen=40,
                      timeStamp=begin - 1000, data=fakes.struct_bytes(track))
    assert fakes.report("compact", compact) == 0
    if feed_logs:
        edges = ((fakes.STARS_FUNC_TYPE_BEGIN, begin), (fakes.STARS_FUNC_TYPE_END, end))
        logs = b"".join(fakes.struct_bytes(Log(head=fakes.stars_head(edge), streamId=STREAM, taskId=TASK,
                                               timestamp=t)) for edge, t in edges)
        fakes.channel(0, 50).feed(garbage + logs)
"""


def test_hand_made_stars_bytes_give_a_kernel_record(run_with_mspti) -> None:
    script = (
        WORKLOAD
        + OPEN
        + HAND_MADE
        + """
with fakes.scope():
    assert monitor.start(kernels.append) is MsptiResult.MSPTI_SUCCESS
    vec_add.launch(stream=stream)  # a real kernel first: msPTI is collecting
    stream.synchronize()
    now = _native.now_ns()
    inject_kernel("hand_made_kernel", now + 5_000, now + 12_000)
    monitor.stop()
report([[k.name, k.stream_id, k.end - k.start] for k in kernels])
"""
    )
    got = run_with_mspti(script).check().result
    assert sorted(name for name, _, _ in got) == ["hand_made_kernel", "vec_add"]
    assert ["hand_made_kernel", 1000, 7000] in got  # the fed logs' stream and times


def test_malformed_stars_bytes_are_skipped_and_the_good_log_after_them_still_counts(run_with_mspti) -> None:
    script = (
        WORKLOAD
        + OPEN
        + HAND_MADE
        + """
with fakes.scope():
    assert monitor.start(kernels.append) is MsptiResult.MSPTI_SUCCESS
    vec_add.launch(stream=stream)
    stream.synchronize()
    now = _native.now_ns()
    # 5 bytes that are no log, then the two good logs: the parser must find the boundary again.
    inject_kernel("after_garbage", now + 5_000, now + 9_000, garbage=b"\\xff\\x13\\x37\\x00\\x01")
    monitor.stop()
report({"names": sorted(k.name for k in kernels)})
"""
    )
    run = run_with_mspti(script, ASCEND_GLOBAL_LOG_LEVEL="2").check()  # WARN lines on stderr
    assert run.result["names"] == ["after_garbage", "vec_add"]
    assert "skipped" in run.stderr  # msPTI says it skipped bytes to find the record boundary


def test_only_malformed_bytes_give_no_record_and_no_crash(run_with_mspti) -> None:
    script = (
        WORKLOAD
        + OPEN
        + """
import random
rng = random.Random(7)
with fakes.scope():
    assert monitor.start(kernels.append) is MsptiResult.MSPTI_SUCCESS
    for size in (1, 63, 64, 65, 200):
        fakes.channel(0, 50).feed(bytes(rng.randrange(256) for _ in range(size)))
    fakes.channel(0, 44).feed(b"\\x00" * 39)
    vec_add.launch(stream=stream)
    stream.synchronize()
    monitor.stop()
report({"names": sorted(k.name for k in kernels)})
"""
    )
    got = run_with_mspti(script).check().result
    assert got["names"] == ["vec_add"]


def test_injected_report_sequence_without_device_half_is_counted_lost(run_with_mspti) -> None:
    """A task track whose device half never comes (a corner case of real CANN): msPTI counts it."""
    script = (
        WORKLOAD
        + OPEN
        + HAND_MADE
        + """
with fakes.scope():
    assert monitor.start(kernels.append) is MsptiResult.MSPTI_SUCCESS
    now = _native.now_ns()
    inject_kernel("never_ran", now + 5_000, now + 9_000, feed_logs=False)
    vec_add.launch(stream=stream)
    stream.synchronize()
    monitor.stop()
report({"names": sorted(k.name for k in kernels),
        "lost": kernel_drops(MsptiDropReason.MSPTI_DROP_REASON_DEVICE_HALF_LOST)})
"""
    )
    got = run_with_mspti(script).check().result
    assert got["names"] == ["vec_add"]
    assert got["lost"] == 1


def test_injected_api_report_sequence_becomes_api_records(run_with_mspti) -> None:
    """Node launches (level 10000, type 5) as an operator library reports them: named by the hash
    id of their operator, a hash CANN never registered gives no name and is counted."""
    script = """
import ctypes
from pathlib import Path
from mspti_core import activity
from mspti_core.enums import MsptiActivityKind as Kind
from sim_runtime import fakes, npu, _native

profapi = ctypes.CDLL(str(Path(_native.__file__).parent / "lib64" / "libprofapi.so"))
profapi.MsprofGetHashId.restype = ctypes.c_uint64
profapi.MsprofGetHashId.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
Api = fakes.struct_type("MsprofApi")
device = npu.Device(0)
ops = [profapi.MsprofGetHashId(name, len(name)) for name in (b"FakeMatMul", b"FakeAdd")]
with fakes.scope():
    with activity.Collector(Kind.MSPTI_ACTIVITY_KIND_API) as found:
        now = _native.now_ns()
        sent = [fakes.report("api", Api(magicNumber=0x5A5A, level=10000, type=5, threadId=0,
                                        beginTime=now + 100 * i, endTime=now + 100 * i + 50, itemId=item))
                for i, item in enumerate([*ops, 0xDEADBEEF])]
report({"sent": sent, "names": [r.name for r in found],
        "unnamed": activity.dropped_records_by_reason(Kind.MSPTI_ACTIVITY_KIND_API, 5)})
"""
    got = run_with_mspti(script).check().result
    assert got["sent"] == [0, 0, 0]
    assert got["names"] == ["FakeMatMul", "FakeAdd"]
    assert got["unnamed"] == 1  # BAD_ARGUMENT: no name for a record


def test_kernel_launch_arguments_are_verified(run_with_mspti) -> None:
    script = (
        WORKLOAD
        + OPEN
        + """
with fakes.scope():
    fakes.expect("aclrtLaunchKernel").called(exactly=3).with_args(numBlocks=8, stream=stream.handle)
    fakes.expect("aclrtLaunchKernel").called(exactly=1).with_args(argsData=b"\\x01\\x02", argsSize=2)
    assert monitor.start(kernels.append) is MsptiResult.MSPTI_SUCCESS
    for _ in range(3):
        vec_add.launch(blocks=8, stream=stream)
    vec_add.launch(blocks=2, stream=stream, args=b"\\x01\\x02")
    stream.synchronize()
    monitor.stop()
try:
    with fakes.scope():
        fakes.expect("aclrtLaunchKernel").called(at_least=1).with_args(numBlocks=lambda n: n > 100)
        vec_add.launch(blocks=4, stream=stream)
        stream.synchronize()
    message = None
except fakes.FakeError as error:
    message = str(error)
report({"kernels": len(kernels), "message": message})
"""
    )
    got = run_with_mspti(script).check().result
    assert got["kernels"] == 4
    message = got["message"]
    assert message is not None
    assert "expect('aclrtLaunchKernel').called(at_least=1).with_args(numBlocks=" in message
    assert "0 matching call(s) of 1 seen" in message
    assert "numBlocks=4" in message  # the call seen, with its arguments


def test_faked_launch_failure_reaches_the_program_and_msPTI_records_nothing(run_with_mspti) -> None:
    script = (
        WORKLOAD
        + OPEN
        + """
with fakes.scope():
    launch = fakes.fake("aclrtLaunchKernel").will(returns=507000).after(1).times(1)
    assert monitor.start(kernels.append) is MsptiResult.MSPTI_SUCCESS
    codes = []
    for _ in range(3):
        try:
            vec_add.launch(stream=stream)
            codes.append(0)
        except npu.AclError as error:
            codes.append(error.code)
    stream.synchronize()
    monitor.stop()
    counts = [launch.calls, launch.acted]
report({"codes": codes, "kernels": len(kernels), "counts": counts})
"""
    )
    got = run_with_mspti(script).check().result
    assert got["codes"] == [0, 507000, 0]
    assert got["kernels"] == 2
    assert got["counts"] == [3, 1]


def test_callable_runs_on_mspti_reader_thread_without_deadlock(run_with_mspti) -> None:
    """msPTI's channel reader (a C thread) calls the faked prof_channel_read; stop() flushes while
    the callable needs the GIL (mspti_core releases it around the flush)."""
    script = (
        WORKLOAD
        + OPEN
        + """
import threading
main = threading.get_ident()
readers = set()

def spy(deviceId, channelId, buf, bufSize):
    readers.add(threading.get_ident() != main)
    return None  # the real read runs

import time
with fakes.scope():
    read = fakes.fake("prof_channel_read").will(call=spy)
    monitor.start(kernels.append)
    for _ in range(20):
        vec_add.launch(stream=stream)
    stream.synchronize()
    deadline = time.monotonic() + 20
    while True not in readers and time.monotonic() < deadline:  # the reader thread polls and reads
        time.sleep(0.01)
    monitor.stop()
    counts = [read.calls, read.acted]
report({"kernels": len(kernels), "from_other_thread": True in readers, "counts": counts})
"""
    )
    got = run_with_mspti(script, timeout=60).check().result
    assert got["kernels"] == 20
    assert got["from_other_thread"]
    assert got["counts"][0] == got["counts"][1] > 0


def test_a_program_started_by_npu_sim_run_gets_no_fakes(run_with_mspti) -> None:
    script = """
import subprocess, sys
from sim_runtime import fakes, npu
with fakes.scope():
    fakes.fake("aclrtSetDevice").will(returns=107001)
    try:
        npu.Device(0)
        here = 0
    except npu.AclError as error:
        here = error.code
    child = subprocess.run([sys.executable, "-m", "sim_runtime", "run", "--", sys.executable, "-c",
                            "from sim_runtime import npu; npu.Device(0); print('opened')"],
                           capture_output=True, text=True, timeout=60)
report({"here": here, "child": child.returncode, "out": child.stdout + child.stderr})
"""
    got = run_with_mspti(script).check().result
    assert got["here"] == 107001
    assert got["child"] == 0, got["out"]
    assert "opened" in got["out"]
