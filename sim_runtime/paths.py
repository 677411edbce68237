"""Where the native parts live: the simulated CANN and the msPTI core.

Installed layout::

    <sim root>/lib64/lib*.so            simulated CANN libraries (sim_runtime package dir by default)
    <sim root>/include/{acl,aclnn,...}  CANN-compatible headers (and include/securec.h)
    <mspti root>/lib64/libmspti.so      our msPTI (mspti_core package dir by default)
    <mspti root>/include/mspti/*.h
    <mspti root>/toolkit_site/mspti     the vendor-compatible ``mspti`` Python package

``NPU_SIM_PREFIX`` replaces the sim root and ``NPU_SIM_MSPTI_PREFIX`` the msPTI root.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "INSTALL_HINT",
    "MSPTI_HEADER_DIR",
    "MSPTI_LIBRARY",
    "MSPTI_PREFIX_VAR",
    "MSPTI_PYTHON_PACKAGE",
    "OPAPI_ALIASES",
    "RUNTIME_ALIASES",
    "SIM_HEADER_DIRS",
    "SIM_HEADER_FILES",
    "SIM_LIBRARIES",
    "SIM_PREFIX_VAR",
    "NativeTree",
    "mspti_root",
    "mspti_tree",
    "require",
    "sim_root",
    "sim_tree",
]

SIM_PREFIX_VAR = "NPU_SIM_PREFIX"
MSPTI_PREFIX_VAR = "NPU_SIM_MSPTI_PREFIX"
INSTALL_HINT = "run `pip install .` to build and install the native libraries"

#: Libraries of the simulated CANN, by the names CANN programs and msPTI load them.
SIM_LIBRARIES: tuple[str, ...] = (
    "libascendcl.so",
    "libnnopbase.so",
    "libopapi.so",
    "libhccl.so",
    "libhcomm.so",
    "libmsprofiler.so",
    "libprofapi.so",
    "libascend_hal.so",
    "libascendalog.so",
    "libc_sec.so",
    "libhixl.so",
    "libms_tools_ext.so",
    "libnpusim.so",
    "libruntime.so",
    "libacl_op_compiler.so",
    "libacl_tdt_channel.so",
    "libge_runner.so",
    "libgraph.so",
)
#: CANN's aclnn operator libraries, which torch_npu opens by name: in the simulated toolkit each one is
#: ``libopapi.so`` under that name (the simulator has one operator library). Names read from
#: torch-npu 2.14.0's ``libtorch_npu.so`` (docs/torch_npu.md).
OPAPI_ALIASES: tuple[str, ...] = (
    "libaclnn_ops_infer.so",
    "libaclnn_ops_train.so",
    "libaclnn_math.so",
    "libaclnn_rand.so",
    "libaclnn_fft.so",
    "libaclnn_sparse.so",
)
#: CANN's runtime library of aclInit, aclrt* and aclmdl* (newer CANN releases split it from libascendcl,
#: and samples link it by this name): in the simulator those functions are in libascendcl.so.
RUNTIME_ALIASES: tuple[str, ...] = ("libacl_rt.so",)
#: Header directories of the simulated CANN under ``<sim root>/include``.
SIM_HEADER_DIRS: tuple[str, ...] = ("acl", "aclnn", "aclnnop", "hccl", "mstx", "hixl", "ge")
#: Single headers directly under ``<sim root>/include``.
SIM_HEADER_FILES: tuple[str, ...] = ("securec.h", "securectype.h")
MSPTI_LIBRARY = "libmspti.so"
MSPTI_HEADER_DIR = "mspti"
#: The vendor-compatible Python package, under ``<mspti root>/toolkit_site`` (not a top-level package of
#: the wheel, so that it never shadows CANN's own ``mspti`` on an Ascend host).
MSPTI_PYTHON_PACKAGE = "toolkit_site/mspti"


@dataclass(frozen=True)
class NativeTree:
    """A ``lib64`` + ``include`` pair under one root."""

    root: Path

    @property
    def lib64(self) -> Path:
        return self.root / "lib64"

    @property
    def include(self) -> Path:
        return self.root / "include"

    def library(self, name: str) -> Path:
        """``lib64/<name>``; raises :class:`FileNotFoundError` when it is not there."""
        return require(self.lib64 / name, what="library")

    def header_dir(self, name: str) -> Path:
        """``include/<name>``; raises :class:`FileNotFoundError` when it is not there."""
        return require(self.include / name, what="header directory", directory=True)

    def header(self, name: str) -> Path:
        """``include/<name>`` (a single header); raises :class:`FileNotFoundError` when it is not there."""
        return require(self.include / name, what="header")


def sim_root(environ: Mapping[str, str] | None = None) -> Path:
    """Root of the simulated CANN: ``$NPU_SIM_PREFIX`` or the ``sim_runtime`` package directory."""
    return _root(SIM_PREFIX_VAR, Path(__file__).resolve().parent, environ)


def mspti_root(environ: Mapping[str, str] | None = None) -> Path:
    """Root of our msPTI: ``$NPU_SIM_MSPTI_PREFIX`` or the ``mspti_core`` package directory."""
    return _root(MSPTI_PREFIX_VAR, _mspti_package_dir(), environ)


def sim_tree(environ: Mapping[str, str] | None = None) -> NativeTree:
    return NativeTree(sim_root(environ))


def mspti_tree(environ: Mapping[str, str] | None = None) -> NativeTree:
    return NativeTree(mspti_root(environ))


def require(path: Path, *, what: str = "file", directory: bool = False) -> Path:
    """Return ``path`` if it exists (as a directory when ``directory``), else a clear error."""
    present = path.is_dir() if directory else path.is_file()
    if not present:
        raise FileNotFoundError(f"missing {what} {path}; {INSTALL_HINT}")
    return path


def _root(variable: str, default: Path, environ: Mapping[str, str] | None) -> Path:
    env = os.environ if environ is None else environ
    value = env.get(variable, "")
    if not value:
        return default
    root = Path(value).expanduser()
    if not root.is_dir():
        raise FileNotFoundError(f"{variable}={value!r} is not a directory; point it at an installed tree")
    return root.resolve()


def _mspti_package_dir() -> Path:
    sibling = Path(__file__).resolve().parent.parent / "mspti_core"
    if sibling.is_dir():
        return sibling
    spec = importlib.util.find_spec("mspti_core")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))).resolve()
    return sibling
