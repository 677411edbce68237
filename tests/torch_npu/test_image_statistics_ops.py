"""Operators of image models and order statistics on device `npu` against the CPU (fp32: rtol 1e-5,
atol 1e-6; integer and bool results exactly), forward and backward:
- `F.interpolate` nearest (scale factor and size) and bilinear (with and without align_corners):
  aclnnUpsampleNearest2dV2, aclnnUpsampleBilinear2d and their backward;
- `F.grid_sample` (bilinear with zeros, border and reflection padding, nearest; align_corners or
  not) with its input and grid gradients: aclnnGridSampler2D, aclnnGridSampler2DBackward;
- `F.unfold` (aclnnIm2col; its backward aclnnIm2colBackward) and `F.fold` (aclnnIm2colBackward);
- `F.instance_norm` (nn.InstanceNorm2d), which torch computes as a batch norm of the input seen as
  [1, N * C, H, W]: torch_npu reaches aclnnBatchNorm;
- the backward of `F.pad` modes reflect and replicate (1-D and 2-D), which torch_npu sends to
  aclopCompileAndExecute("PadV3Grad"), and `torch.isfinite` (aclop "IsFinite");
- `torch.histc` (aclnnHistc), `torch.searchsorted` (aclnnSearchSorted, with `right` and `sorter`),
  `torch.median` / `torch.nanmedian` of every element and along a dimension (aclnnMedian,
  aclnnMedianDim, aclnnNanMedian, aclnnNanMedianDim), `torch.unique` (aclnnUnique2) and
  `torch.unique_consecutive` (aclnnUniqueConsecutive) with inverse and counts.
A second run with the aclnn operators' first phase failing shows that torch_npu reaches them (and
not a fallback; slow). Skipped when `import torch, torch_npu` fails."""

from __future__ import annotations

import pytest
from torch_npu_harness import run_on_simulator

PROGRAM = """
import torch, torch_npu
import torch.nn.functional as F
from cpu_vs_npu import Results, function_run
g = torch.Generator().manual_seed(3)
x = torch.randn(2, 3, 5, 6, generator=g)
same = lambda a, b: torch.equal(a.cpu(), b) if not isinstance(a, tuple) else all(map(same, a, b))
functions = {
    "nearest_scale": lambda t: F.interpolate(t, scale_factor=2, mode="nearest"),
    "nearest_size": lambda t: F.interpolate(t, size=(7, 4), mode="nearest"),
    "bilinear": lambda t: F.interpolate(t, size=(9, 11), mode="bilinear", align_corners=False),
    "bilinear_align": lambda t: F.interpolate(t, scale_factor=1.5, mode="bilinear", align_corners=True),
    "reflect2d_backward": lambda t: F.pad(t, (2, 1, 3, 1), mode="reflect"),
    "replicate2d_backward": lambda t: F.pad(t, (2, 4, 0, 3), mode="replicate"),
    "reflect1d_backward": lambda t: F.pad(t[0], (3, 2), mode="reflect"),
    "replicate1d_backward": lambda t: F.pad(t[0], (1, 5), mode="replicate"),
    "unfold": lambda t: F.unfold(t, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
    "instance_norm": lambda t: F.instance_norm(
        t, weight=torch.linspace(0.5, 1.5, 3).to(t.device), bias=torch.linspace(-1, 1, 3).to(t.device)),
    "fold": lambda t: F.fold(t.reshape(2, 90)[:, :72].reshape(2, 8, 9), (4, 8), (2, 2), stride=(1, 3)),
}
r = Results()
for name, fn in functions.items():
    r.compare(name, function_run(fn, x))
grid = torch.rand(2, 4, 5, 2, generator=g) * 2.6 - 1.3
modes = [("bilinear", "zeros", False), ("bilinear", "border", True), ("bilinear", "reflection", False),
         ("bilinear", "reflection", True), ("nearest", "zeros", True)]
samples = lambda a, b: [F.grid_sample(a, b, mode=m, padding_mode=p, align_corners=c) for m, p, c in modes]
r.compare("grid_sample", function_run(samples, x, grid))
special = torch.tensor([[1.0, float("nan"), float("inf")], [-float("inf"), -0.0, 3.4e38]])
r.compare("isfinite", lambda dev: [torch.isfinite(special.to(dev)).cpu()], exact=True)
r.compare("isfinite_half", lambda dev: [torch.isfinite(special.half().to(dev)).cpu()], exact=True)
histc = lambda t: torch.histc(t, bins=7, min=-1.5, max=2)
r.compare("histc", lambda dev: [histc(x.to(dev)).cpu()], exact=True)
with r.case("searchsorted"):
    seq = torch.tensor([[-1.0, 0.0, 0.0, 0.5, 2.0], [3.0, 1.0, 2.0, 0.0, -4.0]])
    order = seq.argsort(-1)
    vals = torch.tensor([[0.0, 0.3, 5.0], [2.0, -9.0, 0.0]])
    search = lambda s, v, **kw: torch.searchsorted(s, v, **kw)
    one, ones = seq[:1], vals[:1]
    r["searchsorted"] = all(
        torch.equal(search(one.npu(), ones.npu(), right=right).cpu(), search(one, ones, right=right))
        and torch.equal(search(seq.npu(), vals.npu(), right=right, sorter=order.npu()).cpu(),
                        search(seq, vals, right=right, sorter=order))
        for right in (False, True)
    )
with r.case("median", "median_nan", "nanmedian"):
    m = torch.randperm(20, generator=g).float().reshape(4, 5)
    n = m.clone()
    n[1, 2] = n[3, 0] = float("nan")
    r["median"] = same(m.npu().median(), m.median()) and same(tuple(m.npu().median(1)), tuple(m.median(1)))
    r["median_nan"] = bool(n.npu().median().isnan().item()) and same(
        tuple(n.npu().median(0, keepdim=True)[1:]), tuple(n.median(0, keepdim=True)[1:]))
    r["nanmedian"] = same(n.npu().nanmedian(), n.nanmedian()) and same(
        tuple(n.npu().nanmedian(1)), tuple(n.nanmedian(1)))
with r.case("unique", "unique_consecutive"):
    u = torch.tensor([3, 1, 2, 3, 1, 5, 5, 0, 0, 0, 2])
    kw = {"return_inverse": True, "return_counts": True}
    r["unique"] = same(tuple(torch.unique(u.npu(), **kw)), tuple(torch.unique(u, **kw))) and same(
        torch.unique(u.float().npu()), torch.unique(u.float()))
    r["unique_consecutive"] = same(
        tuple(torch.unique_consecutive(u.npu(), **kw)), tuple(torch.unique_consecutive(u, **kw)))
r.write()
"""

NAMES = [
    "nearest_scale", "nearest_size", "bilinear", "bilinear_align", "reflect2d_backward",
    "replicate2d_backward", "reflect1d_backward", "replicate1d_backward", "unfold", "fold", "instance_norm",
    "grid_sample", "isfinite",
    "isfinite_half", "histc", "searchsorted", "median", "median_nan", "nanmedian",
    "unique", "unique_consecutive",
]  # fmt: skip

# The aclnn operator each result reaches: with its first phase failing (161002) the result is an error.
REACHES = {
    "nearest_scale": "aclnnUpsampleNearest2dV2",
    "bilinear": "aclnnUpsampleBilinear2d",
    "unfold": "aclnnIm2col",
    "grid_sample": "aclnnGridSampler2D",
    "instance_norm": "aclnnBatchNorm",
    "fold": "aclnnIm2colBackward",
    "histc": "aclnnHistc",
    "searchsorted": "aclnnSearchSorted",
    "median": "aclnnMedian",
    "nanmedian": "aclnnNanMedian",
    "unique": "aclnnUnique2",
    "unique_consecutive": "aclnnUniqueConsecutive",
}
BACKWARD_REACHES = {
    "nearest_scale": "aclnnUpsampleNearest2dBackward",
    "bilinear": "aclnnUpsampleBilinear2dBackward",
    "unfold": "aclnnIm2colBackward",
    "grid_sample": "aclnnGridSampler2DBackward",
}


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return run_on_simulator(PROGRAM, TASK_QUEUE_ENABLE="0")


# Slow: one torch process for every case; the default run checks each of these operators against
# numpy at the C API (tests/sim/test_aclnn_upsample.py, test_aclnn_grid_sampler.py,
# test_aclnn_im2col_histc.py, test_aclnn_unique.py, test_aclop.py).
@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_matches_the_cpu(results: dict[str, object], name: str) -> None:
    assert results[name] is True, results


@pytest.mark.slow
@pytest.mark.parametrize("apis", [REACHES, BACKWARD_REACHES], ids=["forward", "backward"])
def test_reaches_the_operator(apis: dict[str, str]) -> None:
    faults = ";".join(f"{api}GetWorkspaceSize:error=161002" for api in apis.values())
    failing = run_on_simulator(
        PROGRAM, TASK_QUEUE_ENABLE="0", NPU_SIM_FAULTS=faults, NPU_SIM_LOG_LEVEL="error"
    )
    for name, api in apis.items():
        assert failing[name] is not True, f"{name} did not reach {api}: {failing}"
