"""HCCL's communicator API, argument checks, configuration blocks and fault points."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.hccl import CANN_COMM_NAME, rank_table
from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"
SUCCESS, E_PARA, E_PTR, E_INTERNAL, E_NOT_SUPPORT, E_TIMEOUT, E_TCP_CONNECT = 0, 1, 2, 4, 5, 9, 11
ACL_ERROR_RT_FFTS_PLUS_TIMEOUT = 507048  # a collective task whose peers did not come (CANN: EI0002)


@pytest.fixture(scope="module")
def exe(programs: ProgramBuilder) -> Path:
    # Linked like CANN samples: the communicator API resolves from libhccl alone.
    return programs.build([PROGRAMS / "hccl_api_cases.c"], libs=["hccl", "ascendcl"])


def run(exe: Path, native: NativeTree, scenario: str, **env: str) -> dict[str, str]:
    result = run_program(exe, native.env(**{"NPU_SIM_DEVICES": "8", **env}), [scenario], timeout=60)
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return dict(line.split("=", 1) for line in result.stdout.splitlines())


def test_queries_checks_and_configuration(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, "api")
    assert out["init_all"] == "0"
    assert out["size"] == "2 ids=0,1"
    # CANN's form, <ip>%<ifname>_<port>_<device>_<microseconds>, as the vendor's msPTI system
    # test expects it (test/mspti_cpp/st/script/test_mspti_samples.py).
    name = out["name"].split()[0]
    assert CANN_COMM_NAME.fullmatch(name), name
    assert name.split("_")[-3:-1] == ["0", "0"]  # HcclCommInitAll opens no socket; device 0 first
    assert out["name"].endswith("same=1 len_ok=1")
    expected = {
        "init_all_duplicate": E_PARA,
        "init_all_bad_device": E_PARA,
        "size_null_comm": E_PTR,
        "size_bogus_comm": E_PARA,
        "size_null_out": E_PTR,
        "group_start": E_NOT_SUPPORT,
        "allreduce_bad_dtype": E_PARA,
        "allreduce_bad_op": E_PARA,
        "allreduce_null_buf": E_PTR,
        "allreduce_null_comm": E_PTR,
        "broadcast_bad_root": E_PARA,
        "send_to_self": E_PARA,
        "send_out_of_range": E_PARA,
        "stream_of_other_device": E_PARA,
        "set_config": SUCCESS,
        "deterministic": 1,
        "destroy_again": E_PARA,
        "init_garbage_root": E_PARA,
        "root_info": SUCCESS,
        "init_config": SUCCESS,
        "single_rank_allreduce": SUCCESS,
        "destroy_single": SUCCESS,
    }
    assert {k: int(out[k]) for k in expected} == expected
    assert out["destroy"] == "0,0"
    assert (out["error_string_9"], out["error_string_0"]) == ("timeout", "success")
    assert out["config_name"] == "my_group"  # hcclCommName of the configuration block
    assert (out["init_unnamed"], out["destroy_unnamed"]) == ("0", "0")
    assert CANN_COMM_NAME.fullmatch(out["root_name"]), out["root_name"]
    # The capability torch_npu compares with (HcclGetCommConfigCapability() > HCCL_COMM_CONFIG_COMM_NAME
    # before it sets hcclCommName): names are supported, the expansion mode is not modelled.
    assert out["capability"] == "3 comm_name=1 op_expansion=0"


def test_rank_table_communicators_are_the_world_group_unless_named(
    exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    out = run(exe, native, "cluster_names", RANK_TABLE_FILE=str(rank_table(tmp_path, 1, 1)))
    assert [
        out[k] for k in ("init_cluster", "destroy_cluster", "init_cluster_config", "destroy_cluster_config")
    ] == ["0"] * 4
    assert (out["cluster_name"], out["cluster_config_name"]) == ("hccl_world_group", "table_group")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"server_list": [{"device": [}]}', r"not valid JSON: .*parse error at line 1, column 30"),
        (
            '{"server_list": [\n  {"device": [{"device_id": "0"}]}\n]}',
            r"server_list\[0\]\.device\[0\]: rank_id missing",
        ),
        (
            '{"server_list": [{"device": [{"rank_id": "0", "device_id": -1}]}]}',
            r"server_list\[0\]\.device\[0\]: device_id missing or not an integer",
        ),
        ('{"server_list": [{"device": [{"rank_id": 1, "device_id": 0}]}]}', r"rank ids are not 0\.\.0$"),
        ("[1, 2]", r"no server_list \(or group_list\) array"),
    ],
)
def test_a_bad_rank_table_is_refused_naming_the_file_and_the_place(
    exe: Path, native: NativeTree, tmp_path: Path, text: str, message: str
) -> None:
    table = tmp_path / "rank_table.json"
    table.write_text(text, encoding="utf-8")
    result = run_program(exe, native.env(NPU_SIM_DEVICES="8", RANK_TABLE_FILE=str(table)), ["cluster_names"])
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    out = dict(line.split("=", 1) for line in result.stdout.splitlines())
    assert out["init_cluster"] == str(E_PARA)
    assert re.search(rf"hccl: rank table: {re.escape(str(table))}: {message}", result.stderr), result.stderr


@pytest.mark.parametrize(
    ("variables", "want"),
    [
        ({"HCCL_IF_IP": "10.1.2.3"}, "10.1.2.3%"),
        ({"HCCL_SOCKET_IFNAME": "=lo"}, "127.0.0.1%lo_"),
        ({"HCCL_SOCKET_IFNAME": "lo", "HCCL_IF_IP": "10.9.8.7"}, "10.9.8.7%"),
    ],
)
def test_default_name_follows_the_interface_variables(
    exe: Path, native: NativeTree, variables: dict[str, str], want: str
) -> None:
    out = run(exe, native, "api", **variables)
    assert out["root_name"].startswith(want) and CANN_COMM_NAME.fullmatch(out["root_name"])
    assert out["single_rank_result"] == "1,2,3,4"


def test_config_exec_timeout_overrides_the_environment(exe: Path, native: NativeTree) -> None:
    out = run(exe, native, "exec_timeout", HCCL_CONNECT_TIMEOUT="30")
    assert out["init"] == "0,0"
    status, seconds = out["allreduce"].split(" seconds=")
    # The call enqueues; the synchronisation fails once the execution timeout has passed, with
    # ACL's code for a timed-out collective task, and the communicator's async error says which.
    assert int(status) == E_TIMEOUT and 0.9 <= float(seconds) < 5
    assert int(out["sync"]) == ACL_ERROR_RT_FFTS_PLUS_TIMEOUT


@pytest.mark.parametrize(
    "plan,key,value",
    [
        ("HcclAllReduce:error=4", "allreduce", "4,4"),  # every call fails at once, on every rank, no wait
        ("HcclAllReduce:error=4@1", "allreduce", None),  # only the first call: the other rank times out
        ("HcclCommInitAll:error=11", "init_all", "11"),
    ],
)
def test_fault_points(exe: Path, native: NativeTree, plan: str, key: str, value: str | None) -> None:
    out = run(exe, native, "faults", NPU_SIM_FAULTS=plan, HCCL_CONNECT_TIMEOUT="1")
    if value is not None:
        assert out[key] == value
    else:
        assert sorted(out[key].split(",")) == sorted([str(E_INTERNAL), str(E_TIMEOUT)])
