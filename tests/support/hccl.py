"""HCCL test helpers: CANN's form of a default communicator name and CANN rank tables.

CANN_COMM_NAME is the one the vendor's msPTI system test matches commName against
(Ascend/mspti a389160, test/mspti_cpp/st/script/test_mspti_samples.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

CANN_COMM_NAME = re.compile(r"\d+\.\d+\.\d+\.\d+%\S+_\d+_\d+_\d{16}")


def rank_table(tmp_path: Path, servers: int, per_server: int) -> Path:
    """A CANN rank table; every rank gets its own device id (= its rank), the device the program sets."""
    server_list = [
        {
            "server_id": f"10.0.0.{s}",
            "device": [
                {
                    "device_id": str(s * per_server + d),
                    "device_ip": f"192.168.1.{d}",
                    "rank_id": str(s * per_server + d),
                }
                for d in range(per_server)
            ],
            "host_nic_ip": "reserve",
        }
        for s in range(servers)
    ]
    path = tmp_path / "rank_table.json"
    table = {
        "version": "1.0",
        "server_count": str(servers),
        "server_list": server_list,
        "status": "completed",
    }
    path.write_text(json.dumps(table))
    return path
