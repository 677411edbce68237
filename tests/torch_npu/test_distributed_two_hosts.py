"""torchrun --nnodes 2 over the hccl backend across two hosts (programs/distributed.py): two
torchrun invocations, one per host, meeting at the first host's address (c10d's static
rendezvous: --master_addr, --node_rank), two ranks per host, over IPv4 and over IPv6
(HCCL_SOCKET_FAMILY=AF_INET6). Every collective gives the value every
rank can compute alone, and DDP training on `npu` matches the same DDP run on the CPU over gloo
(the one-host test's tolerance: fp32 rtol 1e-5 / atol 1e-6).

The hosts are two network namespaces joined by a veth pair where the test may run `ip netns add`
(torch_npu's HcclGetRootInfo on rank 0 then names its namespace's address, found by CANN's
interface order, and the other host's ranks connect there), else loopback addresses (127.0.0.1
and 127.0.0.2, chosen by HCCL_SOCKET_IFNAME and HCCL_IF_IP); the test says which ran
(tests/support/two_hosts.py). About 50-75 s per family: slow."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import warnings

import pytest
from torch_npu_harness import PROGRAMS

from support.two_hosts import TwoHosts, two_hosts

PER_HOST = 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def torchrun_two_hosts(hosts: TwoHosts, family: str) -> tuple[list[dict[str, object]], list[str]]:
    """Each rank's line, by rank, and the addresses the root's rendezvous saw ranks join from."""
    master_port = free_port()
    procs = []
    for host in (0, 1):
        argv = [
            sys.executable, "-m", "sim_runtime", "run", "--devices", str(PER_HOST), "--",
            sys.executable, "-m", "torch.distributed.run", "--nnodes=2", f"--node_rank={host}",
            f"--nproc_per_node={PER_HOST}", f"--master_addr={hosts.addresses[0]}",
            f"--master_port={master_port}", str(PROGRAMS / "distributed.py"), "all", "mspti_core",
        ]  # fmt: skip
        env = {
            **os.environ,
            # Host A's debug lines name the address each rank joined the root's rendezvous from.
            "NPU_SIM_LOG_LEVEL": "debug" if host == 0 else "warn",
            "HCCL_CONNECT_TIMEOUT": "120",
            "HCCL_SOCKET_FAMILY": family,
            # gloo (the CPU reference) binds the host's own interface, as HCCL's selection does.
            "GLOO_SOCKET_IFNAME": hosts.ifnames[host],
            **hosts.env[host],
        }
        env.pop("HCCL_SIM_MASTER", None)
        procs.append(
            subprocess.Popen(
                hosts.command(host, argv), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
        )
    results = []
    try:
        results = [proc.communicate(timeout=600) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    lines: list[dict[str, object]] = []
    for host, (proc, (out, err)) in enumerate(zip(procs, results, strict=True)):
        assert proc.returncode == 0, (
            f"{hosts.mode}: host {host}: exit {proc.returncode}\n{out[-2000:]}{err[-4000:]}"
        )
        lines += [json.loads(line[5:]) for line in out.splitlines() if line.startswith("RANK ")]
    lines.sort(key=lambda r: r["rank"])
    assert [r["rank"] for r in lines] == list(range(2 * PER_HOST)), lines
    joins = [
        line.split("joins from ")[1].split(": ")[0].rsplit(":", 1)[0]  # "... joins from ip:port: status"
        for line in results[0][1].splitlines()
        if "joins from" in line
    ]
    return lines, joins


@pytest.fixture(scope="module", params=["AF_INET", "AF_INET6"])
def run(request: pytest.FixtureRequest) -> tuple[TwoHosts, str, list[dict[str, object]], list[str]]:
    family = request.param
    with two_hosts() as hosts:
        if hosts.mode != "netns":
            warnings.warn(
                f"two hosts: network namespaces unavailable ({hosts.why}); ran on loopback addresses",
                stacklevel=2,
            )
        print(f"two hosts: {hosts.mode} {hosts.addresses} {hosts.addresses6}, HCCL_SOCKET_FAMILY={family}")
        return (hosts, family, *torchrun_two_hosts(hosts, family))


@pytest.fixture(scope="module")
def ranks(run: tuple[TwoHosts, str, list[dict[str, object]], list[str]]) -> list[dict[str, object]]:
    return run[2]


@pytest.mark.slow
def test_the_other_hosts_ranks_join_from_their_own_address(
    run: tuple[TwoHosts, str, list[dict[str, object]], list[str]],
) -> None:
    """Host B's ranks reach the rendezvous torch_npu's rank 0 opened on host A from host B's
    address, of the family HCCL_SOCKET_FAMILY names."""
    hosts, family, _, joins = run
    b = hosts.addresses[1]
    if family == "AF_INET6":
        b = f"[{hosts.addresses6[1]}]"  # loopback mode: ::1, the root's family
    assert joins.count(b) >= PER_HOST, (hosts.mode, family, joins)


@pytest.mark.slow
def test_every_collective_across_hosts_gives_the_expected_value(ranks: list[dict[str, object]]) -> None:
    for line in ranks:
        assert line["world"] == 2 * PER_HOST
        collectives = line["collectives"]
        assert isinstance(collectives, dict) and len(collectives) == 7, line
        assert all(ok is True for ok in collectives.values()), line


@pytest.mark.slow
def test_ddp_across_hosts_on_hccl_matches_ddp_on_gloo(ranks: list[dict[str, object]]) -> None:
    for line in ranks:
        ddp = line["ddp"]
        assert isinstance(ddp, dict)
        assert {k: ddp[k] for k in ("losses", "grads", "params", "same_on_every_rank")} == {
            "losses": True, "grads": True, "params": True, "same_on_every_rank": True,
        }, line  # fmt: skip
        losses = ddp["npu_losses"]
        assert isinstance(losses, list) and losses[0] > losses[2]
