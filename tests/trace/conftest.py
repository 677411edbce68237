"""Fixtures of the trace tests: the in-memory capture builder (fake_capture.py beside this file),
a synthetic decoder capture with its breakdown, and the native tree and trace collector for the
tests that capture real programs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

import mspti_trace as trace_api
from mspti_base.record_layouts_cpp import header_text as schema_header_text
from mspti_trace.capture import COLLECTOR_LIBRARY, find_collector
from support.native import NativeTree
from support.sibling import load_sibling

_HERE = Path(__file__).resolve().parent
REPO = _HERE.parents[1]
COLLECTOR_SOURCES = REPO / "csrc" / "tools" / "trace_collector"


@pytest.fixture(scope="session")
def fakes() -> ModuleType:
    return load_sibling(_HERE, "fake_capture")


@pytest.fixture()
def decoder_dir(fakes: ModuleType, tmp_path: Path) -> Path:
    """A capture of 3 decoder layers x 2 steps, with one all-reduce per step."""
    directory = tmp_path / "capture"
    fakes.decoder_capture(
        directory, layers=3, steps=2, allreduce=True, meta={"soc": "Ascend910B3", "clock": "virtual"}
    )
    return directory


@pytest.fixture()
def facts_dir(decoder_dir: Path, tmp_path: Path) -> Path:
    breakdown = trace_api.build_breakdown(
        trace_api.load_trace(decoder_dir), trace_api.BreakdownOptions(model_name="Decoder 3L")
    )
    out = tmp_path / "facts"
    trace_api.emit_facts(breakdown, out)
    return out


@pytest.fixture(scope="module")
def tree() -> NativeTree:
    try:
        from support.native import find_native_tree

        native = find_native_tree()
    except (FileNotFoundError, ImportError) as error:
        pytest.skip(f"no native build: {error}")
    if not native.mspti_library.exists():
        pytest.skip(f"libmspti.so is not built yet ({native.mspti_library} missing)")
    if not (native.sim_lib64 / "libopapi.so").exists():
        pytest.skip("the aclnn operator library (libopapi.so) is not built yet")
    return native


@pytest.fixture(scope="module")
def collector(tree: NativeTree, tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        return find_collector({"NPU_SIM_BUILD_DIR": str(tree.sim_lib64.parent)})
    except FileNotFoundError:
        pass
    # Not installed by the build yet: compile it from its sources against the msPTI under test.
    out = tmp_path_factory.mktemp("collector") / COLLECTOR_LIBRARY
    schema = out.parent / "schema" / "mspti_schema" / "record_schema.h"
    schema.parent.mkdir(parents=True)
    schema.write_text(schema_header_text(), encoding="utf-8")
    compiler = shutil.which("g++") or "g++"
    command = [
        compiler,
        "-std=c++17",
        "-O1",
        "-g",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-fPIC",
        "-shared",
        "-fvisibility=hidden",
        f"-I{REPO / 'csrc' / 'mspti' / 'include'}",
        f"-I{REPO / 'csrc' / 'text' / 'include'}",
        f"-I{out.parent / 'schema'}",
        *(str(p) for p in sorted(COLLECTOR_SOURCES.glob("*.cpp"))),
        "-o",
        str(out),
        f"-L{tree.mspti_lib64}",
        "-lmspti",
        "-lpthread",
        "-ldl",
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return out
