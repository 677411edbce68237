"""`npu-sim bench` against a libmspti without this project's extensions (mspti_ext.h): the programs
build and run, and a figure that needs a missing function is reported as not provided."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sim_runtime.bench.core import NOT_PROVIDED, Benchmark, Build, Figure
from sim_runtime.bench.runner import BenchResult, as_json, render
from sim_runtime.toolkit import Toolkit
from support.fake_mspti import build_fake_mspti
from support.native import NativeTree, python_subprocess_env


def test_a_figure_the_library_cannot_give_is_reported_as_not_provided(tmp_path: Path) -> None:
    toolkit = Toolkit(tmp_path, tmp_path / "lib64", tmp_path / "include", tmp_path / "libmspti.so")
    figures = (Figure("ns", "ns per thing", "ns"), Figure("dropped", "records dropped", "", digits=0))
    bench = Benchmark("demo", "a demonstration", figures, lambda b, c, w: {}, 1)
    result = BenchResult(bench, [Build("A", toolkit), Build("B", toolkit)])
    result.values = {
        "A": [{"ns": 10.0, "dropped": 0.0}, {"ns": 12.0, "dropped": 2.0}],
        "B": [{"ns": 20.0, "dropped": None}, {"ns": 22.0, "dropped": None}],
    }
    row = next(line for line in render([result], {}).splitlines() if line.startswith("records dropped"))
    assert row.split()[2:] == ["1", "[0", "..", "2]", *NOT_PROVIDED.split()]
    (demo,) = json.loads(as_json([result], {}))["benchmarks"]
    dropped = next(f for f in demo["figures"] if f["key"] == "dropped")
    assert dropped["builds"]["A"]["values"] == [0.0, 2.0]
    assert dropped["builds"]["B"] == {"values": [], "not_provided": NOT_PROVIDED}


def test_the_programs_run_against_a_library_without_the_extensions(
    native: NativeTree, tmp_path: Path
) -> None:
    foreign = build_fake_mspti(tmp_path / "foreign", ext=False)
    env = python_subprocess_env(native.env(HOME=str(tmp_path / "home")))
    args = ["record_memory", "launch_rate", "record_delivery", "--count", "2000", "--rounds", "1"]
    args += ["--mspti", str(foreign)]
    done = subprocess.run(
        [sys.executable, "-m", "sim_runtime", "bench", *args, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    benchmarks = {b["name"]: b for b in json.loads(done.stdout)["benchmarks"]}
    for name in ("record_memory", "launch_rate"):
        assert benchmarks[name]["error"] is None, benchmarks[name]["error"]
        figures = {f["key"]: f["builds"]["A"] for f in benchmarks[name]["figures"]}
        assert figures["dropped"] == {"values": [], "not_provided": NOT_PROVIDED}
    memory = {f["key"]: f["builds"]["A"] for f in benchmarks["record_memory"]["figures"]}
    assert memory["records_m"]["values"] == [0.0]  # the fake delivers nothing, and the run says so
    delivery = {f["key"]: f["builds"]["A"] for f in benchmarks["record_delivery"]["figures"]}
    assert benchmarks["record_delivery"]["error"] is None, benchmarks["record_delivery"]["error"]
    assert delivery["virtual_1_cpu_ns"] == {"values": [], "not_provided": NOT_PROVIDED}
