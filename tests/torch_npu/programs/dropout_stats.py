"""Training-mode dropout inside models on device `npu`, checked by its statistics; eval mode exactly.

    npu-sim run -- python dropout_stats.py mha|encoder|decoder|gpt2|bert|llama [...]

Each model (dropout p = 0.25 everywhere its constructor takes one) runs forward in training mode
on `npu`. Every `nn.Dropout` module's input and output are recorded (forward hooks); for
`nn.MultiheadAttention` the attention weights it returns (`need_weights=True`, per head) are the
probabilities after its dropout, and the eval-mode weights are the probabilities before it. Per
model, one JSON object:
- `elements`, `kept`: the elements with a nonzero input and how many of them the dropout kept;
- `scale_error`: the largest |kept output - input / (1 - p)| relative to |input / (1 - p)|;
- `same_seed`, `other_seed`: whether a second forward from the same `torch.manual_seed` gives the
  identical output, and one from another seed a different one (attention dropout inside
  `F.scaled_dot_product_attention` included, which no hook sees);
- `backward`: the training-mode loss's backward gives finite gradients;
- `eval_identity`: in eval mode every dropout module's output is its input, bit for bit (null for
  MHA and Llama, which have no dropout module: their dropout is functional);
- `eval_matches_cpu`: the eval-mode output equals the CPU's (fp32, rtol 1e-5 / atol 1e-6; the CPU
  computes GELU's tanh form, as CANN's Gelu does: cann_math).
"""

from __future__ import annotations

import sys

import torch
import torch_npu  # noqa: F401  (registers device `npu`)
from cann_math import CannMath
from result_line import write_result

P = 0.25


class Recorder:
    def __init__(self, model: torch.nn.Module) -> None:
        self.pairs: list[tuple[torch.Tensor, torch.Tensor]] = []
        for module in model.modules():
            if isinstance(module, torch.nn.Dropout):
                module.register_forward_hook(self.hook)

    def hook(self, module: torch.nn.Module, args: tuple[torch.Tensor, ...], out: torch.Tensor) -> None:
        self.pairs.append((args[0].detach().cpu(), out.detach().cpu()))


def build(name: str) -> tuple[torch.nn.Module, dict[str, torch.Tensor]]:
    g = torch.Generator().manual_seed(1)
    if name == "mha":
        return torch.nn.MultiheadAttention(32, 4, dropout=P, batch_first=True), {
            "x": torch.randn(2, 16, 32, generator=g)
        }
    if name == "encoder":
        layer = torch.nn.TransformerEncoderLayer(32, 4, 64, dropout=P, batch_first=True)
        return layer, {"x": torch.randn(2, 16, 32, generator=g)}
    if name == "decoder":  # self-attention with a causal mask, cross-attention over a memory
        layer = torch.nn.TransformerDecoderLayer(32, 4, 64, dropout=P, batch_first=True)
        x, memory = torch.randn(2, 16, 32, generator=g), torch.randn(2, 12, 32, generator=g)
        return layer, {"x": x, "memory": memory}
    import hf_models
    import transformers

    small = {"vocab_size": hf_models.VOCAB, "bos_token_id": 0, "eos_token_id": 0, "pad_token_id": 0}
    if name == "gpt2":
        config = transformers.GPT2Config(
            n_layer=2, n_embd=64, n_head=4, n_positions=32, resid_pdrop=P, embd_pdrop=P, attn_pdrop=P, **small
        )
        model: torch.nn.Module = transformers.GPT2LMHeadModel(config)
    elif name == "bert":
        config = transformers.BertConfig(
            hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
            max_position_embeddings=32, hidden_dropout_prob=P, attention_probs_dropout_prob=P, **small,
        )  # fmt: skip
        model = transformers.BertForMaskedLM(config)
    else:
        config = transformers.LlamaConfig(
            hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, max_position_embeddings=32, attention_dropout=P, **small,
        )  # fmt: skip
        model = transformers.LlamaForCausalLM(config)
    return model, hf_models.batch(name)


def forward(
    name: str, model: torch.nn.Module, inputs: dict[str, torch.Tensor]
) -> tuple[torch.Tensor, torch.Tensor]:
    """The output compared, and (for MHA) the attention weights after dropout."""
    if name == "mha":
        x = inputs["x"]
        out, weights = model(x, x, x, need_weights=True, average_attn_weights=False)
        return out, weights
    if name == "encoder":
        out = model(inputs["x"])
        return out, out
    if name == "decoder":
        mask = torch.nn.Transformer.generate_square_subsequent_mask(16, device=inputs["x"].device)
        out = model(inputs["x"], inputs["memory"], tgt_mask=mask, tgt_is_causal=True)
        return out, out
    out = model(**inputs)
    return out.logits, out.loss


def check(name: str) -> dict[str, object]:
    torch.manual_seed(0)
    model, batch = build(name)
    cpu_model = build(name)[0]
    cpu_model.load_state_dict(model.state_dict())
    model = model.npu().train()
    inputs = {k: v.npu() for k, v in batch.items()}
    recorder = Recorder(model)
    torch.manual_seed(5)
    out_a, extra_a = forward(name, model, inputs)
    pairs = list(recorder.pairs)
    if name == "mha":  # the attention weights: before dropout from an eval forward, after from training
        model.eval()
        _, before = forward(name, model, inputs)
        model.train()
        pairs.append((before.detach().cpu(), extra_a.detach().cpu()))
    elements = kept = 0
    scale_error = 0.0
    for x, y in pairs:
        live = x != 0
        keep = live & (y != 0)
        elements += int(live.sum())
        kept += int(keep.sum())
        expected = x[keep] / (1 - P)
        if expected.numel():
            scale_error = max(scale_error, float(((y[keep] - expected).abs() / expected.abs()).max()))
    torch.manual_seed(5)
    out_b, _ = forward(name, model, inputs)
    torch.manual_seed(6)
    out_c, _ = forward(name, model, inputs)
    loss = extra_a if name not in ("mha", "encoder", "decoder") else out_a.pow(2).mean()
    loss.backward()
    backward = all(bool(p.grad.cpu().isfinite().all()) for p in model.parameters() if p.grad is not None)
    model.eval()
    recorder.pairs.clear()
    with torch.no_grad():
        out_eval, _ = forward(name, model, inputs)
        with CannMath():
            out_cpu, _ = forward(name, cpu_model.eval(), batch)
    return {
        "elements": elements, "kept": kept, "scale_error": scale_error,
        "same_seed": bool(torch.equal(out_a.cpu(), out_b.cpu())),
        "other_seed": not bool(torch.equal(out_a.cpu(), out_c.cpu())),
        "backward": backward,
        "eval_identity": all(torch.equal(x, y) for x, y in recorder.pairs) if recorder.pairs else None,
        "eval_matches_cpu": bool(torch.allclose(out_eval.cpu(), out_cpu, rtol=1e-5, atol=1e-6)),
    }  # fmt: skip


def main(names: list[str]) -> None:
    results: dict[str, object] = {"p": P}
    for name in names:
        try:
            results[name] = check(name)
        except RuntimeError as error:
            lines = [line for line in str(error).splitlines() if line.strip()]
            results[name] = {"error": " | ".join(lines[:2])}
    write_result(results)


if __name__ == "__main__":
    main(sys.argv[1:] or ["mha", "encoder", "decoder", "gpt2", "bert", "llama"])
