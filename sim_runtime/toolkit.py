"""A directory laid out like a CANN toolkit install (``ASCEND_HOME_PATH``) over the simulator.

::

    <root>/set_env.sh                                      the variables CANN's set_env.sh sets
    <root>/bin/setenv.bash                                 the same script, where CANN 8.5+ also puts it
    <root>/include/{acl,aclnn,aclnnop,hccl,mstx,hixl,ge}   -> the simulator's headers
    <root>/include/securec{,type}.h                        -> the simulator's libc_sec headers
    <root>/include/mspti                                   -> our msPTI headers
    <root>/lib64/lib*.so                                   -> the simulator's libraries
    <root>/lib64/libaclnn_*.so                             -> libopapi.so (CANN's operator library names)
    <root>/lib64/libacl_rt.so                              -> libascendcl.so (CANN's runtime library name)
    <root>/lib64/libmspti.so                               -> the msPTI under test
    <root>/tools/mspti/{include,lib64/libmspti.so}         -> the same, where CANN 8.x installs msPTI
    <root>/tools/mstx/lib64/libms_tools_ext.so             -> the mstx C API library
    <root>/python/site-packages/mspti                      -> the vendor-compatible ``mspti`` package
    <root>/{opp,bin}                                       empty folders that CANN's variables name
    <root>/{runtime,compiler}                              empty folders whose presence torch_npu checks
    <root>/<arch>-linux/ascend_toolkit_install.info        CANN's package record, with the presented version
    <root>/.npu-sim-toolkit.json                           manifest: what the links were built from

What each path is for, and which CANN paths the toolkit lacks: ``data/toolkit_layout.toml``
(``npu-sim env --check``). Every entry but set_env.sh and the empty folders is a symlink, so building
is cheap. A toolkit is built in a temporary sibling directory
and renamed into place, so concurrent builders never see a half-built tree: whoever renames first
wins and the others reuse its result.

The default root depends on a hash of the inputs, so toolkits for different msPTI libraries live
side by side. A fixed root (``NPU_SIM_TOOLKIT_DIR`` or the ``root`` argument) holds one toolkit at a
time: building it with other inputs replaces it, under any process still using the old one.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mspti_base.preload import preload_value
from sim_runtime import paths
from sim_runtime.config import SimConfig
from sim_runtime.toolkit_layout import install_info, msprof_script, set_env_script, toolkit_variables

__all__ = [
    "LINK_LIBRARIES",
    "MANIFEST",
    "TOOLKIT_DIR_VAR",
    "Toolkit",
    "ToolkitError",
    "build_toolkit",
    "check_shared_object",
    "default_toolkit_root",
]

TOOLKIT_DIR_VAR = "NPU_SIM_TOOLKIT_DIR"
MANIFEST = ".npu-sim-toolkit.json"
LAYOUT_VERSION = 5
SET_ENV = "set_env.sh"
#: The same script under bin/, where newer CANN releases also install it (runtime samples source it).
BIN_SET_ENV = "bin/setenv.bash"
BIN_MSPROF = "bin/msprof"
# CANN installs msprof under tools/profiler and links bin/msprof to it; torch_npu's analysis checks for
# msprof.py where CANN has it, relative to the real path of the msprof it finds.
TOOLS_MSPROF = "tools/profiler/bin/msprof"
TOOLS_MSPROF_PY = "tools/profiler/profiler_tool/analysis/msprof/msprof.py"
#: Real (empty) folders of the layout that CANN's variables name.
EMPTY_DIRS: tuple[str, ...] = ("opp", "bin", "runtime", "compiler")
#: What ``ASCEND_LDFLAGS`` links, in CANN sample order.
LINK_LIBRARIES: tuple[str, ...] = (
    "ascendcl",
    "nnopbase",
    "opapi",
    "hccl",
    "profapi",
    "ascend_hal",
    "ascendalog",
    "c_sec",
    "msprofiler",
)
_ELF_MAGIC = b"\x7fELF"
_ET_DYN = 3


class ToolkitError(ValueError):
    """The toolkit cannot be built from the given inputs; the message says what to change."""


@dataclass(frozen=True)
class Toolkit:
    """A built toolkit. ``mspti`` is the msPTI library under test (the target of lib64/libmspti.so)."""

    ascend_home: Path
    lib64: Path
    include: Path
    mspti: Path

    @property
    def mspti_link(self) -> Path:
        """``lib64/libmspti.so``, the path to preload."""
        return self.lib64 / paths.MSPTI_LIBRARY

    def env(
        self, config: SimConfig, preload: bool, environ: Mapping[str, str] | None = None
    ) -> dict[str, str]:
        """Variables that put a process on this toolkit with ``config``.

        ``LD_LIBRARY_PATH`` (and ``LD_PRELOAD`` when ``preload``) get this toolkit's entry prepended
        to the value in ``environ`` (``os.environ`` by default), without duplicating it.
        """
        base = os.environ if environ is None else environ
        lib64 = str(self.lib64)
        result = toolkit_variables(self.ascend_home, base)
        result.update(
            {
                "ASCEND_CFLAGS": f"-I{self.include}",
                "ASCEND_LDFLAGS": " ".join(
                    [f"-L{lib64}", f"-Wl,-rpath,{lib64}", *(f"-l{name}" for name in LINK_LIBRARIES)]
                ),
            }
        )
        result.update(config.to_env())
        if preload:
            result["LD_PRELOAD"] = preload_value(base.get("LD_PRELOAD", ""), first=[str(self.mspti_link)])
        return result


def check_shared_object(path: Path) -> Path:
    """Return ``path`` resolved if it is an ELF shared object; else raise with what is wrong."""
    if not path.exists():
        raise FileNotFoundError(f"msPTI library {path} does not exist; give the path of a libmspti.so")
    if not path.is_file():
        raise ToolkitError(f"msPTI library {path} is not a file; give the path of a libmspti.so")
    with path.open("rb") as stream:
        header = stream.read(18)
    if header[:4] != _ELF_MAGIC:
        raise ToolkitError(f"msPTI library {path} is not an ELF file; give the path of a libmspti.so")
    byteorder = "big" if header[5:6] == b"\x02" else "little"
    if len(header) < 18 or int.from_bytes(header[16:18], byteorder) != _ET_DYN:
        raise ToolkitError(
            f"msPTI library {path} is an ELF file but not a shared object; give the path of a libmspti.so"
        )
    return path.resolve()


def default_toolkit_root(key: str, environ: Mapping[str, str] | None = None) -> Path:
    """``$NPU_SIM_TOOLKIT_DIR`` if set, else ``~/.cache/npu-sim/toolkits/<key>``."""
    env = os.environ if environ is None else environ
    configured = env.get(TOOLKIT_DIR_VAR, "")
    if configured:
        return Path(configured).expanduser().absolute()
    return Path.home() / ".cache" / "npu-sim" / "toolkits" / key


def build_toolkit(
    mspti: Path | None, root: Path | None = None, *, environ: Mapping[str, str] | None = None
) -> Toolkit:
    """Build (or reuse) a toolkit whose ``lib64/libmspti.so`` is ``mspti`` (ours when ``None``).

    Raises :class:`FileNotFoundError` when a native file is missing and :class:`ToolkitError` when
    ``mspti`` is not a shared object or ``root`` is occupied by something that is not a toolkit.
    """
    links = _planned_links(mspti, environ)
    under_test = links[f"lib64/{paths.MSPTI_LIBRARY}"]
    manifest = {
        "layout": LAYOUT_VERSION,
        "python": sys.executable,
        "links": {name: str(target) for name, target in links.items()},
    }
    key = hashlib.sha256(json.dumps(manifest, sort_keys=True).encode()).hexdigest()[:16]
    manifest["key"] = key
    target = root.expanduser().absolute() if root is not None else default_toolkit_root(key, environ)
    if not _is_complete(target, manifest):
        _install(target, links, manifest)
    return Toolkit(ascend_home=target, lib64=target / "lib64", include=target / "include", mspti=under_test)


def _planned_links(mspti: Path | None, environ: Mapping[str, str] | None) -> dict[str, Path]:
    sim = paths.sim_tree(environ)
    ours = paths.mspti_tree(environ)
    links: dict[str, Path] = {}
    for header_dir in paths.SIM_HEADER_DIRS:
        links[f"include/{header_dir}"] = sim.header_dir(header_dir).resolve()
    for header in paths.SIM_HEADER_FILES:
        links[f"include/{header}"] = sim.header(header).resolve()
    mspti_headers = ours.header_dir(paths.MSPTI_HEADER_DIR).resolve()
    links[f"include/{paths.MSPTI_HEADER_DIR}"] = mspti_headers
    links["tools/mspti/include"] = mspti_headers
    for library in paths.SIM_LIBRARIES:
        links[f"lib64/{library}"] = sim.library(library).resolve()
    links["tools/mstx/lib64/libms_tools_ext.so"] = links["lib64/libms_tools_ext.so"]
    for alias in paths.OPAPI_ALIASES:
        links[f"lib64/{alias}"] = links["lib64/libopapi.so"]
    for alias in paths.RUNTIME_ALIASES:
        links[f"lib64/{alias}"] = links["lib64/libascendcl.so"]
    library = ours.library(paths.MSPTI_LIBRARY) if mspti is None else Path(mspti).expanduser()
    under_test = check_shared_object(library)
    links[f"lib64/{paths.MSPTI_LIBRARY}"] = under_test
    links[f"tools/mspti/lib64/{paths.MSPTI_LIBRARY}"] = under_test
    # The Python package comes with the installed mspti_core; a tree that has only the C library (a
    # prefix holding lib64/ and include/) still gives a toolkit, which `npu-sim env --check` reports.
    package = ours.root / paths.MSPTI_PYTHON_PACKAGE
    if package.is_dir():
        links["python/site-packages/mspti"] = package.resolve()
    return links


def _read_manifest(root: Path) -> dict[str, object] | None:
    try:
        data = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _is_complete(root: Path, manifest: Mapping[str, object]) -> bool:
    if _read_manifest(root) != manifest:
        return False
    if (
        not (root / SET_ENV).is_file()
        or not (root / BIN_SET_ENV).is_file()
        or not os.access(root / BIN_MSPROF, os.X_OK)
        or not (root / TOOLS_MSPROF_PY).is_file()
        or not (root / install_info(root)[0]).is_file()
        or not all((root / name).is_dir() for name in EMPTY_DIRS)
    ):
        return False
    links = manifest["links"]
    assert isinstance(links, dict)
    for name, target in links.items():
        link = root / name
        try:
            if os.readlink(link) != target or not link.exists():
                return False
        except OSError:
            return False
    return True


def _install(root: Path, links: Mapping[str, Path], manifest: Mapping[str, object]) -> None:
    root.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.build-", dir=root.parent))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; a toolkit is for every user of the cache
        for name in EMPTY_DIRS:
            (staging / name).mkdir()
        for name, target in links.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).symlink_to(target)
        (staging / SET_ENV).write_text(set_env_script(root), encoding="utf-8")
        (staging / BIN_SET_ENV).write_text(set_env_script(root, depth=1), encoding="utf-8")
        for name, script in (
            (TOOLS_MSPROF, msprof_script(sys.executable)),
            (TOOLS_MSPROF_PY, msprof_script(sys.executable)),
        ):
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_text(script, encoding="utf-8")
            (staging / name).chmod(0o755)
        (staging / BIN_MSPROF).symlink_to(os.path.relpath(TOOLS_MSPROF, Path(BIN_MSPROF).parent))
        info_path, info_text = install_info(root)
        (staging / info_path).parent.mkdir(parents=True, exist_ok=True)
        (staging / info_path).write_text(info_text, encoding="utf-8")
        text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
        (staging / MANIFEST).write_text(text, encoding="utf-8")
        _move_into_place(staging, root, manifest)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _move_into_place(staging: Path, root: Path, manifest: Mapping[str, object]) -> None:
    last_error: OSError | None = None
    for _attempt in range(10):
        try:
            os.rename(staging, root)
            return
        except OSError as error:
            last_error = error
            if not root.exists() and not root.is_symlink():
                continue  # a concurrent replacement moved it away between the rename and this check
        if _is_complete(root, manifest):
            return  # a concurrent builder finished first
        _retire(root)
    raise ToolkitError(f"could not install a toolkit at {root}: {last_error}")


def _retire(root: Path) -> None:
    """Move an outdated toolkit at ``root`` aside and delete it; refuse to touch anything else."""
    if _read_manifest(root) is None and not (root.is_dir() and not any(root.iterdir())):
        raise ToolkitError(
            f"{root} exists and is not an npu-sim toolkit; remove it or choose another toolkit directory "
            f"(${TOOLKIT_DIR_VAR})"
        )
    graveyard = Path(tempfile.mkdtemp(prefix=f".{root.name}.old-", dir=root.parent))
    try:
        os.rename(root, graveyard / "toolkit")
    except FileNotFoundError:
        pass  # someone else retired it already
    finally:
        shutil.rmtree(graveyard, ignore_errors=True)
