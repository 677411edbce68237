"""A small MLP training loop under torch_npu.profiler (CPU + NPU activities, a schedule,
tensorboard_trace_handler), as users profile training: `profiled_training.py OUT_DIR`.

Six steps under schedule(wait=1, warmup=1, active=2, repeat=1) at profiler level Level1 (which
adds op_statistic.csv and api_statistic.csv to Level0's files); prints one JSON line."""

import json
import sys

import torch
import torch_npu  # noqa: F401  (registers the npu device)
from torch_npu.profiler import (
    ProfilerActivity,
    ProfilerLevel,
    _ExperimentalConfig,
    profile,
    schedule,
    tensorboard_trace_handler,
)

out_dir = sys.argv[1]
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4)).npu()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 16).npu()
y = torch.randn(8, 4).npu()
steps = 6
with profile(
    activities=[ProfilerActivity.CPU, ProfilerActivity.NPU],
    schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
    on_trace_ready=tensorboard_trace_handler(out_dir),
    experimental_config=_ExperimentalConfig(profiler_level=ProfilerLevel.Level1),
) as prof:
    for _ in range(steps):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        torch.npu.synchronize()
        prof.step()
print(json.dumps({"steps": steps, "loss": float(loss.detach().cpu())}))
