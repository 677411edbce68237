"""libopapi's math library (csrc/sim/opapi/math_library.h): OpenBLAS of the scipy-openblas32 wheel,
found without LD_LIBRARY_PATH from the installed package and through a simulated toolkit's lib64
symlinks, run at torch's default thread count (OMP_NUM_THREADS, else the physical cores)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from sim_runtime.toolkit import build_toolkit
from support.native import NativeTree

QUERY = """
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
size = lib.npusim_opapi_math_library(None, 0)
buffer = ctypes.create_string_buffer(size)
lib.npusim_opapi_math_library(buffer, size)
print(buffer.value.decode())
"""


def query(native: NativeTree, library: Path, **env: str) -> tuple[str, int]:
    """(the file libopapi loaded, its thread count), asked in a fresh process without LD_LIBRARY_PATH."""
    environ = {k: v for k, v in native.env().items() if k not in ("LD_LIBRARY_PATH", "OMP_NUM_THREADS")}
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(QUERY), str(library)],
        env={**environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    path, threads = result.stdout.rstrip("\n").split("\t")
    return path, int(threads)


def default_threads() -> int:
    """torch's default: the physical cores; one under ThreadSanitizer (OpenBLAS runs on the caller)."""
    if os.environ.get("NPU_SIM_TEST_SANITIZE") == "thread":
        return 1
    cores = set()
    for cpu in Path("/sys/devices/system/cpu").glob("cpu[0-9]*"):
        topology = cpu / "topology"
        if (topology / "core_id").exists():
            cores.add(((topology / "physical_package_id").read_text(), (topology / "core_id").read_text()))
    return len(cores) or os.cpu_count() or 1


def test_the_build_finds_openblas_without_ld_library_path(native: NativeTree) -> None:
    path, threads = query(native, native.sim_lib64 / "libopapi.so")
    assert path.endswith("libscipy_openblas.so") and Path(path).is_file(), path
    assert threads == default_threads()


def test_the_thread_count_follows_omp_num_threads(native: NativeTree) -> None:
    _, threads = query(native, native.sim_lib64 / "libopapi.so", OMP_NUM_THREADS="1")
    assert threads == 1
    _, threads = query(native, native.sim_lib64 / "libopapi.so", OMP_NUM_THREADS="not a number")
    assert threads == default_threads()


def test_a_toolkit_finds_the_installed_wheel_through_its_symlinks(native: NativeTree) -> None:
    toolkit = build_toolkit(None)
    library = toolkit.lib64 / "libopapi.so"
    assert library.is_symlink()
    path, _ = query(native, library)
    assert Path(path).resolve().parent.parent.name == "scipy_openblas32", path
