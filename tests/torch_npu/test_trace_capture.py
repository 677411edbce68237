"""msPTI's trace capture (`npu-sim trace`) of an AdamW training step on device `npu`
(programs/adamw_step.py): inside the step's mstx range the capture holds one KERNEL record per kernel
torch_npu launched, in launch order, each with a distinct correlation id that is the one of the API
record of its launch (node launch, `<aclnn API>_<L0 op>_<kernel type>`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from torch_npu_harness import PROGRAMS

from mspti_trace.joins import marker_spans
from mspti_trace.kinds import ActivityKind
from mspti_trace.reader import Capture, load_trace

# Forward (2 addmm, gelu, loss), the loss's seed gradient, backward (loss, 2 x 2 mm, 2 bias sums,
# gelu), then AdamW's first step (foreach, torch 2.13's _multi_tensor_adam): the moments' zeros
# (ZerosLike, two per parameter), the decoupled weight decay (_foreach_mul_), the first moment
# (_foreach_lerp_), the second (_foreach_mul_, _foreach_addcmul_), its square root (_foreach_sqrt),
# the bias correction divided per tensor (_foreach_div_ with a scalar list: one Divs each), eps
# (_foreach_add_), and the update (_foreach_addcdiv_ with a scalar list: one Addcdiv each).
STEP_KERNELS = [
    "MatMulV2", "Gelu", "MatMulV2", "MseLoss", "Fill", "MseLossGrad", "MatMulV2", "MatMulV2", "ReduceSum",
    "GeluGrad", "MatMulV2", "ReduceSum",
    *["ZerosLike"] * 8, "ForeachMulScalar", "ForeachLerpScalar", "ForeachMulScalar", "ForeachAddcmulScalar",
    "ForeachSqrt", *["RealDiv"] * 4, "ForeachAddScalar", *["Addcdiv"] * 4,
]  # fmt: skip


@pytest.fixture(scope="module")
def capture(tmp_path_factory: pytest.TempPathFactory) -> Capture:
    tmp = tmp_path_factory.mktemp("adamw")
    command = [sys.executable, "-m", "sim_runtime", "trace", "-o", str(tmp / "cap"), "--",
               sys.executable, str(PROGRAMS / "adamw_step.py")]  # fmt: skip
    # cwd: the installed packages, whose mspti_trace/lib64 holds the trace collector
    result = subprocess.run(command, cwd=tmp, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]
    trace = load_trace(Path(tmp / "cap"))
    assert len(trace.captures) == 1
    return trace.captures[0]


def test_the_capture_sees_every_kernel_of_the_step_with_its_launchs_correlation(capture: Capture) -> None:
    spans = marker_spans(capture)
    (step,) = [r for r in spans.ranges if capture.strings[r["name"]] == "step"]
    apis = capture.table(ActivityKind.API)
    inside = apis[(apis["start"] >= step["start"]) & (apis["end"] <= step["end"])]
    launches = {int(r["correlation_id"]): str(capture.strings[r["name"]]) for r in inside}
    kernels = capture.table(ActivityKind.KERNEL)
    during = kernels[(kernels["start"] >= step["start"]) & (kernels["end"] <= step["end"])]
    kernels = kernels[[int(c) in launches for c in kernels["correlation_id"]]]
    assert len(kernels) == len(during)  # every kernel run during the step has its launch in the step
    kernels = kernels[kernels["start"].argsort(kind="stable")]
    names = [str(capture.strings[k["name"]]).split("_")[0] for k in kernels]
    assert names == STEP_KERNELS
    ids = [int(c) for c in kernels["correlation_id"]]
    assert len(set(ids)) == len(ids) and all(i > 0 for i in ids)
    for kernel, name in zip(kernels, names, strict=True):
        assert launches[int(kernel["correlation_id"])].rsplit("_", 1)[1] == name
