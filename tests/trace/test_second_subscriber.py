"""A program that subscribes to msPTI itself, run under the trace collector, which holds msPTI's only
subscriber slot: the refusal is diagnosed, and the Python monitor example stops instead of hanging."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mspti_trace.capture import capture
from support.native import NativeTree, ProgramBuilder
from support.usage_errors import run_cli

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def test_a_refused_subscription_is_diagnosed_and_counted(
    tree: NativeTree, programs: ProgramBuilder, collector: Path, tmp_path: Path, capfd
) -> None:
    program = programs.build([HERE / "programs" / "second_subscriber.c"], ["mspti"])
    env = tree.env(preload_mspti=True, NPU_SIM_LOG_LEVEL="error")
    result = capture(
        [str(program)], tmp_path / "cap", kinds=["api"], environ=env, collector=collector, timeout=60
    )
    out, err = capfd.readouterr()
    assert result.returncode == 1 and "msptiSubscribe: 2" in out  # MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
    assert "the program's msptiSubscribe failed (MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)" in err, err
    assert "NPU_SIM_TRACE_SUBSCRIBE=0" in err
    for meta in (tmp_path / "cap").glob("trace-*.json"):
        assert json.loads(meta.read_text())["refused_subscriptions"] == 1
    left = capture(
        [str(program)],
        tmp_path / "cap2",
        kinds=["api"],
        environ={**env, "NPU_SIM_TRACE_SUBSCRIBE": "0"},
        collector=collector,
        timeout=60,
    )
    assert left.returncode == 0  # the slot left to the program


def test_the_python_monitor_example_fails_cleanly_under_the_collector(
    tree: NativeTree, tmp_path: Path
) -> None:
    monitor = REPO / "examples" / "python_monitor" / "monitor.py"
    args = ["trace", "--timeout", "60", "--clock", "virtual", "-o", str(tmp_path / "cap")]
    result = run_cli("sim_runtime", [*args, "--", sys.executable, str(monitor), "--ranks", "1"], timeout=90)
    assert result.returncode == 1, result.stderr  # not 124: it did not hang
    assert "start failed: <MsptiResult.MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED" in result.stderr
    assert "NPU_SIM_TRACE_SUBSCRIBE=0" in result.stderr
