"""The reference the precision programs compare device `npu` with: the same program on the CPU,
computed with CANN's arithmetic instead of the CPU's.

`CannMath` is a dispatch mode for CPU runs. Inside it:

- float16 and bfloat16 operators compute as CANN's kernels do: the inputs (already float16 or
  bfloat16) are widened to float32, the operator computes in float32 (matmul, convolution,
  reductions, softmax and normalisations accumulate in float32) and each result is rounded once to
  its type. CANN's vector units compute in float32 and the cube units take float16/bfloat16 inputs
  with a float32 accumulator (ops-transformer's FlashAttentionScore design notes; the operator
  documents of ops-nn). The CPU's own kernels differ: some accumulate in the low type, some round
  intermediate results.
- the fused attention (`F.scaled_dot_product_attention` on its fused path, CANN's
  aclnnFlashAttentionScore) computes as the FlashAttentionScore design notes write: the scores
  Q·Kᵀ in float32 (cube, float32 out), the softmax in float32 (vector), the unnormalised
  probabilities rounded to the input type before the product with V (the cube's inputs are
  float16/bfloat16), the product accumulated in float32, the division by the row sum in float32,
  one rounding of the output; its backward rounds the probabilities before dV and dS before dQ
  and dK (flash_attention_backward).
- GELU's erf form (`approximate="none"`) computes the tanh form, as CANN's Gelu kernel does
  (torch_npu 2.13 sends both forms to aclnnGelu; docs/torch_npu.md, "GELU (both forms)").
- under `torch.autocast` (`CannMath(autocast=True)`, entered inside the autocast region), the CPU's
  autocast takes device `npu`'s rules (torch_npu's `AutocastPrivateUse1` registrations, Ascend/pytorch
  `torch_npu/csrc/aten/AutoCastOps.cpp`, CUDA's lists) where the two differ, for the operators these
  programs reach (`autocast_float32_ops` in mixed_precision.py checks each against npu's dispatch
  table):
  - the operators npu's autocast runs in float32 (AUTOCAST_FLOAT32; the CPU's runs some of them in
    the low type) return float32 (a dispatch-level rule: their low-type inputs are widened);
  - softmax, log-softmax, sum and cumsum (AUTOCAST_SET_OPT_DTYPE, npu's `fp32_set_opt_dtype` policy)
    compute in float32 only when no `dtype` is given: an explicit dtype is kept. This needs the
    autocast level (a dispatch mode cannot tell `log_softmax(x, d)` from `log_softmax(x, d,
    dtype=x.dtype)`), so these are kernels registered on the CPU's autocast key while the mode is
    entered;
  - `cross_entropy_loss` (AUTOCAST_NOT_ON_NPU): the CPU's autocast casts it to float32, npu's has no
    rule for it, so there it decomposes under autocast into `log_softmax(x, d, dtype=x.dtype)`, in
    the low type, and `nll_loss`, in float32. The reference drops the CPU's rule (a fallthrough).
    Measured: BERT's masked-LM loss (`F.cross_entropy` of float16 logits) otherwise took float32
    log-probabilities on the CPU and float16 ones on npu, and 34 % of BERT's float16 gradients were
    identical.

Views and operators without a float16/bfloat16 input run unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch
import torch.library
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten, tree_map

aten = torch.ops.aten
LOW = (torch.float16, torch.bfloat16)

# Operators `torch.autocast` on device npu computes in float32 (its `fp32` policy; dispatch names).
AUTOCAST_FLOAT32 = {
    aten.native_layer_norm.default,
    aten.native_group_norm.default,
    aten.mse_loss.default,
    aten.nll_loss_forward.default,
    aten.exp.default,
    aten.log.default,
    aten.rsqrt.default,
    aten.pow.Tensor_Scalar,
    aten.pow.Tensor_Tensor,
    aten.softplus.default,
    aten.logsumexp.default,
}
# Operators npu's autocast computes in float32 when no dtype is given (its `fp32_set_opt_dtype`
# policy; autocast-level names, as registered on the CPU's autocast key while CannMath is entered).
AUTOCAST_SET_OPT_DTYPE = (
    aten.softmax.int,
    aten.log_softmax.int,
    aten.sum.default,
    aten.sum.dim_IntList,
    aten.cumsum.default,
)
# Operators the CPU's autocast casts and npu's leaves alone (no AutocastPrivateUse1 kernel).
AUTOCAST_NOT_ON_NPU = (aten.cross_entropy_loss.default,)
GELU = (aten.gelu.default, aten.gelu_backward.default)
# Backward operators with the forward's input type as an argument (its position): widened with it.
INPUT_DTYPE_ARG = {aten._softmax_backward_data.default: 3, aten._log_softmax_backward_data.default: 3}
FLASH = aten._scaled_dot_product_flash_attention_for_cpu.default
FLASH_BACKWARD = aten._scaled_dot_product_flash_attention_for_cpu_backward.default


def flash_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    is_causal: bool = False,
    attn_mask: torch.Tensor | None = None,
    scale: float | None = None,
) -> torch.Tensor:
    """CANN's FlashAttentionScore rule ([B, N, S, D] inputs; masks additive or boolean)."""
    dtype = q.dtype
    qf, kf, vf = q.float(), k.float(), v.float()
    if kf.shape[1] != qf.shape[1]:  # grouped-query attention: each key head serves a group of query heads
        kf = kf.repeat_interleave(qf.shape[1] // kf.shape[1], dim=1)
        vf = vf.repeat_interleave(qf.shape[1] // vf.shape[1], dim=1)
    s = (qf @ kf.transpose(-1, -2)) * (scale if scale is not None else 1.0 / math.sqrt(q.shape[-1]))
    if is_causal:
        s = s.masked_fill(torch.ones(s.shape[-2:], dtype=torch.bool).triu(1), -math.inf)
    if attn_mask is not None:
        s = s.masked_fill(~attn_mask, -math.inf) if attn_mask.dtype == torch.bool else s + attn_mask.float()
    peak = s.amax(-1, keepdim=True).clamp_min(torch.finfo(torch.float32).min)
    p = torch.exp(s - peak)
    total = p.sum(-1, keepdim=True)
    p_low = p.to(dtype).float() if dtype in LOW else p  # the cube's input type
    out = (p_low @ vf) / total
    return out.to(dtype)


def flash_attention_backward(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    dout: torch.Tensor,
    is_causal: bool = False,
    attn_mask: torch.Tensor | None = None,
    scale: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """CANN's FlashAttentionScoreGrad rule: P recomputed in float32; dV = Pᵀ·dO with P rounded to the
    input type (a cube input); dP = dO·Vᵀ in float32; dZ = scale·P·(dP - rowsum(P·dP)) in float32,
    rounded to the input type before dQ = dZ·K and dK = dZᵀ·Q (cube inputs); each gradient
    accumulated in float32 (key heads shared by a group of query heads sum the group's) and rounded
    once."""
    dtype, heads, kv_heads = q.dtype, q.shape[1], k.shape[1]
    qf, kf, vf, dof = q.float(), k.float(), v.float(), dout.float()
    kf, vf = (t.repeat_interleave(heads // kv_heads, dim=1) for t in (kf, vf))
    scale = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    s = (qf @ kf.transpose(-1, -2)) * scale
    if is_causal:
        s = s.masked_fill(torch.ones(s.shape[-2:], dtype=torch.bool).triu(1), -math.inf)
    if attn_mask is not None:
        s = s.masked_fill(~attn_mask, -math.inf) if attn_mask.dtype == torch.bool else s + attn_mask.float()
    p = torch.softmax(s, -1).nan_to_num()
    cube = (lambda t: t.to(dtype).float()) if dtype in LOW else (lambda t: t)
    dv = cube(p).transpose(-1, -2) @ dof
    dp = dof @ vf.transpose(-1, -2)
    dz = cube(scale * p * (dp - (p * dp).sum(-1, keepdim=True)))
    dq, dk = dz @ kf, dz.transpose(-1, -2) @ qf
    grouped = [t.unflatten(1, (kv_heads, heads // kv_heads)).sum(2) for t in (dk, dv)]
    return dq.to(dtype), grouped[0].to(dtype), grouped[1].to(dtype)


def _set_opt_dtype(op: Any) -> Callable[..., Any]:
    """npu's `fp32_set_opt_dtype` autocast policy for `op`: a float16/bfloat16 first input computes
    in float32 unless the call names a dtype; then the op runs below the autocast key."""
    position = [a.name for a in op._schema.arguments].index("dtype")
    below = torch._C.DispatchKeySet(torch._C.DispatchKey.AutocastCPU)

    def kernel(*args: Any, **kwargs: Any) -> Any:
        given = args[position] if position < len(args) else kwargs.get("dtype")
        if given is None and isinstance(args[0], torch.Tensor) and args[0].dtype in LOW:
            if position < len(args):
                args = (*args[:position], torch.float32, *args[position + 1 :])
            else:
                kwargs = {**kwargs, "dtype": torch.float32}
        with torch._C._ExcludeDispatchKeyGuard(below):
            return op(*args, **kwargs)

    return kernel


def npu_autocast_rules() -> torch.library.Library:
    """Registers npu's autocast rules on the CPU's autocast key (module docstring); they hold until
    the returned library is destroyed (`_destroy()`), which restores the CPU's own."""
    lib = torch.library.Library("aten", "IMPL")
    for op in AUTOCAST_SET_OPT_DTYPE:
        lib.impl(op, _set_opt_dtype(op), "AutocastCPU")
    for op in AUTOCAST_NOT_ON_NPU:
        lib.impl(op, torch.library.fallthrough_kernel, "AutocastCPU")
    return lib


def _low_inputs(args: Any, kwargs: Any) -> list[torch.Tensor]:
    flat, _ = tree_flatten((args, kwargs))
    return [t for t in flat if isinstance(t, torch.Tensor) and t.dtype in LOW]


def _widen(x: Any) -> Any:
    return x.float() if isinstance(x, torch.Tensor) and x.dtype in LOW else x


def _meta(x: Any) -> Any:
    return x.to("meta") if isinstance(x, torch.Tensor) else x


class CannMath(TorchDispatchMode):
    """CPU operators computed with CANN's arithmetic (module docstring)."""

    def __init__(self, gelu_tanh: bool = True, autocast: bool = False) -> None:
        """`autocast`: the code inside runs under torch.autocast (a dispatch mode cannot ask: inside
        it `torch.is_autocast_enabled()` is False); enter it for the forward only, as autocast does
        not reach the backward."""
        super().__init__()
        self.gelu_tanh = gelu_tanh
        self.autocast = autocast
        self._rules: torch.library.Library | None = None

    def __enter__(self) -> CannMath:
        if self.autocast:
            self._rules = npu_autocast_rules()
        return super().__enter__()

    def __exit__(self, *exc: object) -> None:
        super().__exit__(*exc)
        if self._rules is not None:
            self._rules._destroy()
            self._rules = None

    def __torch_dispatch__(
        self,
        func: Callable[..., Any],
        types: Any,
        args: tuple[Any, ...] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        kwargs = kwargs or {}
        if self.gelu_tanh and func in GELU and kwargs.get("approximate", "none") == "none":
            kwargs = {**kwargs, "approximate": "tanh"}
        if func is FLASH:
            q, k, v = args[:3]
            out = flash_attention(
                q, k, v, is_causal=bool(args[4]) if len(args) > 4 else kwargs.get("is_causal", False),
                attn_mask=kwargs.get("attn_mask"), scale=kwargs.get("scale"),
            )  # fmt: skip
            _, lse = func(*args, **kwargs)  # the saved statistics the backward reads
            return out, lse
        if func is FLASH_BACKWARD:  # (grad_out, q, k, v, out, logsumexp, dropout_p, is_causal, ...)
            grad_out, q, k, v = args[:4]
            causal = bool(args[7]) if len(args) > 7 else kwargs.get("is_causal", False)
            mask, scale = kwargs.get("attn_mask"), kwargs.get("scale")
            return flash_attention_backward(q, k, v, grad_out, is_causal=causal, attn_mask=mask, scale=scale)
        low = _low_inputs(args, kwargs)
        if not low or getattr(func, "is_view", False):
            return func(*args, **kwargs)
        if func in AUTOCAST_FLOAT32 and self.autocast:
            return func(*tree_map(_widen, args), **tree_map(_widen, kwargs))
        try:  # the result types the operator has on its own inputs
            expected = func(*tree_map(_meta, args), **tree_map(_meta, kwargs))
        except (NotImplementedError, RuntimeError):
            expected = None
        wide_args, wide_kwargs = tree_map(_widen, args), tree_map(_widen, kwargs)
        if func in INPUT_DTYPE_ARG and wide_args[INPUT_DTYPE_ARG[func]] in LOW:
            at = INPUT_DTYPE_ARG[func]
            wide_args = (*wide_args[:at], torch.float32, *wide_args[at + 1 :])
        result = func(*wide_args, **wide_kwargs)
        # In-place operators and out= arguments: the widened copies were written; store them back.
        schema = func._schema  # type: ignore[attr-defined]
        for i, arg in enumerate(schema.arguments):
            if arg.alias_info is None or not arg.alias_info.is_write:
                continue
            original = args[i] if i < len(args) else kwargs.get(arg.name)
            wide = wide_args[i] if i < len(args) else wide_kwargs.get(arg.name)
            pairs = (
                zip(original, wide, strict=True) if isinstance(original, list | tuple) else [(original, wide)]
            )
            for o, w in pairs:
                if isinstance(o, torch.Tensor) and o is not w:
                    o.copy_(w)  # one rounding to the argument's type
        if schema.returns and schema.returns[0].alias_info is not None:
            return args[0] if result is wide_args[0] or isinstance(result, torch.Tensor) else result
        return _round_like(result, expected, low[0].dtype)


def _round_like(result: Any, expected: Any, fallback: torch.dtype) -> Any:
    if isinstance(result, tuple | list):
        exp = expected if isinstance(expected, tuple | list) else [None] * len(result)
        return type(result)(_round_like(r, e, fallback) for r, e in zip(result, exp, strict=True))
    if not isinstance(result, torch.Tensor) or not result.is_floating_point():
        return result
    dtype = expected.dtype if isinstance(expected, torch.Tensor) else fallback
    return result.to(dtype) if result.dtype != dtype else result
