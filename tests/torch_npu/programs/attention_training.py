"""Attention training on device `npu` against the CPU.

    npu-sim run -- python attention_training.py CASE [CASE ...]
        (CASE: encoder-causal|encoder-padding|mha|sdpa-dropout|encoder-dropout)

encoder-causal / encoder-padding: nn.TransformerEncoderLayer(32, 4, 64, dropout 0, batch_first) over a
batch of 2 x 8 x 32, with a causal mask (src_mask and is_causal) or a key padding mask (the last two
positions of the second sequence), trains three torch.optim.SGD steps on the MSE loss (not Adam: the
key projection's bias has a gradient of exactly zero in exact arithmetic, and Adam scales its
rounding noise, about 1e-10 on either device, to an update of about lr).
mha: nn.MultiheadAttention(32, 4, batch_first) with a causal mask, the same steps. Each compares the
losses, the first step's outputs and gradients and the final parameters with the same run on the CPU
(rtol 1e-5 / atol 1e-6, fp32).
sdpa-dropout: scaled_dot_product_attention with dropout_p 0.3 and value the identity, so the output is
the dropped-out probabilities themselves: the kept fraction is reported, and the CPU recomputes the
attention with that keep mask; output and the gradients of query, key and value must match.
encoder-dropout: the encoder layer with dropout 0.1 trains three steps twice from the same seed:
the losses must be finite and the two runs equal.
The cases named run one after another in this process, each from its own seeds (a torch start-up
costs seconds). Prints one JSON line, an object with an entry per case (for a case whose run raised,
{"error": the exception}).
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


def close(a: list[torch.Tensor], b: list[torch.Tensor]) -> bool:
    return len(a) == len(b) and all(
        torch.allclose(x.cpu(), y.cpu(), rtol=RTOL, atol=ATOL) for x, y in zip(a, b, strict=True)
    )


def excess(a: list[torch.Tensor], b: list[torch.Tensor]) -> float:
    """The largest |npu - cpu| - rtol * |cpu| over all values (at most atol when they match)."""
    return max(
        float(((x.cpu() - y.cpu()).abs() - RTOL * y.cpu().abs()).max()) for x, y in zip(a, b, strict=True)
    )


def inputs() -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(1)
    return torch.randn(2, 8, 32, generator=g), torch.randn(2, 8, 32, generator=g)


def train(name: str, dev: str, dropout: float = 0.0) -> dict[str, list[torch.Tensor]]:
    torch.manual_seed(0)
    x, y = (t.to(dev) for t in inputs())
    causal = torch.nn.Transformer.generate_square_subsequent_mask(8).to(dev)
    if name == "mha":
        model: torch.nn.Module = torch.nn.MultiheadAttention(32, 4, batch_first=True).to(dev)

        def forward() -> torch.Tensor:
            return model(x, x, x, attn_mask=causal, is_causal=True, need_weights=False)[0]
    else:
        model = torch.nn.TransformerEncoderLayer(32, 4, 64, dropout=dropout, batch_first=True).to(dev)
        padding = torch.zeros(2, 8, dtype=torch.bool)
        padding[1, 6:] = True
        padding = padding.to(dev)

        def forward() -> torch.Tensor:
            if name == "encoder-padding":
                return model(x, src_key_padding_mask=padding)
            return model(x, src_mask=causal, is_causal=True)

    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    run: dict[str, list[torch.Tensor]] = {"losses": [], "outputs": [], "grads": []}
    for step in range(STEPS):
        opt.zero_grad()
        out = forward()
        loss = F.mse_loss(out, y)
        loss.backward()
        run["losses"].append(loss.detach().cpu())
        if step == 0:
            run["outputs"] = [out.detach().cpu()]
            run["grads"] = [p.grad.detach().cpu() for p in model.parameters()]
        opt.step()
    run["params"] = [p.detach().cpu() for p in model.parameters()]
    return run


def compare(name: str) -> dict[str, object]:
    npu, cpu = train(name, "npu"), train(name, "cpu")
    result: dict[str, object] = {
        key: close(npu[key], cpu[key]) for key in ("losses", "outputs", "grads", "params")
    }
    result["npu_losses"] = [float(v) for v in npu["losses"]]
    result["excess"] = max(excess(npu[key], cpu[key]) for key in ("losses", "outputs", "grads", "params"))
    return result


def sdpa_dropout() -> dict[str, object]:
    b, n, s, p = 2, 2, 16, 0.3
    g = torch.Generator().manual_seed(2)
    q, k = torch.randn(b, n, s, s, generator=g), torch.randn(b, n, s, s, generator=g)
    v, dy = torch.eye(s).expand(b, n, s, s).contiguous(), torch.randn(b, n, s, s, generator=g)
    leaves = [t.npu().requires_grad_() for t in (q, k, v)]
    torch.manual_seed(0)
    out = F.scaled_dot_product_attention(*leaves, dropout_p=p)
    (out * dy.npu()).sum().backward()
    got = [out.detach().cpu()] + [t.grad.cpu() for t in leaves]
    keep = got[0] != 0
    ref_leaves = [t.clone().requires_grad_() for t in (q, k, v)]
    probs = (ref_leaves[0] @ ref_leaves[1].transpose(-2, -1) / math.sqrt(s)).softmax(-1)
    ref_out = torch.where(keep, probs / (1 - p), torch.zeros(())) @ ref_leaves[2]
    (ref_out * dy).sum().backward()
    ref = [ref_out.detach()] + [t.grad for t in ref_leaves]
    return {
        "kept": int(keep.sum()),
        "elements": keep.numel(),
        "match": close(got, ref),
        "excess": excess(got, ref),
    }


def encoder_dropout() -> dict[str, object]:
    first, second = (train("encoder-causal", "npu", dropout=0.1)["losses"] for _ in range(2))
    losses = [float(v) for v in first]
    return {
        "losses": losses,
        "finite": all(math.isfinite(v) for v in losses),
        "repeatable": close(first, second),
    }


def run(name: str) -> dict[str, object]:
    if name == "sdpa-dropout":
        return sdpa_dropout()
    if name == "encoder-dropout":
        return encoder_dropout()
    return compare(name)


def main() -> None:
    results: dict[str, object] = {}
    for name in sys.argv[1:]:
        try:
            results[name] = run(name)
        except Exception:  # reported per case: the others still run
            results[name] = {"error": traceback.format_exc()[-3000:]}
    write_result(results)


if __name__ == "__main__":
    main()
