"""The CANN layout table (data/toolkit_layout.toml), `npu-sim env --check`, and the real toolkit built from
the installed libraries: every path the table says the toolkit provides is there."""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim_runtime import paths
from sim_runtime.toolkit import TOOLKIT_DIR_VAR, build_toolkit
from sim_runtime.toolkit_layout import cann_version, check_toolkit, layout_paths, layout_variables
from support.fake_tree import make_native_tree
from support.native import NativeTree

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake_toolkit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    sim, mspti = make_native_tree(tmp_path / "native")
    monkeypatch.setenv(paths.SIM_PREFIX_VAR, str(sim))
    monkeypatch.setenv(paths.MSPTI_PREFIX_VAR, str(mspti))
    return build_toolkit(None, tmp_path / "toolkit").ascend_home


def test_the_table_names_every_variable_of_cann_set_env() -> None:
    names = {variable.name for variable in layout_variables()}
    expected = {"ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH", "ASCEND_OPP_PATH", "ASCEND_AICPU_PATH"}
    assert expected | {"LD_LIBRARY_PATH", "PYTHONPATH", "PATH"} <= names


def test_a_missing_path_fails_the_check(fake_toolkit: Path) -> None:
    before = {row.entry for row in check_toolkit(fake_toolkit, environ={}) if not row.ok}
    (fake_toolkit / "opp").rmdir()
    rows = {row.entry: row for row in check_toolkit(fake_toolkit, environ={})}
    assert rows["opp"].status == "MISSING"
    assert {name for name, row in rows.items() if not row.ok} - before == {"opp"}


def test_a_tree_without_the_python_package_still_gives_a_toolkit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sim, mspti = make_native_tree(tmp_path / "native")
    shutil.rmtree(mspti / paths.MSPTI_PYTHON_PACKAGE)
    monkeypatch.setenv(paths.SIM_PREFIX_VAR, str(sim))
    monkeypatch.setenv(paths.MSPTI_PREFIX_VAR, str(mspti))
    root = build_toolkit(None, tmp_path / "toolkit").ascend_home
    assert (root / "lib64" / "libmspti.so").exists()
    rows = {row.entry: row for row in check_toolkit(root, environ={})}
    assert rows["python/site-packages/mspti"].status == "MISSING"


def test_paths_not_provided_are_listed_but_do_not_fail(fake_toolkit: Path) -> None:
    rows = check_toolkit(fake_toolkit, environ={})
    absent = [row for row in rows if row.status == "not provided"]
    assert absent and all(row.ok for row in absent)
    assert {row.entry for row in absent} == {entry.path for entry in layout_paths() if not entry.provided}


def test_the_check_compares_variables_with_the_shell(fake_toolkit: Path) -> None:
    rows = {row.entry: row for row in check_toolkit(fake_toolkit, environ={"ASCEND_HOME_PATH": "/elsewhere"})}
    assert rows["$ASCEND_HOME_PATH"].status == "differs here"
    assert rows["$ASCEND_TOOLKIT_HOME"].status == "unset here"
    sourced = {"ASCEND_TOOLKIT_HOME": str(fake_toolkit), "PATH": f"{fake_toolkit}/bin:/usr/bin"}
    rows = {row.entry: row for row in check_toolkit(fake_toolkit, environ=sourced)}
    assert rows["$ASCEND_TOOLKIT_HOME"].status == rows["$PATH"].status == "set"


def test_docs_list_every_layout_path_and_variable() -> None:
    text = (REPO / "docs" / "toolkit.md").read_text(encoding="utf-8")
    missing = [entry.path for entry in layout_paths() if f"`{entry.path}`" not in text]
    missing += [variable.name for variable in layout_variables() if f"`{variable.name}`" not in text]
    assert not missing, f"docs/toolkit.md does not list {missing}"


def test_the_installed_toolkit_has_every_path_it_provides(
    native: NativeTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`npu-sim env --check` over a toolkit built from the real libraries, headers and Python package."""
    if native.sim_lib64 == native.mspti_lib64:
        pytest.skip("NPU_SIM_BUILD_DIR names a CMake build tree, which is not a toolkit input")
    env = {TOOLKIT_DIR_VAR: str(tmp_path / "toolkit")}
    monkeypatch.delenv(paths.SIM_PREFIX_VAR, raising=False)
    monkeypatch.delenv(paths.MSPTI_PREFIX_VAR, raising=False)
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from sim_runtime.cli import main; sys.exit(main(sys.argv[1:]))",
            "env",
            "--check",
            "--json",
        ],
        env={**native.env(), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    entries = {entry["entry"]: entry for entry in json.loads(result.stdout)["entries"]}
    for entry in layout_paths():
        assert entries[entry.host_path]["status"] == ("present" if entry.provided else "not provided"), (
            entry.path
        )
    root = Path(json.loads(result.stdout)["root"])
    assert (root / "tools" / "mspti" / "lib64" / "libmspti.so").resolve() == native.mspti_library.resolve()


def test_env_check_names_the_cann_release_and_its_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sim_runtime.cli import main
    from sim_runtime.toolkit_layout import cann_release

    sim, mspti = make_native_tree(tmp_path / "native")
    monkeypatch.setenv(paths.SIM_PREFIX_VAR, str(sim))
    monkeypatch.setenv(paths.MSPTI_PREFIX_VAR, str(mspti))
    monkeypatch.setenv(TOOLKIT_DIR_VAR, str(tmp_path / "toolkit"))
    main(["env", "--check"])
    text = capsys.readouterr().out
    release = cann_release()
    assert f"mirrors: {release.name}" in text
    assert len(release.repositories) >= 12
    for repo in release.repositories:
        assert repo.name in text and repo.commit in text
    main(["env", "--check", "--json"])
    reported = json.loads(capsys.readouterr().out)["cann"]["repositories"]
    assert [r["commit"] for r in reported] == [r.commit for r in release.repositories]


def torch_npus_cann_version(ascend_home: Path) -> str:
    """torch_npu 2.13.0's rule (torch_npu/utils/collect_env.py get_cann_version): walk ASCEND_HOME_PATH,
    and from a file named ascend_*_install.info take the value of its first line containing "version";
    "not known" without one. Written out here so that the test needs no torch_npu."""
    version = "not known"
    for folder, _, files in os.walk(os.path.realpath(ascend_home)):
        infos = [name for name in files if re.match(r"ascend_.*_install\.info", name)]
        if infos:
            with open(os.path.join(folder, infos[0]), encoding="utf-8") as info:
                version = next((line.strip().split("=")[-1] for line in info if "version" in line), version)
    return version


def test_the_toolkit_states_its_cann_version_where_torch_npu_reads_it(fake_toolkit: Path) -> None:
    # profiler_info_<rank>.json's cann_version and torch_npu's CANN package check read this file; the
    # version is the one libascendcl's aclsysGetCANNVersion returns (tests/sim/test_acl_torch_npu_api.py).
    info = fake_toolkit / f"{platform.machine()}-linux" / "ascend_toolkit_install.info"
    fields = dict(line.split("=", 1) for line in info.read_text(encoding="utf-8").splitlines())
    assert fields == {
        "package_name": "Ascend-cann-toolkit",
        "version": cann_version(),
        "arch": platform.machine(),
        "os": "linux",
        "path": str(info.parent),
    }
    assert torch_npus_cann_version(fake_toolkit) == cann_version() == "8.5.0"
    rows = {row.entry: row for row in check_toolkit(fake_toolkit, environ={})}
    assert rows[f"{platform.machine()}-linux/ascend_toolkit_install.info"].status == "present"
