"""The simulated ACL runtime (libascendcl): every API's success and error paths.

The scenarios live in programs/acl_api_cases.c, one per command-line argument; each
runs in a fresh process on the virtual clock and prints "ok" when every check held
(a failed check prints a FAIL line naming the call, its result and the expected one).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

PROGRAMS = Path(__file__).resolve().parent / "programs"
REPO = Path(__file__).resolve().parents[2]
SOCS = tomllib.loads((REPO / "sim_runtime" / "data" / "socs.toml").read_text(encoding="utf-8"))["soc"]

CASES = [
    "init",
    "device",
    "context",
    "stream",
    "event",
    "memory",
    "vmm",
    "copy",
    "copy_errors",
    "copy2d",
    "memset",
    "host_func",
    "kernel",
    "launch",
    "prof_trace",
    "threads",
    "stream_query",
    "reset_force",
]


@pytest.fixture(scope="module")
def cases_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "acl_api_cases.c"], libs=["ascendcl"])


def run_case(exe: Path, native: NativeTree, case: str, **env: str) -> subprocess.CompletedProcess[str]:
    settings = {"NPU_SIM_CLOCK": "virtual", "NPU_SIM_DEVICES": "4", **env}
    result = run_program(exe, native.env(**settings), [case])
    assert result.returncode == 0, (
        f"exit {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    )
    assert result.stdout.splitlines()[-1] == "ok", result.stdout
    return result


def values(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    return dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)


@pytest.mark.parametrize("case", CASES)
def test_api_case(cases_exe: Path, native: NativeTree, case: str) -> None:
    run_case(cases_exe, native, case)


@pytest.mark.parametrize("case", ["copy", "copy2d", "host_func", "launch", "threads"])
def test_api_case_on_the_wall_clock(cases_exe: Path, native: NativeTree, case: str) -> None:
    run_case(cases_exe, native, case, NPU_SIM_CLOCK="wall")


def test_soc_name_and_device_count_follow_the_configuration(cases_exe: Path, native: NativeTree) -> None:
    assert values(run_case(cases_exe, native, "init", NPU_SIM_SOC="Ascend310B1"))["soc"] == "Ascend310B1"
    assert values(run_case(cases_exe, native, "device", NPU_SIM_DEVICES="6"))["count"] == "6"


def test_stream_ids_are_limited_and_reused(cases_exe: Path, native: NativeTree) -> None:
    # Ids 1..2047 (the default stream holds 0); stream ids stay below 2048 so profilers decode them as is.
    assert values(run_case(cases_exe, native, "stream"))["streams"] == "2047"


@pytest.mark.parametrize("soc", ["Ascend910B3", "Ascend910_9382", "Ascend950PR_9599", "Ascend310B1"])
def test_error_verbose_reports_no_device_fault(cases_exe: Path, native: NativeTree, soc: str) -> None:
    # The simulator models no device fault (HBM UCE, link): an open or closed device reports none.
    # CANN checks the pointer first, then whether the chip has the query (not on 310B), then the id.
    got = values(run_case(cases_exe, native, "error_verbose", NPU_SIM_SOC=soc))
    if SOCS[soc]["family"] == "310B":
        assert got == {"null": "100000", "bad_device": "207000", "not_open": "207000", "open": "207000"}
    else:
        assert got == {
            "null": "100000",
            "bad_device": "107001",
            "not_open": "0",
            "open": "0",
            "info": "0,0,0",
        }


NPU_ARCH = {5: 2201, 7: 3002, 15: 3510}


@pytest.mark.parametrize(
    "soc", ["Ascend910B3", "Ascend910B4", "Ascend910_9382", "Ascend950PR_9599", "Ascend310B1"]
)
def test_device_info_comes_from_the_soc_table(cases_exe: Path, native: NativeTree, soc: str) -> None:
    spec = SOCS[soc]
    got = values(run_case(cases_exe, native, "device_info", NPU_SIM_SOC=soc))
    assert {k: int(v) for k, v in got.items()} == {
        "aicore": spec["aic"],
        "cube": spec["aic"],
        "vector": spec["aiv"],
        "aicpu": spec["aicpu"],
        "memory": spec["memory_gib"] << 30,
        "l2": spec["l2_mib"] << 20,
        "hd_connect": spec["hd_connect_type"],
        "npu_arch": NPU_ARCH[spec["chip_type"]],
        "phy_chip": 1,
        "is_virtual": 0,
        "cap_aicore": spec["aic"],
        "cap_vector": spec["aiv"],
        "cap_l2": spec["l2_mib"] << 20,
    }


def topology(result: subprocess.CompletedProcess[str]) -> dict[tuple[int, int], int]:
    found = re.findall(r"^topo (\d+) (\d+) 0x([0-9a-f]+)$", result.stdout, re.M)
    return {(int(a), int(b)): int(v, 16) for a, b, v in found}


def test_topology_a2_is_an_hccs_mesh(cases_exe: Path, native: NativeTree) -> None:
    topo = topology(run_case(cases_exe, native, "topology", NPU_SIM_SOC="Ascend910B3", NPU_SIM_DEVICES="8"))
    assert len(topo) == 8 * 7
    assert set(topo.values()) == {0x01}


def test_topology_a3_pairs_dies_over_sio(cases_exe: Path, native: NativeTree) -> None:
    topo = topology(
        run_case(cases_exe, native, "topology", NPU_SIM_SOC="Ascend910_9382", NPU_SIM_DEVICES="16")
    )
    assert len(topo) == 16 * 15
    for (a, b), v in topo.items():
        assert v == (0x20 if a // 2 == b // 2 else 0x01), (a, b, v)


def test_topology_310b_is_pcie(cases_exe: Path, native: NativeTree) -> None:
    topo = topology(run_case(cases_exe, native, "topology", NPU_SIM_SOC="Ascend310B1", NPU_SIM_DEVICES="2"))
    assert topo == {(0, 1): 0x02, (1, 0): 0x02}


def test_topology_across_servers_goes_through_the_system(cases_exe: Path, native: NativeTree) -> None:
    topo = topology(run_case(cases_exe, native, "topology", NPU_SIM_SOC="Ascend910B3", NPU_SIM_DEVICES="10"))
    for (a, b), v in topo.items():
        assert v == (0x01 if a // 8 == b // 8 else 0x10), (a, b, v)


def test_invalid_configuration_fails_every_call(cases_exe: Path, native: NativeTree) -> None:
    result = run_program(cases_exe, native.env(NPU_SIM_SOC="NoSuchSoc"), ["config_error"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "ok"
    # aclInit says what is wrong with the configuration.
    assert re.search(r"aclInit: invalid simulator configuration: .*NoSuchSoc", result.stderr)


def test_binary_config_file_fails_every_call_naming_the_file(
    cases_exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    config_file = tmp_path / "sim.toml"
    config_file.write_bytes(b'soc = "Ascend910B3"\n\xff\xfe\x00\x01')
    result = run_program(cases_exe, native.env(NPU_SIM_CONFIG=str(config_file)), ["config_error"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "ok"
    assert (
        f"aclInit: invalid simulator configuration: NPU_SIM_CONFIG '{config_file}': not UTF-8 text "
        "(byte 0xff at offset 20); give a TOML file" in result.stderr
    ), result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # TOML the simulator reads through toml++: the message names the line and what is wrong.
        ('soc = "Ascend910B3"\nclock = virtual\n', "line 2: "),
        ('soc = "Ascend910B3"\nsoc = "Ascend910B4"\n', "line 2: "),
        # Valid TOML of a kind no simulator file uses: refused by key and line.
        ("devices = [1, 2]\n", "line 1: key 'devices': give a string, a number or a boolean"),
        ('[faults]\nplan = "x"\n', "only top-level keys are allowed"),
    ],
)
def test_malformed_config_file_fails_every_call_naming_the_file_and_line(
    cases_exe: Path, native: NativeTree, tmp_path: Path, text: str, message: str
) -> None:
    config_file = tmp_path / "sim.toml"
    config_file.write_text(text, encoding="utf-8")
    result = run_program(cases_exe, native.env(NPU_SIM_CONFIG=str(config_file)), ["config_error"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "ok"
    assert (
        f"aclInit: invalid simulator configuration: NPU_SIM_CONFIG '{config_file}': {message}"
        in result.stderr
    ), result.stderr


def test_fault_plan_on_a_misspelt_function_fails_every_call_with_the_nearest_names(
    cases_exe: Path, native: NativeTree
) -> None:
    env = native.env(NPU_SIM_FAULTS="aclrtMalloc:error=1@2;aclrtMaloc:error=207001")
    result = run_program(cases_exe, env, ["config_error"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "ok"
    assert (
        "aclInit: invalid simulator configuration: NPU_SIM_FAULTS: fault rule 'aclrtMaloc:error=207001': "
        "'aclrtMaloc' is not a simulator function with a fault point; did you mean aclrtMalloc"
        in result.stderr
    ), result.stderr
