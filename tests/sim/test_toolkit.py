"""Locating the native trees and building a CANN-like toolkit over them (on a fake native tree)."""

from __future__ import annotations

import json
import os
import platform
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sim_runtime
from sim_runtime import paths
from sim_runtime.config import SimConfig
from sim_runtime.toolkit import (
    EMPTY_DIRS,
    LINK_LIBRARIES,
    MANIFEST,
    TOOLKIT_DIR_VAR,
    Toolkit,
    ToolkitError,
    build_toolkit,
    check_shared_object,
    default_toolkit_root,
)
from support.fake_tree import elf_bytes, make_native_tree
from support.native import package_root

# The libraries, CANN's other names for two of them, and the msPTI under test.
LIB64_ENTRIES = len(paths.SIM_LIBRARIES) + len(paths.OPAPI_ALIASES) + len(paths.RUNTIME_ALIASES) + 1


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    sim, mspti = make_native_tree(tmp_path / "native")
    monkeypatch.setenv(paths.SIM_PREFIX_VAR, str(sim))
    monkeypatch.setenv(paths.MSPTI_PREFIX_VAR, str(mspti))
    monkeypatch.setenv(TOOLKIT_DIR_VAR, str(tmp_path / "toolkit"))
    return sim, mspti


# --- paths ----------------------------------------------------------------------------------------


def test_default_roots_are_the_package_directories() -> None:
    package = Path(sim_runtime.__path__[0]).resolve()
    assert paths.sim_root({}) == package
    assert paths.mspti_root({}) == package.parent / "mspti_core"


def test_prefix_variables_override_the_roots(tmp_path: Path) -> None:
    environ = {paths.SIM_PREFIX_VAR: str(tmp_path / "a"), paths.MSPTI_PREFIX_VAR: str(tmp_path / "b")}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert paths.sim_tree(environ).lib64 == (tmp_path / "a" / "lib64").resolve()
    assert paths.mspti_tree(environ).include == (tmp_path / "b" / "include").resolve()


def test_prefix_that_is_not_a_directory_is_reported(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"^NPU_SIM_PREFIX='.*nowhere' is not a directory"):
        paths.sim_root({paths.SIM_PREFIX_VAR: str(tmp_path / "nowhere")})


def test_missing_native_file_names_it_and_the_fix(tmp_path: Path) -> None:
    tree = paths.NativeTree(tmp_path)
    with pytest.raises(FileNotFoundError) as caught:
        tree.library("libascendcl.so")
    assert str(caught.value) == (
        f"missing library {tmp_path / 'lib64' / 'libascendcl.so'}; "
        "run `pip install .` to build and install the native libraries"
    )
    with pytest.raises(FileNotFoundError, match=r"missing header directory .*acl; run `pip install \.`"):
        tree.header_dir("acl")


# --- layout ---------------------------------------------------------------------------------------


def test_layout_links_every_library_and_header_dir(tree: tuple[Path, Path], tmp_path: Path) -> None:
    sim, mspti = tree
    toolkit = build_toolkit(None)
    root = tmp_path / "toolkit"
    assert toolkit == Toolkit(
        ascend_home=root,
        lib64=root / "lib64",
        include=root / "include",
        mspti=(mspti / "lib64" / "libmspti.so").resolve(),
    )
    for header_dir in paths.SIM_HEADER_DIRS:
        link = root / "include" / header_dir
        assert link.is_symlink()
        assert link.resolve() == (sim / "include" / header_dir).resolve()
        assert (link / f"{header_dir}.h").read_text() == "/* header */\n"
    assert (root / "include" / "mspti" / "mspti.h").read_text() == "/* mspti */\n"
    for library in paths.SIM_LIBRARIES:
        assert (root / "lib64" / library).resolve() == (sim / "lib64" / library).resolve()
    assert toolkit.mspti_link == root / "lib64" / "libmspti.so"
    assert toolkit.mspti_link.resolve() == toolkit.mspti
    assert stat.S_IMODE(root.stat().st_mode) == 0o755
    for header in paths.SIM_HEADER_FILES:
        assert (root / "include" / header).resolve() == (sim / "include" / header).resolve()
    # Where CANN 8.x installs msPTI and mstx, and the Python package, as links to the same files.
    assert (root / "tools" / "mspti" / "include" / "mspti.h").read_text() == "/* mspti */\n"
    assert (root / "tools" / "mspti" / "lib64" / "libmspti.so").resolve() == toolkit.mspti
    mstx_library = (sim / "lib64" / "libms_tools_ext.so").resolve()
    assert (root / "tools" / "mstx" / "lib64" / "libms_tools_ext.so").resolve() == mstx_library
    package = root / "python" / "site-packages" / "mspti"
    assert package.is_symlink() and package.resolve() == (mspti / paths.MSPTI_PYTHON_PACKAGE).resolve()
    # CANN's runtime library name, for programs linking -lacl_rt: the simulator's runtime is libascendcl.
    for alias in paths.RUNTIME_ALIASES:
        assert (root / "lib64" / alias).resolve() == (sim / "lib64" / "libascendcl.so").resolve()
    assert (root / "opp").is_dir() and (root / "bin").is_dir()
    for script in ("set_env.sh", "bin/setenv.bash"):
        assert (root / script).read_text().startswith("# Environment of this simulated CANN toolkit")
    # CANN's package record, in its architecture's folder (test_toolkit_layout.py checks its text).
    arch_dir = f"{platform.machine()}-linux"
    assert [p.name for p in (root / arch_dir).iterdir()] == ["ascend_toolkit_install.info"]
    expected = {"include", "lib64", "tools", "python", "set_env.sh", MANIFEST, arch_dir, *EMPTY_DIRS}
    assert {entry.name for entry in root.iterdir()} == expected
    assert len(list((root / "lib64").iterdir())) == LIB64_ENTRIES


def test_msprof_is_where_cann_installs_it_and_runs_ours(tree: tuple[Path, Path], tmp_path: Path) -> None:
    root = build_toolkit(None).ascend_home
    command = root / "bin" / "msprof"
    assert command.is_symlink() and command.resolve() == (root / "tools/profiler/bin/msprof").resolve()
    # torch_npu's analysis looks for msprof.py under the part of msprof's real path before "tools".
    before_tools = str(command.resolve()).split("tools")[0]
    assert Path(before_tools, "tools/profiler/profiler_tool/analysis/msprof/msprof.py").is_file()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for script in (command, root / "tools/profiler/profiler_tool/analysis/msprof/msprof.py"):
        result = subprocess.run([str(script), "--help"], env=env, capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr
        assert "--export" in result.stdout and "--type" in result.stdout, result.stdout


def test_set_env_gives_the_variables_of_npu_sim_env(tree: tuple[Path, Path], tmp_path: Path) -> None:
    toolkit = build_toolkit(None)
    base = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": "/opt/x", "HOME": str(tmp_path)}
    sourced = subprocess.run(
        ["bash", "-c", f"source {toolkit.ascend_home / 'set_env.sh'} && env -0"],
        env=base,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    after = dict(item.split("=", 1) for item in sourced.split("\0") if "=" in item)
    expected = toolkit.env(SimConfig.defaults(), preload=False, environ=base)
    for name in ("ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH", "ASCEND_OPP_PATH", "ASCEND_AICPU_PATH"):
        assert after[name] == expected[name] == str(toolkit.ascend_home / ("opp" if "OPP" in name else ""))
    assert after["LD_LIBRARY_PATH"] == expected["LD_LIBRARY_PATH"] == f"{toolkit.lib64}:/opt/x"
    assert after["PATH"] == expected["PATH"] == f"{toolkit.ascend_home}/bin:/usr/bin:/bin"
    assert after["PYTHONPATH"] == expected["PYTHONPATH"] == f"{toolkit.ascend_home}/python/site-packages"
    assert after["MSTX_INJECTION_PATH"] == expected["MSTX_INJECTION_PATH"]


@pytest.mark.parametrize("script", ["set_env.sh", "bin/setenv.bash"])
def test_set_env_follows_a_moved_toolkit_under_bash(
    tree: tuple[Path, Path], tmp_path: Path, script: str
) -> None:
    toolkit = build_toolkit(None)
    moved = tmp_path / "moved"
    os.rename(toolkit.ascend_home, moved)
    home = subprocess.run(
        ["bash", "-c", f"source {moved / script} && echo $ASCEND_HOME_PATH"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert home == str(moved)


def test_explicit_root_wins_over_the_variable(tree: tuple[Path, Path], tmp_path: Path) -> None:
    toolkit = build_toolkit(None, tmp_path / "elsewhere" / "tk")
    assert toolkit.ascend_home == tmp_path / "elsewhere" / "tk"
    assert (tmp_path / "elsewhere" / "tk" / "lib64" / "libascendcl.so").exists()
    assert not (tmp_path / "toolkit").exists()


def test_default_root_is_in_the_user_cache(
    tree: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(TOOLKIT_DIR_VAR)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    toolkit = build_toolkit(None)
    assert toolkit.ascend_home.parent == tmp_path / "home" / ".cache" / "npu-sim" / "toolkits"
    assert len(toolkit.ascend_home.name) == 16
    other = tmp_path / "other.so"
    other.write_bytes(elf_bytes())
    assert build_toolkit(other).ascend_home != toolkit.ascend_home
    assert default_toolkit_root("abc", {}) == Path.home() / ".cache" / "npu-sim" / "toolkits" / "abc"


def test_missing_native_file_stops_the_build(tree: tuple[Path, Path], tmp_path: Path) -> None:
    sim, _ = tree
    (sim / "lib64" / "libhccl.so").unlink()
    with pytest.raises(FileNotFoundError, match=r"missing library .*libhccl\.so; run `pip install \.`"):
        build_toolkit(None)
    assert not (tmp_path / "toolkit").exists()


def test_missing_own_mspti_stops_the_build(tree: tuple[Path, Path]) -> None:
    _, mspti = tree
    (mspti / "lib64" / "libmspti.so").unlink()
    with pytest.raises(FileNotFoundError, match=r"missing library .*libmspti\.so; run `pip install \.`"):
        build_toolkit(None)


# --- the msPTI under test -------------------------------------------------------------------------


def test_other_mspti_is_linked(tree: tuple[Path, Path], tmp_path: Path) -> None:
    vendor = tmp_path / "vendor" / "libmspti.so"
    vendor.parent.mkdir()
    vendor.write_bytes(elf_bytes(big_endian=True))
    toolkit = build_toolkit(vendor)
    assert toolkit.mspti == vendor.resolve()
    assert os.readlink(toolkit.lib64 / "libmspti.so") == str(vendor.resolve())


def test_real_shared_object_is_accepted() -> None:
    import _ctypes

    library = Path(_ctypes.__file__)
    assert check_shared_object(library) == library.resolve()


def test_non_elf_mspti_is_rejected(tree: tuple[Path, Path], tmp_path: Path) -> None:
    fake = tmp_path / "libmspti.so"
    fake.write_text("#!/bin/sh\n")
    with pytest.raises(ToolkitError) as caught:
        build_toolkit(fake)
    assert str(caught.value) == f"msPTI library {fake} is not an ELF file; give the path of a libmspti.so"
    assert not (tmp_path / "toolkit").exists()


def test_elf_executable_mspti_is_rejected(tmp_path: Path) -> None:
    program = tmp_path / "a.out"
    program.write_bytes(elf_bytes(e_type=2))
    with pytest.raises(ToolkitError, match="is an ELF file but not a shared object"):
        check_shared_object(program)


def test_truncated_elf_is_rejected(tmp_path: Path) -> None:
    stub = tmp_path / "stub.so"
    stub.write_bytes(b"\x7fELF\x02\x01")
    with pytest.raises(ToolkitError, match="not a shared object"):
        check_shared_object(stub)


def test_missing_mspti_path_is_reported(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"msPTI library .*nope\.so does not exist"):
        check_shared_object(tmp_path / "nope.so")


def test_directory_as_mspti_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ToolkitError, match="is not a file"):
        check_shared_object(tmp_path)


# --- reuse, rebuild and races ---------------------------------------------------------------------


def test_rebuild_with_same_inputs_reuses_the_tree(tree: tuple[Path, Path], tmp_path: Path) -> None:
    first = build_toolkit(None)
    identity = (tmp_path / "toolkit").stat().st_ino
    second = build_toolkit(None)
    assert second == first
    assert (tmp_path / "toolkit").stat().st_ino == identity
    assert [entry.name for entry in tmp_path.iterdir() if entry.name.startswith(".toolkit")] == []


def test_incomplete_tree_is_rebuilt(tree: tuple[Path, Path], tmp_path: Path) -> None:
    build_toolkit(None)
    (tmp_path / "toolkit" / "lib64" / "libhixl.so").unlink()
    toolkit = build_toolkit(None)
    assert (toolkit.lib64 / "libhixl.so").exists()


def test_changed_inputs_replace_the_tree(tree: tuple[Path, Path], tmp_path: Path) -> None:
    build_toolkit(None)
    vendor = tmp_path / "vendor.so"
    vendor.write_bytes(elf_bytes())
    toolkit = build_toolkit(vendor)
    assert (toolkit.lib64 / "libmspti.so").resolve() == vendor.resolve()
    manifest = json.loads((toolkit.ascend_home / MANIFEST).read_text())
    assert manifest["links"]["lib64/libmspti.so"] == str(vendor.resolve())
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["native", "toolkit", "vendor.so"]


def test_foreign_directory_is_never_replaced(tree: tuple[Path, Path], tmp_path: Path) -> None:
    occupied = tmp_path / "toolkit"
    occupied.mkdir()
    (occupied / "precious.txt").write_text("keep me")
    with pytest.raises(
        ToolkitError, match=r"toolkit exists and is not an npu-sim toolkit; remove it or choose"
    ):
        build_toolkit(None)
    assert (occupied / "precious.txt").read_text() == "keep me"
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["native", "toolkit"]


def test_empty_directory_is_used(tree: tuple[Path, Path], tmp_path: Path) -> None:
    (tmp_path / "toolkit").mkdir()
    assert (build_toolkit(None).lib64 / "libascendcl.so").exists()


_RACER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from sim_runtime.toolkit import build_toolkit
    go = Path(sys.argv[1])
    while not go.exists():
        time.sleep(0.001)
    toolkit = build_toolkit(None)
    print(toolkit.ascend_home)
    """
)


@pytest.mark.parametrize("round_", range(4))
def test_concurrent_builds_agree(tree: tuple[Path, Path], tmp_path: Path, round_: int) -> None:
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(package_root())}
    racers = [
        subprocess.Popen([sys.executable, "-c", _RACER, str(go)], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    go.touch()
    outputs = [racer.communicate(timeout=60)[0].strip() for racer in racers]
    assert [racer.returncode for racer in racers] == [0, 0, 0]
    assert outputs == [str(tmp_path / "toolkit")] * 3
    root = tmp_path / "toolkit"
    assert len(list((root / "lib64").iterdir())) == LIB64_ENTRIES
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["go", "native", "toolkit"]


# --- env ------------------------------------------------------------------------------------------


def test_env_without_preload(tree: tuple[Path, Path]) -> None:
    toolkit = build_toolkit(None)
    config = SimConfig.defaults().replace(devices=2, clock="virtual")
    env = toolkit.env(
        config, preload=False, environ={"LD_LIBRARY_PATH": "/opt/x:/opt/y", "LD_PRELOAD": "/a.so"}
    )
    lib64 = str(toolkit.lib64)
    home = str(toolkit.ascend_home)
    assert env == {
        "ASCEND_TOOLKIT_HOME": home,
        "ASCEND_HOME_PATH": home,
        "ASCEND_OPP_PATH": f"{home}/opp",
        "ASCEND_AICPU_PATH": home,
        "LD_LIBRARY_PATH": f"{lib64}:/opt/x:/opt/y",
        "PYTHONPATH": f"{home}/python/site-packages",
        "PATH": f"{home}/bin",
        "MSTX_INJECTION_PATH": f"{lib64}/libprofapi.so",
        "ASCEND_CFLAGS": f"-I{toolkit.include}",
        "ASCEND_LDFLAGS": f"-L{lib64} -Wl,-rpath,{lib64} -lascendcl -lnnopbase -lopapi -lhccl -lprofapi "
        "-lascend_hal -lascendalog -lc_sec -lmsprofiler",
        **config.to_env(),
    }
    assert LINK_LIBRARIES[0] == "ascendcl"


def test_env_with_preload_prepends_our_library(tree: tuple[Path, Path]) -> None:
    toolkit = build_toolkit(None)
    env = toolkit.env(SimConfig.defaults(), preload=True, environ={"LD_PRELOAD": "/a.so /b.so"})
    assert env["LD_PRELOAD"] == f"{toolkit.mspti_link}:/a.so:/b.so"
    assert env["LD_LIBRARY_PATH"] == str(toolkit.lib64)


def test_env_does_not_duplicate_entries(tree: tuple[Path, Path]) -> None:
    toolkit = build_toolkit(None)
    first = toolkit.env(SimConfig.defaults(), preload=True, environ={"LD_LIBRARY_PATH": "/opt/x"})
    again = toolkit.env(SimConfig.defaults(), preload=True, environ=first)
    assert again["LD_LIBRARY_PATH"] == first["LD_LIBRARY_PATH"] == f"{toolkit.lib64}:/opt/x"
    assert again["LD_PRELOAD"] == first["LD_PRELOAD"] == str(toolkit.mspti_link)


def test_env_reads_os_environ_by_default(tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LD_LIBRARY_PATH", "/from/os")
    toolkit = build_toolkit(None)
    assert toolkit.env(SimConfig.defaults(), preload=False)["LD_LIBRARY_PATH"] == f"{toolkit.lib64}:/from/os"
