"""The CANN toolkit layout programs and tools read, and the environment CANN's set_env.sh gives.

The facts live in ``data/toolkit_layout.toml``; this module reads them, computes the variables for a
toolkit root, writes the toolkit's ``set_env.sh`` and checks an installed toolkit against the table
(``npu-sim env --check``).
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

__all__ = [
    "INSTALL_INFO",
    "LAYOUT_PATH",
    "CheckRow",
    "LayoutPath",
    "LayoutVariable",
    "cann_version",
    "check_toolkit",
    "install_info",
    "layout_paths",
    "layout_variables",
    "set_env_script",
    "toolkit_variables",
]

LAYOUT_PATH = Path(__file__).resolve().parent / "data" / "toolkit_layout.toml"
#: The facts of CANN's public headers (tools/cann_manifest), with the release and commits they are from.
CANN_MANIFEST_PATH = Path(__file__).resolve().parent / "data" / "cann_manifest.json"
#: CANN's package record of the toolkit, in its architecture's folder ({arch}: the host's machine name).
INSTALL_INFO = "{arch}-linux/ascend_toolkit_install.info"


@dataclass(frozen=True)
class LayoutPath:
    """A file or folder under the toolkit root that some program or tool reads."""

    path: str
    kind: str
    provided: bool
    read_by: str
    note: str

    @property
    def host_path(self) -> str:
        """The path on this host: ``{arch}`` replaced by its machine name."""
        return _for_host(self.path)


@dataclass(frozen=True)
class LayoutVariable:
    """A variable CANN's set_env.sh sets; ``value`` holds ``{root}`` for the toolkit root."""

    name: str
    value: str
    prepend: bool = False
    note: str = ""

    def for_root(self, root: Path) -> str:
        return self.value.replace("{root}", str(root))


@dataclass(frozen=True)
class CheckRow:
    """One line of ``npu-sim env --check``."""

    entry: str
    status: str
    ok: bool
    detail: str


def _for_host(path: str) -> str:
    """A layout path with ``{arch}`` replaced by this host's machine name (x86_64, aarch64), as CANN
    names its architecture folder."""
    return path.replace("{arch}", platform.machine())


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    with LAYOUT_PATH.open("rb") as stream:
        return tomllib.load(stream)


@lru_cache(maxsize=1)
def _layout() -> tuple[tuple[LayoutPath, ...], tuple[LayoutVariable, ...]]:
    data = _data()
    paths = tuple(LayoutPath(**entry) for entry in data["path"])
    variables = tuple(LayoutVariable(**entry) for entry in data["variable"])
    for entry in paths:
        if entry.kind not in ("file", "dir"):
            raise ValueError(f"{LAYOUT_PATH}: {entry.path}: kind must be 'file' or 'dir', not {entry.kind!r}")
    return paths, variables


def cann_version() -> str:
    """The CANN version the simulated toolkit presents (``cann_version`` of the layout table; the
    build gives libascendcl's aclsysGetCANNVersion the same value)."""
    return str(_data()["cann_version"])


def install_info(root: Path) -> tuple[str, str]:
    """The toolkit's ``<arch>-linux/ascend_toolkit_install.info``: its path under ``root`` and its text,
    CANN's ``key=value`` lines (package_name, version, arch, os, path). CANN's build identifiers
    (innerversion, compatible_version) name builds of Huawei's and are left out."""
    folder = _for_host(INSTALL_INFO).rsplit("/", 1)[0]
    lines = [
        "package_name=Ascend-cann-toolkit",
        f"version={cann_version()}",
        f"arch={platform.machine()}",
        "os=linux",
        f"path={root / folder}",
    ]
    return _for_host(INSTALL_INFO), "\n".join(lines) + "\n"


def layout_paths() -> tuple[LayoutPath, ...]:
    return _layout()[0]


def layout_variables() -> tuple[LayoutVariable, ...]:
    return _layout()[1]


def toolkit_variables(root: Path, environ: Mapping[str, str]) -> dict[str, str]:
    """The variables for ``root``: list variables get the toolkit's entry in front of ``environ``'s."""
    result: dict[str, str] = {}
    for variable in layout_variables():
        value = variable.for_root(root)
        if variable.prepend:
            value = prepend_entry(value, environ.get(variable.name, ""))
        result[variable.name] = value
    return result


def prepend_entry(entry: str, existing: str) -> str:
    """``entry`` followed by the ``:``-separated entries of ``existing`` except itself and empty ones."""
    rest = [part for part in existing.split(":") if part and part != entry]
    return ":".join([entry, *rest])


def msprof_script(python: str) -> str:
    """The toolkit's ``bin/msprof``: the ``msprof`` command of ``sim_runtime.msprof`` run by the
    Python that built the toolkit (the one with the simulator installed)."""
    return (
        "\n".join(
            [
                "#!/bin/sh",
                "# The simulated toolkit's msprof (sim_runtime.msprof; docs/msprof.md).",
                f'exec {shlex.quote(python)} -m sim_runtime.msprof "$@"',
            ]
        )
        + "\n"
    )


def set_env_script(root: Path, depth: int = 0) -> str:
    """The toolkit's ``set_env.sh``: sourced by sh-compatible shells, as CANN's is.

    The root is, under bash, the script's own folder (``depth`` folders up: 1 for ``bin/setenv.bash``),
    so a moved toolkit still works, and the folder it was written for elsewhere.
    """
    up = "/.." * depth
    lines = [
        "# Environment of this simulated CANN toolkit, as CANN's set_env.sh sets it.",
        "# Use: source <toolkit>/set_env.sh",
        f"_npu_sim_root={shlex.quote(str(root))}",
        'if [ -n "${BASH_VERSION:-}" ] && [ -n "${BASH_SOURCE:-}" ]; then',
        f'    _npu_sim_root="$(cd "$(dirname "${{BASH_SOURCE}}"){up}" && pwd)"',
        "fi",
    ]
    for variable in layout_variables():
        value = variable.value.replace("{root}", "${_npu_sim_root}")
        if variable.prepend:
            name = variable.name
            lines.append(f'export {name}="{value}${{{name}:+:${{{name}}}}}"')
        else:
            lines.append(f'export {variable.name}="{value}"')
    lines.append("unset _npu_sim_root")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class CannRepository:
    name: str
    commit: str
    version: str  # the component's package version in that commit ("" when it names none)


@dataclass(frozen=True)
class CannRelease:
    """The CANN release whose public headers the toolkit mirrors: one commit per public repository."""

    name: str
    repositories: tuple[CannRepository, ...]


@lru_cache(maxsize=1)
def cann_release() -> CannRelease:
    data = json.loads(CANN_MANIFEST_PATH.read_text())
    repos = tuple(CannRepository(r["name"], r["commit"], r["version"]) for r in data["repositories"])
    return CannRelease(data["release"], repos)


def check_toolkit(root: Path, environ: Mapping[str, str] | None = None) -> list[CheckRow]:
    """Every layout path and variable with its state for the toolkit at ``root``.

    A path the toolkit should provide is ``ok`` when it exists with the right kind; one it does not
    provide is listed as such and is not a failure. A variable is compared with the value in
    ``environ`` (``os.environ`` by default): a mismatch is reported but is not a failure, since the
    shell may simply not have sourced set_env.sh.
    """
    env = os.environ if environ is None else environ
    rows: list[CheckRow] = []
    for entry in layout_paths():
        target = root / entry.host_path
        present = target.is_dir() if entry.kind == "dir" else target.is_file()
        if not entry.provided:
            status = "present" if present else "not provided"
            rows.append(CheckRow(entry.host_path, status, True, entry.note))
        elif present:
            rows.append(CheckRow(entry.host_path, "present", True, entry.read_by))
        else:
            rows.append(
                CheckRow(
                    entry.host_path, "MISSING", False, f"expected a {entry.kind}; read by {entry.read_by}"
                )
            )
    for variable in layout_variables():
        expected = variable.for_root(root)
        current = env.get(variable.name, "")
        in_shell = current.split(":")[0] == expected if variable.prepend else current == expected
        status = "set" if in_shell else ("unset here" if not current else "differs here")
        detail = f"{expected}{':...' if variable.prepend else ''}"
        if variable.note:
            detail += f" ({variable.note})"
        rows.append(CheckRow(f"${variable.name}", status, True, detail))
    return rows
