"""The monitors on the simulated NPU under our libmspti.so, against workloads of known content.

Each test runs a child Python on the simulator (virtual clock) with msPTI preloaded; the workload
uses sim_runtime.npu (ACL), the mstx front end (a C shim and mspti_core.mstx) and the simulated
HCCL, and the test checks the records against what the workload did.
"""

from __future__ import annotations

import os
from pathlib import Path
from textwrap import dedent

import pytest

SHIM_PRELUDE = """
    import ctypes
    SHIM = ctypes.CDLL({shim!r})
    SHIM.shim_mark.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    SHIM.shim_range_start.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    SHIM.shim_range_start.restype = ctypes.c_uint64
    SHIM.shim_range_end.argtypes = [ctypes.c_uint64]
    SHIM.shim_domain_create.argtypes = [ctypes.c_char_p]
    SHIM.shim_domain_create.restype = ctypes.c_void_p
    SHIM.shim_domain_mark.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
"""


def test_kernel_monitor_sees_every_launch(run_sim) -> None:
    """PY-START-02, PY-DATA-01: N launches of known names -> N KernelData, right device/stream."""
    child = run_sim("""
        from collections import Counter
        from mspti_core import KernelMonitor, MsptiResult
        from sim_runtime import npu
        got = []
        monitor = KernelMonitor()
        assert monitor.start(got.append) is MsptiResult.MSPTI_SUCCESS
        device = npu.Device(0)
        s1, s2 = npu.Stream(), npu.Stream()
        add, matmul = npu.Kernel("vec_add", "AIV"), npu.Kernel("matmul_f16", "AIC")
        for _ in range(5):
            add.launch(stream=s1)
        for _ in range(3):
            matmul.launch(blocks=8, stream=s2)
        add.launch_many(200, stream=s1)
        s1.synchronize()
        s2.synchronize()
        assert monitor.stop() is MsptiResult.MSPTI_SUCCESS
        by_stream = {}
        for k in got:
            by_stream.setdefault(k.stream_id, []).append((k.start, k.end))
        ordered = all(a[1] <= b[0] for spans in by_stream.values() for a, b in zip(spans, spans[1:]))
        report({"names": dict(Counter(k.name for k in got)),
                "types": sorted({(k.name, k.type) for k in got}),
                "streams": sorted({(k.name, k.stream_id) for k in got}),
                "ids": [s1.id, s2.id], "devices": sorted({k.device_id for k in got}),
                "start_before_end": all(k.start < k.end for k in got), "ordered": ordered,
                "digits": sorted({len(str(k.start)) for k in got}),
                "unique_correlation": len({k.correlation_id for k in got}) == len(got)})
    """).check()
    result = child.result
    assert result["names"] == {"vec_add": 205, "matmul_f16": 3}
    assert result["types"] == [["matmul_f16", "KERNEL_AICORE"], ["vec_add", "KERNEL_AIVEC"]]
    s1, s2 = result["ids"]
    assert result["streams"] == sorted([["matmul_f16", s2], ["vec_add", s1]])
    assert result["devices"] == [0]
    assert result["start_before_end"] and result["ordered"] and result["unique_correlation"]
    assert result["digits"] == [19]


def test_kernel_monitor_on_two_devices(run_sim) -> None:
    child = run_sim(
        """
        from mspti_core import KernelMonitor
        from sim_runtime import npu
        got = []
        monitor = KernelMonitor()
        monitor.start(got.append)
        for index in (0, 1):
            device = npu.Device(index)
            npu.Kernel(f"kernel_on_{index}").launch_many(4)
            device.synchronize()
        monitor.stop()
        report(sorted({(k.name, k.device_id) for k in got}) + [len(got)])
    """,
        NPU_SIM_DEVICES="2",
    ).check()
    assert child.result == [["kernel_on_0", 0], ["kernel_on_1", 1], 8]


MSTX_WORKLOAD = """
    from mspti_core import KernelMonitor, MstxMonitor
    from sim_runtime import npu
    marks, ranges, kernels = [], [], []
    mstx_monitor, kernel_monitor = MstxMonitor(), KernelMonitor()
    assert mstx_monitor.start(marks.append, ranges.append) == 0
    assert kernel_monitor.start(kernels.append) == 0
    device = npu.Device(0)
    stream = npu.Stream()
    MARK("host only", None)
    MARK("on the stream", stream.handle)
    rid = RANGE_START("mstx_matmul", stream.handle)
    npu.Kernel("matmul", "AIC").launch(stream=stream)
    RANGE_END(rid)
    host_rid = RANGE_START("host range", None)
    RANGE_END(host_rid)
    stream.synchronize()
    assert mstx_monitor.stop() == 0
    assert kernel_monitor.stop() == 0
    def obj(o):
        return [o.process_id, o.thread_id, o.device_id, o.stream_id]
    import os, threading
    report({
        "pid": os.getpid(), "tid": threading.get_native_id(), "stream": stream.id,
        "marks": sorted([m.flag.name, m.source_kind.name, m.name, m.domain, obj(m.object_id)] for m in marks),
        "ranges": sorted([r.source_kind.name, r.name, r.domain, obj(r.object_id), r.start <= r.end]
                         for r in ranges),
        "rid": rid,
        "range_ids": sorted({r.id for r in ranges}),
        "kernel_inside": [r.start <= kernels[0].start and kernels[0].end <= r.end
                          for r in ranges if r.source_kind == 1],
    })
"""


def _check_mstx_result(result: dict) -> None:
    """PY-RANGE-01, PY-RANGE-02, PY-DATA-03."""
    host = [result["pid"], result["tid"], -1, -1]
    device = [-1, -1, 0, result["stream"]]
    host_kind, device_kind = "MSPTI_ACTIVITY_SOURCE_KIND_HOST", "MSPTI_ACTIVITY_SOURCE_KIND_DEVICE"
    instant = "MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS"
    with_device = "MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE"
    assert result["marks"] == sorted(
        [
            [instant, host_kind, "host only", "default", host],
            [with_device, host_kind, "on the stream", "default", host],
            [with_device, device_kind, "", "", device],
        ]
    )
    assert result["ranges"] == sorted(
        [
            [host_kind, "mstx_matmul", "default", host, True],
            [device_kind, "", "", device, True],
            [host_kind, "host range", "default", host, True],
        ]
    )
    assert result["rid"] in result["range_ids"] and len(result["range_ids"]) == 2
    assert result["kernel_inside"] == [True]


def test_mstx_monitor_with_the_c_front_end(run_sim, mstx_shim: Path) -> None:
    script = (
        dedent(SHIM_PRELUDE.format(shim=str(mstx_shim)))
        + dedent("""
        MARK = lambda message, stream: SHIM.shim_mark(message.encode(), stream)
        RANGE_START = lambda message, stream: SHIM.shim_range_start(message.encode(), stream)
        RANGE_END = SHIM.shim_range_end
    """)
        + dedent(MSTX_WORKLOAD)
    )
    _check_mstx_result(run_sim(script).check().result)


def test_mstx_monitor_with_the_python_front_end(run_sim) -> None:
    script = dedent("""
        from mspti_core import mstx
        MARK, RANGE_START, RANGE_END = mstx.mark, mstx.range_start, mstx.range_end
    """) + dedent(MSTX_WORKLOAD)
    _check_mstx_result(run_sim(script).check().result)


def test_mstx_domains(run_sim, mstx_shim: Path) -> None:
    """MARK-DOM through MstxMonitor.disable_domain / enable_domain."""
    child = run_sim(
        dedent(SHIM_PRELUDE.format(shim=str(mstx_shim)))
        + dedent("""
        from mspti_core import MstxMonitor
        from mspti_core import mstx
        marks = []
        monitor = MstxMonitor()
        monitor.start(marks.append)
        noisy, quiet = SHIM.shim_domain_create(b"noisy"), mstx.Domain("quiet")
        results = [int(monitor.disable_domain("noisy"))]
        SHIM.shim_domain_mark(noisy, b"dropped", None)
        quiet.mark("kept")
        mstx.mark("default kept")
        results.append(int(monitor.enable_domain("noisy")))
        SHIM.shim_domain_mark(noisy, b"back", None)
        results.append(int(monitor.disable_domain("default")))
        mstx.mark("default dropped")
        monitor.stop()
        report({"results": results, "marks": [[m.name, m.domain] for m in marks]})
    """)
    ).check()
    assert child.result == {
        "results": [0, 0, 0],
        "marks": [["kept", "quiet"], ["default kept", "default"], ["back", "noisy"]],
    }


def test_hccl_and_communication_monitors(run_sim) -> None:
    """PY-DATA-02 on the simulated HCCL: two ranks, an all-reduce and a broadcast each."""
    child = run_sim(
        """
        from hccl_workload import run_ranks
        from mspti_core import CommunicationMonitor, HcclMonitor
        hccl, comm = [], []
        hccl_monitor, comm_monitor = HcclMonitor(), CommunicationMonitor()
        assert hccl_monitor.start(hccl.append) == 0
        assert comm_monitor.start(comm.append) == 0
        streams = run_ranks(2, 256, ["allreduce", "broadcast"])
        assert comm_monitor.stop() == 0
        assert hccl_monitor.stop() == 0
        report({
            "hccl": sorted([h.name, h.device_id] for h in hccl),
            "hccl_streams": sorted({(h.device_id, h.stream_id) for h in hccl}),
            "hccl_groups": len({h.comm_name for h in hccl}),
            "bandwidth": all(h.bandwidth >= 0 for h in hccl),
            "hccl_times": all(h.start < h.end for h in hccl),
            "comm": sorted([c.name, c.device_id, c.count, c.data_type.name] for c in comm),
            "comm_groups": len({c.comm_name for c in comm}),
            "same_group": {c.comm_name for c in comm} == {h.comm_name for h in hccl},
            "alg": all(c.alg_type for c in comm), "correlation": all(c.correlation_id for c in comm),
            "comm_times": all(c.start < c.end for c in comm), "streams": streams,
        })
    """,
        NPU_SIM_DEVICES="2",
    ).check()
    result = child.result
    assert result["hccl"] == [
        ["HcclAllReduce", 0],
        ["HcclAllReduce", 1],
        ["HcclBroadcast", 0],
        ["HcclBroadcast", 1],
    ]
    assert result["hccl_streams"] == [[0, result["streams"][0]], [1, result["streams"][1]]]
    assert result["hccl_groups"] == 1 and result["comm_groups"] == 1 and result["same_group"]
    assert result["bandwidth"] and result["hccl_times"] and result["comm_times"]
    fp32 = "MSPTI_ACTIVITY_COMMUNICATION_FP32"
    assert result["comm"] == [
        ["hcom_allReduce_", 0, 256, fp32],
        ["hcom_allReduce_", 1, 256, fp32],
        ["hcom_broadcast_", 0, 256, fp32],
        ["hcom_broadcast_", 1, 256, fp32],
    ]
    assert result["alg"] and result["correlation"]


def test_hccl_monitor_needs_the_preload(run_sim, sim_env: dict[str, str]) -> None:
    """PY-START-04: without LD_PRELOAD HcclMonitor.start reports WITHOUT_LD_PRELOAD; KernelMonitor works."""
    preload = " ".join(p for p in sim_env.get("LD_PRELOAD", "").split() if not p.endswith("libmspti.so"))
    library = next(p for p in sim_env["LD_PRELOAD"].split() if p.endswith("libmspti.so"))
    child = run_sim(
        """
        import hccl_workload  # libhccl in the global scope, as in a program linked against it
        from mspti_core import HcclMonitor, KernelMonitor
        from sim_runtime import npu
        result = HcclMonitor().start(lambda d: None)
        got = []
        monitor = KernelMonitor()
        monitor.start(got.append)
        device = npu.Device(0)
        npu.Kernel("k").launch_many(3)
        device.synchronize()
        monitor.stop()
        report([result.name, len(got)])
    """,
        LD_PRELOAD=preload,
        MSPTI_CORE_LIBRARY=library,
    ).check()
    assert child.result == ["MSPTI_ERROR_WITHOUT_LD_PRELOAD", 3]


def test_callback_errors_start_stop_cycles_and_threads(run_sim) -> None:
    """A raising callback is reported and counted; cycles deliver exactly their launches; threads
    launching on their own streams are all seen."""
    child = run_sim("""
        import threading
        from collections import Counter
        import mspti_core
        from mspti_core import KernelMonitor
        from sim_runtime import npu
        device = npu.Device(0)
        kernel = npu.Kernel("cycled")
        counts = []
        monitor = KernelMonitor()
        for cycle in range(1, 6):
            got = []
            def callback(data, got=got):
                got.append(data)
                if len(got) == 2:
                    raise RuntimeError("second record")
            monitor.start(callback)
            kernel.launch_many(cycle * 10)
            device.synchronize()
            monitor.stop()
            kernel.launch_many(5)            # not monitored
            device.synchronize()
            counts.append(len(got))
        names = Counter()
        monitor.start(lambda d: names.update([d.name]))
        def work(index):
            npu.Device(0)
            stream = npu.Stream()
            npu.Kernel(f"thread_{index}").launch_many(50, stream=stream)
            stream.synchronize()
        threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        monitor.stop()
        report({"counts": counts, "errors": mspti_core.callback_errors(), "names": dict(names)})
    """).check()
    assert child.result == {
        "counts": [10, 20, 30, 40, 50],
        "errors": 5,
        "names": {"thread_0": 50, "thread_1": 50, "thread_2": 50},
    }
    assert child.stderr.count("RuntimeError: second record") == 5


def test_collector_on_the_simulator(run_sim) -> None:
    """mspti_core.activity: memory, copies, fills and API records of a small workload."""
    child = run_sim("""
        from mspti_core import activity
        from mspti_core.enums import MsptiActivityKind as Kind
        from sim_runtime import npu
        device = npu.Device(0)
        collector = activity.Collector(Kind.MSPTI_ACTIVITY_KIND_MEMORY, Kind.MSPTI_ACTIVITY_KIND_MEMCPY,
                                       Kind.MSPTI_ACTIVITY_KIND_MEMSET, Kind.MSPTI_ACTIVITY_KIND_ACL_API,
                                       Kind.MSPTI_ACTIVITY_KIND_KERNEL)
        with collector as records:
            a, b = npu.Buffer(4096), npu.Buffer(4096)
            a.write(b"x" * 4096)
            b.copy_from(a)
            b.fill(0)
            npu.Kernel("collected").launch()
            device.synchronize()
            addresses = [a.ptr, b.ptr]
            a.free()
            b.free()
        memory = [[r.memory_operation_type.name, r.address, r.bytes] for r in records if r.kind == 5]
        copies = [[r.copy_kind.name, r.bytes] for r in records if r.kind == 7]
        fills = [[r.value, r.bytes] for r in records if r.kind == 6]
        apis = {r.name: r.correlation_id for r in records if r.kind == 10}
        kernel = next(r for r in records if r.kind == 2)
        report({"memory": memory, "addresses": addresses, "copies": copies, "fills": fills,
                "launch_correlates": apis.get("aclrtLaunchKernel") == kernel.correlation_id})
    """).check()
    result = child.result
    a, b = result["addresses"]
    allocation, release = (
        "MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION",
        "MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE",
    )
    assert result["memory"] == [
        [allocation, a, 4096],
        [allocation, b, 4096],
        [release, a, 4096],
        [release, b, 4096],
    ]
    assert result["copies"] == [
        ["MSPTI_ACTIVITY_MEMCPY_KIND_HTOD", 4096],
        ["MSPTI_ACTIVITY_MEMCPY_KIND_DTOD", 4096],
    ]
    assert result["fills"] == [[0, 4096]]
    assert result["launch_correlates"]


FORK_WORKLOAD = """
    import json, os, signal, sys, time
    from mspti_core import MstxMonitor, mstx
    from sim_runtime import npu
    mode = sys.argv[1]
    marks = []
    monitor = MstxMonitor()
    assert monitor.start(marks.append) == 0
    device = npu.Device(0)
    for i in range(5):
        mstx.mark(f"parent {i}")
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        signal.alarm(10)  # a hang kills the child; the parent reports it
        marks.clear()
        for i in range(3):
            mstx.mark(f"child {i}")
        if mode == "flush":
            mspti_core_rc = int(monitor.flush_all())
        elif mode == "stop":
            mspti_core_rc = int(monitor.stop())
        else:
            mspti_core_rc = 0
        names = sorted(m.name for m in marks)
        os.write(write_end, json.dumps({"rc": mspti_core_rc, "names": names}).encode())
        os.close(write_end)
        sys.exit(0)  # the interpreter's exit: mspti_core's shutdown runs
    os.close(write_end)
    deadline = time.monotonic() + 30
    status = None
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.01)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        status = "hung"
    child = json.loads(os.read(read_end, 65536) or b"null")
    assert monitor.stop() == 0
    report({"status": status, "child": child, "parent": sorted(m.name for m in marks)})
"""


@pytest.mark.parametrize("mode", ["flush", "stop", "exit"])
def test_a_forked_child_with_a_running_monitor_does_not_hang(run_sim, mode: str) -> None:
    """The child gets its own delivery thread (mspti_core's at-fork handlers): flush_all(), stop()
    and the interpreter's exit return; the child's callbacks get the child's marks only."""
    # TSan cannot follow threads created in the child of a multi-threaded process.
    if "libtsan" in os.environ.get("NPU_SIM_SANITIZER_PRELOAD", ""):
        pytest.skip("TSan does not support threads created after a multi-threaded fork")
    script = dedent(FORK_WORKLOAD)
    child = run_sim(script.replace("sys.argv[1]", repr(mode)), timeout=90).check()
    result = child.result
    assert result["status"] == 0, f"child status {result['status']}\n{child.stderr}"
    assert result["parent"] == [f"parent {i}" for i in range(5)]
    if mode != "exit":
        assert result["child"] == {"rc": 0, "names": [f"child {i}" for i in range(3)]}


def test_dropped_records_by_reason(run_sim) -> None:
    """The drop counts by reason (mspti_ext.h's extension) through mspti_core.activity."""
    child = run_sim("""
        from mspti_core import activity
        from mspti_core.enums import MsptiActivityKind, MsptiDropReason
        marker = MsptiActivityKind.MSPTI_ACTIVITY_KIND_MARKER
        no_buffer = MsptiDropReason.MSPTI_DROP_REASON_NO_BUFFER
        report({
            "any": activity.dropped_records_by_reason(),
            "marker_no_buffer": activity.dropped_records_by_reason(marker, no_buffer),
            "unknown_reason": activity.dropped_records_by_reason(0, 99),
            "unknown_kind": activity.dropped_records_by_reason(99, 0),
            "total": activity.dropped_records(0),
        })
    """).check()
    expected = {"any": 0, "marker_no_buffer": 0, "unknown_reason": None, "unknown_kind": None, "total": 0}
    assert child.result == expected
