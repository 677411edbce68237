"""The operators op-plugin routes to aclnnNLLLoss2d(Backward), aclnnNorm, aclnnGlu(Backward),
aclnnCumprod, aclnnReflectionPad2d, aclnnReplicationPad2d, aclnnAdaptiveAvgPool2d and
aclnnInplaceSigmoid/Tanh, and layer_norm in torch_npu's compatible mode (TORCH_NPU_USE_COMPATIBLE_IMPL=1:
aclnnFastLayerNorm), on device `npu` against the CPU (fp32: rtol 1e-5, atol 1e-6), forward and backward
(padding and adaptive pooling: forward only).
A second run with the operator's first phase failing shows that torch_npu reaches that operator (and
not a fallback). Skipped when `import torch, torch_npu` fails."""

from __future__ import annotations

import pytest
from torch_npu_harness import run_on_simulator

PROGRAM = """
import torch, torch_npu
import torch.nn.functional as F
from cpu_vs_npu import Results, function_run
g = torch.Generator().manual_seed(7)
x = torch.randn(2, 4, 6, 6, generator=g)
target = torch.randint(0, 4, (2, 6, 6), generator=g)
target[0, 1, 1] = -100
functions = {
    "nll_loss2d": lambda t: F.nll_loss(F.log_softmax(t, 1), target.to(t.device)),
    "nll_loss2d_none": lambda t: F.nll_loss(t, target.to(t.device), reduction="none"),
    "cross_entropy_2d": lambda t: F.cross_entropy(t, target.to(t.device), reduction="sum"),
    "norm": lambda t: torch.ops.aten.norm.ScalarOpt_dim(t, 3, [1, 2], False),
    "norm_fro": lambda t: torch.norm(t, "fro", dim=(2, 3)),
    "glu": lambda t: F.glu(t, 1),
    "cumprod": lambda t: torch.cumprod(t * 0.5 + 1, 2),
    "reflection_pad2d": lambda t: F.pad(t, (2, 1, 0, 3), mode="reflect"),
    "replication_pad2d": lambda t: F.pad(t, (2, 1, 0, 3), mode="replicate"),
    "adaptive_avg_pool2d": lambda t: F.adaptive_avg_pool2d(t, (4, 3)),
    "sigmoid_tanh_inplace": lambda t: (t * 1).sigmoid_() + (t * 2).tanh_(),
    "layer_norm": lambda t: F.layer_norm(t, (6, 6), torch.linspace(0.5, 1.5, 36).reshape(6, 6).to(t.device),
                                         torch.linspace(-1, 1, 36).reshape(6, 6).to(t.device)),
}
# Forward only: their backward operators (aclnnReflectionPad2dBackward, aclnnReplicationPad2dBackward,
# aclnnAdaptiveAvgPool2dBackward) are not in the simulator, so torch_npu takes the aclop path: the
# padding's PadV3Grad runs there (checked in test_image_statistics_ops.py), AdaptiveAvgPool2dGrad does not.
forward_only = {"reflection_pad2d", "replication_pad2d", "adaptive_avg_pool2d"}
r = Results()
for name, fn in functions.items():
    r.compare(name, function_run(fn, x, backward=name not in forward_only))
r.write()
"""

NAMES = [
    "nll_loss2d", "nll_loss2d_none", "cross_entropy_2d", "norm", "norm_fro", "glu", "cumprod",
    "reflection_pad2d", "replication_pad2d", "adaptive_avg_pool2d", "sigmoid_tanh_inplace", "layer_norm",
]  # fmt: skip

# The operator each result reaches: with its first phase failing (161002) the result is an error.
REACHES = {
    "nll_loss2d": "aclnnNLLLoss2d",
    "norm": "aclnnNorm",
    "glu": "aclnnGlu",
    "cumprod": "aclnnCumprod",
    "reflection_pad2d": "aclnnReflectionPad2d",
    "replication_pad2d": "aclnnReplicationPad2d",
    "adaptive_avg_pool2d": "aclnnAdaptiveAvgPool2d",
    "sigmoid_tanh_inplace": "aclnnInplaceSigmoid",
    "layer_norm": "aclnnFastLayerNorm",
}
COMPATIBLE = {"TORCH_NPU_USE_COMPATIBLE_IMPL": "1"}


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return run_on_simulator(PROGRAM, **COMPATIBLE)


@pytest.fixture(scope="module")
def failing() -> dict[str, object]:
    faults = ";".join(f"{api}GetWorkspaceSize:error=161002" for api in REACHES.values())
    return run_on_simulator(PROGRAM, NPU_SIM_FAULTS=faults, NPU_SIM_LOG_LEVEL="error", **COMPATIBLE)


@pytest.mark.parametrize("name", NAMES)
def test_matches_the_cpu(results: dict[str, object], name: str) -> None:
    assert results[name] is True, results


# Slow: a second torch process with fault plans; test_matches_the_cpu runs the same calls.
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(REACHES))
def test_reaches_the_operator(failing: dict[str, object], name: str) -> None:
    assert failing[name] is not True, f"{name} did not reach {REACHES[name]}: {failing}"
