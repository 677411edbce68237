"""``python -m mspti_core run``: the environment it gives a script, its errors, and the examples.

The environment tests use a stand-in native tree (simulator libraries as ELF headers, the stand-in
msPTI as libmspti.so) so they need no simulator; the example tests run the real thing and skip
when our libmspti.so is not built.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim_runtime import paths
from support.fake_tree import make_native_tree
from support.native import NativeTree, python_subprocess_env

REPO = Path(__file__).resolve().parents[2]

ENV_SCRIPT = """
import json, os, sys
import mspti_core
names = ["LD_PRELOAD", "ASCEND_HOME_PATH", "MSTX_INJECTION_PATH", "NPU_SIM_SOC", "NPU_SIM_CLOCK",
         "MSPTI_CORE_LIBRARY", "LD_LIBRARY_PATH"]
print("RESULT " + json.dumps({"env": {n: os.environ.get(n) for n in names}, "argv": sys.argv[1:],
                              "library": str(mspti_core.ensure_loaded())}))
sys.exit(int(os.environ.get("EXIT_WITH", "0")))
"""


def _launch(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mspti_core", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _result(proc: subprocess.CompletedProcess[str]) -> dict:
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return json.loads(lines[-1][len("RESULT ") :])


@pytest.fixture
def stand_in_tree(tmp_path: Path, fake_mspti: Path, native: NativeTree) -> dict[str, str]:
    """An environment whose simulator and msPTI roots are a stand-in tree."""
    sim, mspti = make_native_tree(tmp_path, mspti_library=fake_mspti)
    env = python_subprocess_env(native.env())
    env.update(
        {
            paths.SIM_PREFIX_VAR: str(sim),
            paths.MSPTI_PREFIX_VAR: str(mspti),
            "NPU_SIM_TOOLKIT_DIR": str(tmp_path / "toolkit"),
        }
    )
    for name in ("MSPTI_CORE_LIBRARY", "ASCEND_HOME_PATH", "NPU_SIM_SOC", "NPU_SIM_CLOCK"):
        env.pop(name, None)
    (tmp_path / "show_env.py").write_text(ENV_SCRIPT)
    return env


def test_run_puts_the_script_on_the_simulator(stand_in_tree: dict[str, str], tmp_path: Path) -> None:
    proc = _launch(
        ["run", "--soc", "Ascend910B4", "--clock", "virtual", "show_env.py", "a", "--b"],
        stand_in_tree,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    result = _result(proc)
    env = result["env"]
    toolkit = tmp_path / "toolkit"
    assert env["ASCEND_HOME_PATH"] == str(toolkit)
    preload = env["LD_PRELOAD"].split(":")
    assert str(toolkit / "lib64" / "libmspti.so") in preload
    assert all(
        Path(p).name.startswith(("libasan", "libtsan"))
        for p in preload[: preload.index(str(toolkit / "lib64" / "libmspti.so"))]
    )
    assert env["MSTX_INJECTION_PATH"] == str(toolkit / "lib64" / "libprofapi.so")
    assert env["NPU_SIM_SOC"] == "Ascend910B4" and env["NPU_SIM_CLOCK"] == "virtual"
    assert env["LD_LIBRARY_PATH"].split(":")[0] == str(toolkit / "lib64")
    assert result["argv"] == ["a", "--b"]
    assert Path(result["library"]).resolve() == (tmp_path / "mspti" / "lib64" / "libmspti.so").resolve()


def test_run_passes_the_exit_status_and_runs_modules(stand_in_tree: dict[str, str], tmp_path: Path) -> None:
    env = dict(stand_in_tree, EXIT_WITH="7")
    assert _launch(["run", "show_env.py"], env, tmp_path).returncode == 7
    env = dict(stand_in_tree, PYTHONPATH=os.pathsep.join([stand_in_tree["PYTHONPATH"], str(tmp_path)]))
    proc = _launch(["run", "-m", "show_env", "x"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert _result(proc)["argv"] == ["x"]


def test_run_with_another_mspti(stand_in_tree: dict[str, str], tmp_path: Path, fake_mspti: Path) -> None:
    copy = tmp_path / "vendor" / "libmspti.so"
    copy.parent.mkdir()
    copy.write_bytes(fake_mspti.read_bytes())
    proc = _launch(["run", "--mspti", str(copy), "show_env.py"], stand_in_tree, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert Path(_result(proc)["library"]).resolve() == copy.resolve()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run"], "missing SCRIPT"),
        (["run", "no_such_script.py"], "no such file"),
        (["run", "--soc", "NoSuchSoc", "show_env.py"], "NoSuchSoc"),
        (["run", "--clock", "sometimes", "show_env.py"], "sometimes"),
        (["run", "--mspti", "/no/such/libmspti.so", "show_env.py"], "does not exist"),
        (["run", "--cann", "show_env.py"], "needs $ASCEND_HOME_PATH"),
        (["run", "--cann", "--soc", "Ascend910B4", "show_env.py"], "do not apply with --cann"),
    ],
)
def test_run_reports_usage_errors(
    stand_in_tree: dict[str, str], tmp_path: Path, args: list[str], message: str
) -> None:
    proc = _launch(args, stand_in_tree, tmp_path)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_run_on_a_real_cann(stand_in_tree: dict[str, str], tmp_path: Path, fake_mspti: Path) -> None:
    """--cann: ASCEND_HOME_PATH stays, its lib64/libmspti.so (or --mspti) is preloaded."""
    cann = tmp_path / "cann"
    (cann / "lib64").mkdir(parents=True)
    (cann / "lib64" / "libmspti.so").write_bytes(fake_mspti.read_bytes())
    env = dict(stand_in_tree, ASCEND_HOME_PATH=str(cann), NPU_SIM_SOC="Ascend910B4")
    proc = _launch(["run", "--cann", "show_env.py"], env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    result = _result(proc)
    assert result["env"]["ASCEND_HOME_PATH"] == str(cann)
    assert str(cann / "lib64" / "libmspti.so") in result["env"]["LD_PRELOAD"].split(":")
    assert result["env"]["LD_LIBRARY_PATH"].split(":")[0] == str(cann / "lib64")
    assert Path(result["library"]).resolve() == (cann / "lib64" / "libmspti.so").resolve()
    env_missing = dict(env)
    (cann / "lib64" / "libmspti.so").unlink()
    proc = _launch(["run", "--cann", "show_env.py"], env_missing, tmp_path)
    assert proc.returncode == 2 and "give one with --mspti" in proc.stderr


# ---- the examples, on the simulator under our msPTI ----------------------------------------------


@pytest.fixture
def real_tree_env(native: NativeTree, sim_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """An environment for the launcher over the native tree under test (sim_env skips if unbuilt)."""
    sim, mspti = tmp_path / "sim-root", tmp_path / "mspti-root"
    sim.mkdir()
    mspti.mkdir()
    (sim / "lib64").symlink_to(native.sim_lib64)
    (sim / "include").symlink_to(REPO / "csrc" / "sim" / "include")
    (mspti / "lib64").symlink_to(native.mspti_lib64)
    (mspti / "include").symlink_to(REPO / "csrc" / "mspti" / "include")
    (mspti / "toolkit_site").symlink_to(native.mspti_lib64.parent / "toolkit_site")
    env = python_subprocess_env(native.env())
    env.update(
        {
            paths.SIM_PREFIX_VAR: str(sim),
            paths.MSPTI_PREFIX_VAR: str(mspti),
            "NPU_SIM_TOOLKIT_DIR": str(tmp_path / "toolkit"),
        }
    )
    return env


@pytest.mark.parametrize("ranks", [8, 2])
def test_python_monitor_example(real_tree_env: dict[str, str], tmp_path: Path, ranks: int) -> None:
    """Sample python_monitor (§3.8): per rank one KERNEL_AIVEC, one KERNEL_AICORE, one hcom_allReduce_."""
    proc = _launch(
        [
            "run",
            "--clock",
            "virtual",
            str(REPO / "examples" / "python_monitor" / "monitor.py"),
            "--ranks",
            str(ranks),
        ],
        real_tree_env,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == (
        f"summary: ranks={ranks} KERNEL_AIVEC={ranks} KERNEL_AICORE={ranks} hcom_allReduce_={ranks}"
    )
    kernels = [line for line in lines if line.startswith("kernel:")]
    assert len(kernels) == 2 * ranks
    starts = [int(part.split("=")[1]) for line in lines for part in line.split() if part.startswith("start=")]
    assert starts and all(len(str(s)) == 19 for s in starts)


def test_python_mstx_monitor_example(real_tree_env: dict[str, str], tmp_path: Path) -> None:
    """Sample python_mstx_monitor (§3.9): 8 host ranges `mstx_matmul`, 8 device ranges on devices 0..7."""
    example = REPO / "examples" / "python_mstx_monitor" / "monitor.py"
    proc = _launch(["run", "--clock", "virtual", str(example)], real_tree_env, tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    assert proc.stdout.splitlines()[-1] == (
        "summary: ranks=8 host_ranges=8 device_ranges=8 devices=[0, 1, 2, 3, 4, 5, 6, 7] host_marks=8"
    )
    host = [
        line for line in proc.stdout.splitlines() if line.startswith("range:") and "SOURCE_KIND_HOST" in line
    ]
    assert all(
        "name='mstx_matmul' domain='default'" in line and "stream_id=-1 device_id=-1" in line for line in host
    )
    device = [
        line
        for line in proc.stdout.splitlines()
        if line.startswith("range:") and "SOURCE_KIND_DEVICE" in line
    ]
    assert all("name='' domain=''" in line and "process_id=-1 thread_id=-1" in line for line in device)


def test_run_without_a_registered_simulator_says_to_use_cann(monkeypatch: pytest.MonkeyPatch) -> None:
    """mspti_core imports nothing from the simulator: it finds it only as an entry point."""
    from importlib import metadata

    import mspti_core.__main__ as launcher

    assert [point.value for point in metadata.entry_points(group=launcher.SIMULATOR_ENTRY_POINTS)] == [
        "sim_runtime.mspti_run:simulator_environment"
    ]
    monkeypatch.setattr(launcher.metadata, "entry_points", lambda **_: [])
    with pytest.raises(launcher.LaunchError, match="use --cann on hardware"):
        launcher.simulator_environment(None, None, None, {})
