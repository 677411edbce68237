"""Optimisers and mixed precision on device `npu`, each compared with the same run on the CPU.

    npu-sim run -- python optimizers.py CASE [CASE ...]

An MLP (32 -> 64 -> GELU -> 10, GELU's tanh form as CANN computes it, batch 16, MSE loss) trains
three steps from the same seed on `npu` and on the CPU, with the optimiser and precision of each
case (CASES below). Prints one JSON line, per case: whether losses, outputs, gradients and final
parameters match within the case's tolerance, the largest |npu - cpu| - rtol * |cpu| over them,
and the npu losses; or, when the npu run raises, the error's last line (`error`).

Tolerances: fp32 rtol 1e-5 / atol 1e-6. Under fp16 autocast the linear layers and the loss take fp16
inputs; CANN's matmul accumulates in fp32 and rounds its output to fp16 once, as the CPU's does, so
the two runs differ by the rounding of different summation orders, which can move an fp16 result by
one unit in the last place (2^-10 relative) and is carried through three steps: rtol 5e-3 /
atol 1e-4 (a few units). bf16 has 8 bits of mantissa (one unit 2^-7 relative): rtol 2e-2 /
atol 1e-3.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
import torch_npu  # noqa: F401  (registers device `npu`)
from result_line import write_result

STEPS = 3


@dataclass(frozen=True)
class Case:
    make: Callable[[list[torch.nn.Parameter]], torch.optim.Optimizer]
    rtol: float = 1e-5
    atol: float = 1e-6
    clip: float | None = None  # clip_grad_norm_'s max_norm
    scheduler: bool = False  # a StepLR halving the rate after every step
    autocast: torch.dtype | None = None
    scaler: bool = False  # GradScaler (fp16)


def sgd(**kw: object) -> Callable[[list[torch.nn.Parameter]], torch.optim.Optimizer]:
    return lambda p: torch.optim.SGD(p, lr=0.1, **kw)  # type: ignore[arg-type]


def adam(cls: type[torch.optim.Optimizer], **kw: object) -> Callable[..., torch.optim.Optimizer]:
    return lambda p: cls(p, lr=1e-2, **kw)  # type: ignore[arg-type]


CASES = {
    "sgd-momentum": Case(sgd(momentum=0.9, weight_decay=1e-2, foreach=True)),
    "sgd-momentum-single": Case(sgd(momentum=0.9, weight_decay=1e-2, foreach=False)),
    "sgd-nesterov": Case(sgd(momentum=0.9, nesterov=True, weight_decay=1e-2, foreach=True)),
    "sgd-nesterov-single": Case(sgd(momentum=0.9, nesterov=True, weight_decay=1e-2, foreach=False)),
    "adam-single": Case(adam(torch.optim.Adam, weight_decay=1e-2, foreach=False)),
    "adam-weight-decay": Case(adam(torch.optim.Adam, weight_decay=1e-2, foreach=True)),
    "adamw-single": Case(adam(torch.optim.AdamW, weight_decay=0.1, foreach=False)),
    "clip-scheduler": Case(sgd(momentum=0.9), clip=0.5, scheduler=True),
    "clip-scheduler-single": Case(sgd(momentum=0.9, foreach=False), clip=0.5, scheduler=True),
    "fp16-grad-scaler": Case(
        adam(torch.optim.AdamW, weight_decay=0.1), rtol=5e-3, atol=1e-4, autocast=torch.float16, scaler=True
    ),
    "bf16-autocast": Case(
        adam(torch.optim.AdamW, weight_decay=0.1), rtol=2e-2, atol=1e-3, autocast=torch.bfloat16
    ),
}


def train(case: Case, device: str) -> dict[str, list[torch.Tensor]]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU("tanh"), torch.nn.Linear(64, 10)).to(
        device
    )
    opt = case.make(list(model.parameters()))
    scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5) if case.scheduler else None
    scaler = torch.amp.GradScaler(device, init_scale=1024.0) if case.scaler else None
    g = torch.Generator().manual_seed(1)
    x, target = torch.randn(16, 32, generator=g).to(device), torch.randn(16, 10, generator=g).to(device)
    runs: dict[str, list[torch.Tensor]] = {"losses": [], "outputs": [], "grads": [], "norms": []}
    for _ in range(STEPS):
        opt.zero_grad()
        with torch.autocast(device, dtype=case.autocast or torch.float32, enabled=case.autocast is not None):
            out = model(x)
            loss = F.mse_loss(out.float(), target)
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        else:
            loss.backward()
        if case.clip is not None:
            runs["norms"].append(torch.nn.utils.clip_grad_norm_(model.parameters(), case.clip).detach().cpu())
        runs["losses"].append(loss.detach().float().cpu())
        runs["outputs"].append(out.detach().float().cpu())
        runs["grads"].extend(p.grad.detach().cpu() for p in model.parameters())
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        if scheduler is not None:
            scheduler.step()
    runs["params"] = [p.detach().cpu() for p in model.parameters()]
    if scaler is not None:
        runs["params"].append(torch.tensor(scaler.get_scale()))
    return runs


def compare(case: Case) -> dict[str, object]:
    npu, cpu = train(case, "npu"), train(case, "cpu")
    report: dict[str, object] = {}
    worst = -math.inf
    for key in ("losses", "outputs", "grads", "norms", "params"):
        pairs = list(zip(npu[key], cpu[key], strict=True))
        report[key] = all(torch.allclose(a, b, rtol=case.rtol, atol=case.atol) for a, b in pairs)
        worst = max([worst] + [float(((a - b).abs() - case.rtol * b.abs()).max()) for a, b in pairs])
    report["worst"] = worst
    report["npu_losses"] = [float(v) for v in npu["losses"]]
    return report


def main(names: list[str]) -> None:
    results: dict[str, object] = {}
    for name in names:
        try:
            results[name] = compare(CASES[name])
        except RuntimeError as error:
            lines = [line for line in str(error).splitlines() if line.strip()]
            results[name] = {"error": " | ".join(lines[:2])}
    write_result(results)


if __name__ == "__main__":
    main(sys.argv[1:] or list(CASES))
