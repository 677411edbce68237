"""The in-process control module sim_runtime._native: configuration, fault plans and call counts.

The module shares the process's simulator with every CANN library loaded into it, so these tests
run in a child process each (the configuration is read once per process).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from support.native import NativeTree, python_subprocess_env


def run_child(native: NativeTree, tmp_path: Path, code: str, **env: str) -> dict:
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(code))
    result = subprocess.run(
        [sys.executable, str(script)],
        env=python_subprocess_env(native.env(**env)),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_configuration_comes_from_the_environment(native: NativeTree, tmp_path: Path) -> None:
    out = run_child(
        native,
        tmp_path,
        """
        import json
        from sim_runtime import _native
        print(json.dumps(_native.config()))
    """,
        NPU_SIM_SOC="Ascend950PR_9599",
        NPU_SIM_DEVICES="3",
        NPU_SIM_CLOCK="virtual",
        NPU_SIM_SEED="42",
    )
    assert (out["soc"], out["devices"], out["clock"], out["seed"], out["error"]) == (
        "Ascend950PR_9599",
        3,
        "virtual",
        42,
        "",
    )


def test_a_bad_configuration_is_reported_with_the_choices(native: NativeTree, tmp_path: Path) -> None:
    out = run_child(
        native,
        tmp_path,
        """
        import json
        from sim_runtime import _native
        print(json.dumps(_native.load_config({"NPU_SIM_SOC": "Ascend999"})))
    """,
    )
    assert "unknown SoC 'Ascend999'" in out["error"] and "Ascend910B3" in out["error"]


def test_fault_plans_fail_the_chosen_call_and_calls_are_counted(native: NativeTree, tmp_path: Path) -> None:
    out = run_child(
        native,
        tmp_path,
        """
        import json
        from sim_runtime import _native, control
        acl = _native.acl
        acl.set_device(0)
        control.reset_call_counts()
        control.set_fault_plan("aclrtMalloc:error=207001@2")
        codes = [acl.malloc(64)[0] for _ in range(3)]
        counted = control.call_count("aclrtMalloc")
        injected = control.faults_injected()
        control.clear_fault_plan()
        after = acl.malloc(64)[0]
        try:
            control.set_fault_plan("aclrtMalloc:explode")
            bad = ""
        except ValueError as error:
            bad = str(error)
        result = {"codes": codes, "counted": counted, "injected": injected, "after": after, "bad": bad}
        print(json.dumps(result))
    """,
    )
    assert out["codes"] == [0, 207001, 0]
    assert out["counted"] == 3
    assert out["injected"] == 1
    assert out["after"] == 0
    assert "bad action" in out["bad"]


def test_calls_are_counted_only_while_counting_is_on(native: NativeTree, tmp_path: Path) -> None:
    out = run_child(
        native,
        tmp_path,
        """
        import json
        from sim_runtime import _native, control
        acl = _native.acl
        acl.set_device(0)
        idle = [control.call_counting()] + [acl.malloc(64)[0] for _ in range(2)]
        uncounted = control.call_count("aclrtMalloc")
        control.set_call_counting(True)
        acl.malloc(64)
        requested = [control.call_counting(), control.call_count("aclrtMalloc")]
        control.set_call_counting(False)
        acl.malloc(64)
        withdrawn = [control.call_counting(), control.call_count("aclrtMalloc")]
        control.set_fault_plan("aclrtMalloc:error=207001@2")  # the 2nd call counted: the next one
        codes = [acl.malloc(64)[0] for _ in range(2)]
        control.clear_fault_plan()
        acl.malloc(64)
        after_plan = [control.call_counting(), control.call_count("aclrtMalloc")]
        result = {"idle": idle, "uncounted": uncounted, "requested": requested, "withdrawn": withdrawn,
                  "codes": codes, "after_plan": after_plan}
        print(json.dumps(result))
    """,
    )
    assert out["idle"] == [False, 0, 0]
    assert out["uncounted"] == 0
    assert out["requested"] == [True, 1]
    assert out["withdrawn"] == [False, 1]
    assert out["codes"] == [207001, 0]  # counted calls 2 and 3: uncounted calls do not shift it
    assert out["after_plan"] == [True, 4]  # a plan keeps counting on after it is cleared


def test_the_workload_api_round_trips_data(native: NativeTree, tmp_path: Path) -> None:
    out = run_child(
        native,
        tmp_path,
        """
        import json
        from sim_runtime import npu
        with npu.Device(0) as dev:
            buf = npu.Buffer(1024)
            buf.write(b"abc" * 100)
            data = buf.read(300)
            stream = npu.Stream()
            start, end = npu.Event(), npu.Event()
            start.record(stream)
            npu.Kernel("empty_kernel").launch_many(10, stream=stream)
            end.record(stream)
            end.synchronize()
            result = {"ok": data == b"abc" * 100, "ms": start.elapsed_ms(end), "soc": npu.soc_name()}
            print(json.dumps(result))
    """,
        NPU_SIM_CLOCK="virtual",
    )
    assert out["ok"] and out["soc"] == "Ascend910B3"
    assert out["ms"] > 0
