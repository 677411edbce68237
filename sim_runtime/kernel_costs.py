"""Kernel cost table: how long a kernel launched from an opaque binary takes, chosen by its name.

The table (``data/kernel_costs.toml`` by default) is an ordered list of ``[[kernel]]`` entries. A
kernel name is matched against each entry's fnmatch-style ``pattern`` with ASCII letters compared
case-insensitively, and the first matching entry gives either a fixed device time (``duration_ns``)
or roofline inputs (``flops`` and ``bytes``, optionally per block). A table whose last pattern is not
the catch-all ``*`` gets one appended (:data:`FALLBACK_DURATION_NS`), so every name has a cost. The
simulator's C++ core reads the same file with the same matching and defaults; this loader is
stricter in that it also rejects unknown keys and wrongly typed optional keys.
"""

from __future__ import annotations

import fnmatch
import math
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import NoReturn

from sim_runtime.toml_values import toml_type

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

__all__ = [
    "CORE_TYPES",
    "DEFAULT_KERNEL_COSTS_PATH",
    "FALLBACK_DURATION_NS",
    "KernelCost",
    "KernelCostError",
    "KernelCostTable",
    "kernel_costs_from_mapping",
    "load_kernel_costs",
]

DEFAULT_KERNEL_COSTS_PATH = Path(__file__).resolve().parent / "data" / "kernel_costs.toml"

#: Allowed values of ``core``: "inherit" assumes nothing, the others name the core type to assume.
CORE_TYPES = ("inherit", "AIC", "AIV", "MIX", "AICPU")

#: Device time of the catch-all entry appended to a table that does not end with pattern "*".
FALLBACK_DURATION_NS = 3000

_KEYS = ("pattern", "duration_ns", "flops", "bytes", "per_block", "core")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _fold(text: str) -> str:
    """Lower-case ASCII letters only, as a C ``tolower`` in the "C" locale does."""
    return text.translate(_ASCII_LOWER)


class KernelCostError(ValueError):
    """A malformed kernel cost table. ``index`` is the 0-based ``[[kernel]]`` entry at fault, if any."""

    def __init__(self, message: str, *, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True)
class KernelCost:
    """One ``[[kernel]]`` entry. Exactly one of ``duration_ns`` and (``flops``, ``bytes``) is set."""

    index: int
    pattern: str
    duration_ns: int | None
    flops: float | None
    bytes: float | None
    per_block: bool
    core: str

    @cached_property
    def _regex(self) -> re.Pattern[str]:
        return re.compile(fnmatch.translate(_fold(self.pattern)))

    @property
    def is_fixed(self) -> bool:
        """True when the entry gives a fixed duration rather than roofline inputs."""
        return self.duration_ns is not None

    @property
    def is_catch_all(self) -> bool:
        """True for a pattern of stars only, which matches every name."""
        return set(self.pattern) == {"*"}

    def matches(self, kernel_name: str) -> bool:
        return self._regex.match(_fold(kernel_name)) is not None

    def work(self, block_dim: int) -> tuple[float, float]:
        """Total (FLOPs, bytes) of a launch with ``block_dim`` blocks; only for roofline entries."""
        if self.flops is None or self.bytes is None:
            raise ValueError(f"kernel cost {self.pattern!r} gives a fixed duration, not flops and bytes")
        if block_dim < 1:
            raise ValueError(f"block_dim must be at least 1, got {block_dim}")
        scale = block_dim if self.per_block else 1
        return self.flops * scale, self.bytes * scale


@dataclass(frozen=True)
class KernelCostTable:
    """The ordered entries of a kernel cost table; the last one is always the catch-all ``*``."""

    entries: tuple[KernelCost, ...]
    origin: str = "<kernel costs>"

    def lookup(self, kernel_name: str) -> KernelCost:
        """The first entry whose pattern matches ``kernel_name`` (ASCII case-insensitive)."""
        for entry in self.entries:
            if entry.matches(kernel_name):
                return entry
        # Unreachable for a validated table, whose last entry matches every name.
        raise LookupError(f"{self.origin}: no kernel cost entry matches {kernel_name!r}")

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[KernelCost]:
        return iter(self.entries)


def _entry(index: int, raw: object, origin: str) -> KernelCost:
    label = f"kernel[{index}]"
    if isinstance(raw, dict) and isinstance(raw.get("pattern"), str):
        label += f" (pattern {raw['pattern']!r})"

    def fail(problem: str) -> NoReturn:
        raise KernelCostError(f"{origin}: {label}: {problem}", index=index)

    if not isinstance(raw, dict):
        fail(f"must be a [[kernel]] table, got {toml_type(raw)}")
    unknown = [k for k in raw if k not in _KEYS]
    if unknown:
        fail(f"unknown key {unknown[0]!r}; allowed keys: {', '.join(_KEYS)}")

    pattern = raw.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        shown = "nothing" if pattern is None else f"{toml_type(pattern)} ({pattern!r})"
        fail(f"'pattern' must be a non-empty string, got {shown}")
    per_block = raw.get("per_block", False)
    if not isinstance(per_block, bool):
        fail(f"'per_block' must be true or false, got {toml_type(per_block)} ({per_block!r})")
    core = raw.get("core", "inherit")
    if core not in CORE_TYPES:
        fail(f"'core' must be one of {', '.join(repr(c) for c in CORE_TYPES)}, got {core!r}")

    has_duration = "duration_ns" in raw
    has_roofline = "flops" in raw or "bytes" in raw
    if has_duration and has_roofline:
        fail("give either duration_ns or flops + bytes, not both")
    if not has_duration and not has_roofline:
        fail("give either duration_ns (fixed time) or flops + bytes (roofline inputs)")
    if has_duration:
        duration_ns = raw["duration_ns"]
        if not isinstance(duration_ns, int) or isinstance(duration_ns, bool):
            fail(f"'duration_ns' must be an integer, got {toml_type(duration_ns)} ({duration_ns!r})")
        if duration_ns <= 0:
            fail(f"'duration_ns' must be greater than 0, got {duration_ns}")
        return KernelCost(index, pattern, duration_ns, None, None, per_block, core)

    for key, other in (("flops", "bytes"), ("bytes", "flops")):
        if key not in raw:
            fail(f"{other!r} is given without {key!r}; roofline entries need both flops and bytes")
    work: list[float] = []
    for key in ("flops", "bytes"):
        value = raw[key]
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            fail(f"{key!r} must be a number, got {toml_type(value)} ({value!r})")
        if not math.isfinite(value) or value < 0:
            fail(f"{key!r} must be a finite number >= 0, got {value}")
        work.append(float(value))
    return KernelCost(index, pattern, None, work[0], work[1], per_block, core)


def kernel_costs_from_mapping(data: Mapping[str, object], origin: str = "<kernel costs>") -> KernelCostTable:
    """Validate a parsed kernel cost table (the dictionary tomllib returns) and build the table.

    Raises :class:`KernelCostError` naming the entry index and what to change. When the last entry's
    pattern is not ``*``, a catch-all entry of :data:`FALLBACK_DURATION_NS` is appended.
    """
    extra = [k for k in data if k != "kernel"]
    if extra:
        raise KernelCostError(
            f"{origin}: unknown top-level key or table {extra[0]!r}; the file holds only [[kernel]] entries"
        )
    raw_entries = data.get("kernel")
    if not isinstance(raw_entries, list) or not raw_entries:
        raise KernelCostError(f"{origin}: no [[kernel]] entries")
    entries = [_entry(i, raw, origin) for i, raw in enumerate(raw_entries)]
    if entries[-1].pattern != "*":
        entries.append(KernelCost(len(entries), "*", FALLBACK_DURATION_NS, None, None, False, "inherit"))
    return KernelCostTable(entries=tuple(entries), origin=origin)


def load_kernel_costs(path: Path | str | None = None) -> KernelCostTable:
    """Load and validate a kernel cost table (default: the ``data/kernel_costs.toml`` shipped here).

    Raises :class:`KernelCostError` for a file that is not valid TOML or breaks a table rule, and
    ``OSError`` when the file cannot be read.
    """
    file = Path(path) if path is not None else DEFAULT_KERNEL_COSTS_PATH
    with file.open("rb") as fh:
        try:
            data = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise KernelCostError(f"{file}: not valid TOML: {exc}") from exc
    return kernel_costs_from_mapping(data, origin=str(file))
