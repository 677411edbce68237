"""A small MLP training loop under torch_npu.profiler (CPU + NPU activities, a schedule,
tensorboard_trace_handler), as users profile training:
`profiled_training.py [--no-aic-metrics] OUT_DIR [LEVEL [EXPORT_TYPES [memory]]]`.

Six steps under schedule(wait=1, warmup=1, active=2, repeat=1) at profiler level LEVEL (default
Level1, which adds op_statistic.csv and api_statistic.csv to Level0's files; Level0, Level2 or
Level_none), exporting EXPORT_TYPES (default "text"; "db" or "text,db"), with profile_memory=True when
the fourth argument is "memory", and aic_metrics AiCoreNone with --no-aic-metrics (torch_npu's
default at Level1 and Level2 is PipeUtilization); each step reads the loss back (`loss.item()`, a
device-to-host copy), as training loops log it; prints one JSON line.

`profiled_training.py --mstx-steps` runs the same six steps without torch_npu's profiler, each
step inside an mstx range named `step` (torch_npu.npu.mstx), so that an msPTI capture
(`npu-sim trace`) of it has the steps `--format ascend-pt` numbers ProfilerStep#0..5."""

import contextlib
import sys

import torch
import torch_npu
from result_line import write_result
from torch_npu.profiler import (
    AiCMetrics,
    ExportType,
    ProfilerActivity,
    ProfilerLevel,
    _ExperimentalConfig,
    profile,
    schedule,
    tensorboard_trace_handler,
)

no_aic_metrics = "--no-aic-metrics" in sys.argv
sys.argv = [a for a in sys.argv if a != "--no-aic-metrics"]
mstx_steps = sys.argv[1] == "--mstx-steps"
level = getattr(ProfilerLevel, sys.argv[2]) if len(sys.argv) > 2 else ProfilerLevel.Level1
export_types = (
    [getattr(ExportType, t.capitalize()) for t in sys.argv[3].split(",")] if len(sys.argv) > 3 else None
)
profile_memory = len(sys.argv) > 4 and sys.argv[4] == "memory"
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4)).npu()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 16).npu()
y = torch.randn(8, 4).npu()
steps = 6
losses = []
prof = None
if not mstx_steps:
    prof = profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.NPU],
        schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
        on_trace_ready=tensorboard_trace_handler(sys.argv[1]),
        experimental_config=_ExperimentalConfig(
            profiler_level=level,
            **({"export_type": export_types} if export_types else {}),
            **({"aic_metrics": AiCMetrics.AiCoreNone} if no_aic_metrics else {}),
        ),
        profile_memory=profile_memory,
    )
with prof if prof is not None else contextlib.nullcontext():
    for _ in range(steps):
        step_range = torch_npu.npu.mstx.range_start("step") if mstx_steps else None
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        torch.npu.synchronize()
        losses.append(loss.item())  # as training loops log the loss: a device-to-host copy per step
        if step_range is not None:
            torch_npu.npu.mstx.range_end(step_range)
        if prof is not None:
            prof.step()
write_result({"steps": steps, "loss": losses[-1]})
