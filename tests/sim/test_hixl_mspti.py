"""End to end with our msPTI: HIXL transfers become ACL_API records named after the registered
HIXL types, on the calling process and thread, covering the transfer (async: submission to
the GetTransferStatus that saw it complete). Skipped while libmspti.so is not built."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).parent / "programs"
ALPHA_NS = 7000
LINK_GBPS = 45.0
# msPTI converts host timestamps to CLOCK_REALTIME from a reference pair taken at subscribe.
SLACK_NS = 2_000_000


def test_hixl_transfers_become_acl_api_records(native: NativeTree, programs: ProgramBuilder) -> None:
    if not native.mspti_library.exists():
        pytest.skip(f"{native.mspti_library} is not built")
    exe = programs.build([PROGRAMS / "hixl_mspti.cpp"], libs=["hixl", "ascendcl", "mspti"])
    result = run_program(exe, native.env(NPU_SIM_CLOCK="wall"))
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    transfers = {x["name"]: x for x in lines if x["kind"] == "transfer"}
    records = [x for x in lines if x["kind"] == "acl_api" and x["name"].startswith("HixlProfType")]
    expected = {"sync_read": "HixlProfTypeRead", "async_write": "HixlProfTypeWrite"}
    assert sorted(r["name"] for r in records) == sorted(expected.values())
    for step, name in expected.items():
        window = transfers[step]
        assert window["status"] == 0
        (record,) = [r for r in records if r["name"] == name]
        assert (record["pid"], record["tid"]) == (window["pid"], window["tid"])
        assert window["before"] - SLACK_NS <= record["start"] <= record["end"] <= window["after"] + SLACK_NS
        assert record["end"] - record["start"] >= ALPHA_NS + window["bytes"] / LINK_GBPS
