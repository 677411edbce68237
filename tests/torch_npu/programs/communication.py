"""One rank of a torchrun job: a CommunicationMonitor of the package named by argv[1] (``mspti``,
the vendor-compatible one, or ``mspti_core``) around an all-reduce and torch.npu.synchronize();
prints one JSON line with the rank and the COMMUNICATION records its process got."""

import importlib
import os
import sys

import torch
import torch_npu  # noqa: F401  (registers the npu device)
from result_line import write_result

package = importlib.import_module(sys.argv[1])
records = []
monitor = package.CommunicationMonitor()
monitor.start(records.append)
torch.distributed.init_process_group(backend="hccl", init_method="env://")
rank = int(os.environ["LOCAL_RANK"])
torch.npu.set_device(rank)
x = torch.full((256, 256), float(rank + 1), dtype=torch.float16).npu()
torch.distributed.all_reduce(x)
torch.npu.synchronize()
monitor.stop()
world = torch.distributed.get_world_size()
summed = float(x[0, 0].cpu())
torch.distributed.destroy_process_group()
line = {
    "rank": rank,
    "sum": summed,
    "expected": float(world * (world + 1) // 2),
    "records": [[r.name, r.device_id, r.comm_name] for r in records],
}
# The ranks share torchrun's stdout: the line goes out in one write (result_line).
write_result(line, "RANK ")
