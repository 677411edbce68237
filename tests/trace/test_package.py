"""mspti_trace is a package of its own: it imports nothing from the simulator (it runs unchanged on
an Ascend host with the vendor's libmspti.so), and its `mspti-trace` command captures a program with
any libmspti.so given by path."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mspti_trace import load_trace
from mspti_trace.capture import MSPTI_LIBRARY, find_mspti, preload_mspti
from mspti_trace.cli import main
from mspti_trace.kinds import ActivityKind
from support.native import NativeTree, ProgramBuilder

PROGRAM = Path(__file__).resolve().parent / "programs" / "plain_workload.cpp"

# Every module of mspti_trace imported, and a synthetic capture exported in every format, with the
# simulator's Python package and our msPTI binding made unimportable. (The record layouts of the msPTI
# ABI come from mspti_base.record_layouts, which runs on hardware as well.)
ISOLATED = textwrap.dedent(
    """
    import importlib, pkgutil, sys, tempfile
    from pathlib import Path

    class Refuse:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("sim_runtime", "mspti_core"):
                raise ImportError(f"mspti_trace imported {name}")
            return None

    sys.meta_path.insert(0, Refuse())
    import mspti_trace
    for module in pkgutil.walk_packages(mspti_trace.__path__, "mspti_trace."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    from mspti_trace.synthetic import measure_export
    with tempfile.TemporaryDirectory() as work:
        timing = measure_export(3_000, ("chrome", "kineto", "ascend-pt"), work_dir=Path(work))
    print("ok", timing.records)
    """
)


def test_mspti_trace_imports_nothing_from_the_simulator(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", ISOLATED], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok ")


def test_the_toolkit_libmspti_is_found_where_cann_keeps_it(tmp_path: Path) -> None:
    library = tmp_path / "tools" / "mspti" / "lib64" / MSPTI_LIBRARY
    library.parent.mkdir(parents=True)
    library.write_bytes(b"")
    assert find_mspti({"ASCEND_HOME_PATH": str(tmp_path)}) == library.resolve()
    assert find_mspti({"ASCEND_TOOLKIT_HOME": str(tmp_path)}) == library.resolve()
    with pytest.raises(FileNotFoundError, match=r"set_env\.sh or pass --mspti"):
        find_mspti({})
    with pytest.raises(FileNotFoundError, match="looked in"):
        find_mspti({"ASCEND_HOME_PATH": str(tmp_path / "elsewhere")})
    env = preload_mspti({"LD_PRELOAD": "/old/libmspti.so /x/libasan.so"}, library)
    assert env["LD_PRELOAD"] == f"/x/libasan.so {library}"


def test_a_missing_mspti_library_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["-o", str(tmp_path), "--mspti", str(tmp_path / "nope.so"), "--", "true"])
    assert status == 2
    assert "no such file" in capsys.readouterr().err


def test_mspti_trace_captures_with_a_libmspti_given_by_path(
    tree: NativeTree, collector: Path, tmp_path: Path
) -> None:
    (tmp_path / "build").mkdir()
    program = ProgramBuilder(tree, tmp_path / "build").build([PROGRAM], libs=["ascendcl"])
    env = tree.env(NPU_SIM_CLOCK="virtual", NPU_SIM_LOG_LEVEL="error", NPU_SIM_TRACE_COLLECTOR=str(collector))
    out = tmp_path / "capture"
    command = [sys.executable, "-m", "mspti_trace", "-o", str(out), "--mspti", str(tree.mspti_library)]
    done = subprocess.run(
        [*command, "--", str(program), "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "mspti-trace: captured 1 process(es)" in done.stderr
    captured = load_trace(out).capture()
    assert captured.count(ActivityKind.KERNEL) > 0
    run = json.loads((out / "run.json").read_text())
    assert "device_properties" not in run  # only the simulator's launcher knows the device
