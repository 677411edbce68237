"""Hugging Face `transformers` models, built from small random configs (no download), train on
device `npu` and on the CPU from the same seed, and the runs are compared.

    npu-sim run -- python hf_models.py gpt2|bert|llama [...]

Each model (2 layers, hidden 64, 4 heads, vocabulary 96, batch 2 x 12 tokens; dropout 0, so that the
two runs see the same function) does forward with labels (the model's own loss: causal LM for GPT-2
and Llama, masked LM with -100 labels for BERT), backward and a torch.optim.AdamW step, three times.
Prints one JSON line, per model: whether losses, logits, gradients of the first step and final
parameters match within rtol 1e-5 / atol 1e-6 (fp32), the largest |npu - cpu| - rtol * |cpu|, the
names of the parameters that differ (`differ`), the npu losses; or the error (`error`).
"""

from __future__ import annotations

import json
import math
import sys

import torch
import torch_npu  # noqa: F401  (registers device `npu`)
import transformers

RTOL, ATOL, STEPS, VOCAB = 1e-5, 1e-6, 3, 96


def build(name: str) -> torch.nn.Module:
    small = {"vocab_size": VOCAB, "bos_token_id": 0, "eos_token_id": 0, "pad_token_id": 0}
    if name == "gpt2":
        config = transformers.GPT2Config(
            n_layer=2, n_embd=64, n_head=4, n_positions=32, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
            **small,
        )  # fmt: skip
        return transformers.GPT2LMHeadModel(config)
    if name == "bert":
        config = transformers.BertConfig(
            hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
            max_position_embeddings=32, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, **small,
        )  # fmt: skip
        return transformers.BertForMaskedLM(config)
    config = transformers.LlamaConfig(
        hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, max_position_embeddings=32, **small,
    )  # fmt: skip
    return transformers.LlamaForCausalLM(config)


def batch(name: str) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(1, VOCAB, (2, 12), generator=g)
    if name != "bert":
        return {"input_ids": ids, "labels": ids.clone()}
    labels = torch.full_like(ids, -100)  # masked LM: only the masked positions count
    labels[:, 3::4] = ids[:, 3::4]
    masked = ids.clone()
    masked[:, 3::4] = 1  # the "mask" token
    attention = torch.ones_like(ids)
    attention[1, -2:] = 0  # the second sequence is padded
    return {"input_ids": masked, "labels": labels, "attention_mask": attention}


def train(name: str, device: str) -> dict[str, object]:
    torch.manual_seed(0)
    model = build(name).to(device).train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    inputs = {k: v.to(device) for k, v in batch(name).items()}
    losses, logits = [], []
    grads: dict[str, torch.Tensor] = {}
    for step in range(STEPS):
        opt.zero_grad()
        out = model(**inputs)
        out.loss.backward()
        losses.append(out.loss.detach().cpu())
        logits.append(out.logits.detach().cpu())
        if step == 0:
            grads = {n: p.grad.detach().cpu() for n, p in model.named_parameters() if p.grad is not None}
        opt.step()
    params = {n: p.detach().cpu() for n, p in model.named_parameters()}
    return {"losses": losses, "logits": logits, "grads": grads, "params": params}


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return torch.allclose(a, b, rtol=RTOL, atol=ATOL)


def excess(a: torch.Tensor, b: torch.Tensor) -> float:
    return float(((a - b).abs() - RTOL * b.abs()).max())


def compare(name: str) -> dict[str, object]:
    npu, cpu = train(name, "npu"), train(name, "cpu")
    report: dict[str, object] = {}
    worst = -math.inf
    for key in ("losses", "logits"):
        pairs = list(zip(npu[key], cpu[key], strict=True))  # type: ignore[call-overload]
        report[key] = all(close(a, b) for a, b in pairs)
        worst = max([worst] + [excess(a, b) for a, b in pairs])
    differ: dict[str, list[str]] = {}
    for key in ("grads", "params"):
        n, c = npu[key], cpu[key]
        assert isinstance(n, dict) and isinstance(c, dict)
        report[key] = n.keys() == c.keys() and all(close(n[k], c[k]) for k in c)
        differ[key] = sorted(k for k in c if k in n and not close(n[k], c[k]))
        worst = max([worst] + [excess(n[k], c[k]) for k in c if k in n])
    report["worst"] = worst
    report["differ"] = differ
    report["npu_losses"] = [float(v) for v in npu["losses"]]  # type: ignore[union-attr]
    return report


def main(names: list[str]) -> None:
    results: dict[str, object] = {"transformers": transformers.__version__}
    for name in names:
        try:
            results[name] = compare(name)
        except RuntimeError as error:
            lines = [line for line in str(error).splitlines() if line.strip()]
            results[name] = {"error": " | ".join(lines[:2])}
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1:] or ["gpt2", "bert", "llama"])
