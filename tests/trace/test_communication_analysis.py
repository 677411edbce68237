"""The communication.json entries shared by the toolkit's msprof and the ascend_pt export
(mspti_trace/communication_analysis.py): keys, entries and the two tools' totals."""

from __future__ import annotations

from mspti_trace.communication_analysis import (
    CommunicationOp,
    msprof_total,
    op_info,
    op_keys,
    torch_npu_total,
)


def test_keys_number_each_operation_name_within_its_communicator() -> None:
    ops = [
        CommunicationOp(300, 400, "hcom_allReduce_", "g", correlation=3),
        CommunicationOp(100, 200, "hcom_allReduce_", "g", correlation=1),
        CommunicationOp(100, 150, "hcom_broadcast_", "g", correlation=2),
        CommunicationOp(100, 150, "hcom_allReduce_", "h", correlation=4),
    ]
    assert [key for key, _ in op_keys(ops)] == [
        "hcom_allReduce__0@g",
        "hcom_broadcast__0@g",
        "hcom_allReduce__0@h",
        "hcom_allReduce__1@g",
    ]


def test_an_entry_has_the_records_times_and_zero_task_detail() -> None:
    info = op_info(CommunicationOp(1_500_000, 3_500_000, "hcom_allReduce_", "g"))
    times = info["Communication Time Info"]
    assert times["Start Timestamp(us)"] == 1500.0
    assert times["Elapse Time(ms)"] == times["Idle Time(ms)"] == 2.0
    assert times["Transit Time(ms)"] == times["Wait Time Ratio"] == 0
    assert list(info["Communication Bandwidth Info"]) == ["RDMA", "HCCS", "PCIE", "SDMA", "SIO"]


def test_msprofs_and_torch_npus_totals() -> None:
    infos = [
        op_info(CommunicationOp(0, 1_000_000, "a", "g")),
        op_info(CommunicationOp(0, 3_000_000, "a", "g")),
    ]
    infos[0]["Communication Bandwidth Info"]["HCCS"].update({"Transit Size(MB)": 8, "Transit Time(ms)": 2})
    msprof = msprof_total(infos)
    assert msprof["Communication Time Info"]["Elapse Time(ms)"] == 4.0
    assert msprof["Communication Time Info"]["Start Timestamp(us)"] == 0
    assert msprof["Communication Bandwidth Info"]["HCCS"]["Bandwidth(GB/s)"] == 4.0
    torch_npu = torch_npu_total(infos)
    assert torch_npu["Communication Time Info"]["Elapse Time(ms)"] == 4.0
    assert "Start Timestamp(us)" not in torch_npu["Communication Time Info"]
    assert torch_npu["Communication Bandwidth Info"]["HCCS"] == {
        "Transit Time(ms)": 2,
        "Transit Size(MB)": 8,
        "Size Distribution": {},
    }
