"""The operator registry of the simulated libopapi (``npu-sim ops``): every aclnn operator and aclop
type the simulator runs, with its family, kernel and data types, read from the library itself
(``npusim_opapi_registry``, csrc/sim/opapi/registry.h) so that the list cannot drift from the code."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

from sim_runtime.paths import sim_tree

__all__ = [
    "Coverage",
    "OpPluginList",
    "Operator",
    "op_plugin_operators",
    "operator_coverage",
    "registered_operators",
]

OP_PLUGIN_FILE = Path(__file__).resolve().parent / "data" / "op_plugin_aclnn.txt"


@dataclass(frozen=True)
class Operator:
    name: str  # "aclnnAdd", or an aclop type such as "Fill"
    path: str  # "aclnn" or "aclop"
    family: str  # the shared primitive it is built from ("binary", "foreach", ...) or its kind
    kernel: str  # the kernel type it launches
    dtypes: tuple[str, ...]


def _parse(text: str) -> list[Operator]:
    operators = []
    for line in text.splitlines():
        name, path, family, kernel, dtypes = line.split(" ")
        operators.append(Operator(name, path, family, kernel, tuple(dtypes.split(","))))
    return operators


def registered_operators(libopapi: Path | None = None) -> list[Operator]:
    """The registry of ``libopapi`` (default: the simulator's), sorted by name."""
    path = libopapi or sim_tree().library("libopapi.so")
    library = ctypes.CDLL(str(path))  # OSError when it is not a loadable library
    try:
        registry = library.npusim_opapi_registry
    except AttributeError:
        raise OSError(f"{path} has no operator registry: not the simulator's libopapi") from None
    registry.restype = ctypes.c_size_t
    registry.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    size = registry(None, 0)
    buffer = ctypes.create_string_buffer(size)
    registry(buffer, size)
    return _parse(buffer.value.decode())


@dataclass(frozen=True)
class OpPluginList:
    """The aclnn operators torch_npu's op-plugin calls, at one commit (data/op_plugin_aclnn.txt,
    written by tools/op_plugin/aclnn_names.py)."""

    repository: str
    commit: str
    names: frozenset[str]


def op_plugin_operators(path: Path = OP_PLUGIN_FILE) -> OpPluginList:
    repository = commit = ""
    names: set[str] = set()
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "repository":
            repository = value
        elif key == "commit":
            commit = value
        else:
            names.add(key)
    return OpPluginList(repository, commit, frozenset(names))


@dataclass(frozen=True)
class Coverage:
    """How many of the aclnn operators op-plugin calls the simulator registers."""

    registered: int  # aclnn operators registered
    called: int  # aclnn operators op-plugin calls
    covered: tuple[str, ...]  # called and registered, sorted
    commit: str  # op-plugin's

    @property
    def percent(self) -> float:
        return 100.0 * len(self.covered) / self.called if self.called else 0.0

    def line(self) -> str:
        """The figure docs/torch_npu.md prints."""
        return (
            f"{len(self.covered)} of the {self.called} aclnn operators op-plugin calls "
            f"(at {self.commit[:7]}) are registered ({self.percent:.1f}%)"
        )


def operator_coverage(operators: list[Operator], called: OpPluginList) -> Coverage:
    aclnn = {op.name for op in operators if op.path == "aclnn"}
    return Coverage(len(aclnn), len(called.names), tuple(sorted(aclnn & called.names)), called.commit)
