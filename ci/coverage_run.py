"""Runs the test suite with Python and C++ line coverage, then reports and gates both (tox -e cov).

    python ci/coverage_run.py [pytest args]

The native code is the coverage build of the wheel (`[testenv:.pkg-cov]` in tox.ini: gcc --coverage,
Debug, build tree build/cov). Every process that loads one of its libraries writes .gcda files beside
the object files in build/cov when it exits, wherever the wheel was installed; gcovr reads them there.
Python is measured by coverage.py (`[tool.coverage]` in pyproject.toml), in Python subprocesses too
(patch = subprocess). Reports land in build/cov/reports.

With no pytest args the default suite runs (-m "not slow") and ci/coverage_gate.py compares both
figures with ci/coverage_baseline.toml. With args (a subset) the figures are printed, not gated.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import tomli_w

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
BUILD = REPO / "build" / "cov"
REPORTS = BUILD / "reports"
# Two workers (pytest-xdist), a test file each at a time: the suite mostly waits on the programs it
# runs, so two workers on two cores take about a third of the serial time; coverage.py measures the
# workers as subprocesses and gcov merges their counts, so the figures are the serial run's.
DEFAULT_PYTEST_ARGS = ["-n", "2", "--dist", "loadfile", "-m", "not slow", "-q"]


def run(cmd: list[str], **kwargs) -> int:
    print("+", " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=REPO, **kwargs)


def tool(name: str) -> str:
    """A console script of this environment (coverage, gcovr, pytest)."""
    path = Path(sys.executable).parent / name
    if not path.exists():
        raise SystemExit(f"{name} is not installed in {sys.prefix} (tox -e cov installs it)")
    return str(path)


def clean_counts() -> None:
    """Drops the counts of an earlier run: the .gcda files of build/cov and coverage.py's data."""
    if not (BUILD / "CMakeCache.txt").exists():
        raise SystemExit(f"{BUILD} is not a build tree: build the coverage wheel first (tox -e cov)")
    for gcda in BUILD.rglob("*.gcda"):
        gcda.unlink()
    shutil.rmtree(BUILD / "python", ignore_errors=True)
    shutil.rmtree(REPORTS, ignore_errors=True)
    (BUILD / "python").mkdir(parents=True)
    REPORTS.mkdir(parents=True)


def python_reports(env: dict[str, str]) -> int:
    coverage = tool("coverage")
    steps = [
        [coverage, "combine", "--quiet"],
        [coverage, "json", "--quiet", "-o", str(REPORTS / "python.json")],
        [coverage, "html", "--quiet", "-d", str(REPORTS / "python-html")],
        [coverage, "report", "--skip-covered", "--sort=cover"],
    ]
    for step in steps:
        if run(step, env=env) != 0:
            return 1
    return 0


def cpp_reports() -> int:
    # Our sources only: csrc/ (the generated embedded_data.cpp lives in build/, pybind11 and the
    # system headers elsewhere); test programs and fuzz targets are not built with coverage, and are
    # excluded all the same. gcov can write a negative branch count for a line that threads and forked
    # children run at once, even with atomic counters (gcc bug 68080); gcovr then refuses the whole
    # report, so such counts are warned about once per file and read as zero.
    return run(
        [
            tool("gcovr"),
            "--gcov-ignore-parse-errors",
            "negative_hits.warn_once_per_file",
            "--root",
            str(REPO),
            "--filter",
            "csrc/",
            "--exclude",
            "tests/",
            "--exclude",
            "fuzz/",
            "-j",
            os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2"),
            # A line counts once, covered when any code on it ran: without this, gcovr 8 counts a
            # line once per function defined on it, so each macro-generated aclnn entry point (two
            # functions on one source line) weighed as several lines.
            "--merge-lines",
            "--print-summary",
            "--txt",
            str(REPORTS / "cpp.txt"),
            "--json-summary-pretty",
            "--json-summary",
            str(REPORTS / "cpp-summary.json"),
            "--html-nested",
            str(REPORTS / "cpp-html" / "index.html"),
            str(BUILD),
        ]
    )


def write_config() -> Path:
    """pyproject.toml's [tool.coverage] with the packages measured by folder, in both places.

    A child started with ``python -m`` or ``-c`` in the repository root imports the checkout's
    ``__init__`` and, through it, the installed submodules (mspti_base/checkout.py). Measured by
    package name (``source_pkgs``), only one of the two folders would count; measured by folder, both
    do, and [tool.coverage.paths] reports them under one name. Children read the same file
    (COVERAGE_PROCESS_START), so the config is written once, here.
    """
    with (REPO / "pyproject.toml").open("rb") as stream:
        config = tomllib.load(stream)["tool"]["coverage"]
    packages = config["run"].pop("source_pkgs")
    installed = Path(sysconfig.get_paths()["platlib"])
    config["run"]["source"] = [str(root / name) for root in (installed, REPO) for name in packages]
    path = BUILD / "python" / "coverage.toml"
    path.write_text(tomli_w.dumps({"tool": {"coverage": config}}), encoding="utf-8")
    return path


def main() -> int:
    pytest_args = sys.argv[1:]
    gate = not pytest_args
    clean_counts()
    (REPORTS / "cpp-html").mkdir()
    env = dict(os.environ)
    env["COVERAGE_FILE"] = str(BUILD / "python" / ".coverage")
    env["COVERAGE_RCFILE"] = str(write_config())
    # The pytest script, not `python -m pytest`: the latter would put the source tree first on
    # sys.path, and the installed packages are the ones measured.
    status = run([tool("coverage"), "run", tool("pytest"), *(pytest_args or DEFAULT_PYTEST_ARGS)], env=env)
    if python_reports(env) != 0 or cpp_reports() != 0:
        return 1
    print(f"reports: {REPORTS.relative_to(REPO)}/ (python-html/index.html, cpp-html/index.html)")
    if status != 0:
        print(f"pytest failed (exit {status}): coverage not gated")
        return status
    gate_cmd = [
        sys.executable,
        str(REPO / "ci" / "coverage_gate.py"),
        "--python",
        str(REPORTS / "python.json"),
        "--cpp",
        str(REPORTS / "cpp-summary.json"),
    ]
    if not gate:
        gate_cmd.append("--report-only")
    return run(gate_cmd)


if __name__ == "__main__":
    sys.exit(main())
