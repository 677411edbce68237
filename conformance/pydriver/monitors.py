"""The Kernel/Hccl/Communication monitors: start, stop, flush, buffer size, callbacks (py_monitors).

    python -m conformance.pydriver.monitors [main|c_subscriber|no_preload|ctypes_launch|ctypes_copies]

``main`` runs the phases below on one stream ``s`` of device 0; kernels are named after their phase
so that the checker can attribute every KernelData:

* py_alpha x3, py_beta x2  while monitor "kernel" runs (stopped at @stop_kernel);
* py_gamma                 after every monitor stopped (must reach no callback);
* py_delta x4              monitor "raising" (its callback raises on every object);
* py_eps                   monitors "kernel3" and "marks" (mstx) run together, flushed at @flush_all;
* py_zeta                  after @stop_kernel3, while "marks" still runs;
* py_eta                   monitor "kernel4", started after both had stopped.
"""

from __future__ import annotations

import sys
from types import ModuleType

from conformance.pydriver.runtime import Driver, Recorder, import_package

SETUP = "acl_init\nset_device 0\ncreate_stream s\n"
TEARDOWN = "destroy_stream s\nreset_device 0\n"
#: set_buffer_size arguments (label suffix, value): the first five are invalid.
BUFFER_SIZES: tuple[tuple[str, object], ...] = (
    ("zero", 0),
    ("negative", -1),
    ("too_big", 257),
    ("float", 1.5),
    ("str", "8"),
    ("min", 1),
    ("max", 256),
    ("default", 8),
)


def launches(name: str, count: int) -> str:
    return "".join(f"launch {name} s @launch_{name}_{i}\n" for i in range(count))


def main_phases(driver: Driver, mspti: ModuleType) -> None:
    kernel_monitor = mspti.KernelMonitor
    driver.run(SETUP)
    driver.call("stop_never", "KernelMonitor.stop", kernel_monitor().stop)
    driver.call("bad_kernel", "KernelMonitor.start", kernel_monitor().start, 42)
    driver.call("bad_hccl", "HcclMonitor.start", mspti.HcclMonitor().start, "not callable")
    driver.call("bad_comm", "CommunicationMonitor.start", mspti.CommunicationMonitor().start, None)
    # Nothing started: no kind enabled, and the subscriber slot is still free.
    driver.run(
        "is_enabled KERNEL @enabled_kernel\nis_enabled HCCL @enabled_hccl\n"
        "is_enabled COMMUNICATION @enabled_comm\nsubscribe @probe_subscribe\n"
        "unsubscribe current @probe_unsubscribe\n"
    )
    for suffix, value in BUFFER_SIZES:
        driver.call(f"buf_{suffix}", "set_buffer_size", kernel_monitor.set_buffer_size, value)

    monitor = kernel_monitor()
    driver.call("start_kernel", "KernelMonitor.start", monitor.start, Recorder(driver, "kernel"))
    driver.run(launches("py_alpha", 3) + launches("py_beta", 2) + "sync s @sync_kernel\n")
    driver.call("stop_kernel", "KernelMonitor.stop", monitor.stop)
    driver.note("kernel_stopped")
    driver.run(launches("py_gamma", 1) + "sync s\n")
    driver.call("flush_after_stop", "KernelMonitor.flush_all", kernel_monitor.flush_all)

    raising = kernel_monitor()
    driver.call(
        "start_raising", "KernelMonitor.start", raising.start, Recorder(driver, "raising", raises=True)
    )
    driver.run(launches("py_delta", 4) + "sync s\n")
    driver.call("stop_raising", "KernelMonitor.stop", raising.stop)

    together = kernel_monitor()
    marks = mspti.MstxMonitor()
    driver.call("start_kernel3", "KernelMonitor.start", together.start, Recorder(driver, "kernel3"))
    driver.call("start_marks", "MstxMonitor.start", marks.start, Recorder(driver, "marks"))
    driver.run(
        "".join(f"mark py_flush_mark_{i} @mark_{i}\n" for i in range(3)) + launches("py_eps", 1) + "sync s\n"
    )
    driver.call("flush_all", "KernelMonitor.flush_all", kernel_monitor.flush_all)
    driver.note("flushed")
    driver.call("stop_kernel3", "KernelMonitor.stop", together.stop)
    driver.run("mark py_after_kernel_stop @mark_after\n" + launches("py_zeta", 1) + "sync s\n")
    driver.call("stop_marks", "MstxMonitor.stop", marks.stop)
    driver.note("marks_stopped")

    again = kernel_monitor()
    driver.call("restart_kernel", "KernelMonitor.start", again.start, Recorder(driver, "kernel4"))
    driver.run(launches("py_eta", 1) + "sync s\n")
    driver.call("stop_kernel4", "KernelMonitor.stop", again.stop)
    driver.run(TEARDOWN)


def c_subscriber(driver: Driver, mspti: ModuleType) -> None:
    """PY-START-04: a monitor starting while a C subscriber holds the slot."""
    driver.run("subscribe @c_subscribe\n")
    monitor = mspti.KernelMonitor()
    driver.call("start_with_c_subscriber", "KernelMonitor.start", monitor.start, Recorder(driver, "kernel"))
    driver.call("stop_with_c_subscriber", "KernelMonitor.stop", monitor.stop)
    driver.run("unsubscribe current @c_unsubscribe\n")


def no_preload(driver: Driver, mspti: ModuleType) -> None:
    """PY-START-04: HcclMonitor without msPTI in LD_PRELOAD."""
    monitor = mspti.HcclMonitor()
    driver.call("hccl_no_preload", "HcclMonitor.start", monitor.start, Recorder(driver, "hccl"))
    driver.call("hccl_no_preload_stop", "HcclMonitor.stop", monitor.stop)


#: Kernels the ctypes_launch mode launches (py_ctypes_launch).
CTYPES_LAUNCHES = 8


def ctypes_launch(driver: Driver, mspti: ModuleType) -> None:
    """ACT-CORR-09: kernels launched through ctypes.CDLL("libascendcl.so"), under KernelMonitor."""
    import ctypes

    monitor = mspti.KernelMonitor()
    driver.call("start_kernel", "KernelMonitor.start", monitor.start, Recorder(driver, "kernel"))
    acl = ctypes.CDLL("libascendcl.so")
    stream = ctypes.c_void_p()
    binary, function = ctypes.c_void_p(), ctypes.c_void_p()
    image = b"conformance ctypes image"
    steps = [
        ("aclInit", lambda: acl.aclInit(None)),
        ("aclrtSetDevice", lambda: acl.aclrtSetDevice(0)),
        ("aclrtCreateStream", lambda: acl.aclrtCreateStream(ctypes.byref(stream))),
        (
            "aclrtBinaryLoadFromData",
            lambda: acl.aclrtBinaryLoadFromData(image, len(image), None, ctypes.byref(binary)),
        ),
        (
            "aclrtBinaryGetFunction",
            lambda: acl.aclrtBinaryGetFunction(binary, b"py_ctypes", ctypes.byref(function)),
        ),
    ]
    for name, step in steps:
        if driver.call(name, name, step) != 0:
            return
    kernel_args = (ctypes.c_uint64 * 4)()
    for i in range(CTYPES_LAUNCHES):
        launch = acl.aclrtLaunchKernel
        driver.call(
            f"launch_py_ctypes_{i}",
            "aclrtLaunchKernel",
            launch,
            function,
            8,
            kernel_args,
            ctypes.c_size_t(ctypes.sizeof(kernel_args)),
            stream,
        )
        if i % 2:
            driver.call(f"sync_{i}", "aclrtSynchronizeStream", acl.aclrtSynchronizeStream, stream)
    driver.call("sync", "aclrtSynchronizeStream", acl.aclrtSynchronizeStream, stream)
    driver.call("stop_kernel", "KernelMonitor.stop", monitor.stop)
    driver.call("destroy_stream", "aclrtDestroyStream", acl.aclrtDestroyStream, stream)
    driver.call("reset_device", "aclrtResetDevice", acl.aclrtResetDevice, 0)


#: Asynchronous copies and fills the ctypes_copies mode makes (py_ctypes_copies).
CTYPES_COPIES = 6


def ctypes_copies(driver: Driver, mspti: ModuleType) -> None:
    """ACT-MEMCPY-06: asynchronous copies and fills through ctypes.CDLL("libascendcl.so").

    The records are collected by the driver's C subscriber (the Python package has no monitor for
    MEMCPY or MEMSET); the copies are made by Python itself, never through the interposer.
    """
    import ctypes

    driver.run("subscribe\nregister A A\nenable MEMCPY\nenable MEMSET\n")
    acl = ctypes.CDLL("libascendcl.so")
    acl.aclrtMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_int]
    acl.aclrtMemcpyAsync.argtypes = [
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_void_p,
    ]
    acl.aclrtMemsetAsync.argtypes = [
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_int32,
        ctypes.c_size_t,
        ctypes.c_void_p,
    ]
    stream, device = ctypes.c_void_p(), ctypes.c_void_p()
    host = ctypes.create_string_buffer(4096)
    steps = [
        ("aclInit", lambda: acl.aclInit(None)),
        ("aclrtSetDevice", lambda: acl.aclrtSetDevice(0)),
        ("aclrtCreateStream", lambda: acl.aclrtCreateStream(ctypes.byref(stream))),
        ("aclrtMalloc", lambda: acl.aclrtMalloc(ctypes.byref(device), 4096, 0)),
    ]
    for name, step in steps:
        if driver.call(name, name, step) != 0:
            return
    for i in range(CTYPES_COPIES):
        driver.call(
            f"py_copy_{i}",
            "aclrtMemcpyAsync",
            acl.aclrtMemcpyAsync,
            device,
            4096,
            ctypes.addressof(host),
            1024,
            1,
            stream,
        )
        driver.call(f"py_fill_{i}", "aclrtMemsetAsync", acl.aclrtMemsetAsync, device, 4096, 9, 512, stream)
        if i % 2:
            driver.call(f"sync_{i}", "aclrtSynchronizeStream", acl.aclrtSynchronizeStream, stream)
    driver.call("sync", "aclrtSynchronizeStream", acl.aclrtSynchronizeStream, stream)
    driver.run("flush 1\n")
    driver.call("free", "aclrtFree", acl.aclrtFree, device)
    driver.call("destroy_stream", "aclrtDestroyStream", acl.aclrtDestroyStream, stream)
    driver.call("reset_device", "aclrtResetDevice", acl.aclrtResetDevice, 0)


MODES = {
    "main": main_phases,
    "c_subscriber": c_subscriber,
    "no_preload": no_preload,
    "ctypes_launch": ctypes_launch,
    "ctypes_copies": ctypes_copies,
}


def main(argv: list[str]) -> int:
    mode = argv[1] if len(argv) > 1 else "main"
    driver = Driver()
    mspti = import_package(driver)
    if mspti is not None:
        MODES[mode](driver, mspti)
    driver.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
