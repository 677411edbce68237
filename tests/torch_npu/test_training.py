"""Training on device `npu` with torch_npu (docs/torch_npu.md): the MLP, the transformer block, the
embedding model and the convolutional model (Conv2d: aclnnConvolution and its backward) of
programs/training.py run forward, backward and three SGD steps and match the same run on the CPU;
msPTI sees every kernel of a training step with the correlation id of its launch, and two
virtual-clock runs give the same records. Skipped when `import torch, torch_npu` fails."""

from __future__ import annotations

import json

import pytest
from torch_npu_harness import PROGRAMS, run_on_simulator, simulator_run

from mspti_core.enums import MsptiActivityKind

MODELS = ["mlp", "mlp-ce", "transformer", "embedding", "conv"]


@pytest.fixture(scope="module")
def trained() -> dict[str, object]:
    """Every model's run, in one process (a torch start-up costs seconds); each from its own seeds."""
    return run_on_simulator(PROGRAMS / "training.py", *MODELS)


@pytest.mark.parametrize("model", MODELS)
def test_training_on_npu_matches_the_cpu(trained: dict[str, object], model: str) -> None:
    out = trained[model]
    assert isinstance(out, dict) and "error" not in out, out
    assert {key: out[key] for key in ("losses", "outputs", "grads", "params")} == {
        "losses": True, "outputs": True, "grads": True, "params": True,
    }, out  # fmt: skip
    losses = out["npu_losses"]
    assert isinstance(losses, list) and len(losses) == 3
    assert losses[0] > losses[1] > losses[2] > 0  # the SGD steps reached the parameters


# One training step of the MLP, its kernels seen through mspti_core's KernelMonitor.
KERNEL_MONITOR_STEP = """
import json, torch, torch_npu
import torch.nn.functional as F
from mspti_core import KernelMonitor
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(), torch.nn.Linear(128, 10)).npu()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, target = torch.randn(32, 64).npu(), torch.randn(32, 10).npu()
kernels = []
monitor = KernelMonitor()
started = monitor.start(lambda k: kernels.append([k.name.split("_")[0], k.correlation_id]))
opt.zero_grad()
F.mse_loss(model(x), target).backward()
opt.step()
torch.npu.synchronize()
stopped = monitor.stop()
print(json.dumps({"start": int(started), "stop": int(stopped), "kernels": kernels}))
"""

# The same step collected through the Activity API: KERNEL records and the API records of the
# operators' launches (named <aclnn API>_<L0 op>_<kernel type>), with their times.
ACTIVITY_STEP = """
import json, torch, torch_npu
import torch.nn.functional as F
from mspti_core import activity
from mspti_core.enums import MsptiActivityKind as Kind
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(), torch.nn.Linear(128, 10)).npu()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, target = torch.randn(32, 64).npu(), torch.randn(32, 10).npu()
torch.npu.synchronize()
with activity.Collector(Kind.MSPTI_ACTIVITY_KIND_KERNEL, Kind.MSPTI_ACTIVITY_KIND_API) as found:
    opt.zero_grad()
    F.mse_loss(model(x), target).backward()
    opt.step()
    torch.npu.synchronize()
print(json.dumps([activity.to_dict(r) for r in found]))
"""

# Forward (2 addmm, gelu, loss), the loss's seed gradient, backward (loss, 2 x 2 mm, 2 bias sums,
# gelu) and the SGD step over the four parameters (one multi-tensor kernel).
STEP_KERNELS = [
    "MatMulV2", "Gelu", "MatMulV2", "MseLoss", "Fill", "MseLossGrad", "MatMulV2", "MatMulV2", "ReduceSum",
    "GeluGrad", "MatMulV2", "ReduceSum", "ForeachAddList",
]  # fmt: skip


def test_kernel_monitor_sees_every_kernel_of_a_training_step() -> None:
    out = run_on_simulator(KERNEL_MONITOR_STEP)
    assert out["start"] == out["stop"] == 0
    kernels = out["kernels"]
    assert isinstance(kernels, list)
    assert [name for name, _ in kernels] == STEP_KERNELS
    ids = [cid for _, cid in kernels]
    assert all(cid > 0 for cid in ids) and len(set(ids)) == len(ids) and ids == sorted(ids)


def activity_records(**env: str) -> list[dict[str, object]]:
    result = simulator_run(ACTIVITY_STEP, **env)
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_each_kernel_has_the_correlation_id_of_its_launch() -> None:
    records = activity_records()
    kernels = [r for r in records if r["kind"] == MsptiActivityKind.MSPTI_ACTIVITY_KIND_KERNEL]
    launches = {
        r["correlation_id"]: r["name"]
        for r in records
        if r["kind"] == MsptiActivityKind.MSPTI_ACTIVITY_KIND_API
    }
    assert [str(k["name"]).split("_")[0] for k in kernels] == STEP_KERNELS
    for kernel in kernels:
        launch = launches.get(kernel["correlation_id"])
        assert launch is not None, kernel
        assert str(launch).rsplit("_", 1)[1] == str(kernel["name"]).split("_")[0], (launch, kernel)


def test_two_virtual_clock_runs_give_the_same_records() -> None:
    # Times relative to the first record (the virtual clock's epoch is the process's start);
    # process and thread ids differ from run to run and are left out; sorted, because the KERNEL
    # and API records reach the callback in an order that interleaves differently from run to run.
    # With torch_npu's task queue on (its default) the runs differ: now and then an operator's
    # launch comes one host API call's cost (4 us) later, the queue's worker thread making a
    # varying number of timed calls; TASK_QUEUE_ENABLE=0 issues every call from the Python thread.
    def normalised(records: list[dict[str, object]]) -> list[tuple[object, ...]]:
        t0 = min(int(str(r["start"])) for r in records)
        return sorted(
            tuple(
                (k, int(str(v)) - t0 if k in ("start", "end") else v)
                for k, v in sorted(r.items())
                if k not in ("process_id", "thread_id")
            )
            for r in records
        )

    env = {"NPU_SIM_CLOCK": "virtual", "TASK_QUEUE_ENABLE": "0"}
    first, second = activity_records(**env), activity_records(**env)
    assert len(first) == 2 * len(STEP_KERNELS)
    assert normalised(first) == normalised(second)
