"""The C++ unit tests (GoogleTest, ``csrc/**/test/``): configures a CMake tree with
``-DNPU_SIM_UNIT_TESTS=ON`` under ``build/``, builds only their targets and runs each executable,
failing with every failing case by name.

Without GoogleTest (Debian: libgtest-dev) they skip, unless ``NPU_SIM_REQUIRE_GTEST`` is set (the CI
envs that install it). Under ``NPU_SIM_TEST_SANITIZE`` (tox -e asan / tsan) they are built with the
same sanitizer, all but the TOML reader's. The TOML reader's tests need toml++: a system copy, the
folder holding ``toml++/toml.hpp`` in ``NPU_SIM_TOMLPP_INCLUDE``, or the copy that the package's build
from this checkout fetched into ``build/*/_deps`` (cmake/third_party.cmake); nothing is downloaded here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.native import REPO
from support.optional_tool import unavailable

REQUIRE = "NPU_SIM_REQUIRE_GTEST"
#: NPU_SIM_TEST_SANITIZE (the flags of a sanitizer run) -> the project's NPU_SIM_SANITIZE.
_SANITIZERS = {"": "", "address,undefined": "address", "address": "address", "thread": "thread"}


#: Where cmake/third_party.cmake unpacks toml++ in a build tree (the package's builds are under build/).
_FETCHED_TOMLPP = "build/*/_deps/pytomlpp-*/third_party/tomlplusplus/include"


@dataclass(frozen=True)
class Failure:
    case: str
    message: str


def _env() -> dict[str, str]:
    """The build tools' and the executables' environment: no preloaded sanitizer runtime (a sanitized
    unit-test executable links its own)."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def _tomlpp_include() -> str | None:
    """A folder holding toml++/toml.hpp to build the TOML reader's tests with, if one is known."""
    if os.environ.get("NPU_SIM_TOMLPP_INCLUDE"):
        return os.environ["NPU_SIM_TOMLPP_INCLUDE"]
    fetched = sorted(p for p in REPO.glob(_FETCHED_TOMLPP) if (p / "toml++" / "toml.hpp").is_file())
    return str(fetched[0]) if fetched else None


def _run(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=900, check=False)
    if proc.returncode != 0:
        pytest.fail(f"{what} failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")


@pytest.fixture(scope="module")
def unit_test_programs() -> list[Path]:
    if shutil.which("cmake") is None:
        unavailable("cmake is not on PATH", REQUIRE)
    sanitize_flags = os.environ.get("NPU_SIM_TEST_SANITIZE", "")
    sanitize = _SANITIZERS.get(sanitize_flags)
    if sanitize is None:
        pytest.fail(f"NPU_SIM_TEST_SANITIZE={sanitize_flags!r}: expected one of {sorted(_SANITIZERS)}")
    tree = REPO / "build" / f"cxx-unit{'-' + sanitize if sanitize else ''}"
    cmd = [
        "cmake",
        "-S",
        str(REPO),
        "-B",
        str(tree),
        "-DCMAKE_BUILD_TYPE=Release",
        "-DCMAKE_CXX_FLAGS_RELEASE=-O0",  # the quickest compile (toml++'s unit dominates); asserts stay on
        "-DNPU_SIM_LTO=OFF",
        "-DNPU_SIM_PYTHON_BINDINGS=OFF",
        "-DNPU_SIM_UNIT_TESTS=ON",
        f"-DNPU_SIM_SANITIZE={sanitize}",
        "-DNPU_SIM_FETCH_TOMLPP=OFF",
    ]
    if shutil.which("ninja") and not (tree / "CMakeCache.txt").exists():
        cmd += ["-G", "Ninja"]
    # The TOML reader's unit (toml++: most of the build) only in the plain run: under a sanitizer it
    # would double the run's cost for a single-threaded parse of fixed strings.
    tomlpp = _tomlpp_include() if not sanitize else None
    if tomlpp:
        cmd.append(f"-DNPU_SIM_TOMLPP_INCLUDE={tomlpp}")
    _run(cmd, "configuring the unit tests")
    programs = [Path(line) for line in (tree / "unit_tests.txt").read_text().split() if line]
    if not programs:  # the configure found no GoogleTest
        unavailable("GoogleTest is not installed (Debian: libgtest-dev, ci/apt_install.sh)", REQUIRE)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    _run(["cmake", "--build", str(tree), "--target", "unit_tests", "-j", jobs], "building the unit tests")
    return programs


def _failures(report: Path) -> list[Failure]:
    data = json.loads(report.read_text())
    out: list[Failure] = []
    for suite in data.get("testsuites", []):
        for case in suite.get("testsuite", []):
            for failure in case.get("failures", []):
                lines = failure.get("failure", "").splitlines()
                message = " | ".join(line.strip() for line in lines if line.strip())
                out.append(Failure(f"{suite['name']}.{case['name']}", message))
    return out


def test_unit_tests_pass(unit_test_programs: list[Path], tmp_path: Path) -> None:
    assert unit_test_programs, "the unit-test manifest lists no executable"
    problems: list[str] = []
    for program in unit_test_programs:
        report = tmp_path / f"{program.name}.json"
        proc = subprocess.run(
            [str(program), f"--gtest_output=json:{report}"],
            env=_env(),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        failures = _failures(report) if report.exists() else []
        problems += [f"{program.name}: {f.case}: {f.message}" for f in failures]
        if proc.returncode != 0 and not failures:
            # A crash or a sanitizer report: no case recorded a failure.
            output = proc.stdout[-3000:] + proc.stderr[-3000:]
            problems.append(f"{program.name} exited {proc.returncode}:\n{output}")
    assert not problems, "\n".join(problems)


def test_toml_reader_tests_are_built(unit_test_programs: list[Path]) -> None:
    """The TOML reader's cases run where toml++ is found: in CI the package's own build has fetched it
    (Debian's libtomlplusplus-dev is not enough: it names its header toml.h)."""
    if os.environ.get("NPU_SIM_TEST_SANITIZE"):
        pytest.skip("the TOML reader's unit tests run in the plain (unsanitized) run only")
    core = next((p for p in unit_test_programs if p.name == "npusim_core_unit_tests"), None)
    assert core is not None, f"npusim_core_unit_tests not among {[p.name for p in unit_test_programs]}"
    listing = subprocess.run(
        [str(core), "--gtest_list_tests"], env=_env(), capture_output=True, text=True, timeout=60, check=True
    ).stdout
    if "TomlDocument." not in listing:
        unavailable(
            "the TOML reader's unit tests are not built: no toml++ (set NPU_SIM_TOMLPP_INCLUDE)", REQUIRE
        )


def test_failures_name_each_failing_case(tmp_path: Path) -> None:
    """The report of a gtest run (--gtest_output=json) becomes one line per failure, its case named."""
    report = tmp_path / "report.json"
    report.write_text(
        json.dumps(
            {
                "testsuites": [
                    {
                        "name": "ByteFifo",
                        "testsuite": [
                            {"name": "Passes"},
                            {
                                "name": "Fails",
                                "failures": [
                                    {"failure": "byte_fifo_test.cpp:63\nExpected: a\n  Which is: 1\n"},
                                    {"failure": "byte_fifo_test.cpp:64\nValue of: b\n"},
                                ],
                            },
                        ],
                    },
                    {"name": "Empty", "testsuite": []},
                ]
            }
        )
    )
    assert _failures(report) == [
        Failure("ByteFifo.Fails", "byte_fifo_test.cpp:63 | Expected: a | Which is: 1"),
        Failure("ByteFifo.Fails", "byte_fifo_test.cpp:64 | Value of: b"),
    ]
