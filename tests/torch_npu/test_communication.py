"""Under torchrun, every rank process gets one COMMUNICATION record per collective, through either
Python package (the vendor-compatible ``mspti`` and ``mspti_core``), as the vendor's python_monitor
system test expects. torch.npu.synchronize() is aclrtSynchronizeDeviceWithTimeout, which must wait
for the collective a rank holds while its peers come (tests/mspti_core/test_communication_ranks.py
is the fast variant without torch)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from torch_npu_harness import PROGRAMS


# The default run's two-rank torchrun is test_distributed.py's, whose every rank gets one record per
# collective through the vendor-compatible package (what the vendor's python_monitor case checks);
# this single all-reduce on two and four ranks, through both packages, is the slow run's.
@pytest.mark.parametrize(
    ("ranks", "package"),
    [
        pytest.param(2, "mspti", marks=pytest.mark.slow),
        pytest.param(4, "mspti", marks=pytest.mark.slow),
        pytest.param(4, "mspti_core", marks=pytest.mark.slow),
    ],
)
def test_every_rank_process_gets_one_record_per_collective(ranks: int, package: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sim_runtime", "run", "--devices", str(ranks), "--",
         sys.executable, "-m", "torch.distributed.run", f"--nproc_per_node={ranks}",
         str(PROGRAMS / "communication.py"), package],
        env={**os.environ, "NPU_SIM_LOG_LEVEL": "warn"},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    seen = sorted(
        (json.loads(line[5:]) for line in result.stdout.splitlines() if line.startswith("RANK ")),
        key=lambda r: r["rank"],
    )
    assert [r["rank"] for r in seen] == list(range(ranks))
    assert all(r["sum"] == r["expected"] for r in seen), seen
    expected = [[["hcom_allReduce_", rank, "group_name_0"]] for rank in range(ranks)]
    assert [r["records"] for r in seen] == expected
