"""Activations and normalisations on device `npu` with their backward: F.mish, F.softplus (beta and
threshold), nn.RMSNorm and nn.GroupNorm match the CPU (fp32: rtol 1e-5, atol 1e-6) in output, input
gradient and parameter gradients, as does cross-entropy with ignore_index and label smoothing (which
sums an integer tensor). One program runs them all. Skipped when `import torch, torch_npu` fails."""

from __future__ import annotations

import pytest
from torch_npu_harness import run_on_simulator

PROGRAM = """
import torch, torch_npu
import torch.nn as nn, torch.nn.functional as F
from cpu_vs_npu import Results, function_run, module_run
g = torch.Generator().manual_seed(3)
x = torch.randn(4, 8, 5, generator=g)
target = torch.tensor([1, 2, -100, 7])
modules = {"rmsnorm": lambda: nn.RMSNorm(5), "groupnorm": lambda: nn.GroupNorm(4, 8)}
functions = {
    "mish": F.mish,
    "softplus": lambda t: F.softplus(t, beta=2.0, threshold=3.0),
    "cross_entropy": lambda t: F.cross_entropy(t.sum(-1), target.to(t.device), ignore_index=-100,
                                               label_smoothing=0.1),
}
r = Results()
for name, fn in functions.items():
    r.compare(name, function_run(fn, x))
for name, build in modules.items():
    r.compare(name, module_run(build, x))
r.write()
"""


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return run_on_simulator(PROGRAM)


@pytest.mark.parametrize("name", ["mish", "softplus", "rmsnorm", "groupnorm", "cross_entropy"])
def test_forward_and_backward_match_the_cpu(results: dict[str, object], name: str) -> None:
    assert results[name] is True, results
