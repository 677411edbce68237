"""MstxMonitor around an mstx range that spans a stream's work.

The counterpart of CANN's python_mstx_monitor sample on the simulated NPU: every rank opens the
range "mstx_matmul" on its stream, adds and multiplies two fp16 256x256 tensors, and closes the
range. MstxMonitor pairs the START and END records: each rank yields one host range (name and
domain, the host thread) and one device range (the device and stream). Marks are printed too.
sim_runtime.npu stands in for torch_npu and mspti_core.mstx for torch_npu.npu.mstx; the ranks are
threads of this process.

Run: python -m mspti_core run examples/python_mstx_monitor/monitor.py [--ranks N]
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from collections import Counter

from mspti_core import MarkerData, MstxMonitor, RangeMarkerData, mstx
from sim_runtime import npu

TENSOR_BYTES = 256 * 256 * 2

records: queue.Queue[MarkerData | RangeMarkerData | None] = queue.Queue()


def instance_mark_parser(data: MarkerData) -> None:
    records.put(data)


def range_mark_parser(data: RangeMarkerData) -> None:
    records.put(data)


def consumer(seen: Counter[str]) -> None:
    """Prints each record; stops at None."""
    while (data := records.get()) is not None:
        source = data.source_kind.name.rsplit("_", 1)[-1]
        ids = data.object_id
        if isinstance(data, RangeMarkerData):
            seen[f"{source} range {data.name or '-'}"] += 1
            if source == "DEVICE":
                seen[f"device {ids.device_id}"] += 1
            print(
                f"range: kind={data.kind.name} source_kind={data.source_kind.name} id={data.id} "
                f"name={data.name!r} domain={data.domain!r} start={data.start} end={data.end} "
                f"process_id={ids.process_id} thread_id={ids.thread_id} stream_id={ids.stream_id} "
                f"device_id={ids.device_id}"
            )
        else:
            seen[f"{source} mark"] += 1
            print(
                f"mark: kind={data.kind.name} flag={data.flag.name} source_kind={data.source_kind.name} "
                f"id={data.id} name={data.name!r} domain={data.domain!r} timestamp={data.timestamp} "
                f"process_id={ids.process_id} thread_id={ids.thread_id} stream_id={ids.stream_id} "
                f"device_id={ids.device_id}"
            )


def step(rank: int) -> None:
    device = npu.Device(rank)  # torch.npu.set_device(rank)
    stream = npu.Stream()  # torch_npu.npu.current_stream()
    x, y = npu.Buffer(TENSOR_BYTES), npu.Buffer(TENSOR_BYTES)  # torch.randn(...).npu()
    mstx.mark(f"rank {rank} ready")  # host-only mark
    range_id = mstx.range_start("mstx_matmul", stream)  # torch_npu.npu.mstx.range_start
    npu.Kernel("add", "AIV").launch(blocks=8, stream=stream)  # x + y
    npu.Kernel("matmul", "AIC").launch(blocks=8, stream=stream)  # torch.matmul(x, y)
    mstx.range_end(range_id)  # torch_npu.npu.mstx.range_end
    stream.synchronize()
    x.free()
    y.free()
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
    printer = threading.Thread(target=consumer, args=(seen,))
    printer.start()
    monitor = MstxMonitor()
    code = monitor.start(instance_mark_parser, range_mark_parser)
    if code != 0:
        print(f"MstxMonitor.start failed: {code!r}", file=sys.stderr)
        return 1
    ranks = [threading.Thread(target=step, args=(rank,)) for rank in range(args.ranks)]
    for rank in ranks:
        rank.start()
    for rank in ranks:
        rank.join()
    monitor.stop()
    records.put(None)
    printer.join()

    devices = sorted(int(key.split()[1]) for key in seen if key.startswith("device "))
    print(
        f"summary: ranks={args.ranks} host_ranges={seen['HOST range mstx_matmul']} "
        f"device_ranges={seen['DEVICE range -']} devices={devices} host_marks={seen['HOST mark']}"
    )
    ok = seen["HOST range mstx_matmul"] == seen["DEVICE range -"] == seen[
        "HOST mark"
    ] == args.ranks and devices == list(range(args.ranks))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
