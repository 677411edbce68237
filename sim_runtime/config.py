"""Simulator configuration, as a child process sees it through its environment.

Precedence, lowest first: the SoC catalogue defaults, the TOML file named by ``NPU_SIM_CONFIG``,
then the individual ``NPU_SIM_*`` variables. The TOML file has flat keys::

    soc = "Ascend910B3"
    devices = 8
    clock = "virtual"        # wall | virtual
    seed = 42                # 0..2**64-1 (a decimal string is accepted for values above 2**63-1)
    faults = "aclrtMalloc:error=207001@3"
    kernel_costs = "costs.toml"   # relative paths are relative to the TOML file
    log_level = "info"       # debug | info | warn | error | off
    device_logs = "due"      # due | sync: device logs readable once due, or at synchronisations
    timing = "site.toml"     # a site timing profile over timing.toml (`npu-sim calibrate --fit`)

``NPU_SIM_FAULTS``, ``NPU_SIM_KERNEL_COSTS`` and ``NPU_SIM_TIMING`` set to the empty string mean "no
faults", "the built-in cost table" and "the built-in timing table"; ``NPU_SIM_CONFIG`` set to the empty
string means "no file".
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim_runtime import soc as soc_catalogue
from sim_runtime.faults import (
    FaultPlanError,
    FaultRule,
    check_fault_points,
    format_fault_plan,
    parse_fault_plan,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

__all__ = [
    "CLOCKS",
    "CONFIG_VAR",
    "DEFAULT_LOG_LEVEL",
    "DEVICES_MAX",
    "DEVICES_MIN",
    "DEVICE_LOG_RELEASES",
    "ENV_VARS",
    "LOG_LEVELS",
    "SEED_MAX",
    "ConfigError",
    "SimConfig",
    "config_with_options",
    "parse_setting",
]

CONFIG_VAR = "NPU_SIM_CONFIG"
#: SimConfig field -> the variable that carries it.
ENV_VARS: Mapping[str, str] = {
    "soc": "NPU_SIM_SOC",
    "devices": "NPU_SIM_DEVICES",
    "clock": "NPU_SIM_CLOCK",
    "seed": "NPU_SIM_SEED",
    "faults": "NPU_SIM_FAULTS",
    "kernel_costs": "NPU_SIM_KERNEL_COSTS",
    "log_level": "NPU_SIM_LOG_LEVEL",
    "device_logs": "NPU_SIM_DEVICE_LOGS",
    "timing": "NPU_SIM_TIMING",
}
CLOCKS: tuple[str, ...] = ("wall", "virtual")
#: When a device log becomes readable to a profiler: once the clock passed its time, or at the next
#: synchronisation that waited for it (csrc/sim/core/channels.h).
DEVICE_LOG_RELEASES: tuple[str, ...] = ("due", "sync")
LOG_LEVELS: tuple[str, ...] = ("debug", "info", "warn", "error", "off")
DEFAULT_LOG_LEVEL = "warn"
DEVICES_MIN, DEVICES_MAX = 1, 64
SEED_MAX = 2**64 - 1


class ConfigError(ValueError):
    """A configuration value is missing, malformed or out of range; the message says which and why."""


def _invalid(source: str, value: object, expected: str) -> ConfigError:
    return ConfigError(f"{source}: invalid value {value!r}; expected {expected}")


def _check_soc(value: object, source: str) -> str:
    if not isinstance(value, str) or not value:
        raise _invalid(source, value, "a SoC name such as Ascend910B3 (see `npu-sim info`)")
    try:
        soc_catalogue.default_catalogue().get(value)
    except soc_catalogue.UnknownSocError as error:
        raise ConfigError(f"{source}: {error}") from None
    return value


def _check_int(value: object, source: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _invalid(source, value, f"an integer in {low}..{high}")
    return value


_INT_RANGES: Mapping[str, tuple[int, int]] = {"devices": (DEVICES_MIN, DEVICES_MAX), "seed": (0, SEED_MAX)}


def _check_devices(value: object, source: str) -> int:
    return _check_int(value, source, *_INT_RANGES["devices"])


def _check_seed(value: object, source: str) -> int:
    return _check_int(value, source, *_INT_RANGES["seed"])


def _check_choice(value: object, source: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise _invalid(source, value, "one of " + " | ".join(choices))
    assert isinstance(value, str)
    return value


def _check_clock(value: object, source: str) -> str:
    return _check_choice(value, source, CLOCKS)


def _check_log_level(value: object, source: str) -> str:
    return _check_choice(value, source, LOG_LEVELS)


def _check_device_logs(value: object, source: str) -> str:
    return _check_choice(value, source, DEVICE_LOG_RELEASES)


def _check_faults(value: object, source: str) -> tuple[FaultRule, ...]:
    if isinstance(value, str):
        rules = _parse_faults(value, source)
    elif isinstance(value, (tuple, list)) and all(isinstance(rule, FaultRule) for rule in value):
        rules = tuple(value)
    else:
        raise _invalid(source, value, "a fault plan string or a tuple of FaultRule")
    try:
        check_fault_points(rules)  # a rule on a function without a fault point would never act
    except FaultPlanError as error:
        raise ConfigError(f"{source}: {error}") from None
    return rules


def _parse_faults(text: str, source: str) -> tuple[FaultRule, ...]:
    try:
        return parse_fault_plan(text)
    except FaultPlanError as error:
        raise ConfigError(f"{source}: {error}") from None


def _check_data_file(value: object, source: str, what: str, base: Path | None) -> Path | None:
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
        raise _invalid(source, value, f"the path of an existing {what}")
    path = Path(value).expanduser()
    if not path.is_absolute():
        path = (base or Path.cwd()) / path
    if not path.is_file():
        raise ConfigError(f"{source}: {what} {str(path)!r} does not exist; give an existing file")
    return path.resolve()


def _check_kernel_costs(value: object, source: str, base: Path | None = None) -> Path | None:
    return _check_data_file(value, source, "kernel cost file", base)


def _check_timing(value: object, source: str, base: Path | None = None) -> Path | None:
    return _check_data_file(value, source, "timing profile", base)


#: Settings that name a file (relative paths: to the TOML file that names them, or to the working directory).
_PATH_SETTINGS = ("kernel_costs", "timing")

_CHECKS: Mapping[str, Callable[..., Any]] = {
    "soc": _check_soc,
    "devices": _check_devices,
    "clock": _check_clock,
    "seed": _check_seed,
    "faults": _check_faults,
    "kernel_costs": _check_kernel_costs,
    "log_level": _check_log_level,
    "device_logs": _check_device_logs,
    "timing": _check_timing,
}


def parse_setting(name: str, raw: str, *, source: str) -> Any:
    """Convert the text form of setting ``name`` (as in an ``NPU_SIM_*`` variable) and validate it.

    ``source`` names where the text came from (a variable or a command-line option); it starts
    every error message.
    """
    if name not in ENV_VARS:
        raise ConfigError(f"unknown setting {name!r}; expected one of: {', '.join(ENV_VARS)}")
    if name in _INT_RANGES:
        low, high = _INT_RANGES[name]
        text = raw.strip()
        if not (text.isascii() and text.isdigit() and low <= int(text) <= high):
            raise _invalid(source, raw, f"a decimal integer in {low}..{high}")
        return int(text)
    if name in _PATH_SETTINGS:
        return _CHECKS[name](raw or None, source)
    return _CHECKS[name](raw, source)


def _read_toml(path_text: str) -> dict[str, Any]:
    path = Path(path_text).expanduser()
    try:
        with path.open("rb") as stream:
            data = tomllib.load(stream)
    except FileNotFoundError:
        raise ConfigError(f"{CONFIG_VAR}: config file {path_text!r} does not exist") from None
    except OSError as error:
        raise ConfigError(f"{CONFIG_VAR}: cannot read config file {path_text!r}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except UnicodeDecodeError as error:
        byte = error.object[error.start]
        raise ConfigError(
            f"{CONFIG_VAR}: config file {path_text!r} is not UTF-8 text (byte {byte:#04x} at offset "
            f"{error.start}); give a TOML file"
        ) from None
    unknown = sorted(set(data) - set(ENV_VARS))
    if unknown:
        raise ConfigError(
            f"{path}: unknown key(s) {', '.join(unknown)}; expected flat keys: {', '.join(ENV_VARS)}"
        )
    values: dict[str, Any] = {}
    for key, value in data.items():
        source = f"{key} in {path}"
        if key == "seed" and isinstance(value, str):
            values[key] = parse_setting(key, value, source=source)
        elif key in _PATH_SETTINGS:
            if not isinstance(value, str):
                raise _invalid(source, value, "a path string")
            values[key] = _CHECKS[key](value or None, source, base=path.resolve().parent)
        elif key in ("soc", "clock", "faults", "log_level", "device_logs") and not isinstance(value, str):
            raise _invalid(source, value, "a string")
        else:
            values[key] = _CHECKS[key](value, source)
    return values


@dataclass(frozen=True)
class SimConfig:
    """The simulator settings of one process tree.

    Construction validates every field (``faults`` may be given as plan text and ``kernel_costs`` as
    a string; both are normalised). Invalid values raise :class:`ConfigError`.
    """

    soc: str
    devices: int
    clock: str
    seed: int
    faults: tuple[FaultRule, ...] = ()
    kernel_costs: Path | None = None
    log_level: str = DEFAULT_LOG_LEVEL
    device_logs: str = "due"
    timing: Path | None = None

    def __post_init__(self) -> None:
        for name, check in _CHECKS.items():
            object.__setattr__(self, name, check(getattr(self, name), f"SimConfig.{name}"))

    @classmethod
    def defaults(cls) -> SimConfig:
        """The catalogue defaults with no faults, the built-in cost table and the default log level."""
        base = soc_catalogue.default_catalogue().defaults
        return cls(soc=base.soc, devices=base.devices, clock=base.clock, seed=base.seed)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> SimConfig:
        """Defaults, then ``$NPU_SIM_CONFIG`` (TOML), then the ``NPU_SIM_*`` variables."""
        env = os.environ if environ is None else environ
        base = cls.defaults()
        values: dict[str, Any] = {field.name: getattr(base, field.name) for field in dataclasses.fields(cls)}
        config_file = env.get(CONFIG_VAR, "")
        if config_file:
            values.update(_read_toml(config_file))
        for name, variable in ENV_VARS.items():
            if variable in env:
                values[name] = parse_setting(name, env[variable], source=variable)
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """Every ``NPU_SIM_*`` variable, set explicitly, so that a child process sees this config.

        ``NPU_SIM_CONFIG`` is set to the empty string: the values are all explicit already.
        """
        return {
            CONFIG_VAR: "",
            ENV_VARS["soc"]: self.soc,
            ENV_VARS["devices"]: str(self.devices),
            ENV_VARS["clock"]: self.clock,
            ENV_VARS["seed"]: str(self.seed),
            ENV_VARS["faults"]: format_fault_plan(self.faults),
            ENV_VARS["kernel_costs"]: "" if self.kernel_costs is None else str(self.kernel_costs),
            ENV_VARS["log_level"]: self.log_level,
            ENV_VARS["device_logs"]: self.device_logs,
            ENV_VARS["timing"]: "" if self.timing is None else str(self.timing),
        }

    def replace(self, **changes: Any) -> SimConfig:
        """A copy with ``changes`` applied and validated."""
        unknown = sorted(set(changes) - set(ENV_VARS))
        if unknown:
            raise ConfigError(f"unknown setting(s) {', '.join(unknown)}; expected: {', '.join(ENV_VARS)}")
        return dataclasses.replace(self, **changes)


def config_with_options(
    config_file: Path | None, options: Mapping[str, str | None], environ: Mapping[str, str]
) -> SimConfig:
    """The configuration ``npu-sim run`` and ``npu-sim trace`` run with: the environment's (reading
    ``config_file`` as NPU_SIM_CONFIG when given), with each setting given on the command line
    (``options``: setting name -> its ``--NAME`` value, None when not given) in place of its own."""
    env = dict(environ)
    if config_file is not None:
        env[CONFIG_VAR] = str(config_file)
    config = SimConfig.from_env(env)
    changes = {
        name: parse_setting(name, raw, source=f"--{name}") for name, raw in options.items() if raw is not None
    }
    return config.replace(**changes) if changes else config
