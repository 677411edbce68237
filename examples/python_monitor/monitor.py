"""KernelMonitor and CommunicationMonitor around one data-parallel step.

The counterpart of CANN's python_monitor sample on the simulated NPU: every rank adds two fp16
256x256 tensors (a vector kernel), multiplies them (a cube kernel) and all-reduces the result. The
monitor callbacks hand the records to a consumer thread through a queue, which prints them.
sim_runtime.npu stands in for torch_npu; the ranks are threads of this process.

Run: python -m mspti_core run examples/python_monitor/monitor.py [--ranks N]
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sim_hccl import ProcessGroup

from mspti_core import CommunicationData, CommunicationMonitor, KernelData, KernelMonitor
from sim_runtime import npu

TENSOR_ELEMENTS = 256 * 256
FP16_BYTES = 2

records: queue.Queue[KernelData | CommunicationData | None] = queue.Queue()


def kernel_parser(data: KernelData) -> None:
    records.put(data)


def communication_parser(data: CommunicationData) -> None:
    records.put(data)


def consumer(seen: Counter[str]) -> None:
    """Prints each record; stops at None."""
    while (data := records.get()) is not None:
        if isinstance(data, KernelData):
            seen[data.type] += 1
            print(
                f"kernel: kind={data.kind.name} start={data.start} end={data.end} "
                f"device_id={data.device_id} stream_id={data.stream_id} "
                f"correlation_id={data.correlation_id} type={data.type} name={data.name}"
            )
        else:
            seen[data.name] += 1
            print(
                f"communication: kind={data.kind.name} start={data.start} end={data.end} "
                f"device_id={data.device_id} stream_id={data.stream_id} data_type={data.data_type.name} "
                f"count={data.count} name={data.name} comm_name={data.comm_name} alg_type={data.alg_type} "
                f"correlation_id={data.correlation_id}"
            )


def train_step(rank: int, group: ProcessGroup) -> None:
    """One rank: x + y, x @ y, all_reduce, synchronize."""
    device = npu.Device(rank)  # torch.npu.set_device(rank)
    stream = npu.Stream()  # the current stream
    x = npu.Buffer(TENSOR_ELEMENTS * FP16_BYTES)  # torch.randn(256, 256, dtype=float16).npu()
    y = npu.Buffer(TENSOR_ELEMENTS * FP16_BYTES)
    result = npu.Buffer(TENSOR_ELEMENTS * FP16_BYTES)
    group.join(rank)
    npu.Kernel("add", "AIV").launch(blocks=8, stream=stream)  # x + y
    npu.Kernel("matmul", "AIC").launch(blocks=8, stream=stream)  # torch.matmul(x, y)
    group.all_reduce(rank, result.ptr, TENSOR_ELEMENTS, stream.handle)
    stream.synchronize()  # torch.npu.synchronize()
    group.leave(rank)
    for buffer in (x, y, result):
        buffer.free()
    stream.destroy()
    device.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--ranks",
        type=int,
        default=min(8, npu.device_count()),
        help="ranks (one device each), default: min(8, devices)",
    )
    args = parser.parse_args()

    seen: Counter[str] = Counter()
    kernel_monitor, communication_monitor = KernelMonitor(), CommunicationMonitor()
    started = []
    for name, monitor, parser_fn in (
        ("KernelMonitor", kernel_monitor, kernel_parser),
        ("CommunicationMonitor", communication_monitor, communication_parser),
    ):
        code = monitor.start(parser_fn)
        if code != 0:
            # e.g. MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: another subscriber (a profiler such
            # as `npu-sim trace`, unless run with NPU_SIM_TRACE_SUBSCRIBE=0) holds msPTI's only slot.
            print(f"{name}.start failed: {code!r}", file=sys.stderr)
            for other in started:
                other.stop()
            return 1
        started.append(monitor)
    # The consumer starts once the monitors did, so that a failed start leaves no thread waiting.
    printer = threading.Thread(target=consumer, args=(seen,))
    printer.start()

    group = ProcessGroup(args.ranks)
    ranks = [threading.Thread(target=train_step, args=(rank, group)) for rank in range(args.ranks)]
    for rank in ranks:
        rank.start()
    for rank in ranks:
        rank.join()

    kernel_monitor.stop()
    communication_monitor.stop()
    records.put(None)
    printer.join()
    print(
        f"summary: ranks={args.ranks} KERNEL_AIVEC={seen['KERNEL_AIVEC']} "
        f"KERNEL_AICORE={seen['KERNEL_AICORE']} hcom_allReduce_={seen['hcom_allReduce_']}"
    )
    expected = [args.ranks] * 3
    return 0 if [seen["KERNEL_AIVEC"], seen["KERNEL_AICORE"], seen["hcom_allReduce_"]] == expected else 1


if __name__ == "__main__":
    sys.exit(main())
