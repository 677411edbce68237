"""Reductions, data-dependent selections and losses on device `npu` against the CPU (fp32: rtol 1e-5, atol
1e-6), forward and backward: amax / amin, max / min with a dim (values and indices), prod (all and over a
dimension), var / std / var_mean / std_mean with a correction, logsumexp; x[mask], masked_select, nonzero
(their shapes come back from the device after a synchronisation); smooth_l1, l1, binary_cross_entropy (with
a weight), binary_cross_entropy_with_logits (with a pos_weight), kl_div (both target forms); index_select,
index_add, index_fill, roll, one_hot; trigonometric and hyperbolic functions, atan2, fmod / remainder /
floor_divide, logaddexp, x ** y, softshrink / hardshrink, bitwise or / xor. One program runs them all, each
in a try so that one failure names itself. Skipped when `import torch, torch_npu` fails."""

from __future__ import annotations

import pytest
from torch_npu_harness import run_on_simulator

pytestmark = pytest.mark.slow  # one program of about 20 s: torch's import, some 60 operators on both devices

PROGRAM = """
import torch, torch_npu
import torch.nn.functional as F
from cpu_vs_npu import Results, function_run
g = torch.Generator().manual_seed(7)
x = torch.randn(4, 5, 6, generator=g)
t = torch.randn(4, 5, 6, generator=g)
p = torch.rand(4, 5, 6, generator=g) * 0.9 + 0.05
rows = torch.tensor([4, 0, 2, 4])
labels = (torch.rand(4, 5, 6, generator=g) > 0.5).float()
w = torch.rand(5, 6, generator=g) + 0.5
functions = {
    "amax_amin": lambda a: a.amax((0, 2)) + a.amin(-1, keepdim=True).sum() + a.amax(),
    "max_min_dim": lambda a: a.max(1)[0] * 2 + a.min(-1, keepdim=True)[0].sum(1) + a.max(1)[1]
    + a.min(0)[1].sum(),
    "prod": lambda a: a.prod(1) + (a * 0.5 + 1).prod() * 0.0 + a.prod(-1, keepdim=True).sum(),
    "var_std": lambda a: a.var(1) + a.std((0, 2), keepdim=True).sum() + a.var(correction=0) + a.std(),
    "var_mean_std_mean": lambda a: sum(v.sum() for v in torch.var_mean(a, 2) + torch.std_mean(a, (0, 1))),
    "logsumexp": lambda a: a.logsumexp(1),
    "logsumexp_beyond_float_exp": lambda a: (a * 30).logsumexp((0, 2)),
    "boolean_index": lambda a: a[a > 0.3] * 2,
    "masked_select": lambda a: torch.masked_select(a, (a < 0)[0]) * 3,
    "smooth_l1": lambda a: F.smooth_l1_loss(a, t.to(a.device), beta=0.5)
    + F.smooth_l1_loss(a, t.to(a.device), reduction="none").sum(),
    "l1": lambda a: F.l1_loss(a, t.to(a.device)) + F.l1_loss(a, t.to(a.device), reduction="sum"),
    "bce": lambda a: F.binary_cross_entropy(torch.sigmoid(a), labels.to(a.device), weight=w.to(a.device)),
    "bce_with_logits": lambda a: F.binary_cross_entropy_with_logits(
        a, labels.to(a.device), pos_weight=w[0].to(a.device)),
    "index_ops": lambda a: a.index_select(1, rows.to(a.device)) * 2
    + a.index_add(2, rows.to(a.device) % 6, a[:, :, :4], alpha=0.5).sum(1, keepdim=True)
    + a.index_fill(1, rows.to(a.device)[:2], 0.25).roll((1, -2), (0, 2))[:, :4],
    "trigonometric": lambda a: (a * 0.4).tan() + (a * 0.3).clamp(-0.9, 0.9).asin() + a.atan() + a.sinh()
    + a.cosh() + a.asinh() + torch.atan2(a, t.to(a.device)),
    "division": lambda a: torch.fmod(a * 5, 1.5) + torch.remainder(a * 5, -1.5)
    + torch.floor_divide(a.detach() * 5, 1.5) + a.frac() + torch.logaddexp(a, t.to(a.device))
    + (a.abs() + 0.5) ** t.to(a.device),
    "shrink": lambda a: F.softshrink(a, 0.5) + F.hardshrink(a, 0.5) * torch.sigmoid(a),
    "kl_div": lambda a: F.kl_div(F.log_softmax(a, -1), p.to(a.device), reduction="batchmean")
    + F.kl_div(a, t.to(a.device), reduction="sum", log_target=True) * 1e-3,
}
r = Results()
for name, fn in functions.items():
    r.compare(name, function_run(fn, x), equal_nan=True)
i = (x * 10).to(torch.int64)
checks = [lambda v: v | 5, lambda v: v ^ v.flip(0), lambda v: (v > 0) ^ (v < 3), lambda v: v % 7,
          lambda v: v // -3]
r.compare("bitwise", lambda dev: [f(i.to(dev)).cpu() for f in checks], exact=True)
r.compare("one_hot", lambda dev: [F.one_hot(rows.to(dev), 6).cpu()], exact=True)
r.compare("nonzero", lambda dev: [torch.nonzero(x.to(dev) > 0.5).cpu()], exact=True)
r.write()
"""

NAMES = [
    "amax_amin", "max_min_dim", "prod", "var_std", "var_mean_std_mean", "logsumexp",
    "logsumexp_beyond_float_exp",
    "boolean_index", "masked_select",
    "nonzero", "smooth_l1", "l1", "bce", "bce_with_logits", "kl_div", "index_ops", "trigonometric",
    "division", "shrink", "bitwise", "one_hot",
]  # fmt: skip


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return run_on_simulator(PROGRAM)


@pytest.mark.parametrize("name", NAMES)
def test_matches_the_cpu(results: dict[str, object], name: str) -> None:
    assert results[name] is True, results
