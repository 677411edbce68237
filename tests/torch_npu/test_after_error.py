"""After an operator error (docs/torch_npu.md, "After an operator error"): an aclnn operator whose
second phase fails (a fault plan fails the first aclnnAdds) is reported asynchronously by torch_npu's
task queue, and the operators issued after it in the process return zeros: the queue drops them and
none reaches the simulator (no kernel is launched, msPTI sees none). With the queue off
(TASK_QUEUE_ENABLE=0) the error is raised at the call and the operators after it launch their
kernels and compute. So the zeros are torch_npu's, not the simulator's (whose own behaviour after a
failed operator tests/sim/test_aclnn_after_failure.py pins). Skipped when `import torch, torch_npu` fails."""

from __future__ import annotations

import pytest
from torch_npu_harness import run_on_simulator

PROGRAM = """
import json, torch, torch_npu
from mspti import KernelMonitor
kernels = []
monitor = KernelMonitor()
monitor.start(lambda k: kernels.append(k.name.split("_")[0]))
x = torch.tensor([1.0, 2.0, 3.0]).npu()
r = {}
for name, fn in [("first", lambda: (x + 1).cpu().tolist()), ("second", lambda: (x * 2).cpu().tolist()),
                 ("third", lambda: (x * 3).cpu().tolist())]:
    try:
        r[name] = fn()
    except RuntimeError as e:
        r[name] = "raised"
monitor.stop()
r["kernels"] = kernels
print(json.dumps(r))
"""
FAULT = {"NPU_SIM_FAULTS": "aclnnAdds:error=561000@1", "NPU_SIM_LOG_LEVEL": "error"}


@pytest.mark.parametrize("queue", ["on", "off"])
def test_operators_after_a_failed_one(queue: str) -> None:
    env = FAULT if queue == "on" else {**FAULT, "TASK_QUEUE_ENABLE": "0"}
    r = run_on_simulator(PROGRAM, **env)
    assert r["first"] == "raised"
    if queue == "on":  # torch_npu's queue drops what follows: zeros, no kernel
        assert (r["second"], r["third"], r["kernels"]) == ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [])
    else:
        assert (r["second"], r["third"], r["kernels"]) == ([2.0, 4.0, 6.0], [3.0, 6.0, 9.0], ["Muls", "Muls"])
