"""communication.json's operation entries and totals, built once from COMMUNICATION records for
both files that carry them: the toolkit's ``msprof --analyze`` (``<PROF_*>/analyze/``,
sim_runtime/msprof/communication.py) and the ``--format ascend-pt`` export (``ASCEND_PROFILER_OUTPUT/``,
ascend_pt_views.py), whose torch_npu copies msprof's entries and splits them into steps.

Keys, units and totals are those of msprof's analyzer (Ascend/msprof 024471cf,
``analysis/msparser/cluster/communication_parser.py``, ``meta_parser.py``,
``common_func/ms_constant/str_constant.py``) and of torch_npu 2.13.0's
``prof_view/_communication_parser.py`` (its per-step ``Total Op Info``).

msprof derives the transit, wait and synchronisation times, the per-transport bandwidth and the
matrix's links from HCCL *task* records. msPTI delivers operations, not tasks, so those fields are
written as msprof writes them when no such task was collected: times 0, the ratios 0, each
transport's entry 0 with an empty size distribution. What the operation records give is modelled:
the start (us) and elapse time (ms) of each operation, and Idle Time computed as msprof does
(elapse - transit - wait).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MSPROF_TOTAL",
    "TORCH_NPU_TOTAL",
    "TRANSPORTS",
    "CommunicationOp",
    "is_p2p",
    "msprof_total",
    "op_info",
    "op_keys",
    "torch_npu_total",
]

#: The total's key: in msprof's communication.json, and in each step of torch_npu's.
MSPROF_TOTAL = "Total HCCL Operators"
TORCH_NPU_TOTAL = "Total Op Info"
TIME_INFO = "Communication Time Info"
BANDWIDTH_INFO = "Communication Bandwidth Info"
START = "Start Timestamp(us)"
ELAPSE = "Elapse Time(ms)"
TRANSIT = "Transit Time(ms)"
WAIT = "Wait Time(ms)"
SYNCHRONIZATION = "Synchronization Time(ms)"
IDLE = "Idle Time(ms)"
WAIT_RATIO = "Wait Time Ratio"
SYNCHRONIZATION_RATIO = "Synchronization Time Ratio"
TIME_KEYS = (START, ELAPSE, TRANSIT, WAIT, SYNCHRONIZATION, IDLE, WAIT_RATIO, SYNCHRONIZATION_RATIO)
#: Transport types of an operation's bandwidth info, in msprof's order (StrConstant.TRANSIT_TYPE).
TRANSPORTS = ("RDMA", "HCCS", "PCIE", "SDMA", "SIO")
SIZE_MB = "Transit Size(MB)"
BANDWIDTH = "Bandwidth(GB/s)"
LARGE_PACKET_RATIO = "Large Packet Ratio"
SIZE_DISTRIBUTION = "Size Distribution"
NS_PER_MS = 1_000_000
NS_PER_US = 1_000
#: Operations torch_npu files under ``p2p`` (the others under ``collective``), by name prefix.
_P2P_PREFIXES = ("hcom_send", "hcom_receive", "hcom_batchsendrecv")


@dataclass(frozen=True)
class CommunicationOp:
    """One COMMUNICATION record, as both analyses read it (times in ns, msPTI's clock)."""

    start: int
    end: int
    #: The operation type msPTI records (``hcom_allReduce_``) and its communicator's name.
    name: str
    group: str
    correlation: int = 0


def op_keys(ops: Iterable[CommunicationOp]) -> list[tuple[str, CommunicationOp]]:
    """Each operation's key ``<name>_<n>@<communicator>``, in start order (then correlation id).

    msprof keys an operation by CANN's per-operation name and its group (``op_name@group_name``);
    the msPTI record's name is the operation type, so ``n`` numbers the operations of that name
    within the communicator (0, 1, ...), which keeps the keys one per operation and the same for
    the n-th operation of a communicator on every rank.
    """
    seen: dict[tuple[str, str], int] = defaultdict(int)
    keyed = []
    for op in sorted(ops, key=lambda c: (c.start, c.correlation)):
        index = seen[(op.name, op.group)]
        seen[(op.name, op.group)] += 1
        keyed.append((f"{op.name}_{index}@{op.group}", op))
    return keyed


def is_p2p(name: str) -> bool:
    """Whether torch_npu files the operation under ``p2p`` (send, receive, batch send/receive)."""
    return name.lower().startswith(_P2P_PREFIXES)


def _ratios(times: dict[str, float]) -> None:
    # msprof's update_time_ratio: a zero divisor leaves the ratio as it was (0).
    if times[WAIT] + times[TRANSIT]:
        times[WAIT_RATIO] = round(times[WAIT] / (times[WAIT] + times[TRANSIT]), 4)
    if times[SYNCHRONIZATION] + times[TRANSIT]:
        times[SYNCHRONIZATION_RATIO] = round(
            times[SYNCHRONIZATION] / (times[SYNCHRONIZATION] + times[TRANSIT]), 4
        )


def _bandwidth_entry() -> dict[str, Any]:
    return {SIZE_MB: 0, TRANSIT: 0, BANDWIDTH: 0, LARGE_PACKET_RATIO: 0, SIZE_DISTRIBUTION: {}}


def op_info(op: CommunicationOp) -> dict[str, Any]:
    """An operation's entry: its time info and each transport's bandwidth info."""
    times: dict[str, float] = dict.fromkeys(TIME_KEYS, 0)
    times[ELAPSE] = (op.end - op.start) / NS_PER_MS
    times[IDLE] = times[ELAPSE] - times[TRANSIT] - times[WAIT]
    _ratios(times)
    times[START] = op.start / NS_PER_US
    return {TIME_INFO: times, BANDWIDTH_INFO: {t: _bandwidth_entry() for t in TRANSPORTS}}


def _summed_times(infos: Iterable[dict[str, Any]], times: dict[str, float]) -> dict[str, float]:
    """Adds every time but the start and the ratios of ``infos`` into ``times``."""
    for info in infos:
        for key, value in info[TIME_INFO].items():
            if key not in (START, WAIT_RATIO, SYNCHRONIZATION_RATIO):
                times[key] += value
    return times


def msprof_total(infos: list[dict[str, Any]]) -> dict[str, Any]:
    """msprof's total (``Total HCCL Operators``, its combine()): every time summed but the start
    (which stays 0) and the ratios; each transport's size and time summed, size distributions too
    but SDMA's; then the ratios and bandwidths recomputed."""
    times = _summed_times(infos, dict.fromkeys(TIME_KEYS, 0))
    bandwidth = {t: _bandwidth_entry() for t in TRANSPORTS}
    for info in infos:
        for transport, part in info[BANDWIDTH_INFO].items():
            total = bandwidth[transport]
            total[SIZE_MB] += part[SIZE_MB]
            total[TRANSIT] += part[TRANSIT]
            if transport != "SDMA":
                for size, (count, duration) in part[SIZE_DISTRIBUTION].items():
                    count0, duration0 = total[SIZE_DISTRIBUTION].get(size, (0, 0))
                    total[SIZE_DISTRIBUTION][size] = [count0 + count, duration0 + duration]
    _ratios(times)
    for entry in bandwidth.values():
        # GB/s from MB and ms, as msprof's analyze_bandwidth_info (decimal units).
        if entry[TRANSIT]:
            entry[BANDWIDTH] = round((entry[SIZE_MB] / 1000) / (entry[TRANSIT] / 1000), 4)
    return {TIME_INFO: times, BANDWIDTH_INFO: bandwidth}


def torch_npu_total(infos: list[dict[str, Any]]) -> dict[str, Any]:
    """torch_npu's total of one step's operations (``Total Op Info``, its compute_total_info): the
    times summed (no start) then the two ratios; per transport, in the operations' order, only the
    transit time, size and size distribution summed (torch_npu computes a bandwidth but does not store
    it)."""
    times = _summed_times(infos, defaultdict(float))
    times[WAIT_RATIO] = _ratio(times[WAIT], times[WAIT] + times[TRANSIT])
    times[SYNCHRONIZATION_RATIO] = _ratio(times[SYNCHRONIZATION], times[SYNCHRONIZATION] + times[TRANSIT])
    bandwidth: dict[str, dict[str, Any]] = {}
    for info in infos:
        for transport, part in info[BANDWIDTH_INFO].items():
            total = bandwidth.setdefault(transport, {TRANSIT: 0, SIZE_MB: 0, SIZE_DISTRIBUTION: {}})
            total[TRANSIT] += part[TRANSIT]
            total[SIZE_MB] += part[SIZE_MB]
            for size, (count, duration) in part[SIZE_DISTRIBUTION].items():
                count0, duration0 = total[SIZE_DISTRIBUTION].get(size, (0, 0))
                total[SIZE_DISTRIBUTION][size] = [count0 + count, duration0 + duration]
    return {TIME_INFO: dict(times), BANDWIDTH_INFO: bandwidth}


def _ratio(dividend: float, divisor: float) -> float:
    # torch_npu's compute_ratio: 0 for a divisor of (about) 0.
    return 0 if abs(divisor) < 1e-15 else round(dividend / divisor, 4)
