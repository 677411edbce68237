"""`from mspti import KernelMonitor`: code written for CANN's msPTI Python package, unchanged.

Starts a KernelMonitor, launches kernels on the simulated NPU (sim_runtime.npu stands in for
torch_npu), stops the monitor and checks that every kernel arrived as a KernelData with the
package's enum types. Exits non-zero on any mismatch.

Run after `source <toolkit>/set_env.sh`, the way CANN's Python samples run:
    LD_PRELOAD=$ASCEND_HOME_PATH/lib64/libmspti.so python examples/cann_python/kernel_monitor.py [N]
"""

from __future__ import annotations

import sys
import threading

from mspti import KernelData, KernelMonitor, MsptiActivityKind, MsptiResult

from sim_runtime import npu

received: list[KernelData] = []
lock = threading.Lock()


def on_kernel(data: KernelData) -> None:
    with lock:
        received.append(data)


def main() -> int:
    launches = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    monitor = KernelMonitor()
    result = monitor.start(on_kernel)
    if result is not MsptiResult.MSPTI_SUCCESS:
        print(f"KernelMonitor.start returned {result}")
        return 1
    with npu.Device(0) as device:
        stream = npu.Stream()
        kernel = npu.Kernel("add", "AIV")
        for _ in range(launches):
            kernel.launch(blocks=8, stream=stream)
        stream.synchronize()
        stream.destroy()
        device.synchronize()
    result = monitor.stop()
    print(f"stop: {result}; kernels: {len(received)} of {launches}")
    names = {data.name for data in received}
    kinds = {data.kind for data in received}
    ok = (
        result is MsptiResult.MSPTI_SUCCESS
        and len(received) == launches
        and names == {"add"}
        and kinds == {MsptiActivityKind.MSPTI_ACTIVITY_KIND_KERNEL}
        and all(data.end >= data.start > 0 for data in received)
        and len({data.correlation_id for data in received}) == launches
    )
    print("kernel_monitor: OK" if ok else f"kernel_monitor: FAILED (names {names}, kinds {kinds})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
