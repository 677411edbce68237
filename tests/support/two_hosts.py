"""Two "hosts" on one machine for multi-host HCCL tests.

netns mode: two network namespaces joined by a veth pair, each host with its own address and
nothing else but its loopback (needs the privilege to run `ip netns add`). Processes run under
`ip netns exec`, so their traffic crosses the veth pair: the root rank's address must be the one
its namespace's interface selection gives, or the other host cannot reach it.

Each namespace's interface also has an IPv6 address (fd5e:<n>::1 and ::2, added without
duplicate address detection so that it is usable at once), for HCCL_SOCKET_FAMILY=AF_INET6.

loopback mode (the fallback where that privilege is missing): host A is 127.0.0.1 chosen by
HCCL_SOCKET_IFNAME="=lo", host B is 127.0.0.2 chosen by HCCL_IF_IP; ranks of B connect from
127.0.0.2. Both hosts have only ::1 for IPv6.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class TwoHosts:
    mode: str  # "netns" or "loopback"
    addresses: tuple[str, str]
    namespaces: tuple[str, str] | None = None
    why: str = ""  # why loopback mode ran
    env: tuple[dict[str, str], dict[str, str]] = field(default_factory=lambda: ({}, {}))
    ifnames: tuple[str, str] = ("lo", "lo")  # each host's interface of `addresses`
    addresses6: tuple[str, str] = ("::1", "::1")  # each host's IPv6 address

    def command(self, host: int, argv: list[str]) -> list[str]:
        if self.namespaces is None:
            return argv
        return ["ip", "netns", "exec", self.namespaces[host], *argv]


def _ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)


def _netns(tag: str) -> TwoHosts | str:
    """The namespaces, or why they cannot be made here."""
    if shutil.which("ip") is None:
        return "no `ip` command"
    if os.geteuid() != 0:
        return "not root"
    names = (f"mh{tag}a", f"mh{tag}b")
    # 10.x.y.0/30 from the tag: concurrent runs use different subnets.
    n = int(tag) % 16000
    subnet = f"10.{200 + n // 256 % 50}.{n % 256}"
    addresses = (f"{subnet}.1", f"{subnet}.2")
    addresses6 = (f"fd5e:{n:x}::1", f"fd5e:{n:x}::2")
    veth = (f"mhv{tag}a"[:15], f"mhv{tag}b"[:15])
    steps = [
        ("netns", "add", names[0]),
        ("netns", "add", names[1]),
        ("link", "add", veth[0], "type", "veth", "peer", "name", veth[1]),
        ("link", "set", veth[0], "netns", names[0]),
        ("link", "set", veth[1], "netns", names[1]),
    ]
    for h in (0, 1):
        steps += [
            ("-n", names[h], "addr", "add", f"{addresses[h]}/30", "dev", veth[h]),
            ("-n", names[h], "addr", "add", f"{addresses6[h]}/64", "dev", veth[h], "nodad"),
            ("-n", names[h], "link", "set", veth[h], "up"),
            ("-n", names[h], "link", "set", "lo", "up"),
        ]
    for step in steps:
        result = _ip(*step)
        if result.returncode != 0:
            _remove(names)
            return f"`ip {' '.join(step)}` failed: {result.stderr.strip()}"
    return TwoHosts("netns", addresses, names, ifnames=veth, addresses6=addresses6)


def _remove(names: tuple[str, str]) -> None:
    for name in names:
        _ip("netns", "del", name)  # takes its end of the veth pair (and so the pair) along


@contextmanager
def two_hosts(prefer_netns: bool = True) -> Iterator[TwoHosts]:
    """Namespaces where possible (and wanted), else loopback addresses; says which in `.mode`."""
    made = _netns(str(os.getpid())) if prefer_netns else "loopback requested"
    if isinstance(made, TwoHosts):
        try:
            yield made
        finally:
            _remove(made.namespaces or ("", ""))
        return
    yield TwoHosts(
        "loopback",
        ("127.0.0.1", "127.0.0.2"),
        why=made,
        env=({"HCCL_SOCKET_IFNAME": "=lo"}, {"HCCL_IF_IP": "127.0.0.2"}),
    )
