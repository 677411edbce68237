"""One SGD training step on the simulated NPU (torch_npu) against the same step in CPU torch.

Run under the simulator's toolkit environment by sim_runtime/bench/training_step.py, with the model
name ("mlp" or "encoder") and the number of timed steps. Both copies start from the same parameters
and take the same batches; the steps alternate CPU / NPU so that both face the same load. Each
step's loss is read back (so the NPU's work has finished), and the losses and the final parameters
of the two copies are compared. Prints one JSON object: the median step times, the largest relative
loss difference, the largest parameter difference and torch's thread count.
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
import time

import torch
import torch_npu  # noqa: F401  (registers the npu device)

WARMUP = 2


def build(name: str) -> tuple[torch.nn.Module, torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    if name == "mlp":
        model: torch.nn.Module = torch.nn.Sequential(
            torch.nn.Linear(1024, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 1024)
        )
        x, y = torch.randn(256, 1024), torch.randn(256, 1024)
    else:
        model = torch.nn.TransformerEncoderLayer(512, 8, 2048, dropout=0.0, batch_first=True)
        x, y = torch.randn(8, 256, 512), torch.randn(8, 256, 512)
    return model, x, y


def step(
    model: torch.nn.Module, opt: torch.optim.Optimizer, x: torch.Tensor, y: torch.Tensor
) -> tuple[float, float]:
    start = time.perf_counter()
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    value = float(loss.item())  # waits for the device
    return time.perf_counter() - start, value


def main() -> int:
    name, steps = sys.argv[1], int(sys.argv[2])
    cpu_model, x, y = build(name)
    npu_model = copy.deepcopy(cpu_model).to("npu")
    xn, yn = x.to("npu"), y.to("npu")
    cpu_opt = torch.optim.SGD(cpu_model.parameters(), lr=1e-3)
    npu_opt = torch.optim.SGD(npu_model.parameters(), lr=1e-3)
    cpu_times, npu_times, loss_diff = [], [], 0.0
    for i in range(WARMUP + steps):
        cpu_t, cpu_loss = step(cpu_model, cpu_opt, x, y)
        npu_t, npu_loss = step(npu_model, npu_opt, xn, yn)
        loss_diff = max(loss_diff, abs(npu_loss - cpu_loss) / max(abs(cpu_loss), 1e-12))
        if i >= WARMUP:
            cpu_times.append(cpu_t)
            npu_times.append(npu_t)
    param_diff = max(
        float((a.detach() - b.detach().cpu()).abs().max())
        for a, b in zip(cpu_model.parameters(), npu_model.parameters(), strict=True)
    )
    print(
        json.dumps(
            {
                "cpu_ms": statistics.median(cpu_times) * 1e3,
                "npu_ms": statistics.median(npu_times) * 1e3,
                "loss_rel_diff": loss_diff,
                "param_max_diff": param_diff,
                "threads": torch.get_num_threads(),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
