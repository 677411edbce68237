"""The operator registry of the simulated libopapi (``npu-sim ops``): every aclnn operator and aclop
type the simulator runs, with its family, kernel and data types, read from the library itself
(``npusim_opapi_registry``, csrc/sim/opapi/registry.h) so that the list cannot drift from the code."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

from sim_runtime.paths import sim_tree

__all__ = ["Operator", "registered_operators"]


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
