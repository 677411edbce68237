"""libhcomm and libhixl share one TCP transport layer (csrc/sim/transport, compiled into libnpusim):
neither library calls the socket API itself, and both call the transport layer's functions, which
libnpusim alone defines."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from support.native import NativeTree

#: The libc calls a socket implementation makes; only the transport layer may make them.
SOCKET_CALLS = {"socket", "bind", "listen", "accept", "accept4", "connect", "send", "recv", "getifaddrs"}
#: Transport functions each of libhcomm and libhixl uses (connecting out, reading a stream).
SHARED = {"npusim::transport::connect_tcp", "npusim::transport::read_all", "npusim::transport::listen_tcp"}

_LINE = re.compile(r"^\s*(?:[0-9a-f]+\s+)?[A-Za-z]\s+(.+)$")


def _symbols(library: Path, *flags: str) -> set[str]:
    out = subprocess.run(["nm", "-D", "-C", *flags, str(library)], capture_output=True, text=True, check=True)
    names = set()
    for line in out.stdout.splitlines():
        # "<address> <type> <name>" or, for an undefined symbol, "<type> <name>"; a C++ name keeps its
        # qualified name, without the parameter list.
        found = _LINE.match(line)
        if found:
            names.add(found.group(1).split("@")[0].split("(")[0])
    return names


def test_hcomm_and_hixl_make_no_socket_calls_of_their_own(native: NativeTree) -> None:
    for lib in ("libhcomm.so", "libhixl.so"):
        imported = _symbols(native.sim_lib64 / lib, "--undefined-only")
        assert not imported & SOCKET_CALLS, f"{lib} calls {sorted(imported & SOCKET_CALLS)} itself"


def test_hcomm_and_hixl_use_the_transport_layer_of_libnpusim(native: NativeTree) -> None:
    core = _symbols(native.sim_lib64 / "libnpusim.so", "--defined-only")
    assert core >= SHARED, f"libnpusim lacks {sorted(SHARED - core)}"
    assert _symbols(native.sim_lib64 / "libnpusim.so", "--undefined-only") >= {"socket", "connect", "accept4"}
    for lib in ("libhcomm.so", "libhixl.so"):
        path = native.sim_lib64 / lib
        assert not _symbols(path, "--defined-only") & SHARED, f"{lib} carries its own transport copy"
        assert _symbols(path, "--undefined-only") >= SHARED, f"{lib} does not use the transport layer"
