"""Every library torch-npu names as DT_NEEDED is in the toolkit's lib64, and every CANN function it
imports resolves through those libraries the way the dynamic linker binds it at import (immediate
binding): driven by sim_runtime/data/torch_npu_imports.toml, read from the published wheel, so no
torch is needed."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sim_runtime
from sim_runtime import paths
from sim_runtime.toolkit import Toolkit, build_toolkit
from support.native import NativeTree

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA = Path(sim_runtime.__path__[0]) / "data" / "torch_npu_imports.toml"


def load_imports() -> dict[str, object]:
    with DATA.open("rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def toolkit(tmp_path_factory: pytest.TempPathFactory) -> Toolkit:
    return build_toolkit(None, tmp_path_factory.mktemp("torch_npu") / "toolkit")


def test_the_import_list_names_its_source_and_is_not_empty() -> None:
    data = load_imports()
    assert data["source"]["package"] == "torch-npu"
    assert data["source"]["wheel"].startswith(f"torch_npu-{data['source']['version']}-")
    names = [entry["name"] for entry in data["import"]]
    assert len(names) == len(set(names)) == 84  # 74 acl*, 4 rt*, 6 Msprof*
    assert {entry["soname"] for entry in data["needed"]} >= {"libascendcl.so", "libacl_op_compiler.so"}


def test_every_needed_library_is_in_the_toolkit(toolkit: Toolkit) -> None:
    missing = [e["soname"] for e in load_imports()["needed"] if not (toolkit.lib64 / e["soname"]).is_file()]
    assert missing == []


def test_every_imported_function_resolves_through_the_needed_libraries(
    toolkit: Toolkit, native: NativeTree
) -> None:
    data = load_imports()
    libraries = [str(toolkit.lib64 / e["soname"]) for e in data["needed"]]
    names = [e["name"] for e in data["import"]]
    # A fresh process opens the needed libraries as a program's loader does (their own dependencies
    # come along) and looks every imported name up in them.
    code = f"""
        import ctypes, json
        handles = [ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL) for path in {libraries!r}]
        print(json.dumps([name for name in {names!r} if not any(hasattr(h, name) for h in handles)]))
        """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=native.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_aclnn_library_names_are_libopapi(toolkit: Toolkit) -> None:
    opapi = (toolkit.lib64 / "libopapi.so").resolve()
    assert paths.OPAPI_ALIASES
    for alias in paths.OPAPI_ALIASES:
        assert (toolkit.lib64 / alias).resolve() == opapi
