"""HIXL host-API profiling (the HIXL RFC): the command handle of module 12, type names, one
ACL-level API record per sync transfer and per completed async transfer, and run-time switching."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).parent / "programs"

SUCCESS = 0
PARAM_INVALID = 103900
COMPLETED = 1
ACL_LEVEL = 20000
MAGIC = 0x5A5A

RFC_IDS = {"read": 0x0C0001, "write": 0x0C0002}
RFC_NAMES = {0x0C0001: "HixlProfTypeRead", 0x0C0002: "HixlProfTypeWrite"}
SHIPPED_IDS = {"read": 0x049001, "write": 0x049002}
SHIPPED_NAMES = {0x049001: "hixlOpBatchRead", 0x049002: "hixlOpBatchWrite"}

ALPHA_NS = 7000
LINK_GBPS = 45.0


def is_hixl_type(type_id: int) -> bool:
    return type_id >> 16 == 0x0C or type_id >> 12 == 0x049


class Run:
    def __init__(self, stdout: str, stderr: str) -> None:
        self.stderr = stderr
        self.steps: dict[str, dict] = {}
        self.order: list[dict] = []  # steps and reports in output order
        self.reports: list[dict] = []
        self.names: dict[int, str] = {}
        self.main_tid = None
        for line in stdout.splitlines():
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            kind = obj["kind"]
            if kind == "step":
                self.steps[obj["name"]] = obj
            elif kind == "report" and is_hixl_type(obj["type"]):
                self.reports.append(obj)
            elif kind == "typeinfo" and obj["level"] == ACL_LEVEL:
                self.names[obj["type"]] = obj["name"]
            elif kind == "main":
                self.main_tid = obj["tid"]

    def reports_within(self, step: dict) -> list[dict]:
        """Reports whose interval lies inside the step's [before, after]."""
        return [r for r in self.reports if step["before"] <= r["begin"] <= r["end"] <= step["after"]]


@pytest.fixture(scope="module")
def scenarios(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "hixl_scenarios.cpp"], libs=["hixl", "profapi", "ascendcl"])


@pytest.fixture(scope="module")
def run_scenario(scenarios: Path, native: NativeTree):
    def run(name: str, **env: str) -> Run:
        result = run_program(scenarios, native.env(**env), [name])
        assert result.returncode == 0, f"{name}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
        return Run(result.stdout, result.stderr)

    return run


@pytest.mark.parametrize("clock", ["wall", "virtual"])
def test_each_transfer_reports_one_acl_api_record(run_scenario, clock: str) -> None:
    run = run_scenario("transfers", NPU_SIM_CLOCK=clock)
    expected = {"sync_read": "read", "sync_write": "write", "async_read": "read", "async_write": "write"}
    for name, op in expected.items():
        step = run.steps[name]
        (record,) = run.reports_within(step)
        assert record["type"] == RFC_IDS[op], name
        assert record["level"] == ACL_LEVEL
        assert record["magic"] == MAGIC
        assert record["aging"] == 1
        assert record["item"] == 0
        assert record["tid"] == run.main_tid
    # 4 single transfers + 3 async requests completed through the batch status query.
    assert len(run.reports) == 7


def test_type_names_are_registered_at_start(run_scenario) -> None:
    run = run_scenario("transfers")
    assert {t: n for t, n in run.names.items() if is_hixl_type(t)} == RFC_NAMES
    assert all(r["type"] in RFC_NAMES for r in run.reports)


@pytest.mark.parametrize("clock", ["wall", "virtual"])
def test_sync_record_covers_the_transfer(run_scenario, clock: str) -> None:
    run = run_scenario("transfers", NPU_SIM_CLOCK=clock)
    for name in ("sync_read", "sync_write"):
        step = run.steps[name]
        (record,) = run.reports_within(step)
        assert record["end"] - record["begin"] >= ALPHA_NS + step["bytes"] / LINK_GBPS


@pytest.mark.parametrize("clock", ["wall", "virtual"])
def test_async_record_spans_submit_to_completion(run_scenario, clock: str) -> None:
    run = run_scenario("transfers", NPU_SIM_CLOCK=clock)
    for name in ("async_read", "async_write"):
        step = run.steps[name]
        (record,) = run.reports_within(step)
        # Begins inside TransferAsync, ends inside the GetTransferStatus that saw COMPLETED.
        assert step["before"] <= record["begin"] <= step["submit_after"]
        assert record["end"] >= step["submit_after"]
        assert record["end"] - record["begin"] >= ALPHA_NS + step["bytes"] / LINK_GBPS
    if clock == "virtual":
        step = run.steps["async_read"]
        (record,) = run.reports_within(step)
        assert (record["begin"], record["end"]) == (step["before"], step["after"])


def test_shipped_type_ids_are_selectable(run_scenario) -> None:
    run = run_scenario("transfers", NPU_SIM_HIXL_TYPE_IDS="shipped")
    assert {t: n for t, n in run.names.items() if is_hixl_type(t)} == SHIPPED_NAMES
    assert run.reports_within(run.steps["sync_read"])[0]["type"] == SHIPPED_IDS["read"]
    assert run.reports_within(run.steps["async_write"])[0]["type"] == SHIPPED_IDS["write"]
    assert all(r["type"] in SHIPPED_NAMES for r in run.reports)


def test_unknown_type_id_scheme_falls_back_to_the_rfc(run_scenario) -> None:
    run = run_scenario("transfers", NPU_SIM_HIXL_TYPE_IDS="bogus")
    assert all(r["type"] in RFC_NAMES for r in run.reports) and run.reports
    assert "NPU_SIM_HIXL_TYPE_IDS=bogus" in run.stderr


def test_profiling_switches_on_and_off_at_run_time(run_scenario) -> None:
    run = run_scenario("switch")
    assert run.steps["start"]["status"] == SUCCESS and run.steps["stop"]["status"] == SUCCESS
    for name in ("off_before_start", "off_after_stop", "off_async"):
        assert run.reports_within(run.steps[name]) == [], name
    (on1,) = run.reports_within(run.steps["on_1"])
    (on2,) = run.reports_within(run.steps["on_2"])
    (on_async,) = run.reports_within(run.steps["on_async"])
    assert on1["type"] == RFC_IDS["write"]
    assert on2["type"] == RFC_IDS["read"]
    assert on_async["type"] == RFC_IDS["write"]
    assert len(run.reports) == 3


def test_stop_removes_only_its_devices(run_scenario) -> None:
    run = run_scenario("devices")
    reported = {name for name, step in run.steps.items() if run.reports_within(step)}
    assert reported == {"both_started", "dev1_left", "dev1_still_left", "two_in_one", "dev2_left"}
    assert "none_left" not in reported and "all_stopped" not in reported


def test_a_short_command_is_rejected_and_logged(run_scenario) -> None:
    run = run_scenario("short_command")
    assert run.steps["short"]["status"] == PARAM_INVALID
    assert run.steps["null"]["status"] == PARAM_INVALID
    assert run.steps["not_switch"]["status"] == SUCCESS  # other control types are not HIXL's concern
    assert run.steps["through_profapi_short"]["status"] != SUCCESS
    assert "command length 5423 is invalid" in run.stderr
    # The rejected START left profiling off; the accepted one turned it on.
    assert run.reports_within(run.steps["after_rejected"]) == []
    assert len(run.reports_within(run.steps["after_accepted"])) == 1
    assert run.steps["full"]["status"] == SUCCESS


def test_start_time_is_taken_at_submission(run_scenario) -> None:
    run = run_scenario("async_switch")
    for name in ("off_then_on", "on_then_off", "on_then_on"):
        assert (run.steps[name]["status"], run.steps[name]["tstatus"]) == (SUCCESS, COMPLETED)
    # Off at submit: no record even though on at completion. On at submit, off at completion:
    # no record either (the reporter checks the switch again at exit).
    (record,) = run.reports
    assert record["type"] == RFC_IDS["write"]


def test_a_failing_report_does_not_change_the_transfer(run_scenario) -> None:
    run = run_scenario("report_fault", NPU_SIM_FAULTS="MsprofReportApi:error=5")
    for name in ("sync_read", "sync_write", "async_read", "async_write"):
        assert run.steps[name]["status"] == SUCCESS, name
        assert run.steps[name]["data_ok"], name
    for name in ("async_read", "async_write"):
        assert run.steps[name]["tstatus"] == COMPLETED
    assert run.reports == []  # every report failed inside libprofapi


def test_reports_without_the_fault_for_comparison(run_scenario) -> None:
    run = run_scenario("report_fault")
    assert len(run.reports) == 4


def test_a_failing_type_registration_keeps_profiling_off(run_scenario) -> None:
    run = run_scenario("switch", NPU_SIM_FAULTS="MsprofRegTypeInfo:error=5")
    assert run.steps["start"]["status"] != SUCCESS
    assert run.reports == []
    assert "registering api type" in run.stderr
