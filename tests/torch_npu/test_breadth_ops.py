"""Operator families on device `npu` against the CPU (fp32: rtol 1e-5, atol 1e-6), forward and
backward: piecewise activations (hardswish, hardsigmoid, leaky ReLU, ELU / SELU / CELU, hardtanh),
BatchNorm1d / BatchNorm2d in training (running statistics included) and eval,
cross-entropy with ignore_index and label smoothing, element-wise maths and comparisons, and the
tensor operations cumsum / argmax / argmin / where / gather / scatter_add / stack / repeat / arange,
advanced indexing (and its backward, index_put with accumulate), sort / topk, randint (its range),
max and average pooling; and three SGD steps of an MLP with BatchNorm1d and of a convolution-free
CNN (BatchNorm2d, MaxPool2d, AvgPool2d, AdaptiveAvgPool2d, Linear).
One program runs them all, each in a try so that one failure names itself. Skipped when
`import torch, torch_npu` fails."""

from __future__ import annotations

import pytest
from torch_npu_harness import run_on_simulator

PROGRAM = """
import torch, torch_npu
import torch.nn as nn, torch.nn.functional as F
from cpu_vs_npu import Results, function_run, module_run
g = torch.Generator().manual_seed(5)
x = torch.randn(6, 4, 5, generator=g) * 2
image = torch.randn(3, 4, 5, 5, generator=g)
target = torch.tensor([1, 3, -100, 0, 2, -100])
index = torch.randint(0, 5, (6, 4, 5), generator=g)
rows, cols = torch.tensor([0, 5, 2, 2]), torch.tensor([[3, 0], [1, 1]])
functions = {
    "hardswish": F.hardswish,
    "hardsigmoid": F.hardsigmoid,
    "leaky_relu": lambda t: F.leaky_relu(t, 0.2),
    "elu": lambda t: F.elu(t, 1.3),
    "selu": F.selu,
    "celu": lambda t: F.celu(t, 0.7),
    "hardtanh": lambda t: F.hardtanh(t, -1.5, 2.0),
    "cross_entropy": lambda t: F.cross_entropy(t.sum(-1), target.to(t.device), ignore_index=-100,
                                               label_smoothing=0.1),
    "nll_ignore_index": lambda t: F.nll_loss(F.log_softmax(t.sum(-1), -1), target.to(t.device)),
    "math": lambda t: t.abs().log1p() + t.sin() * t.cos() + t.erf() + t.clamp(-1, 1).expm1(),
    "compare_where": lambda t: torch.where(t > 0.5, t, torch.maximum(t, torch.zeros_like(t)) * 0.5),
    "cumsum": lambda t: t.cumsum(1),
    "max_pool2d": lambda t: F.max_pool2d(t, 2),
    "max_pool2d_padded": lambda t: F.max_pool2d(t, 3, 2, 1, ceil_mode=True),
    "avg_pool2d": lambda t: F.avg_pool2d(t, 3, 2, 1, count_include_pad=False),
    "gather_scatter_add": lambda t: torch.zeros(6, 4, 7, device=t.device).scatter_add(
        2, index.to(t.device), t.gather(2, index.to(t.device))),
    "stack_repeat": lambda t: torch.stack([t, t * 2], 1).repeat(1, 1, 2, 1),
    "advanced_index": lambda t: t[rows.to(t.device)] * 2 + t[:, cols.to(t.device)].sum(),
    "sort_topk": lambda t: torch.sort(t, -1)[0] + t.topk(2, 1)[0].sum(),
}
image_inputs = {"batchnorm2d", "batchnorm2d_eval", "max_pool2d", "max_pool2d_padded", "avg_pool2d"}
def evaluating(norm):
    norm.eval()
    norm.running_mean.copy_(torch.linspace(-0.5, 0.5, 4))
    norm.running_var.copy_(torch.linspace(0.5, 2.0, 4))
    return norm
modules = {
    "batchnorm1d": lambda: nn.BatchNorm1d(4),
    "batchnorm2d": lambda: nn.BatchNorm2d(4),
    "batchnorm2d_eval": lambda: evaluating(nn.BatchNorm2d(4)),
}
r = Results()
for name, fn in functions.items():
    r.compare(name, function_run(fn, image if name in image_inputs else x))
for name, build in modules.items():
    r.compare(name, module_run(build, image if name in image_inputs else x))
r.compare("argmax_argmin", lambda dev: [x.to(dev).argmax(1).cpu(), x.to(dev).argmin(-1).cpu(),
                                         x.to(dev).argmax().cpu()], exact=True)
with r.case("randint"):
    drawn = torch.randint(-2, 5, (500,), device="npu").cpu()
    r["randint"] = bool(drawn.min() == -2 and drawn.max() == 4 and drawn.dtype == torch.int64)
r.compare("arange", lambda dev: [torch.arange(2, 11, 3, device=dev).cpu()], exact=True)
def sgd_losses(model, data, labels, **options):  # the cross-entropy losses of three SGD steps (lr 0.1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(model(data), labels, **options)
        loss.backward()
        opt.step()
        losses.append(loss.detach().cpu())
    return losses
def pooling_cnn(dev):
    torch.manual_seed(1)
    model = nn.Sequential(nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.AvgPool2d(2),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 5)).to(dev)
    data = torch.randn(3, 4, 8, 8, generator=torch.Generator().manual_seed(4)).to(dev)
    losses = sgd_losses(model, data, torch.tensor([0, 3, 1]).to(dev))
    return [*losses, *(p.detach().cpu() for p in model.parameters()), model[0].running_var.cpu()]
def bn_mlp(dev):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(10, 16), nn.BatchNorm1d(16), nn.Hardswish(), nn.Linear(16, 5)).to(dev)
    data = torch.randn(8, 10, generator=torch.Generator().manual_seed(2)).to(dev)
    labels = torch.tensor([0, 1, 2, 3, 4, 0, -100, 2]).to(dev)
    losses = sgd_losses(model, data, labels, ignore_index=-100, label_smoothing=0.05)
    return [*losses, *(p.detach().cpu() for p in model.parameters()), model[1].running_mean.cpu(),
            model[1].running_var.cpu()]
r.compare("pooling_cnn_training", pooling_cnn)
r.compare("bn_mlp_training", bn_mlp)
r.write()
"""

NAMES = [
    "hardswish", "hardsigmoid", "leaky_relu", "elu", "selu", "celu", "hardtanh",
    "cross_entropy", "nll_ignore_index", "math", "compare_where", "cumsum",
    "batchnorm1d", "batchnorm2d", "batchnorm2d_eval", "argmax_argmin", "bn_mlp_training",
    "max_pool2d", "max_pool2d_padded", "avg_pool2d", "gather_scatter_add", "stack_repeat", "arange",
    "pooling_cnn_training", "advanced_index", "sort_topk", "randint",
]  # fmt: skip


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return run_on_simulator(PROGRAM)


@pytest.mark.parametrize("name", NAMES)
def test_matches_the_cpu(results: dict[str, object], name: str) -> None:
    assert results[name] is True, results
