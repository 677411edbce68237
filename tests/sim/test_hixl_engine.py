"""The simulated HIXL transfer engine: data movement, the transfer model, requests, argument
checks, and links between engines of one process and of two processes."""

from __future__ import annotations

import json
import math
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).parent / "programs"

SUCCESS = 0
PARAM_INVALID = 103900
TIMEOUT = 103901
NOT_CONNECTED = 103902
ALREADY_CONNECTED = 103903
FAILED = 503900
# TransferStatus
COMPLETED = 1
STATUS_FAILED = 3

# Ascend910B3 (the default SoC): the A2 family's HIXL figures of timing.toml (docs/timing.md):
# host API cost, and the fixed cost and HCCS rate of a WRITE from and a READ into device memory. Only
# sync_read has a device-memory local buffer; the other steps' is host memory, for which A2 names no
# fixed cost or rate of its own (hixl_host_alpha_ns, hixl_host_gbps), so they take the write's.
HOST_API_NS = 500
ALPHA_NS = 484
READ_ALPHA_NS = 459
WRITE_GBPS = 20.18
READ_GBPS = 27.21


# Initialize's option that chooses the hixl_cs path (a protocol description, as HIXL's benchmark gives).
CS_OPTION = 'GlobalResourceConfig={"comm_resource_config.protocol_desc": "hccs:device"}'
# The communication domain's costs on Ascend910B3 (socs.toml, timing.toml): one HcclBatchPut/Get call's
# host cost, the launch latency, a copy task's overhead, the stream synchronisation's wake-up, the host
# link (host-memory descriptors).
HCCL_CALL_NS = 20000
LAUNCH_NS = 6000
TASK_OVERHEAD_NS = 500
SYNC_WAKE_NS = 6000
HOST_LINK_GBPS = 25.0


def modelled_ns(nbytes: int, step: str) -> int:
    """hixl_cs: one fixed cost and the bytes at the HIXL rate."""
    if step == "sync_read":
        return READ_ALPHA_NS + math.ceil(nbytes / READ_GBPS)
    return ALPHA_NS + math.ceil(nbytes / WRITE_GBPS)


def comm_domain_ns(nbytes: int, step: str) -> int:
    """The communication domain, one op desc: one HCCL call, one copy task, the stream synchronisation."""
    rate = READ_GBPS if step == "sync_read" else HOST_LINK_GBPS  # sync_write's local memory is host memory
    return HCCL_CALL_NS + LAUNCH_NS + TASK_OVERHEAD_NS + math.ceil(nbytes / rate) + SYNC_WAKE_NS


@dataclass
class Run:
    steps: dict[str, dict] = field(default_factory=dict)
    reports: list[dict] = field(default_factory=list)
    lines: list[dict] = field(default_factory=list)
    stderr: str = ""


def parse(stdout: str, stderr: str = "") -> Run:
    run = Run(stderr=stderr)
    for line in stdout.splitlines():
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        run.lines.append(obj)
        if obj["kind"] == "step":
            run.steps[obj["name"]] = obj
        elif obj["kind"] == "report":
            run.reports.append(obj)
    return run


@pytest.fixture(scope="module")
def scenarios(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "hixl_scenarios.cpp"], libs=["hixl", "profapi", "ascendcl"])


@pytest.fixture(scope="module")
def run_scenario(scenarios: Path, native: NativeTree):
    def run(name: str, *args: str, **env: str) -> Run:
        result = run_program(scenarios, native.env(**env), [name, *args])
        assert result.returncode == 0, f"{name}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
        return parse(result.stdout, result.stderr)

    return run


@pytest.mark.parametrize("clock", ["wall", "virtual"])
def test_sync_and_async_transfers_move_the_data(run_scenario, clock: str) -> None:
    run = run_scenario("transfers", NPU_SIM_CLOCK=clock)
    for name in ("sync_read", "sync_write", "async_read", "async_write"):
        step = run.steps[name]
        assert step["status"] == SUCCESS, name
        assert step["data_ok"], name
    for name in ("async_read", "async_write"):
        assert run.steps[name]["tstatus"] == COMPLETED


def test_sync_transfer_takes_the_modelled_time_on_the_virtual_clock(run_scenario) -> None:
    run = run_scenario("transfers", NPU_SIM_CLOCK="virtual", HIXL_SCENARIO_OPTION=CS_OPTION)
    for name in ("sync_read", "sync_write"):
        step = run.steps[name]
        assert step["after"] - step["before"] == HOST_API_NS + modelled_ns(step["bytes"], name)


@pytest.mark.parametrize(
    "option",
    [
        "",
        'LocalCommRes={"version": "1.2"}',
        'GlobalResourceConfig={"comm_resource_config.listen_port": 2000}',
    ],
)
def test_without_a_hixl_cs_selector_a_transfer_takes_the_communication_domain(
    run_scenario, option: str
) -> None:
    run = run_scenario("transfers", NPU_SIM_CLOCK="virtual", HIXL_SCENARIO_OPTION=option)
    for name in ("sync_read", "sync_write"):
        step = run.steps[name]
        assert step["after"] - step["before"] == HOST_API_NS + comm_domain_ns(step["bytes"], name)


def test_local_comm_res_of_version_1_3_takes_hixl_cs(run_scenario) -> None:
    run = run_scenario(
        "transfers", NPU_SIM_CLOCK="virtual", HIXL_SCENARIO_OPTION='LocalCommRes={"version": "1.3"}'
    )
    step = run.steps["sync_read"]
    assert step["after"] - step["before"] == HOST_API_NS + modelled_ns(step["bytes"], "sync_read")


@pytest.mark.parametrize("option", ["LocalCommRes=version 1.3", "GlobalResourceConfig={protocol_desc"])
def test_an_option_that_is_not_json_is_refused(run_scenario, option: str) -> None:
    run = run_scenario("init_option", HIXL_SCENARIO_OPTION=option)
    assert run.steps["initialize"]["status"] == PARAM_INVALID
    assert "is not JSON" in run.stderr


def test_sync_transfer_waits_for_the_modelled_time_on_the_wall_clock(run_scenario) -> None:
    run = run_scenario("transfers", NPU_SIM_CLOCK="wall", HIXL_SCENARIO_OPTION=CS_OPTION)
    for name in ("sync_read", "sync_write"):
        step = run.steps[name]
        assert step["after"] - step["before"] >= modelled_ns(step["bytes"], name)


@pytest.mark.parametrize("clock", ["wall", "virtual"])
def test_async_request_completes_at_submit_plus_the_modelled_time(run_scenario, clock: str) -> None:
    run = run_scenario("transfers", NPU_SIM_CLOCK=clock, HIXL_SCENARIO_OPTION=CS_OPTION)
    for name in ("async_read", "async_write"):
        step = run.steps[name]
        assert step["after"] - step["before"] >= modelled_ns(step["bytes"], name)
    if clock == "virtual":
        # Each poll spends the host API cost; the request stays WAITING until its end.
        step = run.steps["async_read"]
        submit = step["submit_after"]
        end = submit + modelled_ns(step["bytes"], "async_read")
        assert step["polls"] == math.ceil((end - submit) / HOST_API_NS)
        assert step["after"] == submit + step["polls"] * HOST_API_NS


def test_a_completed_request_is_released(run_scenario) -> None:
    run = run_scenario("transfers")
    for name in ("async_read", "async_write"):
        step = run.steps[name]
        assert (step["again_status"], step["again_tstatus"]) == (PARAM_INVALID, STATUS_FAILED)


def test_batch_status_reports_each_request_once_with_its_user_data(run_scenario) -> None:
    run = run_scenario("transfers")
    assert run.steps["batch_status"]["status"] == SUCCESS
    assert run.steps["batch_status"]["data_ok"]


def test_unknown_or_finished_request_is_param_invalid_and_failed(run_scenario) -> None:
    run = run_scenario("requests")
    for name in ("bogus", "null", "other_engine", "finished", "after_finalize"):
        assert (run.steps[name]["status"], run.steps[name]["tstatus"]) == (PARAM_INVALID, STATUS_FAILED), name
    assert (run.steps["completed"]["status"], run.steps["completed"]["tstatus"]) == (SUCCESS, COMPLETED)
    assert "request 0x1234 not found" in run.stderr


EXPECTED_ERRORS = {
    "uninit_connect": FAILED,
    "uninit_register": FAILED,
    "bad_name": PARAM_INVALID,
    "bad_port": PARAM_INVALID,
    "init_twice": FAILED,
    "connect_twice": ALREADY_CONNECTED,
    "disconnect_unknown": NOT_CONNECTED,
    "ok": SUCCESS,
    "not_connected": NOT_CONNECTED,
    "empty_batch": PARAM_INVALID,
    "zero_len": PARAM_INVALID,
    "bad_timeout": PARAM_INVALID,
    "local_outside": PARAM_INVALID,
    "remote_outside": PARAM_INVALID,
    "local_unregistered": PARAM_INVALID,
    "partial_batch": PARAM_INVALID,
    "async_remote_outside": PARAM_INVALID,
    "async_not_connected": NOT_CONNECTED,
    "register_host_as_device": PARAM_INVALID,
    "register_overlap": PARAM_INVALID,
    "register_zero_len": PARAM_INVALID,
    "deregister_unknown": PARAM_INVALID,
    "remote_unregistered": PARAM_INVALID,
    "deregister": SUCCESS,
    "after_deregister": PARAM_INVALID,
    "deregister_twice": PARAM_INVALID,
    "register_again": SUCCESS,
    "register_big": SUCCESS,
    "register_big_local": SUCCESS,
    "timeout": TIMEOUT,
    "big_ok": SUCCESS,
    "disconnect": SUCCESS,
    "after_disconnect": NOT_CONNECTED,
    "reconnect": SUCCESS,
    "after_reconnect": SUCCESS,
    "client_init": SUCCESS,
    "client_listen_name": FAILED,
    "client_connect": SUCCESS,
    "connect_refused": FAILED,
    "peer_finalized": FAILED,
    "capability": SUCCESS,
}


def test_argument_and_link_errors(run_scenario) -> None:
    run = run_scenario("errors")
    got = {name: step["status"] for name, step in run.steps.items()}
    assert got == EXPECTED_ERRORS
    # A batch with one bad desc moves nothing.
    assert run.steps["partial_batch"]["data_ok"]
    assert run.steps["capability"]["tstatus"] == 0  # feature not supported
    assert "is outside the remote engine's memory" in run.stderr


def test_faults_apply_to_hixl_entry_points(run_scenario) -> None:
    run = run_scenario("requests", NPU_SIM_FAULTS="HixlTransferAsync:error=503900@1")
    assert run.steps["submit"]["status"] == FAILED
    assert run.steps["submit2"]["status"] == SUCCESS


def test_two_processes_transfer_over_loopback(scenarios: Path, native: NativeTree) -> None:
    env = native.env()
    server = subprocess.Popen(
        [str(scenarios), "server", "127.0.0.1:0"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        ready = json.loads(server.stdout.readline())
        assert ready["kind"] == "ready" and ready["name"].startswith("127.0.0.1:")
        assert not ready["name"].endswith(":0")
        client = run_program(scenarios, env, ["client", ready["name"], str(ready["src"]), str(ready["dst"])])
        assert client.returncode == 0, client.stderr
        run = parse(client.stdout, client.stderr)
        out, err = server.communicate("done\n", timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 0, err
    assert run.steps["connect"]["status"] == SUCCESS
    for name in ("sync_read", "sync_write", "async_write", "async_read"):
        assert run.steps[name]["status"] == SUCCESS, name
        assert run.steps[name]["data_ok"], name
    # The server validates the ranges on its side; the link stays usable after a refusal.
    assert run.steps["remote_outside"]["status"] == PARAM_INVALID
    assert run.steps["local_outside"]["status"] == PARAM_INVALID
    assert run.steps["still_usable"]["status"] == SUCCESS
    assert run.steps["disconnect"]["status"] == SUCCESS
    server_run = parse(out)
    assert server_run.steps["server_check"]["data_ok"], "the client's WRITEs are not in the server's memory"
    # The client's transfers are profiled in the client process.
    hixl = [r for r in run.reports if r["type"] >> 16 == 0x0C]
    assert len(hixl) == 7
