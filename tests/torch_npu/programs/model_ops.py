"""Operators of models beyond the basic blocks, on device `npu` against the same program on the CPU.

    npu-sim run -- python model_ops.py [case ...]

Cases (each in a try, so that one failure names itself):
  conv_transpose1d     nn.ConvTranspose1d(4, 6, 3, stride 2, padding 1, output_padding 1, groups 2,
                       dilation 2): output, input gradient, weight and bias gradients
  conv_transpose2d     three SGD steps (momentum 0.9) of Conv2d -> ReLU -> ConvTranspose2d(8, 4, 3,
                       stride 2, padding 1, output_padding 1) -> ConvTranspose2d(4, 3, (3, 2), stride
                       (1, 2), dilation (2, 1), groups 1) with an MSE loss: losses, outputs, gradients and
                       final parameters
  baddbmm / addbmm     torch.baddbmm / torch.addbmm (beta 0.5, alpha -1.5) and their backward
  gelu_none / gelu_tanh  F.gelu with approximate "none" / "tanh": output and input gradient
  mha_key_padding      nn.MultiheadAttention(32, 4, batch_first) with a key_padding_mask (the last 3
                       keys of the second sequence), training: output, input and parameter gradients
  decoder              nn.TransformerDecoderLayer(32, 4, 64, dropout 0, batch_first) with a causal
                       tgt_mask, training: output, input and parameter gradients
Prints one JSON line: per case True, or a description of the mismatch or the error. Comparisons:
fp32 within rtol 1e-5 / atol 1e-6.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_npu  # noqa: F401  (registers device `npu`)
from cpu_vs_npu import ATOL, RTOL, function_run, module_run, paired
from result_line import write_result


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return torch.allclose(a.cpu(), b.cpu(), rtol=RTOL, atol=ATOL)


def worst(pairs: list[tuple[torch.Tensor, torch.Tensor]]) -> float:
    return max(float(((a.cpu() - b.cpu()).abs() - RTOL * b.cpu().abs()).max()) for a, b in pairs)


def verdict(pairs: list[tuple[torch.Tensor, torch.Tensor]]) -> object:
    if all(close(a, b) for a, b in pairs):
        return True
    return f"mismatch: largest |npu - cpu| - rtol*|cpu| = {worst(pairs):.3g}"


def function_case(fn: Callable[..., torch.Tensor], *shapes: tuple[int, ...]) -> object:
    """fn's output and the gradients of its inputs, on npu and on the cpu."""
    g = torch.Generator().manual_seed(11)
    return verdict(paired(function_run(fn, *[torch.randn(*s, generator=g) * 2 for s in shapes])))


def module_case(build: Callable[[], nn.Module], shape: tuple[int, ...]) -> object:
    """A module's output, input gradient and parameter gradients (and buffers), on npu and on the cpu."""
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(12))
    return verdict(paired(module_run(build, x)))


def training_case(build: Callable[[], nn.Module], shape: tuple[int, ...], steps: int = 3) -> object:
    """`steps` SGD steps (momentum 0.9) with an MSE loss against a fixed target."""
    g = torch.Generator().manual_seed(13)
    x = torch.randn(*shape, generator=g)
    runs = {}
    for dev in ("cpu", "npu"):
        torch.manual_seed(0)
        model = build().to(dev)
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        inp = x.to(dev)
        target = None
        tensors: list[torch.Tensor] = []
        for _ in range(steps):
            opt.zero_grad()
            y = model(inp)
            if target is None:
                target = torch.randn(y.shape, generator=torch.Generator().manual_seed(14)).to(dev)
            loss = F.mse_loss(y, target)
            loss.backward()
            tensors += [loss.detach(), y.detach(), *[p.grad.clone() for p in model.parameters()]]
            opt.step()
        tensors += [p.detach() for p in model.parameters()]
        runs[dev] = tensors
    return verdict(list(zip(runs["npu"], runs["cpu"], strict=True)))


class PaddedAttention(nn.Module):
    """Self-attention over x with the last 3 keys of the second sequence padded out."""

    def __init__(self) -> None:
        super().__init__()
        self.attn = nn.MultiheadAttention(32, 4, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        padding = torch.zeros(x.shape[0], x.shape[1], dtype=torch.bool)
        padding[1, -3:] = True
        return self.attn(x, x, x, key_padding_mask=padding.to(x.device))[0]


class CausalDecoder(nn.Module):
    """A decoder layer over x (target) and a fixed memory, with a causal target mask."""

    def __init__(self) -> None:
        super().__init__()
        self.layer = nn.TransformerDecoderLayer(32, 4, 64, dropout=0.0, batch_first=True)
        self.register_buffer("memory", torch.randn(2, 8, 32, generator=torch.Generator().manual_seed(15)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1]).to(x.device)
        return self.layer(x, self.memory, tgt_mask=mask, tgt_is_causal=True)


CASES: dict[str, Callable[[], object]] = {
    "conv_transpose1d": lambda: module_case(
        lambda: nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=2),
        (3, 4, 9),
    ),
    "conv_transpose2d": lambda: training_case(
        lambda: nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1),
            nn.ConvTranspose2d(4, 3, (3, 2), stride=(1, 2), dilation=(2, 1)),
        ),
        (2, 3, 8, 8),
    ),
    "baddbmm": lambda: function_case(
        lambda s, a, b: torch.baddbmm(s, a, b, beta=0.5, alpha=-1.5), (3, 1, 6), (3, 4, 5), (3, 5, 6)
    ),
    "addbmm": lambda: function_case(
        lambda s, a, b: torch.addbmm(s, a, b, beta=0.5, alpha=-1.5), (4, 6), (3, 4, 5), (3, 5, 6)
    ),
    "gelu_none": lambda: function_case(lambda t: F.gelu(t, approximate="none"), (6, 40)),
    "gelu_tanh": lambda: function_case(lambda t: F.gelu(t, approximate="tanh"), (6, 40)),
    "mha_key_padding": lambda: module_case(PaddedAttention, (2, 8, 32)),
    "decoder": lambda: module_case(CausalDecoder, (2, 6, 32)),
}


def main(names: list[str]) -> None:
    results: dict[str, object] = {}
    for name in names or list(CASES):
        try:
            results[name] = CASES[name]()
        except RuntimeError as error:
            lines = [line for line in str(error).splitlines() if line.strip()]
            results[name] = "error: " + " | ".join(lines[:2])[:300]
    write_result(results)


if __name__ == "__main__":
    main(sys.argv[1:])
