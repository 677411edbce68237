"""float16 and bfloat16 programs on device `npu`, each compared with the same program on the CPU
computed with CANN's arithmetic (cann_math.CannMath: float32 accumulation, one rounding per
operator, the fused attention's rounding of its probabilities, GELU's tanh form).

    npu-sim run -- python mixed_precision.py CASE@RTOL@ATOL [...]

Cases (`<what>-<dtype>`, dtype fp16 or bf16):
- `sdpa-fused-*`, `sdpa-math-*`: `F.scaled_dot_product_attention` (causal, [2, 4, 16, 32]) on the
  fused path (torch_npu's: aclnnFlashAttentionScore) and torch's math path
  (`aten._scaled_dot_product_attention_math`, matmul - softmax - matmul; torch_npu 2.13 ignores
  `sdpa_kernel(SDPBackend.MATH)`: measured, FlashAttentionScore runs under it), forward and the
  gradients of query, key and value, in the type itself (no autocast);
- `encoder-*`: `nn.TransformerEncoderLayer(64, 4, 128, dropout=0, batch_first=True)` with a causal
  mask under `torch.autocast` (bf16), or autocast with `torch.amp.GradScaler` (fp16): forward, MSE
  loss, backward, one AdamW step;
- `gpt2-*`, `bert-*`, `llama-*`: the small Hugging Face models of hf_models.py the same way (their
  own loss);
- `scaler-skip-fp16`: the encoder with a GradScaler whose scale (2^24) overflows float16 in the
  backward: the scaler finds inf, skips the step and halves its scale, on `npu` as on the CPU;
- `cross-entropy-*`: `F.cross_entropy` of float16/bfloat16 logits ([24, 96], -100 labels, BERT's
  masked-LM loss) under `torch.autocast`, its loss and the logits' gradient (scaled by 1024, as a
  GradScaler scales it);
- `autocast-float32-ops`: which operators `torch.autocast` runs in float32 on `npu`, and which it
  has rules for (cann_math's AUTOCAST_FLOAT32, AUTOCAST_SET_OPT_DTYPE and AUTOCAST_NOT_ON_NPU are
  checked against them).

Prints one JSON line: per case, per compared quantity, `ratio` = max |npu - ref| / (atol + rtol·|ref|)
for the case's rtol/atol given with it (<= 1 passes), `equal` = the
fraction of elements that are identical, and `worst_name` where the ratio is largest; or `error`.
Parameters after the AdamW step whose reference gradient is not distinguishable from zero (its sign
not fixed by the gradient's tolerance) are compared within 2·lr: AdamW's first step moves every
element by about lr·sign(gradient), so such an element may move either way on either device
(docs/torch_npu.md, "Parameters whose gradient is zero").
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import nullcontext

import torch
import torch.nn.functional as F
import torch_npu  # noqa: F401  (registers device `npu`)
from cann_math import (
    AUTOCAST_FLOAT32,
    AUTOCAST_NOT_ON_NPU,
    AUTOCAST_SET_OPT_DTYPE,
    CannMath,
    flash_attention,
    flash_attention_backward,
)
from result_line import write_result

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}
LR = 1e-3
Tensors = dict[str, torch.Tensor]


class Comparison:
    """Ratios of |npu - ref| to the tolerance, per quantity."""

    def __init__(self, rtol: float, atol: float) -> None:
        self.rtol, self.atol = rtol, atol
        self.report: dict[str, dict[str, object]] = {}

    def add(
        self, quantity: str, npu: Tensors, ref: Tensors, loose: dict[str, torch.Tensor] | None = None
    ) -> None:
        worst, worst_name, same, total = 0.0, "", 0, 0
        for name, r in ref.items():
            n, r = npu[name].float(), r.float()
            allowed = self.atol + self.rtol * r.abs()
            if loose is not None and name in loose:
                allowed = torch.where(loose[name], torch.full_like(allowed, 2 * LR), allowed)
            ratio = float(((n - r).abs() / allowed).max()) if r.numel() else 0.0
            if ratio > worst or not worst_name:
                worst, worst_name = ratio, name
            same += int((n == r).sum())
            total += r.numel()
        self.report[quantity] = {"ratio": worst, "equal": same / max(total, 1), "worst_name": worst_name}


def sdpa(dtype: torch.dtype, fused: bool, cmp: Comparison) -> None:
    g = torch.Generator().manual_seed(0)
    q, k, v, dout = (torch.randn(2, 4, 16, 32, generator=g).to(dtype) for _ in range(4))

    def run(device: str) -> Tensors:
        leaves = [t.to(device).requires_grad_() for t in (q, k, v)]
        with CannMath() if device == "cpu" else nullcontext():
            if not fused:  # torch's composite; torch_npu ignores sdpa_kernel(SDPBackend.MATH)
                out = torch.ops.aten._scaled_dot_product_attention_math(*leaves, is_causal=True)[0]
            elif device == "cpu":  # CANN's fused rule
                out = _FlashRef.apply(*leaves)
            else:
                out = F.scaled_dot_product_attention(*leaves, is_causal=True)
            out.backward(dout.to(device))
        return {"out": out.detach().cpu(), **{n: t.grad.cpu() for n, t in zip("qkv", leaves, strict=True)}}

    npu, ref = run("npu"), run("cpu")
    cmp.add("out", {"out": npu["out"]}, {"out": ref["out"]})
    cmp.add("grads", {n: npu[n] for n in "qkv"}, {n: ref[n] for n in "qkv"})


class _FlashRef(torch.autograd.Function):
    """CANN's fused attention, forward and backward (cann_math), causal."""

    @staticmethod
    def forward(ctx: object, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:  # type: ignore[override]
        ctx.save_for_backward(q, k, v)  # type: ignore[attr-defined]
        return flash_attention(q, k, v, is_causal=True)

    @staticmethod
    def backward(ctx: object, dout: torch.Tensor) -> tuple[torch.Tensor, ...]:  # type: ignore[override]
        q, k, v = ctx.saved_tensors  # type: ignore[attr-defined]
        return flash_attention_backward(q, k, v, dout, is_causal=True)


def cross_entropy(dtype: torch.dtype, cmp: Comparison) -> None:
    g = torch.Generator().manual_seed(2)
    logits = (torch.randn(24, 96, generator=g) * 2).to(dtype)
    labels = torch.randint(0, 96, (24,), generator=g)
    labels[torch.arange(24) % 4 != 3] = -100  # only every fourth position counts, as in BERT's batch

    def run(device: str) -> Tensors:
        x = logits.to(device).requires_grad_()
        reference = CannMath(autocast=True) if device == "cpu" else nullcontext()
        with torch.autocast(device, dtype=dtype), reference:
            loss = F.cross_entropy(x, labels.to(device))
        with CannMath() if device == "cpu" else nullcontext():
            (loss * 1024.0).backward()
        return {"loss": loss.detach().float().cpu(), "grad": x.grad.float().cpu() / 1024.0}

    npu, ref = run("npu"), run("cpu")
    cmp.add("loss", {"loss": npu["loss"]}, {"loss": ref["loss"]})
    cmp.add("grads", {"grad": npu["grad"]}, {"grad": ref["grad"]})


def model_step(
    build: Callable[[], torch.nn.Module],
    inputs: Callable[[str], dict[str, torch.Tensor]],
    loss_of: Callable[[torch.nn.Module, dict[str, torch.Tensor]], tuple[torch.Tensor, torch.Tensor]],
    dtype: torch.dtype,
    cmp: Comparison,
    init_scale: float = 1024.0,
) -> dict[str, object]:
    """Forward, loss, backward and one AdamW step under autocast (and GradScaler for float16)."""

    def run(device: str) -> dict[str, object]:
        torch.manual_seed(0)
        model = build().to(device).train()
        start = {n: p.detach().cpu().clone() for n, p in model.named_parameters()}
        opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
        scaler = torch.amp.GradScaler(device, init_scale=init_scale) if dtype == torch.float16 else None
        with (
            torch.autocast(device, dtype=dtype),
            CannMath(autocast=True) if device == "cpu" else nullcontext(),
        ):
            out, loss = loss_of(model, inputs(device))
        with CannMath() if device == "cpu" else nullcontext():
            (scaler.scale(loss) if scaler is not None else loss).backward()
            grads = {
                n: p.grad.detach().cpu().clone() for n, p in model.named_parameters() if p.grad is not None
            }
            if scaler is not None:
                scaler.step(opt)
                scaler.update()
            else:
                opt.step()
        params = {n: p.detach().cpu() for n, p in model.named_parameters()}
        return {
            "out": out.detach().float().cpu(), "loss": loss.detach().float().cpu(), "grads": grads,
            "params": params, "scale": scaler.get_scale() if scaler is not None else 1.0,
            "moved": max(float((p - start[n]).abs().max()) for n, p in params.items()),
        }  # fmt: skip

    npu, ref = run("npu"), run("cpu")
    cmp.add("out", {"out": npu["out"]}, {"out": ref["out"]})  # type: ignore[dict-item]
    cmp.add("loss", {"loss": npu["loss"]}, {"loss": ref["loss"]})  # type: ignore[dict-item]
    scale = float(ref["scale"])  # type: ignore[arg-type]
    ng, rg = npu["grads"], ref["grads"]
    assert isinstance(ng, dict) and isinstance(rg, dict)
    finite = all(bool(t.isfinite().all()) for t in rg.values())
    if finite:
        cmp.add("grads", {n: t / scale for n, t in ng.items()}, {n: t / scale for n, t in rg.items()})
    # Elements whose reference gradient is within its tolerance of zero: AdamW's sign is not fixed.
    undecided = {n: (t / scale).abs() <= cmp.atol for n, t in rg.items()} if finite else None
    cmp.add("params", npu["params"], ref["params"], loose=undecided)  # type: ignore[arg-type]
    return {
        "scale": [npu["scale"], ref["scale"]],
        "ref_grads_finite": finite,
        "moved": [npu["moved"], ref["moved"]],
    }


def encoder() -> torch.nn.Module:
    return torch.nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0, batch_first=True)


def encoder_inputs(device: str) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(1)
    x, target = torch.randn(2, 12, 64, generator=g), torch.randn(2, 12, 64, generator=g)
    return {"x": x.to(device), "target": target.to(device)}


def encoder_loss(
    model: torch.nn.Module, inputs: dict[str, torch.Tensor]
) -> tuple[torch.Tensor, torch.Tensor]:
    mask = torch.nn.Transformer.generate_square_subsequent_mask(12, device=inputs["x"].device)
    out = model(inputs["x"], src_mask=mask, is_causal=True)
    return out, F.mse_loss(out.float(), inputs["target"])


def hf_case(name: str) -> tuple[Callable[[], torch.nn.Module], Callable[[str], dict[str, torch.Tensor]]]:
    import hf_models

    def inputs(device: str) -> dict[str, torch.Tensor]:
        return {k: v.to(device) for k, v in hf_models.batch(name).items()}

    return (lambda: hf_models.build(name)), inputs


def hf_loss(model: torch.nn.Module, inputs: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    out = model(**inputs)
    return out.logits, out.loss


def _name(op: object) -> str:
    """`aten.sum.default` -> `sum`, `aten.log_softmax.int` -> `log_softmax.int`."""
    return str(op).removeprefix("aten.").removesuffix(".default")


def autocast_float32_ops() -> dict[str, object]:
    """cann_math's autocast rules against npu's: the output type of each operator of AUTOCAST_FLOAT32
    and AUTOCAST_SET_OPT_DTYPE these programs reach, under torch.autocast(bfloat16) on npu, from a
    bfloat16 input (`dtypes`), and with the input's type named (`explicit`); whether npu's and the
    CPU's autocast have a rule (a kernel on their autocast key) for each operator of
    AUTOCAST_SET_OPT_DTYPE and AUTOCAST_NOT_ON_NPU (`rules`)."""
    x = torch.randn(4, 8).to(torch.bfloat16).npu()
    w = torch.ones(8).npu()
    target = torch.randn(4, 8).npu()
    ops = {
        "native_layer_norm": lambda: F.layer_norm(x, (8,), w, w),
        "softmax.int": lambda: torch.softmax(x, -1),
        "log_softmax.int": lambda: torch.log_softmax(x, -1),
        "mse_loss": lambda: F.mse_loss(x, target),
        "exp": lambda: torch.exp(x),
        "rsqrt": lambda: torch.rsqrt(x.abs() + 1),
        "pow.Tensor_Scalar": lambda: x.pow(2),
        "sum": lambda: x.sum(),
    }
    explicit = {
        "softmax.int": lambda: torch.softmax(x, -1, dtype=x.dtype),
        "log_softmax.int": lambda: torch.log_softmax(x, -1, dtype=x.dtype),
        "sum": lambda: x.sum(dtype=x.dtype),
    }
    with torch.autocast("npu", dtype=torch.bfloat16):
        out = {name: str(f().dtype) for name, f in ops.items()}
        kept = {name: str(f().dtype) for name, f in explicit.items()}
    listed = {_name(op) for op in (*AUTOCAST_FLOAT32, *AUTOCAST_SET_OPT_DTYPE)}
    rules = {}
    for op in (*AUTOCAST_SET_OPT_DTYPE, *AUTOCAST_NOT_ON_NPU):
        schema = op._schema  # type: ignore[attr-defined]
        qualified = schema.name + (f".{schema.overload_name}" if schema.overload_name else "")
        rules[_name(op)] = {
            key: torch._C._dispatch_has_kernel_for_dispatch_key(qualified, key)
            for key in ("AutocastPrivateUse1", "AutocastCPU")
        }
    return {
        "dtypes": out,
        "listed": sorted(n for n in out if n in listed),
        "explicit": kept,
        "rules": rules,
        "set_opt_dtype": sorted(_name(op) for op in AUTOCAST_SET_OPT_DTYPE),
        "not_on_npu": sorted(_name(op) for op in AUTOCAST_NOT_ON_NPU),
    }


def run_case(case: str, cmp: Comparison) -> dict[str, object]:
    if case == "autocast-float32-ops":
        return autocast_float32_ops()
    what, _, dname = case.rpartition("-")
    dtype = DTYPES[dname]
    extra: dict[str, object] = {}
    if what in ("sdpa-fused", "sdpa-math"):
        sdpa(dtype, what == "sdpa-fused", cmp)
    elif what == "cross-entropy":
        cross_entropy(dtype, cmp)
    elif what == "encoder":
        extra = model_step(encoder, encoder_inputs, encoder_loss, dtype, cmp)
    elif what == "scaler-skip":
        extra = model_step(encoder, encoder_inputs, encoder_loss, dtype, cmp, init_scale=2.0**24)
    elif what in ("gpt2", "bert", "llama"):
        build, inputs = hf_case(what)
        extra = model_step(build, inputs, hf_loss, dtype, cmp)
    else:
        raise SystemExit(f"mixed_precision.py: unknown case {case!r}")
    return {**cmp.report, **extra}


def main(specs: list[str]) -> None:
    results: dict[str, object] = {}
    for spec in specs:
        case, rtol, atol = [*spec.split("@"), "0", "0"][:3]
        try:
            results[case] = run_case(case, Comparison(float(rtol), float(atol)))
        except RuntimeError as error:
            lines = [line for line in str(error).splitlines() if line.strip()]
            results[case] = {"error": " | ".join(lines[:2])}
    write_result(results)


if __name__ == "__main__":
    main(sys.argv[1:])
