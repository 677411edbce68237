"""``npu-sim trace``: the simulator's launcher of the ``mspti_trace`` commands.

Capture runs the program on the simulated NPU with our libmspti.so (or ``--mspti``) and records the
simulated SoC's properties in the capture's run.json, so that the exporters, which know no device
catalogue, can name them; every other command (export, breakdown, validate, report) is
``mspti-trace``'s own.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from mspti_trace.capture import CaptureResult
from mspti_trace.capture import capture as run_capture
from mspti_trace.cli import Launcher
from mspti_trace.cli import main as trace_main
from sim_runtime.config import CONFIG_VAR, SimConfig, config_with_options
from sim_runtime.soc import default_catalogue
from sim_runtime.toolkit import build_toolkit

__all__ = ["SIMULATOR", "capture", "device_properties", "main", "run_info"]

#: The simulator's settings ``npu-sim trace`` takes, as ``npu-sim run`` does.
SETTINGS = (("soc", "NAME"), ("devices", "N"), ("clock", "wall|virtual"), ("seed", "N"), ("faults", "SPEC"))


def device_properties(soc: str) -> dict[str, object]:
    """The SoC catalogue's entry in Kineto's ``deviceProperties`` vocabulary (ValueError when the
    catalogue has no such SoC)."""
    spec = default_catalogue().get(soc)
    return {
        "name": soc,
        "totalGlobalMem": spec.memory_bytes,
        "chipType": spec.chip_type,
        "family": spec.family,
        "aicCores": spec.aic,
        "aivCores": spec.aiv,
        "aicpuCores": spec.aicpu,
        "clockRateMHz": spec.cube_mhz,
        "l2CacheBytes": spec.l2_bytes,
        "hbmBandwidthGBps": spec.hbm_gbps,
    }


def run_info(config: SimConfig) -> dict[str, object]:
    """What a capture's run.json records of the simulated machine."""
    return {"soc": config.soc, "device_properties": device_properties(config.soc)}


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mspti", type=Path, metavar="PATH", help="libmspti.so to preload (default: ours)")
    for name, meta in SETTINGS:
        parser.add_argument(f"--{name}", metavar=meta, help=f"simulator {name} (as for npu-sim run)")
    parser.add_argument("--config", type=Path, metavar="FILE", help="TOML config file")


def _environment(args: argparse.Namespace) -> tuple[dict[str, str], Mapping[str, object]]:
    environ = dict(os.environ)
    if args.config is not None:
        environ[CONFIG_VAR] = str(args.config)
    config = config_with_options(args.config, {name: getattr(args, name) for name, _ in SETTINGS}, os.environ)
    environ.update(build_toolkit(args.mspti).env(config, preload=True, environ=os.environ))
    return environ, run_info(config)


SIMULATOR = Launcher(
    prog="npu-sim trace",
    description="Run PROGRAM on the simulated NPU with libmspti.so and the trace collector preloaded",
    add_options=_options,
    environment=_environment,
    default_output=Path("npu-sim-trace"),
)


def capture(
    program: Sequence[str],
    out_dir: Path | str,
    *,
    kinds: Sequence[str] | None = None,
    environ: Mapping[str, str] | None = None,
    collector: Path | None = None,
    timeout: float | None = None,
) -> CaptureResult:
    """:func:`mspti_trace.capture` on the simulator: ``environ`` defaults to the toolkit's, as
    ``npu-sim run`` sets it up from the NPU_SIM_* variables, and run.json records the SoC."""
    config = SimConfig.from_env(environ if environ is not None else os.environ)
    if environ is None:
        base = dict(os.environ)
        base.update(build_toolkit(None).env(config, preload=True, environ=os.environ))
    else:
        base = dict(environ)
    return run_capture(
        program,
        out_dir,
        kinds=kinds,
        environ=base,
        collector=collector,
        timeout=timeout,
        run_info=run_info(config),
    )


def main(argv: Sequence[str]) -> int:
    return trace_main(argv, SIMULATOR)
