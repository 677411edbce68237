"""Hugging Face `transformers` models, built from small random configs (no download), train on
device `npu` and on the CPU from the same seed, and the runs are compared.

    npu-sim run -- python hf_models.py gpt2|bert|llama [...]

Each model (2 layers, hidden 64, 4 heads, vocabulary 96, batch 2 x 12 tokens; dropout 0, so that the
two runs see the same function) does forward with labels (the model's own loss: causal LM for GPT-2
and Llama, masked LM with -100 labels for BERT), backward and a torch.optim.AdamW step, three times.
The CPU computes CANN's math (cann_math.CannMath; for these fp32 models: GELU's tanh form, which
aclnnGelu computes for BERT's erf-form "gelu").
Prints one JSON line, per model: whether each step's loss and logits match the CPU's forward from
the same parameters, the first step's gradients the CPU's, and the final parameters the CPU's run
(adam_compare's rule for elements whose gradient is rounding noise), within rtol 1e-5 / atol 1e-6
(fp32); the same parameter comparison between two CPU runs summing the batch in another order
(`cpu_vs_cpu`) and between the CPU run and the same run in float64 (`cpu_vs_float64`); for BERT how
far npu's first logits are from the CPU's erf-form GELU (`erf_logits_excess`); the largest
|npu - cpu| - rtol * |cpu|, the npu losses; or the error (`error`).
"""

from __future__ import annotations

import math
import sys

import torch
import torch_npu  # noqa: F401  (registers device `npu`)
import transformers
from adam_compare import params_match, undecided
from cann_math import CannMath
from result_line import write_result

RTOL, ATOL, STEPS, VOCAB, LR = 1e-5, 1e-6, 3, 96, 1e-3


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


def train(
    name: str, device: str, permuted: bool = False, dtype: torch.dtype = torch.float32
) -> dict[str, object]:
    """Three AdamW steps; `permuted` reverses the batch (the same function, summed in another order),
    `dtype` float64 computes every operation with another (smaller) rounding."""
    torch.manual_seed(0)
    model = build(name).to(device, dtype).train()
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    inputs = {k: (v.flip(0) if permuted else v).to(device) for k, v in batch(name).items()}
    losses, logits, grads, before = [], [], [], []
    for _ in range(STEPS):
        opt.zero_grad()
        before.append({n: p.detach().cpu().clone() for n, p in model.named_parameters()})
        out = model(**inputs)
        out.loss.backward()
        losses.append(out.loss.detach().cpu())
        logits.append(out.logits.detach().cpu())
        grads.append(
            {n: p.grad.detach().cpu().float() for n, p in model.named_parameters() if p.grad is not None}
        )
        opt.step()
    params = {n: p.detach().cpu().float() for n, p in model.named_parameters()}
    return {"losses": losses, "logits": logits, "grads": grads, "params": params, "before": before}


def forward_from(name: str, params: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    """The CPU's loss and logits of the batch from the given parameters."""
    torch.manual_seed(0)
    model = build(name).train()
    model.load_state_dict(params, strict=False)
    with torch.no_grad():
        out = model(**batch(name))
    return out.loss, out.logits


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return torch.allclose(a, b, rtol=RTOL, atol=ATOL)


def excess(a: torch.Tensor, b: torch.Tensor) -> float:
    return float(((a - b).abs() - RTOL * b.abs()).max())


def compare(name: str) -> dict[str, object]:
    """npu against the CPU computing CANN's math (CannMath: GELU's tanh form for BERT). Each step's
    loss and logits are compared with the CPU's forward from the npu run's parameters of that step
    (after the first step the two runs' parameters differ where AdamW normalised rounding noise:
    adam_compare), the first step's gradients directly, the final parameters by adam_compare's rule."""
    npu = train(name, "npu")
    with CannMath():
        cpu = train(name, "cpu")
        permuted = train(name, "cpu", permuted=True)
        wide = train(name, "cpu", dtype=torch.float64)
        same_params = [forward_from(name, params) for params in npu["before"]]  # type: ignore[attr-defined]
    report: dict[str, object] = {}
    worst = -math.inf
    for key, index in (("losses", 0), ("logits", 1)):
        pairs = [(a, ref[index]) for a, ref in zip(npu[key], same_params, strict=True)]  # type: ignore[call-overload]
        report[key] = all(close(a, b) for a, b in pairs)
        worst = max([worst] + [excess(a, b) for a, b in pairs])
    n, c = npu["grads"][0], cpu["grads"][0]  # type: ignore[index]
    report["grads"] = n.keys() == c.keys() and all(close(n[k], c[k]) for k in c)
    report["grads_differ"] = sorted(k for k in c if k in n and not close(n[k], c[k]))
    worst = max([worst] + [excess(n[k], c[k]) for k in c if k in n])
    free = undecided(cpu["grads"], ATOL)  # type: ignore[arg-type]
    report["params"] = params_match(npu["params"], cpu["params"], free, RTOL, ATOL, LR, STEPS)  # type: ignore[arg-type]
    # The same comparison between CPU runs: the batch summed in another order, and all in float64.
    report["cpu_vs_cpu"] = params_match(permuted["params"], cpu["params"], free, RTOL, ATOL, LR, STEPS)  # type: ignore[arg-type]
    report["cpu_vs_float64"] = params_match(wide["params"], cpu["params"], free, RTOL, ATOL, LR, STEPS)  # type: ignore[arg-type]
    if name == "bert":  # the CPU's own GELU (erf form) against CANN's tanh form on npu
        erf_logits = train_first_logits(name)
        report["erf_logits_excess"] = excess(npu["logits"][0], erf_logits)  # type: ignore[index]
    report["worst"] = worst
    report["npu_losses"] = [float(v) for v in npu["losses"]]  # type: ignore[union-attr]
    return report


def train_first_logits(name: str) -> torch.Tensor:
    torch.manual_seed(0)
    model = build(name).train()
    with torch.no_grad():
        return model(**batch(name)).logits


def main(names: list[str]) -> None:
    results: dict[str, object] = {"transformers": transformers.__version__}
    for name in names:
        try:
            results[name] = compare(name)
        except RuntimeError as error:
            lines = [line for line in str(error).splitlines() if line.strip()]
            results[name] = {"error": " | ".join(lines[:2])}
    write_result(results)


if __name__ == "__main__":
    main(sys.argv[1:] or ["gpt2", "bert", "llama"])
