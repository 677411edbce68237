"""torch.distributed over the hccl backend under torchrun on one host (programs/distributed.py):
every collective of a rank on device `npu` gives the value every rank can compute alone, each rank's
process gets one COMMUNICATION record per collective torch_npu issues (the CommunicationMonitor of
the vendor-compatible ``mspti`` package on two ranks, of ``mspti_core`` on four), and DDP training
on `npu` matches the same DDP run on the CPU over gloo (losses, gradients, parameters after three
SGD steps; fp32 rtol 1e-5 / atol 1e-6). Two ranks in the default run, four in the slow one."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from torch_npu_harness import PROGRAMS

# The HCCL operation of each collective the program issues, in order. torch_npu sends the list
# form of all_gather and reduce_scatter through one flat HCCL collective (plus copies on the
# device), and its barrier is an all-reduce of a one-element tensor.
COLLECTIVE_RECORDS = [
    "hcom_allReduce_",  # all_reduce
    "hcom_broadcast_",  # broadcast
    "hcom_allGather_",  # all_gather (list)
    "hcom_allGather_",  # all_gather_into_tensor
    "hcom_reduceScatter_",  # reduce_scatter (list)
    "hcom_reduceScatter_",  # reduce_scatter_tensor
    "hcom_allReduce_",  # barrier
]


def torchrun(ranks: int, what: str, package: str) -> list[dict[str, object]]:
    """Each rank's line, by rank."""
    result = subprocess.run(
        [sys.executable, "-m", "sim_runtime", "run", "--devices", str(ranks), "--",
         sys.executable, "-m", "torch.distributed.run", f"--nproc_per_node={ranks}",
         str(PROGRAMS / "distributed.py"), what, package],
        env={**os.environ, "NPU_SIM_LOG_LEVEL": "warn"},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    lines = [json.loads(line[5:]) for line in result.stdout.splitlines() if line.startswith("RANK ")]
    lines.sort(key=lambda r: r["rank"])
    assert [r["rank"] for r in lines] == list(range(ranks)), result.stdout[-2000:]
    return lines


@pytest.fixture(
    scope="module", params=[2, pytest.param(4, marks=pytest.mark.slow)], ids=lambda n: f"{n}-ranks"
)
def ranks(request: pytest.FixtureRequest) -> list[dict[str, object]]:
    return torchrun(request.param, "all", "mspti" if request.param == 2 else "mspti_core")


def test_every_collective_gives_the_expected_value_on_every_rank(ranks: list[dict[str, object]]) -> None:
    for line in ranks:
        collectives = line["collectives"]
        assert isinstance(collectives, dict)
        assert set(collectives) == {
            "all_reduce", "broadcast", "all_gather_list", "all_gather_tensor", "reduce_scatter_list",
            "reduce_scatter_tensor", "barrier",
        }  # fmt: skip
        assert all(ok is True for ok in collectives.values()), line


def test_every_rank_gets_one_communication_record_per_collective(ranks: list[dict[str, object]]) -> None:
    for line in ranks:
        records = line["records"]
        assert isinstance(records, list)
        assert [name for name, _, _ in records] == COLLECTIVE_RECORDS, line
        assert {(device, comm) for _, device, comm in records} == {(line["rank"], "group_name_0")}, line


def test_ddp_on_hccl_matches_ddp_on_gloo(ranks: list[dict[str, object]]) -> None:
    for line in ranks:
        ddp = line["ddp"]
        assert isinstance(ddp, dict)
        assert {k: ddp[k] for k in ("losses", "grads", "params", "same_on_every_rank")} == {
            "losses": True, "grads": True, "params": True, "same_on_every_rank": True,
        }, line  # fmt: skip
        losses = ddp["npu_losses"]
        assert isinstance(losses, list) and losses[0] > losses[2]  # the steps reached the parameters
