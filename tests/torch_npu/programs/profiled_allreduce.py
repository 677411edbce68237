"""One rank of a torchrun job under torch_npu.profiler: two steps of a matmul and an all-reduce,
written by tensorboard_trace_handler into argv[1], exporting argv[2] (default "text"; "db" or
"text,db") at profiler level argv[3] (default Level1; Level0 or Level2), with profile_memory=True
when argv[4] is "memory"; prints one JSON line with the rank."""

import os
import sys

import torch
import torch_npu  # noqa: F401  (registers the npu device)
from result_line import write_result
from torch_npu.profiler import (
    ExportType,
    ProfilerActivity,
    ProfilerLevel,
    _ExperimentalConfig,
    profile,
    schedule,
    tensorboard_trace_handler,
)

torch.distributed.init_process_group(backend="hccl", init_method="env://")
rank = int(os.environ["LOCAL_RANK"])
torch.npu.set_device(rank)
export_types = (
    [getattr(ExportType, t.capitalize()) for t in sys.argv[2].split(",")] if len(sys.argv) > 2 else None
)
level = getattr(ProfilerLevel, sys.argv[3]) if len(sys.argv) > 3 else ProfilerLevel.Level1
profile_memory = len(sys.argv) > 4 and sys.argv[4] == "memory"
x = torch.full((64, 64), float(rank + 1)).npu()
with profile(
    activities=[ProfilerActivity.CPU, ProfilerActivity.NPU],
    schedule=schedule(wait=0, warmup=0, active=2, repeat=1),
    on_trace_ready=tensorboard_trace_handler(sys.argv[1]),
    experimental_config=_ExperimentalConfig(
        profiler_level=level, **({"export_type": export_types} if export_types else {})
    ),
    profile_memory=profile_memory,
) as prof:
    for _ in range(2):
        y = x @ x
        torch.distributed.all_reduce(y)
        torch.npu.synchronize()
        prof.step()
torch.distributed.destroy_process_group()
# The ranks share torchrun's stdout: the line goes out in one write (result_line).
write_result({"rank": rank}, "RANK ")
