"""Typed access to the simulated SoC catalogue (``data/socs.toml``).

The catalogue holds one self-contained table per SoC name that ``aclrtGetSocName`` can return, the
interconnect topologies the collective cost model uses, and the simulator's defaults. The simulator's
C++ core reads the same file; this module is the Python view of it and the reference for its
validation rules: every SoC and topology table must carry exactly the documented keys with the
documented types, and every SoC must name an existing topology.
"""

from __future__ import annotations

import difflib
import math
import sys
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any, NoReturn, get_type_hints

from sim_runtime.toml_values import toml_type

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

__all__ = [
    "CHIP_TYPES",
    "CLOCK_MODES",
    "DEFAULT_CATALOGUE_PATH",
    "FAMILY_CHIP_TYPE",
    "HD_CONNECT_TYPES",
    "TOPOLOGY_KINDS",
    "Catalogue",
    "CatalogueError",
    "SimDefaults",
    "SocSpec",
    "Topology",
    "UnknownSocError",
    "catalogue_from_mapping",
    "default_catalogue",
    "load_catalogue",
]

DEFAULT_CATALOGUE_PATH = Path(__file__).resolve().parent / "data" / "socs.toml"

#: Chip type reported for each SoC family (910B and 910_93 share chip type 5).
FAMILY_CHIP_TYPE: Mapping[str, int] = types.MappingProxyType({"A2": 5, "A3": 5, "950": 15, "310B": 7})
CHIP_TYPES = frozenset(FAMILY_CHIP_TYPE.values())
#: ACL_HOST_DEVICE_CONNECT_TYPE_* values.
HD_CONNECT_TYPES: Mapping[int, str] = types.MappingProxyType({0: "PCIe", 1: "HCCS", 2: "UB"})
TOPOLOGY_KINDS = frozenset({"mesh", "sio_mesh", "ub", "single"})
CLOCK_MODES = frozenset({"wall", "virtual"})


class CatalogueError(ValueError):
    """The catalogue file is malformed: a table or key is missing, unexpected or has a bad value.

    ``section`` is the offending table (for example ``soc.Ascend910B3``) and ``key`` the offending
    key, where the error concerns one.
    """

    def __init__(self, message: str, *, section: str | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.section = section
        self.key = key


class UnknownSocError(ValueError):
    """A SoC name that the catalogue does not hold; the message lists the valid names."""

    def __init__(self, name: str, choices: tuple[str, ...]) -> None:
        self.name = name
        self.choices = choices
        close = [c for c in choices if c.lower() == name.lower()] or difflib.get_close_matches(
            name, choices, n=3, cutoff=0.8
        )
        hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
        super().__init__(f"unknown SoC {name!r}{hint}; valid choices: {', '.join(choices)}")


@dataclass(frozen=True)
class SocSpec:
    """One simulated SoC. Units: MHz, GiB, MiB, GB/s, ns; FLOPs per cycle per core."""

    name: str
    chip_type: int
    family: str
    aic: int
    aiv: int
    aicpu: int
    cube_mhz: int
    memory_gib: int
    l2_mib: int
    cube_flops_per_cycle: int
    vector_flops_per_cycle: int
    hbm_gbps: float
    hbm_peak_gbps: float
    host_link_gbps: float
    hd_connect_type: int
    host_api_ns: int
    launch_latency_ns: int
    task_gap_ns: int
    task_overhead_ns: int
    sync_wake_ns: int
    memcpy_fixed_ns: int
    event_task_ns: int
    devices_per_server: int
    topology: str
    dev_osc_khz: int
    source: str

    @property
    def fp16_tflops(self) -> float:
        """Peak FP16/BF16 cube throughput of the whole chip, TFLOPS."""
        return self.aic * self.cube_flops_per_cycle * self.cube_mhz * 1e6 / 1e12

    @property
    def vector_fp16_tflops(self) -> float:
        """Peak FP16 vector throughput of the whole chip, TFLOPS (vector cores run at the cube clock)."""
        return self.aiv * self.vector_flops_per_cycle * self.cube_mhz * 1e6 / 1e12

    @property
    def chip_version(self) -> int:
        """The value halGetDeviceInfo reports for the chip version: chip type in bits 8 and up."""
        return self.chip_type << 8

    @property
    def memory_bytes(self) -> int:
        return self.memory_gib << 30

    @property
    def l2_bytes(self) -> int:
        return self.l2_mib << 20


@dataclass(frozen=True)
class Topology:
    """Interconnect figures for the alpha-beta-gamma collective cost model. Units: ns and GB/s."""

    name: str
    kind: str
    ranks_per_server: int
    alpha_ns: int
    link_gbps: float
    aggregate_gbps: float
    sio_alpha_ns: int
    sio_gbps: float
    scaleout_alpha_ns: int
    scaleout_gbps: float
    reduce_gbps: float
    source: str


@dataclass(frozen=True)
class SimDefaults:
    """Simulator settings used when the configuration does not give them."""

    soc: str
    devices: int
    clock: str
    seed: int
    jitter_pct: float


@dataclass(frozen=True)
class Catalogue:
    """The loaded catalogue. ``socs`` and ``topologies`` keep the file's order and are read-only."""

    socs: Mapping[str, SocSpec]
    topologies: Mapping[str, Topology]
    defaults: SimDefaults
    origin: str = "<catalogue>"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.socs)

    def get(self, name: str) -> SocSpec:
        """The SoC called ``name`` (exact, case-sensitive like aclrtGetSocName)."""
        try:
            return self.socs[name]
        except KeyError:
            raise UnknownSocError(name, self.names) from None

    def topology_of(self, soc: SocSpec | str) -> Topology:
        spec = self.get(soc) if isinstance(soc, str) else soc
        return self.topologies[spec.topology]

    @property
    def default_soc(self) -> SocSpec:
        return self.get(self.defaults.soc)


# ---------------------------------------------------------------------------------------------------
# Loading and validation


def _field_types(cls: type) -> dict[str, type]:
    """Key name -> scalar type for every field of ``cls`` except the table's own ``name``."""
    hints = get_type_hints(cls)
    return {f.name: hints[f.name] for f in fields(cls) if f.name != "name"}


def _section_label(prefix: str, name: str | None = None) -> str:
    if name is None:
        return prefix
    bare = name != "" and all(c.isascii() and (c.isalnum() or c == "_") for c in name)
    return f"{prefix}.{name}" if bare else f'{prefix}."{name}"'


_TYPE_WORDS = {int: "integer", float: "float", str: "string", bool: "boolean"}


def _typed_value(value: object, expected: type, fail: Callable[[str], NoReturn]) -> object:
    """``value`` checked against ``expected``; integers are accepted (and widened) for floats."""
    if expected is bool:
        ok = isinstance(value, bool)
    elif expected is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif expected is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if ok:
            value = float(value)  # type: ignore[arg-type]
            if not math.isfinite(value):
                fail(f"must be a finite number, got {value}")
    elif expected is str:
        ok = isinstance(value, str)
    else:  # pragma: no cover - only the four TOML scalar types are used
        raise TypeError(expected)
    if not ok:
        fail(f"expected {_TYPE_WORDS[expected]}, got {toml_type(value)} ({value!r})")
    return value


def _read_table(table: object, spec: Mapping[str, type], origin: str, section: str) -> dict[str, object]:
    """Check that ``table`` has exactly the keys of ``spec`` with the right types; return the values."""
    if not isinstance(table, dict):
        raise CatalogueError(
            f"{origin}: [{section}] must be a table, got {toml_type(table)}", section=section
        )
    missing = [k for k in spec if k not in table]
    if missing:
        raise CatalogueError(
            f"{origin}: [{section}] is missing key{'s' if len(missing) > 1 else ''} "
            + ", ".join(repr(k) for k in missing),
            section=section,
            key=missing[0],
        )
    extra = [k for k in table if k not in spec]
    if extra:
        raise CatalogueError(
            f"{origin}: [{section}] has unknown key{'s' if len(extra) > 1 else ''} "
            + ", ".join(repr(k) for k in extra)
            + f"; allowed keys: {', '.join(spec)}",
            section=section,
            key=extra[0],
        )
    values: dict[str, object] = {}
    for key, expected in spec.items():

        def fail(problem: str, key: str = key) -> NoReturn:
            raise CatalogueError(f"{origin}: [{section}] key {key!r}: {problem}", section=section, key=key)

        values[key] = _typed_value(table[key], expected, fail)
    return values


class _Checker:
    """Range checks on one table's already typed values."""

    def __init__(self, values: Mapping[str, Any], origin: str, section: str) -> None:
        self.values = values
        self.origin = origin
        self.section = section

    def fail(self, key: str, problem: str) -> NoReturn:
        raise CatalogueError(
            f"{self.origin}: [{self.section}] key {key!r}: {problem}", section=self.section, key=key
        )

    def positive(self, *keys: str) -> None:
        for key in keys:
            if not self.values[key] > 0:
                self.fail(key, f"must be greater than 0, got {self.values[key]}")

    def non_negative(self, *keys: str) -> None:
        for key in keys:
            if self.values[key] < 0:
                self.fail(key, f"must not be negative, got {self.values[key]}")

    def one_of(self, key: str, allowed: Any) -> None:
        if self.values[key] not in allowed:
            choices = ", ".join(repr(a) for a in sorted(allowed, key=str))
            self.fail(key, f"must be one of {choices}, got {self.values[key]!r}")

    def non_empty(self, *keys: str) -> None:
        for key in keys:
            if not str(self.values[key]).strip():
                self.fail(key, "must not be empty")


_SOC_KEYS = _field_types(SocSpec)
_TOPOLOGY_KEYS = _field_types(Topology)
_DEFAULTS_KEYS = _field_types(SimDefaults)
_NS_KEYS = tuple(k for k in _SOC_KEYS if k.endswith("_ns"))


def _soc(name: str, table: object, origin: str) -> SocSpec:
    section = _section_label("soc", name)
    values = _read_table(table, _SOC_KEYS, origin, section)
    check = _Checker(values, origin, section)
    check.one_of("family", FAMILY_CHIP_TYPE)
    check.one_of("chip_type", CHIP_TYPES)
    if values["chip_type"] != FAMILY_CHIP_TYPE[str(values["family"])]:
        check.fail(
            "chip_type",
            f"family {values['family']!r} has chip type {FAMILY_CHIP_TYPE[str(values['family'])]}, "
            f"got {values['chip_type']}",
        )
    check.positive("aic", "aiv", "cube_mhz", "memory_gib", "l2_mib", "cube_flops_per_cycle")
    check.positive("vector_flops_per_cycle", "hbm_gbps", "hbm_peak_gbps", "host_link_gbps")
    check.positive("devices_per_server", "dev_osc_khz")
    check.non_negative("aicpu", *_NS_KEYS)
    if values["hbm_gbps"] > values["hbm_peak_gbps"]:
        check.fail("hbm_gbps", f"achievable bandwidth {values['hbm_gbps']} exceeds hbm_peak_gbps")
    check.one_of("hd_connect_type", HD_CONNECT_TYPES)
    check.non_empty("topology", "source")
    return SocSpec(name=name, **values)


def _topology(name: str, table: object, origin: str) -> Topology:
    section = _section_label("topology", name)
    values = _read_table(table, _TOPOLOGY_KEYS, origin, section)
    check = _Checker(values, origin, section)
    check.one_of("kind", TOPOLOGY_KINDS)
    check.positive("ranks_per_server", "reduce_gbps")
    check.non_negative(*(k for k in _TOPOLOGY_KEYS if k.endswith(("_ns", "_gbps"))))
    kind = values["kind"]
    if kind == "single":
        if values["ranks_per_server"] != 1:
            check.fail(
                "ranks_per_server",
                f"a 'single' topology has 1 rank per server, got {values['ranks_per_server']}",
            )
    else:
        check.positive("link_gbps")
        if values["aggregate_gbps"] < values["link_gbps"]:
            check.fail("aggregate_gbps", f"must be at least link_gbps ({values['link_gbps']})")
    if kind == "sio_mesh":
        check.positive("sio_gbps")
    check.non_empty("source")
    return Topology(name=name, **values)


def _defaults(table: object, origin: str) -> SimDefaults:
    values = _read_table(table, _DEFAULTS_KEYS, origin, "defaults")
    check = _Checker(values, origin, "defaults")
    check.positive("devices")
    check.non_negative("seed", "jitter_pct")
    if values["jitter_pct"] >= 100:
        check.fail("jitter_pct", f"must be below 100, got {values['jitter_pct']}")
    check.one_of("clock", CLOCK_MODES)
    return SimDefaults(**values)


def _named_tables(data: Mapping[str, object], prefix: str, origin: str) -> dict[str, object]:
    tables = data.get(prefix)
    if not isinstance(tables, dict):
        raise CatalogueError(f"{origin}: [{prefix}.<name>] tables must be tables", section=prefix)
    if not tables:
        raise CatalogueError(f"{origin}: no [{prefix}.<name>] tables", section=prefix)
    return tables


def catalogue_from_mapping(data: Mapping[str, object], origin: str = "<catalogue>") -> Catalogue:
    """Validate a parsed catalogue (the dictionary tomllib returns) and build a :class:`Catalogue`.

    Raises :class:`CatalogueError` naming the table and key of the first problem found.
    """
    expected = ("defaults", "soc", "topology")
    missing = [k for k in expected if k not in data]
    if missing:
        raise CatalogueError(f"{origin}: missing [{missing[0]}] table(s)", section=missing[0])
    extra = [k for k in data if k not in expected]
    if extra:
        raise CatalogueError(
            f"{origin}: unknown top-level table or key {extra[0]!r}; allowed: {', '.join(expected)}",
            section=extra[0],
        )

    topologies = {
        name: _topology(name, table, origin)
        for name, table in _named_tables(data, "topology", origin).items()
    }
    socs = {name: _soc(name, table, origin) for name, table in _named_tables(data, "soc", origin).items()}
    for soc in socs.values():
        if soc.topology not in topologies:
            section = _section_label("soc", soc.name)
            raise CatalogueError(
                f"{origin}: [{section}] key 'topology': no [topology.{soc.topology}] table; "
                f"defined topologies: {', '.join(topologies)}",
                section=section,
                key="topology",
            )
    defaults = _defaults(data["defaults"], origin)
    if defaults.soc not in socs:
        raise CatalogueError(
            f"{origin}: [defaults] key 'soc': {defaults.soc!r} is not a SoC of this catalogue",
            section="defaults",
            key="soc",
        )
    return Catalogue(
        socs=types.MappingProxyType(socs),
        topologies=types.MappingProxyType(topologies),
        defaults=defaults,
        origin=origin,
    )


def load_catalogue(path: Path | str | None = None) -> Catalogue:
    """Load and validate a catalogue file (default: the ``data/socs.toml`` shipped with the simulator).

    Raises :class:`CatalogueError` for a file that is not valid TOML or breaks a catalogue rule, and
    ``OSError`` when the file cannot be read.
    """
    file = Path(path) if path is not None else DEFAULT_CATALOGUE_PATH
    with file.open("rb") as fh:
        try:
            data = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise CatalogueError(f"{file}: not valid TOML: {exc}") from exc
    return catalogue_from_mapping(data, origin=str(file))


@cache
def default_catalogue() -> Catalogue:
    """The shipped catalogue, loaded once per process."""
    return load_catalogue()
