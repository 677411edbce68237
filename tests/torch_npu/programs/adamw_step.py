"""One training step of an MLP (32 -> 64 -> GELU -> 10, batch 16, MSE loss) with torch.optim.AdamW
(foreach, weight decay) on device `npu`, for a trace capture (`npu-sim trace -- python
adamw_step.py`). The inputs and the model are on the device and the stream is synchronised before
an mstx range named "step" that holds the step, so the capture's records of the step are those
inside it."""

import torch
import torch.nn.functional as F
import torch_npu

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 10)).npu()
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1, foreach=True)
x, target = torch.randn(16, 32).npu(), torch.randn(16, 10).npu()
torch.npu.synchronize()
step = torch_npu.npu.mstx.range_start("step")
opt.zero_grad()
F.mse_loss(model(x), target).backward()
opt.step()
torch.npu.synchronize()
torch_npu.npu.mstx.range_end(step)
