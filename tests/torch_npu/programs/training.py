"""Trains a model on device `npu` and on the CPU from the same start and compares the runs.

    npu-sim run -- python training.py MODEL [MODEL ...]    (MODEL: mlp|mlp-ce|transformer|embedding|conv)

The MLP is 64 -> 128 -> 10 with GELU (its tanh form, which CANN's Gelu kernel computes whatever
the approximation: docs/torch_npu.md), batch 32; the transformer block has d_model 64, 4 heads,
sequence 16, batch 2 (pre-norm layer norms, softmax attention, a GELU MLP); the embedding model
is Embedding(50, 16, padding_idx=0) -> 32 -> SiLU -> 10 over a batch of 4 x 8 token ids (repeated
ids, and the padding id in every sequence); the convolutional model is Conv2d(3, 8, 3, padding 1) ->
ReLU -> Conv2d(8, 4, 3, stride 2, padding 2, dilation 2, groups 2) -> Linear(64, 10) over a batch of
4 x 3 x 8 x 8. Each run does forward,
the loss (MSE; cross-entropy over the MLP's 10 classes for mlp-ce), backward and a
torch.optim.SGD step, three times. The models named run one after another in this process, each from
its own seeds (a torch start-up costs seconds). Prints one JSON line, an object with an entry per
model: whether losses, outputs, gradients and final parameters match within rtol 1e-5 / atol 1e-6
(fp32), the losses of both runs, and the largest |npu - cpu| - rtol * |cpu| over all compared values
(at most atol when they match); or, for a model whose run raised, {"error": the exception}.
"""

from __future__ import annotations

import math
import sys
import traceback

import torch
import torch.nn.functional as F
import torch_npu  # noqa: F401  (registers device `npu`)
from result_line import write_result

RTOL, ATOL, STEPS = 1e-5, 1e-6, 3
VOCAB = 50


class Block(torch.nn.Module):
    def __init__(self, d_model: int = 64, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = torch.nn.LayerNorm(d_model), torch.nn.LayerNorm(d_model)
        self.qkv, self.proj = torch.nn.Linear(d_model, 3 * d_model), torch.nn.Linear(d_model, d_model)
        self.fc1, self.fc2 = torch.nn.Linear(d_model, 4 * d_model), torch.nn.Linear(4 * d_model, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q, k, v = (t.reshape(b, s, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1) / math.sqrt(d // self.heads)).softmax(-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, s, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate="tanh"))


def build(name: str) -> tuple[torch.nn.Module, tuple[int, ...], tuple[int, ...]]:
    if name in ("mlp", "mlp-ce"):
        mlp = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU("tanh"), torch.nn.Linear(128, 10))
        return mlp, (32, 64), (32, 10)
    if name == "embedding":
        embedding = torch.nn.Sequential(
            torch.nn.Embedding(VOCAB, 16, padding_idx=0),
            torch.nn.Linear(16, 32),
            torch.nn.SiLU(),
            torch.nn.Linear(32, 10),
        )
        return embedding, (4, 8), (4, 8, 10)
    if name == "conv":
        conv = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv2d(8, 4, 3, stride=2, padding=2, dilation=2, groups=2),
            torch.nn.Flatten(),
            torch.nn.Linear(64, 10),
        )
        return conv, (4, 3, 8, 8), (4, 10)
    return Block(), (2, 16, 64), (2, 16, 64)


def train(name: str, device: str) -> dict[str, list[torch.Tensor]]:
    torch.manual_seed(0)
    model, x_shape, y_shape = build(name)
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(1)
    if name == "embedding":
        ids = torch.randint(0, VOCAB, x_shape, generator=g)
        ids[:, -1] = 0  # the padding id: its row gets no gradient
        ids[:, 0] = ids[0, 1]  # an id that repeats: its rows' gradients are summed
        x = ids.to(device)
    else:
        x = torch.randn(x_shape, generator=g).to(device)
    if name == "mlp-ce":
        target = torch.randint(0, y_shape[-1], y_shape[:1], generator=g).to(device)
    else:
        target = torch.randn(y_shape, generator=g).to(device)
    runs: dict[str, list[torch.Tensor]] = {"losses": [], "outputs": [], "grads": []}
    for _ in range(STEPS):
        opt.zero_grad()
        out = model(x)
        loss = F.cross_entropy(out, target) if name == "mlp-ce" else F.mse_loss(out, target)
        loss.backward()
        runs["losses"].append(loss.detach().cpu())
        runs["outputs"].append(out.detach().cpu())
        runs["grads"].extend(p.grad.detach().cpu() for p in model.parameters())
        opt.step()
    runs["params"] = [p.detach().cpu() for p in model.parameters()]
    return runs


def compare(name: str) -> dict[str, object]:
    npu, cpu = train(name, "npu"), train(name, "cpu")
    report: dict[str, object] = {}
    worst = -math.inf
    for key in ("losses", "outputs", "grads", "params"):
        pairs = list(zip(npu[key], cpu[key], strict=True))
        report[key] = all(torch.allclose(a, b, rtol=RTOL, atol=ATOL) for a, b in pairs)
        worst = max([worst] + [float(((a - b).abs() - RTOL * b.abs()).max()) for a, b in pairs])
    report["npu_losses"] = [float(v) for v in npu["losses"]]
    report["cpu_losses"] = [float(v) for v in cpu["losses"]]
    report["worst"] = worst
    return report


def main(names: list[str]) -> None:
    reports: dict[str, object] = {}
    for name in names:
        try:
            reports[name] = compare(name)
        except Exception:  # reported per model: the others still run
            reports[name] = {"error": traceback.format_exc()[-3000:]}
    write_result(reports)


if __name__ == "__main__":
    main(sys.argv[1:] or ["mlp"])
