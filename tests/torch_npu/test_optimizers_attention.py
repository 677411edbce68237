"""torch.optim.Adam and AdamW (foreach), causal and padding-masked scaled_dot_product_attention, a causal
TransformerEncoderLayer in eval mode and training-mode dropout on device `npu` with torch_npu: the
results match the same program on the CPU (fp32: rtol 1e-5, atol 1e-6), dropout by its statistics.
One program runs them all (a process start-up of torch costs seconds). Skipped when
`import torch, torch_npu` fails."""

from __future__ import annotations

import pytest
from torch_npu_harness import run_on_simulator

PROGRAM = """
import torch, torch_npu
import torch.nn.functional as F
from adam_compare import params_match, undecided
from result_line import write_result
r = {}
for name in ["adam", "adamw"]:
  x, y = torch.randn(5, 8, generator=torch.Generator().manual_seed(1)), torch.randn(5, 4)
  params, grads = {}, {}
  runs = [("cpu", "cpu", torch.float32), ("npu", "npu", torch.float32), ("float64", "cpu", torch.float64)]
  for run, dev, dt in runs:
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU("tanh"), torch.nn.Linear(16, 4)).to(dev, dt)
    cls = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[name]
    opt = cls(m.parameters(), lr=1e-2, weight_decay=0.1 if name == "adamw" else 0.0, foreach=True)
    grads[run] = []
    for _ in range(3):
      opt.zero_grad()
      F.mse_loss(m(x.to(dev, dt)), y.to(dev, dt)).backward()
      grads[run].append({n: p.grad.detach().cpu().float() for n, p in m.named_parameters()})
      opt.step()
    params[run] = {n: p.detach().cpu().float() for n, p in m.named_parameters()}
  free = undecided(grads["cpu"], 1e-6)
  r[name] = params_match(params["npu"], params["cpu"], free, 1e-5, 1e-6, 1e-2, 3)
  # each run against the same program in float64 (closer to exact arithmetic), at the plain tolerance
  for run in ("cpu", "npu"):
    r[name][run + "_vs_float64"] = params_match(params[run], params["float64"], {}, 1e-5, 1e-6, 1e-2, 3)
  r[name]["grads"] = all(torch.allclose(a[n], b[n], rtol=1e-5, atol=1e-6)
                         for a, b in zip(grads["npu"], grads["cpu"]) for n in a)
torch.manual_seed(0)
q, k, v = (torch.randn(2, 4, 8, 16) for _ in range(3))
ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
got = F.scaled_dot_product_attention(q.npu(), k.npu(), v.npu(), is_causal=True).cpu()
layer = torch.nn.TransformerEncoderLayer(32, 4, 64, batch_first=True).eval()
x = torch.randn(2, 8, 32)
mask = torch.nn.Transformer.generate_square_subsequent_mask(8)
ref2 = layer(x, src_mask=mask, is_causal=True)
got2 = layer.npu()(x.npu(), src_mask=mask.npu(), is_causal=True).cpu()
m = torch.ones(2, 1, 8, 8, dtype=torch.bool)
m[:, :, :, 6:] = False  # padding: the last two keys of every row are masked out
ref3 = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
got3 = F.scaled_dot_product_attention(q.npu(), k.npu(), v.npu(), attn_mask=m.npu()).cpu()
r["sdpa"] = torch.allclose(ref, got, rtol=1e-5, atol=1e-6)
r["sdpa_padding"] = torch.allclose(ref3, got3, rtol=1e-5, atol=1e-6)
r["encoder"] = torch.allclose(ref2, got2, rtol=1e-5, atol=1e-6)
x = torch.ones(1000, 100).npu()
torch.manual_seed(0)
a = F.dropout(x, p=0.3, training=True).cpu()
b = F.dropout(x, p=0.3, training=True).cpu()
torch.manual_seed(0)
c = F.dropout(x, p=0.3, training=True).cpu()
r["dropout"] = {"kept": (a != 0).sum().item(), "values": sorted(set(a.unique().tolist())),
                "same_seed": bool(torch.equal(a, c)), "next_differs": bool((a != b).any())}
write_result(r)
"""


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return run_on_simulator(PROGRAM)


# With GELU's tanh form (the form CANN's Gelu computes) the gradients of all three steps match the CPU's
# within rtol 1e-5 / atol 1e-6, but before adam_compare's rule the AdamW run's parameters did not all
# (a strict expected failure): one first-layer weight's first gradient is -3.42e-7 in float64, -3.433e-7
# on the CPU and -3.396e-7 on npu (rounding errors of 1.1e-9 and 2.6e-9 in a sum of terms about 1e-2),
# and AdamW, which divides by the gradient's own magnitude, turns these into parameters 9.2e-7 (CPU)
# and 2.1e-6 (npu) from the float64 run's, on either side: 3.0e-6 apart, beyond the 2.5e-6 the plain
# tolerance allows (measured 2026-12-07). So parameters are compared by adam_compare's rule: elements
# whose CPU gradient is within the gradient tolerance of zero at some step within 2·lr per step, all
# others at rtol 1e-5 / atol 1e-6; and each run must be within the plain tolerance of the float64 run.
@pytest.mark.parametrize("optimizer", ["adam", "adamw"])
def test_adam_and_adamw_steps_match_the_cpu(results: dict[str, object], optimizer: str) -> None:
    out = results[optimizer]
    assert isinstance(out, dict)
    assert out["grads"] is True, out
    assert out["match"] is True, out
    for run in ("cpu", "npu"):
        assert out[run + "_vs_float64"]["plain_match"] is True, out


def test_adamw_moves_a_rounding_level_gradient_element_either_way(results: dict[str, object]) -> None:
    """The reason for the rule: npu and CPU are each within the plain tolerance of the float64 run, yet
    beyond it of each other, and only in elements whose gradient is below the gradient tolerance."""
    out = results["adamw"]
    assert isinstance(out, dict)
    assert out["plain_match"] is False and out["beyond_in_free"] == sum(out["beyond"].values()) > 0, out


def test_causal_and_padding_attention_match_the_cpu(results: dict[str, object]) -> None:
    assert results["sdpa"] is True and results["encoder"] is True and results["sdpa_padding"] is True


def test_training_mode_dropout_keeps_about_one_minus_p(results: dict[str, object]) -> None:
    out = results["dropout"]
    assert isinstance(out, dict)
    n, keep = 100000, 0.7
    assert abs(out["kept"] - n * keep) < 3 * (n * keep * (1 - keep)) ** 0.5, out
    assert out["values"] == [0.0, pytest.approx(1 / keep)]
    assert out["same_seed"] and out["next_differs"]
