"""The CI budget (docs/ci.md) against what CI runs: tox.ini's envlist, the sanitizer selection and
the runner that times each env (ci/run_envs.py, ci/sanitized_pytest.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
# The whole of CI must fit in this; the default envs' budgets are held to less (docs/ci.md): runs on
# CI's machine class vary by about two minutes, and the tests the open work adds must still fit.
CI_LIMIT_MINUTES = 35.0
BUDGET_MARGIN_MINUTES = 1.0


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "ci" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def run_envs() -> ModuleType:
    return load("run_envs")


def test_the_budget_table_lists_every_default_env_and_fits(run_envs: ModuleType) -> None:
    envs = run_envs.envlist()
    budget = run_envs.budgets()
    assert envs, "tox.ini has no envlist"
    assert list(budget) == envs, "docs/ci.md's budget table must list tox.ini's envlist, in its order"
    assert sum(budget.values()) <= CI_LIMIT_MINUTES - BUDGET_MARGIN_MINUTES, (
        f"the budgets add up to {sum(budget.values()):.1f} minutes: at most "
        f"{CI_LIMIT_MINUTES - BUDGET_MARGIN_MINUTES:.1f} leave CI its margin (docs/ci.md)"
    )


def test_the_runner_reports_each_env_and_the_total(run_envs: ModuleType) -> None:
    runs = [run_envs.EnvRun("lint", 0, 0.3), run_envs.EnvRun("cov", 1, 10.5)]
    lines = run_envs.table(runs, {"lint": 0.5, "cov": 11.0}).splitlines()
    assert lines[1].split() == ["lint", "ok", "0.3", "0.5"]
    assert lines[2].split() == ["cov", "FAILED", "10.5", "11.0"]
    assert lines[-1].split() == ["total", "10.8", "11.5"]


def test_budget_rows_are_read_from_the_table_only(run_envs: ModuleType, tmp_path: Path) -> None:
    doc = tmp_path / "ci.md"
    doc.write_text(
        "Text with `lint` in it | 3 |\n\n| env | what | minutes | measured |\n| --- | --- | --- | --- |\n"
        "| `lint` | ruff | 0.5 | 0.3 |\n| `cov` | the suite | 11 | 10.2 |\n",
        encoding="utf-8",
    )
    assert run_envs.budgets(doc) == {"lint": 0.5, "cov": 11.0}


def test_the_sanitizer_selection_names_existing_tests_of_every_required_area() -> None:
    selection = load("sanitized_pytest").selected_tests()
    assert len(selection) == len(set(selection)), "a test path is listed twice"
    for entry in selection:
        # A file, a folder, or one test of a file (pytest's node id: path::name[parameters]).
        path, _, test = entry.partition("::")
        assert (REPO / path).exists(), f"ci/sanitizer_tests.txt names {entry}, which does not exist"
        if test:
            name = test.split("[", 1)[0]
            source = (REPO / path).read_text(encoding="utf-8")
            assert f"def {name}(" in source, f"ci/sanitizer_tests.txt names {entry}, which {path} lacks"
    # The areas the sanitizer envs must cover (docs/ci.md): record delivery and the seam's readers
    # and matchers (tests/mspti), the fault plans and reliability reproducers (tests/reliability),
    # HCCL collectives, the device channels.
    for required in (
        "tests/mspti",
        "tests/reliability",
        "tests/sim/test_hccl_collectives.py",
        "tests/sim/test_channels.py",
    ):
        assert required in selection, f"ci/sanitizer_tests.txt must run {required}"


def test_the_default_envs_keep_what_ci_ran_before(run_envs: ModuleType) -> None:
    """What left the default envlist runs in a default env or is named in docs/ci.md as moved."""
    envs = set(run_envs.envlist())
    doc = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    tox = (REPO / "tox.ini").read_text(encoding="utf-8")
    cov = tox[tox.index("[testenv:cov]") :]
    cov = cov[: cov.index("\n[", 1)]
    assert {"lint", "newcomer", "cov", "asan", "tsan", "fuzz-smoke"} <= envs
    # hta and torch-npu: their tests run in cov, with their packages installed and required there.
    assert "holistictraceanalysis" in cov and "NPU_SIM_REQUIRE_HTA = 1" in cov
    assert "install_torch_npu.sh" in cov and "NPU_SIM_REQUIRE_TORCH_NPU = 1" in cov
    # ascend-tools: its smoke runs in cov, with msprof-analyze and the TensorBoard plugin required.
    assert "msprof-analyze==" in cov and "torch-tb-profiler-ascend==" in cov
    assert "NPU_SIM_REQUIRE_ASCEND_TOOLS = 1" in cov
    for moved in ("asan-full", "tsan-full", "hta", "torch-npu"):
        assert f"[testenv:{moved}]" in tox, f"tox.ini lost the env {moved}"
        assert f"`{moved}`" in doc, f"docs/ci.md does not say where {moved} went"
