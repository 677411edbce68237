"""`npu-sim bench`: listing, usage errors, rounds and builds side by side, the targets file."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim_runtime.bench import BENCHMARKS
from sim_runtime.bench.core import TARGETS_FILE, Benchmark, BenchmarkUnavailable, Build, Figure, load_targets
from sim_runtime.bench.runner import BenchResult, render
from sim_runtime.toolkit import Toolkit
from support.native import NativeTree, python_subprocess_env

SHIPPED = (
    "launch_rate",
    "launch_instructions",
    "record_delivery",
    "record_memory",
    "trace_export",
    "training_step",
    "hccl_all_reduce",
)


def npu_sim_bench(
    args: list[str], env: dict[str, str], timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sim_runtime", "bench", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


@pytest.fixture()
def bench_env(native: NativeTree, tmp_path: Path) -> dict[str, str]:
    """The command's environment, with a HOME of its own (program and toolkit caches)."""
    return python_subprocess_env(native.env(HOME=str(tmp_path / "home")))


def test_list_names_every_shipped_benchmark(bench_env: dict[str, str]) -> None:
    done = npu_sim_bench(["--list"], bench_env, timeout=60)
    assert done.returncode == 0, done.stderr
    listed = [line.split()[0] for line in done.stdout.splitlines()]
    assert listed == list(SHIPPED) == list(BENCHMARKS)


def test_an_unknown_name_is_a_usage_error(bench_env: dict[str, str]) -> None:
    done = npu_sim_bench(["launch_rate", "no_such_bench"], bench_env, timeout=60)
    assert done.returncode == 2
    assert "unknown benchmark(s): no_such_bench" in done.stderr
    assert "available: " + ", ".join(SHIPPED) in done.stderr
    assert done.stdout == ""


def test_a_bad_rounds_value_is_a_usage_error(bench_env: dict[str, str]) -> None:
    done = npu_sim_bench(["--rounds", "0", "launch_rate"], bench_env, timeout=60)
    assert done.returncode == 2
    assert "expected a positive whole number" in done.stderr


def test_a_missing_msPTI_is_a_usage_error(bench_env: dict[str, str], tmp_path: Path) -> None:
    done = npu_sim_bench(["--mspti", str(tmp_path / "nothing.so"), "launch_rate"], bench_env, timeout=60)
    assert done.returncode == 2
    assert "does not exist" in done.stderr


def test_two_builds_run_side_by_side(bench_env: dict[str, str], native: NativeTree) -> None:
    library = str(native.mspti_library)
    args = ["launch_rate", "--count", "20000", "--rounds", "2", "--mspti", library, "--mspti", library]
    done = npu_sim_bench(args, bench_env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("== launch_rate: ")
    resolved = native.mspti_library.resolve()
    assert f"msPTI builds: A = {resolved}; B = {resolved}" in lines
    header = next(line for line in lines if line.startswith("figure"))
    assert header.split() == ["figure", "unit", "target", "A", "ratio", "B", "ratio"]
    added = next(line for line in lines if line.startswith("added wall ns per traced launch"))
    assert added.count("[") == 2 and added.count(" .. ") == 2  # a median and a range per build
    assert "<= 150" in added and added.count("x ") == 2  # the ratio to the target, per build
    # Rounds alternate the builds: A then B, twice.
    order = [line.split("build ")[-1] for line in done.stderr.splitlines() if "round" in line]
    assert order == ["A", "B", "A", "B"]


def test_json_holds_every_round(bench_env: dict[str, str]) -> None:
    done = npu_sim_bench(["launch_rate", "--count", "20000", "--rounds", "2", "--json"], bench_env)
    assert done.returncode == 0, done.stderr
    (bench,) = json.loads(done.stdout)["benchmarks"]
    assert bench["name"] == "launch_rate" and bench["rounds"] == 2 and bench["error"] is None
    assert [b["label"] for b in bench["builds"]] == ["ours"]
    figures = {f["key"]: f for f in bench["figures"]}
    for figure in figures.values():
        ours = figure["builds"]["ours"]
        assert len(ours["values"]) == 2
        assert ours["min"] <= ours["median"] <= ours["max"]
    added = figures["added_ns"]
    assert added["target"]["value"] == 150 and added["target"]["comparison"] == "at_most"
    assert added["builds"]["ours"]["ratio"] == pytest.approx(added["builds"]["ours"]["median"] / 150)
    # Two records per launch (KERNEL + RUNTIME_API), each delivered or counted as dropped.
    issued = 20000 + 20000 // 10
    for delivered, dropped in zip(
        figures["records_per_launch"]["builds"]["ours"]["values"],
        figures["dropped"]["builds"]["ours"]["values"],
        strict=True,
    ):
        assert delivered + dropped / issued == pytest.approx(2.0, abs=0.01)


def test_a_missing_valgrind_stops_launch_instructions_with_how_to_get_it(bench_env: dict[str, str]) -> None:
    env = {**bench_env, "PATH": os.devnull}
    done = npu_sim_bench(["launch_instructions", "--rounds", "1"], env, timeout=120)
    assert done.returncode == 3, done.stderr
    assert "launch_instructions: not run: launch_instructions needs valgrind" in done.stdout
    assert "apt-get install valgrind" in done.stderr


def test_training_step_without_torch_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = importlib.util.find_spec
    # Neither installed, whatever this environment has: the message names both.
    absent = ("torch", "torch_npu")
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name in absent else real(name, *a)
    )
    build = Build(
        "ours", Toolkit(tmp_path, tmp_path / "lib64", tmp_path / "include", tmp_path / "libmspti.so")
    )
    expected = r"needs torch and torch_npu \(bash ci/install_torch_npu.sh"
    with pytest.raises(BenchmarkUnavailable, match=expected):
        BENCHMARKS["training_step"].measure(build, 1, tmp_path)


def test_targets_name_existing_figures_and_ceilings_are_above_budgets() -> None:
    targets = load_targets()
    assert targets
    for (name, key), target in targets.items():
        assert key in {f.key for f in BENCHMARKS[name].figures}, (name, key)
        assert target.source
        if name == "launch_instructions":
            assert target.ceiling is not None and target.ceiling >= target.value, key
    # The numbers.
    assert targets[("launch_rate", "added_ns")].value == 150
    assert targets[("launch_rate", "added_process_cpu_ns")].value == 300
    for threads in (1, 2):
        assert targets[("record_delivery", f"wall_{threads}_per_s")].value == 20_000_000
    assert targets[("trace_export", "kineto_s_per_m")].value == 10
    budgets = {key: targets[("launch_instructions", key)].value for key in ("added_inside", "added_all")}
    assert budgets == {"added_inside": 600, "added_all": 1200}
    assert targets[("launch_instructions", "idle_added_inside")].value == 30


def test_a_malformed_target_is_named(tmp_path: Path) -> None:
    path = tmp_path / "targets.toml"
    path.write_text('[[target]]\nbenchmark = "launch_rate"\nfigure = "added_ns"\ncomparison = "below"\n')
    with pytest.raises(ValueError, match="target 1 lacks value, source"):
        load_targets(path)
    path.write_text(
        '[[target]]\nbenchmark = "x"\nfigure = "y"\ncomparison = "below"\nvalue = 1\nsource = "s"\n'
    )
    with pytest.raises(ValueError, match="comparison must be one of at_most, at_least"):
        load_targets(path)
    assert load_targets(TARGETS_FILE)


def test_render_prints_medians_ranges_and_ratios(tmp_path: Path) -> None:
    toolkit = Toolkit(tmp_path, tmp_path / "lib64", tmp_path / "include", tmp_path / "libmspti.so")
    bench = Benchmark(
        name="demo",
        summary="a demonstration",
        figures=(Figure("ns", "ns per thing", "ns"), Figure("rate", "things per second", "/s", digits=0)),
        measure=lambda build, count, work: {},
        default_count=1,
    )
    result = BenchResult(bench, [Build("A", toolkit), Build("B", toolkit)])
    result.values = {
        "A": [{"ns": 100.0, "rate": 5.0}, {"ns": 300.0, "rate": 7.0}, {"ns": 200.0, "rate": 6.0}],
        "B": [{"ns": 50.0, "rate": 9.0}, {"ns": 70.0, "rate": 8.0}, {"ns": 60.0, "rate": 10.0}],
    }
    targets = load_targets(_targets(tmp_path))
    text = render([result], targets)
    row = next(line for line in text.splitlines() if line.startswith("ns per thing"))
    assert row.split() == [
        "ns", "per", "thing", "ns", "<=", "150",
        "200.0", "[100.0", "..", "300.0]", "1.33x", "miss",
        "60.0", "[50.0", "..", "70.0]", "0.40x", "ok",
    ]  # fmt: skip
    rate = next(line for line in text.splitlines() if line.startswith("things per second"))
    assert "6 [5 .. 7]" in rate and "9 [8 .. 10]" in rate
    assert "3 round(s)" in text


def _targets(tmp_path: Path) -> Path:
    path = tmp_path / "demo_targets.toml"
    path.write_text(
        '[[target]]\nbenchmark = "demo"\nfigure = "ns"\ncomparison = "at_most"\n'
        'value = 150\nsource = "test"\n'
    )
    return path


def test_render_keeps_the_rounds_before_a_failure(tmp_path: Path) -> None:
    toolkit = Toolkit(tmp_path, tmp_path / "lib64", tmp_path / "include", tmp_path / "libmspti.so")
    bench = Benchmark("demo", "a demonstration", (Figure("ns", "ns per thing", "ns"),), lambda b, c, w: {}, 1)
    result = BenchResult(bench, [Build("A", toolkit), Build("B", toolkit)], error="build B: it broke")
    result.values = {"A": [{"ns": 10.0}], "B": []}
    text = render([result], {})
    assert "demo: failed: build B: it broke" in text
    row = next(line for line in text.splitlines() if line.startswith("ns per thing"))
    assert row.split() == ["ns", "per", "thing", "ns", "10.0", "-"]
