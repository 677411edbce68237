"""HCCL across hosts: the root info's address and port, rank tables across hosts, two hosts of
two ranks each (network namespaces, or loopback addresses where they cannot be made), and a
rank killed in the middle of a collective.

The root info is handed to the other host's processes in a file, standing in for MPI_Bcast.
"""

from __future__ import annotations

import fcntl
import glob
import json
import os
import signal
import socket
import struct
import subprocess
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from sim.test_hccl_collectives import (
    E_PARA,
    E_TIMEOUT,
    FP16,
    FP32,
    INT32,
    INT64,
    MAX,
    PROGRAMS,
    SUM,
    case_file,
    check,
    numbered,
    parse,
)

from support.native import NativeTree, ProgramBuilder
from support.two_hosts import TwoHosts, two_hosts

ROOT_INFO_BYTES = 4108
SIOCGIFADDR = 0x8915


@pytest.fixture(scope="module")
def exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "hccl_collectives.cpp"], libs=["hccl", "hcomm", "ascendcl"])


# --- what the root info carries ------------------------------------------------------------------


def ipv4_interfaces() -> list[tuple[str, str]]:
    """(name, address) of this host's IPv4 interfaces, in CANN's order: others by name, docker*, lo."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                req = struct.pack("256s", name.encode()[:15])
                addr = socket.inet_ntoa(fcntl.ioctl(s.fileno(), SIOCGIFADDR, req)[20:24])
            except OSError:
                continue  # no IPv4 address
            found.append((name, addr))
    return sorted(found, key=lambda n: (2 if n[0] == "lo" else 1 if n[0].startswith("docker") else 0, n[0]))


def root_info(
    exe: Path, native: NativeTree, tmp_path: Path, **env: str
) -> tuple[dict, subprocess.CompletedProcess]:
    """Runs a 1-rank world whose rank 0 writes its root info; the fields CANN's layout puts first."""
    root = tmp_path / "root.bin"
    root.unlink(missing_ok=True)
    cases = case_file(tmp_path, numbered([("allreduce", INT32, SUM, 4)]))
    full_env = native.env(
        NPU_SIM_DEVICES="8",
        HCCL_CONNECT_TIMEOUT="20",
        RANK="0",
        WORLD_SIZE="1",
        HCCL_TEST_ROOT_FILE=str(root),
        **env,
    )
    result = subprocess.run(
        [str(exe), "proc", "1", str(cases)], env=full_env, capture_output=True, text=True, timeout=60
    )
    if not root.exists():
        return {}, result
    data = root.read_bytes()
    assert len(data) == ROOT_INFO_BYTES
    fields = {
        "ip": data[0:64].split(b"\0")[0].decode(),
        "port": struct.unpack_from("<I", data, 64)[0],
        "nic_deploy": struct.unpack_from("<I", data, 68)[0],
        "identifier": data[72:200].split(b"\0")[0].decode(),
        "rank": struct.unpack_from("<I", data, 200)[0],
    }
    return fields, result


def free_base_port() -> int:
    """A base port whose first port is free now (the root info of device 0 takes base + 0)."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("0.0.0.0", 0))
            port = s.getsockname()[1]
        if 1024 <= port <= 65535 - 31:
            return port
    raise AssertionError("no free port")


def test_root_info_names_the_default_interface_and_base_port(
    exe: Path, native: NativeTree, tmp_path: Path
) -> None:
    nics = ipv4_interfaces()
    want_name, want_ip = nics[0] if nics else ("lo", "127.0.0.1")
    base = free_base_port()
    fields, result = root_info(exe, native, tmp_path, HCCL_IF_BASE_PORT=str(base))
    assert result.returncode == 0, result.stderr
    assert fields["ip"] == want_ip, (fields, nics)
    if len(nics) > 1:
        assert fields["ip"] != "127.0.0.1"
    # HCCL_IF_BASE_PORT + the device id first (device 0), else the next of its 32 ports.
    assert base <= fields["port"] < base + 32
    assert (fields["nic_deploy"], fields["rank"]) == (0, 0)
    assert fields["identifier"].startswith(f"{want_ip}%{want_name}_{fields['port']}_0_"), fields


@pytest.mark.parametrize("rule", ["=lo", "^=first", "^first", "lo,first"])
def test_socket_ifname_rules_pick_the_root_address(
    exe: Path, native: NativeTree, tmp_path: Path, rule: str
) -> None:
    nics = ipv4_interfaces()
    names = [n for n, _ in nics]
    if len(nics) < 2:
        pytest.fail(f"this test needs two IPv4 interfaces (lo and another); the host has {names}")
    first = names[0]
    spec = rule.replace("first", first)
    exact, exclude = "=" in spec, spec.startswith("^")
    items = spec.lstrip("^=").split(",")

    def listed(name: str) -> bool:
        return any(name == i if exact else name.startswith(i) for i in items)

    want = next(ip for name, ip in nics if listed(name) != exclude)
    fields, result = root_info(exe, native, tmp_path, HCCL_SOCKET_IFNAME=spec)
    assert result.returncode == 0, result.stderr
    assert fields["ip"] == want, (spec, fields, nics)


def test_port_range_and_bad_port_variables(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    port = free_base_port()
    fields, result = root_info(exe, native, tmp_path, HCCL_HOST_SOCKET_PORT_RANGE=f"{port}")
    assert result.returncode == 0, result.stderr
    assert fields["port"] == port
    # HCCL_HOST_SOCKET_PORT_RANGE takes precedence over HCCL_IF_BASE_PORT.
    fields, _ = root_info(exe, native, tmp_path, HCCL_HOST_SOCKET_PORT_RANGE="auto", HCCL_IF_BASE_PORT="80")
    assert fields["port"] > 0
    for name, value in [
        ("HCCL_IF_BASE_PORT", "80"),
        ("HCCL_IF_BASE_PORT", "6x"),
        ("HCCL_HOST_SOCKET_PORT_RANGE", "60010-60000"),
    ]:
        fields, result = root_info(exe, native, tmp_path, **{name: value})
        assert not fields and result.returncode == 5, (
            name,
            value,
            result.returncode,
        )  # HcclGetRootInfo failed
        assert name in result.stderr, result.stderr


def ipv6_interfaces() -> list[tuple[str, str]]:
    """(name, address) of this host's IPv6 addresses but link-local ones, in CANN's order."""
    found = []
    try:
        table = Path("/proc/net/if_inet6").read_text()
    except OSError:
        return []
    for row in table.splitlines():
        hexaddr, _, _, scope, _, name = row.split()
        if int(scope, 16) == 0x20:
            continue  # link-local
        found.append((name, socket.inet_ntop(socket.AF_INET6, bytes.fromhex(hexaddr))))
    order = {"lo": 2, "docker": 1}
    return sorted(found, key=lambda n: (next((v for k, v in order.items() if n[0].startswith(k)), 0), n[0]))


def ipv6_usable() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.parametrize(
    "env",
    [
        {"HCCL_SOCKET_FAMILY": "AF_INET6", "HCCL_SOCKET_IFNAME": "=lo"},
        {"HCCL_SOCKET_FAMILY": "AF_INET6"},
        {"HCCL_IF_IP": "::1"},
    ],
    ids=["family-and-ifname", "family-default-order", "if-ip"],
)
def test_ipv6_root_info_names_the_selected_address(
    exe: Path, native: NativeTree, tmp_path: Path, env: dict[str, str]
) -> None:
    """HCCL_SOCKET_FAMILY=AF_INET6 searches IPv6 addresses first (CANN's FindLocalHostIP); the
    root info and the communicator's default name carry the address chosen."""
    if not ipv6_usable():
        pytest.fail("this test needs IPv6 on the loopback (::1)")
    nics = ipv6_interfaces()
    if env.get("HCCL_SOCKET_IFNAME") == "=lo" or "HCCL_IF_IP" in env:
        want_name, want_ip = "lo", "::1"
    else:
        want_name, want_ip = nics[0]
    fields, result = root_info(exe, native, tmp_path, HCCL_IF_BASE_PORT=str(free_base_port()), **env)
    assert result.returncode == 0, result.stderr
    assert fields["ip"] == want_ip, (fields, nics)
    assert fields["identifier"].startswith(f"{want_ip}%{want_name}_{fields['port']}_0_"), fields


def test_a_bad_socket_family_fails_root_info_with_para(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    fields, result = root_info(exe, native, tmp_path, HCCL_SOCKET_FAMILY="AF_UNIX")
    assert not fields and result.returncode == 5, (result.returncode, result.stderr)  # HcclGetRootInfo failed
    assert "HCCL_SOCKET_FAMILY='AF_UNIX' is invalid" in result.stderr, result.stderr
    # HcclCommInitRootInfo reads it too: a rank given a good root info still fails.
    fields, result = root_info(exe, native, tmp_path)
    assert result.returncode == 0 and fields, result.stderr
    cases = case_file(tmp_path, numbered([("allreduce", INT32, SUM, 4)]))
    env = native.env(
        NPU_SIM_DEVICES="8",
        HCCL_CONNECT_TIMEOUT="2",
        RANK="1",
        WORLD_SIZE="2",
        HCCL_TEST_ROOT_FILE=str(tmp_path / "root.bin"),
        HCCL_SOCKET_FAMILY="AF_UNIX",
    )
    result = subprocess.run(
        [str(exe), "proc", "2", str(cases)], env=env, capture_output=True, text=True, timeout=60
    )
    init, _, _, _ = parse(result.stdout)
    assert init == {1: E_PARA}, result.stdout + result.stderr


# --- two hosts ------------------------------------------------------------------------------------


@pytest.fixture(params=["netns", "loopback"])
def hosts(request: pytest.FixtureRequest) -> Iterator[TwoHosts]:
    with two_hosts(prefer_netns=request.param == "netns") as h:
        if request.param == "netns" and h.mode != "netns":
            reason = f"two hosts: network namespaces unavailable ({h.why}); ran on loopback addresses"
            warnings.warn(reason, stacklevel=2)
        yield h


def sim_files() -> set[str]:
    """What a rendezvous could leave behind on the machine."""
    return set(glob.glob("/tmp/hccl_sim_*")) | {
        f for f in glob.glob("/dev/shm/*") if "hccl" in f or "npusim" in f
    }


def launch(
    exe: Path, native: NativeTree, hosts: TwoHosts, mode: str, cases: Path, per_host: int, **extra: str
) -> list[subprocess.Popen]:
    p = 2 * per_host
    procs = []
    for r in range(p):
        host = r // per_host
        env = native.env(
            NPU_SIM_DEVICES="8",
            HCCL_CONNECT_TIMEOUT="30",
            RANK=str(r),
            WORLD_SIZE=str(p),
            NPU_SIM_LOG_LEVEL="debug",
            **hosts.env[host],
            **extra,
        )
        env.pop("HCCL_SIM_MASTER", None)
        procs.append(
            subprocess.Popen(
                hosts.command(host, [str(exe), mode, str(p), str(cases)]),
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    return procs


def finish(procs: list[subprocess.Popen], timeout: float = 120) -> tuple[str, list[str]]:
    outs, errs = [], []
    for proc in procs:
        out, err = proc.communicate(timeout=timeout)
        assert proc.returncode == 0, f"exit {proc.returncode}\n{out[-2000:]}\n{err[-3000:]}"
        outs.append(out)
        errs.append(err)
    return "".join(outs), errs


def test_two_hosts_root_info_to_init_and_all_reduce(
    exe: Path, native: NativeTree, tmp_path: Path, hosts: TwoHosts
) -> None:
    before = sim_files()
    root = tmp_path / "root_info.bin"  # MPI_Bcast's stand-in
    cases = numbered(
        [("allreduce", FP32, SUM, 1000), ("allgather", FP16, SUM, 3), ("allreduce", INT64, MAX, 5)]
    )
    procs = launch(exe, native, hosts, "proc", case_file(tmp_path, cases), 2, HCCL_TEST_ROOT_FILE=str(root))
    out, errs = finish(procs)
    check(cases, 4, out)
    data = root.read_bytes()
    assert data_ip(data) == hosts.addresses[0], f"{hosts.mode}: the root's address"
    # Every rank's communicator, on either host, is named after the root's address and interface
    # (CANN's "<ip>%<ifname>_<port>_<device>_<µs>").
    port = struct.unpack_from("<I", data, 64)[0]
    names = [line.split()[4] for line in out.splitlines() if line.startswith("N ")]
    prefix = f"{hosts.addresses[0]}%{hosts.ifnames[0]}_{port}_0_"
    assert len(names) == 4 and all(n.startswith(prefix) and n[len(prefix) :].isdigit() for n in names), names
    # Rank 1 (host A, another process) and host B's ranks reached the root from their own addresses.
    joins = [
        line.split("joins from ")[1].split(":")[0] for line in errs[0].splitlines() if "joins from" in line
    ]
    assert sorted(joins) == sorted([hosts.addresses[0], hosts.addresses[1], hosts.addresses[1]]), (
        hosts.mode,
        joins,
    )
    assert sim_files() <= before


def test_two_hosts_over_ipv6(exe: Path, native: NativeTree, tmp_path: Path, hosts: TwoHosts) -> None:
    """HCCL_SOCKET_FAMILY=AF_INET6 on both hosts: the root listens on its host's IPv6 address
    (namespaces: the veth's; loopback: ::1) and the other host's ranks reach it there."""
    if not ipv6_usable():
        pytest.fail("this test needs IPv6 on the loopback (::1)")
    root = tmp_path / "root_info.bin"
    cases = numbered([("allreduce", FP32, SUM, 1000), ("allgather", INT32, SUM, 3)])
    procs = launch(
        exe,
        native,
        hosts,
        "proc",
        case_file(tmp_path, cases),
        2,
        HCCL_TEST_ROOT_FILE=str(root),
        HCCL_SOCKET_FAMILY="AF_INET6",
    )
    out, _ = finish(procs)
    check(cases, 4, out)
    assert data_ip(root.read_bytes()) == hosts.addresses6[0], f"{hosts.mode}: the root's address"
    names = [line.split()[4] for line in out.splitlines() if line.startswith("N ")]
    assert len(names) == 4 and all(n.startswith(f"{hosts.addresses6[0]}%") for n in names), names


def data_ip(data: bytes) -> str:
    return data[0:64].split(b"\0")[0].decode()


def rank_table_across(tmp_path: Path, hosts: TwoHosts, host_port: int | None, v6: bool = False) -> Path:
    tag = uuid.uuid4().hex[:8]
    addresses = hosts.addresses6 if v6 else hosts.addresses
    table = {
        "status": "completed",
        "version": "1.0",
        "server_count": "2",
        "server_list": [
            {
                "server_id": f"node{h}-{tag}",
                "host_ip": addresses[h],
                "device": [
                    {"device_id": str(2 * h + d), "device_ip": f"192.168.{h}.{d}", "rank_id": str(2 * h + d)}
                    for d in range(2)
                ],
            }
            for h in range(2)
        ],
    }
    if host_port is not None:
        table["server_list"][0]["device"][0]["host_port"] = str(host_port)
    path = tmp_path / "rank_table.json"
    path.write_text(json.dumps(table))
    return path


@pytest.mark.parametrize("port_from", ["base_port", "host_port"])
def test_two_hosts_rank_table_meets_at_the_first_server(
    exe: Path, native: NativeTree, tmp_path: Path, hosts: TwoHosts, port_from: str
) -> None:
    before = sim_files()
    base = free_base_port()
    host_port = free_base_port() if port_from == "host_port" else None
    table = rank_table_across(tmp_path, hosts, host_port)
    cases = numbered([("allreduce", INT32, SUM, 7), ("broadcast", FP32, SUM, 5, 3)])
    procs = launch(
        exe,
        native,
        hosts,
        "cluster-proc",
        case_file(tmp_path, cases),
        2,
        RANK_TABLE_FILE=str(table),
        HCCL_IF_BASE_PORT=str(base),
    )
    out, errs = finish(procs)
    check(cases, 4, out)
    hosted = [line for line in errs[0].splitlines() if "hosts the rank table's rendezvous" in line]
    assert hosted, errs[0][-2000:]
    port = int(hosted[0].split(f"at {hosts.addresses[0]}:")[1].split()[0])
    # The first server's rank 0 (device 0): its host_port, else HCCL_IF_BASE_PORT + 0 or the next free one.
    if host_port is not None:
        assert port == host_port
    else:
        assert base <= port < base + 32, (port, base)
    assert sim_files() <= before


def test_two_hosts_rank_table_with_ipv6_host_ips(
    exe: Path, native: NativeTree, tmp_path: Path, hosts: TwoHosts
) -> None:
    """host_ip as IPv6 addresses (namespaces: the veths'; loopback: ::1 for both servers): the
    first server's rank 0 hosts the rendezvous at its IPv6 address and every rank meets there."""
    if not ipv6_usable():
        pytest.fail("this test needs IPv6 on the loopback (::1)")
    table = rank_table_across(tmp_path, hosts, None, v6=True)
    cases = numbered([("allreduce", INT32, SUM, 7)])
    procs = launch(
        exe,
        native,
        hosts,
        "cluster-proc",
        case_file(tmp_path, cases),
        2,
        RANK_TABLE_FILE=str(table),
        HCCL_IF_BASE_PORT=str(free_base_port()),
    )
    out, errs = finish(procs)
    check(cases, 4, out)
    hosted = [line for line in errs[0].splitlines() if "hosts the rank table's rendezvous" in line]
    assert hosted and f"at {hosts.addresses6[0]}:" in hosted[0], (hosts.mode, errs[0][-2000:])


def test_group_list_rank_table_is_accepted(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    tag = uuid.uuid4().hex[:8]
    table = {
        "status": "completed",
        "group_count": "1",
        "group_list": [
            {
                "group_name": "hccl_world_group",
                "instance_count": "2",
                "device_count": "2",
                "instance_list": [
                    {
                        "pod_name": f"pod{i}-{tag}",
                        "server_id": f"node{i}-{tag}",
                        "devices": [{"device_id": str(i), "device_ip": f"192.168.1.{i}"}],
                    }
                    for i in range(2)
                ],
            }
        ],
    }
    path = tmp_path / "group_table.json"
    path.write_text(json.dumps(table))
    cases = numbered([("allreduce", INT32, SUM, 3)])
    env = native.env(NPU_SIM_DEVICES="8", HCCL_CONNECT_TIMEOUT="30", RANK_TABLE_FILE=str(path))
    env.pop("HCCL_SIM_MASTER", None)
    result = subprocess.run(
        [str(exe), "cluster", "2", str(case_file(tmp_path, cases))],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    check(cases, 2, result.stdout)


# --- failures --------------------------------------------------------------------------------------


@pytest.mark.parametrize("victim", [3, 0])
def test_a_killed_rank_fails_the_others_with_timeout(
    exe: Path, native: NativeTree, tmp_path: Path, victim: int
) -> None:
    """SIGKILL one rank while the others wait in a collective: they get HCCL_E_TIMEOUT long before
    HCCL_EXEC_TIMEOUT, say which rank (or the root's process) is gone, and leave no files."""
    before = sim_files()
    stopped = tmp_path / "stopped"
    cases = numbered([("allreduce", INT32, SUM, 4), ("missing", INT32, SUM, 4)])
    with two_hosts(prefer_netns=False) as hosts:
        procs = launch(
            exe,
            native,
            hosts,
            "proc",
            case_file(tmp_path, cases),
            2,
            HCCL_TEST_ROOT_FILE=str(tmp_path / "root.bin"),
            HCCL_EXEC_TIMEOUT="60",
            HCCL_TEST_MISSING_RANK=str(victim),
            HCCL_TEST_STOPPED_FILE=str(stopped),
            HCCL_TEST_MISSING_SLEEP_MS="120000",
        )
        deadline = time.monotonic() + 60
        while not stopped.exists():
            assert time.monotonic() < deadline, "the victim never reached the case it skips"
            time.sleep(0.02)
        time.sleep(0.3)  # the others are waiting in the collective now
        killed_at = time.monotonic()
        os.kill(procs[victim].pid, signal.SIGKILL)
        procs[victim].wait(timeout=30)
        outs, errs = [], []
        for r, proc in enumerate(procs):
            if r == victim:
                continue
            out, err = proc.communicate(timeout=50)
            assert proc.returncode == 0, f"rank {r}: exit {proc.returncode}\n{err[-2000:]}"
            outs.append(out)
            errs.append(err)
        elapsed = time.monotonic() - killed_at
    assert elapsed < 30, f"the others took {elapsed:.1f} s after the kill (HCCL_EXEC_TIMEOUT 60)"
    _, _, results, _ = parse("".join(outs))
    survivors = [r for r in range(4) if r != victim]
    assert {r: results[(r, 2)][0] for r in survivors} == {r: E_TIMEOUT for r in survivors}, results
    for err in errs:
        if victim == 0:
            assert "the process hosting the rendezvous" in err and "gone" in err, err[-2000:]
        else:
            assert f"rank {victim} did not arrive within HCCL_EXEC_TIMEOUT or is gone" in err, err[-2000:]
    assert sim_files() <= before


def test_a_rank_that_stops_participating_times_out_across_hosts(
    exe: Path, native: NativeTree, tmp_path: Path, hosts: TwoHosts
) -> None:
    """Rank 3 (the second host) stays alive but never calls the collective: the other ranks,
    on both hosts, get HCCL_E_TIMEOUT once HCCL_EXEC_TIMEOUT (1 s) has passed, each logging
    that rank 3 did not arrive."""
    cases = numbered([("allreduce", INT32, SUM, 4), ("missing", INT32, SUM, 4)])
    procs = launch(
        exe,
        native,
        hosts,
        "proc",
        case_file(tmp_path, cases),
        2,
        HCCL_TEST_ROOT_FILE=str(tmp_path / "root.bin"),
        HCCL_EXEC_TIMEOUT="1",
        HCCL_TEST_MISSING_RANK="3",
        HCCL_TEST_MISSING_SLEEP_MS="3000",
    )
    out, errs = finish(procs)
    _, _, results, waits = parse(out)
    for r in range(3):
        assert results[(r, 2)][0] == E_TIMEOUT, (hosts.mode, out)
        assert 900 <= waits[(r, 2)] < 3000, (hosts.mode, waits)  # before rank 3 leaves
        assert "rank 3 did not arrive within HCCL_EXEC_TIMEOUT" in errs[r], errs[r][-2000:]
    assert (3, 2) not in results


def test_an_unreachable_root_times_out_at_init(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    """A root info naming an address nobody answers at: HCCL_E_TIMEOUT within HCCL_CONNECT_TIMEOUT."""
    fields, result = root_info(exe, native, tmp_path)
    assert result.returncode == 0 and fields["port"] > 0
    data = bytearray((tmp_path / "root.bin").read_bytes())
    data[0:64] = b"198.51.100.7".ljust(64, b"\0")  # TEST-NET-2: routed nowhere
    bad = tmp_path / "bad_root.bin"
    bad.write_bytes(bytes(data))
    cases = case_file(tmp_path, numbered([("allreduce", INT32, SUM, 4)]))
    env = native.env(
        NPU_SIM_DEVICES="8", HCCL_CONNECT_TIMEOUT="2", RANK="1", WORLD_SIZE="2", HCCL_TEST_ROOT_FILE=str(bad)
    )
    t0 = time.monotonic()
    result = subprocess.run(
        [str(exe), "proc", "2", str(cases)], env=env, capture_output=True, text=True, timeout=60
    )
    took = time.monotonic() - t0
    init, _, _, _ = parse(result.stdout)
    assert init == {1: E_TIMEOUT}, result.stdout + result.stderr
    assert 1.8 <= took < 10, took
    assert "cannot reach the root rank at 198.51.100.7" in result.stderr, result.stderr
