"""HcclMonitor and CommunicationMonitor on a single-process multi-rank job (py_hccl_monitors).

    python -m conformance.pydriver.hccl_monitors RANKS

One thread per rank (the C driver's ``threads`` block, as in the hccl_records scenario): each sets
its device, creates stream ``st<rank>``, logs its communicator name (@name<rank>) and runs an
AllReduce of 1024 FP32 elements (@allreduce<rank>); monitors "hccl" and "comm" run throughout.
"""

from __future__ import annotations

import sys
from types import ModuleType

from conformance.pydriver.runtime import Driver, Recorder, import_package


def run(driver: Driver, mspti: ModuleType, ranks: int) -> None:
    hccl, comm = mspti.HcclMonitor(), mspti.CommunicationMonitor()
    driver.call("start_hccl", "HcclMonitor.start", hccl.start, Recorder(driver, "hccl"))
    driver.call("start_comm", "CommunicationMonitor.start", comm.start, Recorder(driver, "comm"))
    driver.run(
        f"acl_init\nhccl_init_all {ranks} @init\nthreads {ranks} {{\nset_device %t\ncreate_stream st%t\n"
        "hccl_comm_name %t @name%t\nhccl_allreduce %t st%t 1024 @allreduce%t\nsync st%t @sync%t\n}\n"
    )
    driver.call("stop_hccl", "HcclMonitor.stop", hccl.stop)
    driver.call("stop_comm", "CommunicationMonitor.stop", comm.stop)
    driver.run("hccl_destroy\n")


def main(argv: list[str]) -> int:
    ranks = int(argv[1]) if len(argv) > 1 else 2
    driver = Driver()
    mspti = import_package(driver)
    if mspti is not None:
        run(driver, mspti, ranks)
    driver.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
