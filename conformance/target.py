"""The implementation under test and the runtime it runs on.

Three ways to name a target:

* ``--cann DIR``: a CANN toolkit (``DIR/include``, ``DIR/lib64``), e.g. ``$ASCEND_HOME_PATH`` on an
  Ascend host. If ``DIR`` is an npu-sim toolkit the target is still the simulator.
* a CMake build tree (``--build-dir`` or ``$NPU_SIM_BUILD_DIR``): libraries in ``lib64/``, headers
  from the source tree.
* the installed simulator (default): an npu-sim toolkit built by ``sim_runtime.toolkit``.

``--mspti PATH`` replaces the msPTI library under test in every case.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mspti_base.preload import preload_value

if TYPE_CHECKING:
    from sim_runtime.config import SimConfig

__all__ = [
    "DEFAULT_SOC",
    "HEADER_FEATURES",
    "Target",
    "TargetError",
    "resolve_target",
]

DEFAULT_SOC = "Ascend910B3"
REPO = Path(__file__).resolve().parents[1]
TOOLKIT_MANIFEST = ".npu-sim-toolkit.json"

#: Feature -> a header whose presence under an include directory means the target offers it.
HEADER_FEATURES: Mapping[str, str] = {
    "mspti": "mspti/mspti.h",
    "mspti_ext": "mspti/mspti_ext.h",
    "acl": "acl/acl.h",
    "mstx": "mstx/ms_tools_ext.h",
    "aclnn": "aclnnop/aclnn_add.h",
    "hccl": "hccl/hccl.h",
}


class TargetError(ValueError):
    """The target cannot be used; the message says what to change."""


@dataclass(frozen=True)
class Target:
    """Everything needed to build a workload for the target and run it there."""

    kind: str  # "sim" or "hardware"
    mspti: Path  # the library under test
    alias_dir: Path  # holds libmspti.so -> mspti: what workloads link, load and preload
    include_dirs: tuple[Path, ...]
    lib_dirs: tuple[Path, ...]
    base_env: Mapping[str, str]
    soc: str | None = None
    devices: int = 1
    description: str = ""
    sanitize: str = ""
    sanitizer_preload: str = ""

    @property
    def is_simulator(self) -> bool:
        return self.kind == "sim"

    @property
    def preload_path(self) -> Path:
        """``.../libmspti.so``: the name an implementation may look for in ``LD_PRELOAD``."""
        return self.alias_dir / "libmspti.so"

    def header(self, relative: str) -> Path | None:
        for directory in self.include_dirs:
            candidate = directory / relative
            if candidate.is_file():
                return candidate
        return None

    def features(self) -> frozenset[str]:
        """What the target offers, judged by its headers (and device count, environment kind)."""
        found = {name for name, header in HEADER_FEATURES.items() if self.header(header) is not None}
        if self.devices >= 2:
            found.add("multi")
        found.add("hw" if self.kind == "hardware" else "sim")
        return frozenset(found)

    def library(self, name: str) -> Path | None:
        for directory in self.lib_dirs:
            candidate = directory / name
            if candidate.exists():
                return candidate
        return None

    def env(self, *, preload: bool, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of a scenario process."""
        env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        env.update(self.base_env)
        preloads = [self.sanitizer_preload] if self.sanitizer_preload else []
        if preload:
            preloads.append(str(self.preload_path))
        if preloads:
            env["LD_PRELOAD"] = preload_value("", first=preloads, separator=" ")
        else:
            env.pop("LD_PRELOAD", None)
        env["MSPTI_CONFORMANCE_LIBRARY"] = str(self.mspti)
        if extra:
            env.update(extra)
        return env

    def describe(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "mspti": str(self.mspti),
            "include_dirs": [str(d) for d in self.include_dirs],
            "lib_dirs": [str(d) for d in self.lib_dirs],
            "soc": self.soc,
            "devices": self.devices,
            "description": self.description,
            "features": sorted(self.features()),
        }


def _prepend_path(entry: str, existing: str) -> str:
    rest = [part for part in existing.split(":") if part and part != entry]
    return ":".join([entry, *rest])


def _check_library(path: Path) -> Path:
    if not path.is_file():
        raise TargetError(f"msPTI library {path} does not exist; give the path of a libmspti.so with --mspti")
    with path.open("rb") as stream:
        if stream.read(4) != b"\x7fELF":
            raise TargetError(f"{path} is not an ELF shared object")
    return path.resolve()


def cache_root() -> Path:
    """Where built workloads and library aliases are kept (``$MSPTI_CONFORMANCE_CACHE`` overrides)."""
    configured = os.environ.get("MSPTI_CONFORMANCE_CACHE", "")
    if configured:
        return Path(configured).expanduser().absolute()
    return Path.home() / ".cache" / "mspti-conformance"


def _alias_dir(library: Path) -> Path:
    """A directory whose ``libmspti.so`` is ``library``, so that ``-lmspti``, the loader search path
    and ``LD_PRELOAD`` all name the library under test by its usual file name."""
    key = hashlib.sha256(str(library).encode()).hexdigest()[:16]
    directory = cache_root() / "alias" / key
    link = directory / "libmspti.so"
    directory.mkdir(parents=True, exist_ok=True)
    if not (link.is_symlink() and os.readlink(link) == str(library)):
        temporary = directory / f".libmspti.so.{os.getpid()}"
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(library)
        os.replace(temporary, link)
    return directory


def _include_dirs(*roots: Path) -> tuple[Path, ...]:
    dirs: list[Path] = []
    for root in roots:
        dirs.append(root)
        if (root / "mspti").is_dir():
            dirs.append(root / "mspti")
    return tuple(dirs)


def _sanitizer() -> tuple[str, str]:
    return os.environ.get("NPU_SIM_TEST_SANITIZE", ""), os.environ.get("NPU_SIM_SANITIZER_PRELOAD", "")


def _sim_config(soc: str | None, devices: int | None) -> SimConfig:
    """The simulator configuration: the caller's environment with our overrides (TargetError, saying
    which option or variable to fix, when it is invalid)."""
    from sim_runtime.config import ConfigError, SimConfig, parse_setting

    try:
        config = SimConfig.from_env()
        changes: dict[str, object] = {"clock": "wall"}
        if soc is not None:
            changes["soc"] = parse_setting("soc", soc, source="--sim")
        if devices is not None:
            changes["devices"] = parse_setting("devices", str(devices), source="--devices")
        return config.replace(**changes)
    except ConfigError as error:
        raise TargetError(str(error)) from None


def _sim_env(soc: str | None, devices: int | None) -> tuple[dict[str, str], str, int]:
    """The simulator configuration variables: the caller's environment with our overrides."""
    config = _sim_config(soc, devices)
    return config.to_env(), config.soc, config.devices


def _cann_target(cann: Path, mspti: Path | None, soc: str | None, devices: int | None) -> Target:
    root = cann.expanduser().resolve()
    if not (root / "lib64").is_dir() or not (root / "include").is_dir():
        raise TargetError(f"{root} does not look like a CANN toolkit (expected include/ and lib64/)")
    library = _check_library(mspti if mspti is not None else root / "lib64" / "libmspti.so")
    lib64 = root / "lib64"
    env = {
        "ASCEND_HOME_PATH": str(root),
        "LD_LIBRARY_PATH": _prepend_path(str(lib64), os.environ.get("LD_LIBRARY_PATH", "")),
    }
    is_sim = (root / TOOLKIT_MANIFEST).is_file()
    sanitize, preload = _sanitizer()
    if is_sim:
        sim_vars, soc_name, count = _sim_env(soc, devices)
        env.update(sim_vars)
        env["MSTX_INJECTION_PATH"] = str(lib64 / "libprofapi.so")
        return _finish(
            "sim",
            library,
            _include_dirs(root / "include"),
            lib64,
            env,
            soc_name,
            count,
            f"npu-sim toolkit {root}",
            sanitize,
            preload,
        )
    return _finish(
        "hardware",
        library,
        _include_dirs(root / "include"),
        lib64,
        env,
        soc,
        devices or _npu_count(),
        f"CANN toolkit {root}",
        sanitize,
        preload,
    )


def _npu_count() -> int:
    """Devices visible on an Ascend host, from /dev/davinciN (1 when none can be seen)."""
    count = sum(1 for entry in Path("/dev").glob("davinci[0-9]*"))
    return max(count, 1)


def _build_tree_target(build: Path, mspti: Path | None, soc: str | None, devices: int | None) -> Target:
    root = build.expanduser().resolve()
    lib64 = root / "lib64"
    if not lib64.is_dir():
        raise TargetError(f"build tree {root} has no lib64/ directory; build it first (ninja -C {root})")
    library = _check_library(mspti if mspti is not None else lib64 / "libmspti.so")
    sim_vars, soc_name, count = _sim_env(soc, devices)
    env = {
        "ASCEND_HOME_PATH": str(root),
        "LD_LIBRARY_PATH": _prepend_path(str(lib64), os.environ.get("LD_LIBRARY_PATH", "")),
        "MSTX_INJECTION_PATH": str(lib64 / "libprofapi.so"),
        **sim_vars,
    }
    includes = _include_dirs(REPO / "csrc" / "sim" / "include", REPO / "csrc" / "mspti" / "include")
    sanitize, preload = _sanitizer()
    return _finish(
        "sim", library, includes, lib64, env, soc_name, count, f"build tree {root}", sanitize, preload
    )


def _installed_target(mspti: Path | None, soc: str | None, devices: int | None) -> Target:
    from sim_runtime.toolkit import ToolkitError, build_toolkit

    config = _sim_config(soc, devices)
    try:
        toolkit = build_toolkit(mspti)
    except (FileNotFoundError, ToolkitError) as error:
        raise TargetError(str(error)) from None
    env = dict(toolkit.env(config, preload=False))
    env = {k: v for k, v in env.items() if k not in ("ASCEND_CFLAGS", "ASCEND_LDFLAGS")}
    sanitize, preload = _sanitizer()
    return _finish(
        "sim",
        toolkit.mspti,
        _include_dirs(toolkit.include),
        toolkit.lib64,
        env,
        config.soc,
        config.devices,
        f"npu-sim toolkit {toolkit.ascend_home}",
        sanitize,
        preload,
    )


def _finish(
    kind: str,
    library: Path,
    includes: tuple[Path, ...],
    lib64: Path,
    env: dict[str, str],
    soc: str | None,
    devices: int,
    description: str,
    sanitize: str,
    preload: str,
) -> Target:
    alias = _alias_dir(library)
    env["LD_LIBRARY_PATH"] = _prepend_path(str(alias), env.get("LD_LIBRARY_PATH", ""))
    return Target(
        kind, library, alias, includes, (alias, lib64), env, soc, devices, description, sanitize, preload
    )


def resolve_target(
    *,
    mspti: Path | None = None,
    cann: Path | None = None,
    soc: str | None = None,
    build_dir: Path | None = None,
    devices: int | None = None,
) -> Target:
    """Choose the target from the options (see the module docstring for the order)."""
    if cann is not None:
        return _cann_target(cann, mspti, soc, devices)
    build = build_dir or (
        Path(os.environ["NPU_SIM_BUILD_DIR"]) if os.environ.get("NPU_SIM_BUILD_DIR") else None
    )
    if build is not None:
        return _build_tree_target(build, mspti, soc, devices)
    return _installed_target(mspti, soc, devices)
