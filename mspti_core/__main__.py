"""``python -m mspti_core run [OPTIONS] SCRIPT [ARGS...]``: runs a Python script under msPTI.

The script is re-executed in a fresh interpreter whose environment preloads the msPTI library
(``LD_PRELOAD``), as HcclMonitor and the device-side kinds need, and puts it on a CANN:

* the simulated one by default: the toolkit of ``npu-sim`` (``ASCEND_HOME_PATH``, libraries,
  ``MSTX_INJECTION_PATH``, ``NPU_SIM_*`` settings; ``--soc`` and ``--clock`` override those);
* with ``--cann``, the real CANN named by ``$ASCEND_HOME_PATH`` (Atlas hardware), preloading
  ``--mspti PATH`` or that CANN's own ``lib64/libmspti.so``.

``-m MODULE`` runs a module instead of a script. The exit status is the script's.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from mspti_base.preload import preload_value
from mspti_core.constant import Constant

PROG = "python -m mspti_core"
EXIT_USAGE = 2
#: The entry point group where a simulated CANN offers ``run`` its environment (name ``simulator``).
SIMULATOR_ENTRY_POINTS = "mspti_core.run"


class LaunchError(Exception):
    """A problem with the command line or the environment; the message says what to change."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Run Python programs under msPTI.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = commands.add_parser(
        "run",
        help="run a Python script with msPTI preloaded",
        description="Re-executes SCRIPT (or -m MODULE) with msPTI preloaded, on the simulated NPU "
        "unless --cann is given.",
    )
    run.add_argument(
        "--mspti",
        type=Path,
        metavar="PATH",
        help="libmspti.so to preload (default: this package's; with --cann: the CANN one)",
    )
    run.add_argument("--soc", metavar="NAME", help="SoC to simulate (see `npu-sim info`)")
    run.add_argument("--clock", metavar="wall|virtual", help="simulator clock mode")
    run.add_argument(
        "--cann", action="store_true", help="use the real CANN at $ASCEND_HOME_PATH instead of the simulator"
    )
    run.add_argument("-m", dest="module", metavar="MODULE", help="run a module (like python -m)")
    run.add_argument("script", nargs=argparse.REMAINDER, metavar="SCRIPT [ARGS...]")
    return parser


def _python_path(environ: dict[str, str]) -> str:
    """PYTHONPATH for the child: the directory this mspti_core came from first, then ``environ``'s
    (where the simulator's environment puts the directory sim_runtime came from)."""
    roots = [str(Path(__file__).resolve().parents[1])]
    existing = [p for p in environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    ordered = list(dict.fromkeys([*roots, *existing]))
    return os.pathsep.join(ordered)


def _prepend(entry: str, existing: str) -> str:
    parts = [p for p in existing.replace(" ", ":").split(":") if p and p != entry]
    return ":".join([entry, *parts])


def cann_environment(mspti: Path | None, environ: dict[str, str]) -> dict[str, str]:
    """The environment on the real CANN at $ASCEND_HOME_PATH."""
    home = environ.get("ASCEND_HOME_PATH", "")
    if not home:
        raise LaunchError("--cann needs $ASCEND_HOME_PATH (source the CANN set_env.sh first)")
    library = mspti if mspti is not None else Path(home) / "lib64" / "libmspti.so"
    if not library.is_file():
        raise LaunchError(f"msPTI library {library} does not exist; give one with --mspti PATH")
    library = library.resolve()
    env = dict(environ)
    env["LD_PRELOAD"] = preload_value(environ.get("LD_PRELOAD", ""), first=[str(library)])
    env["LD_LIBRARY_PATH"] = _prepend(str(Path(home) / "lib64"), environ.get("LD_LIBRARY_PATH", ""))
    env[Constant.LIBRARY_ENV] = str(library)
    return env


def simulator_environment(
    mspti: Path | None, soc: str | None, clock: str | None, environ: dict[str, str]
) -> dict[str, str]:
    """The environment on the simulated CANN (the same one `npu-sim run` gives a program).

    The simulator offers it as the entry point ``simulator`` of the group :data:`SIMULATOR_ENTRY_POINTS`
    (``sim_runtime.mspti_run``): this package sits below the simulator's and imports nothing from it
    (docs/architecture.md, "Layers"). The environment raises ``ValueError`` or ``OSError`` with a message
    saying what to change.
    """
    points = metadata.entry_points(group=SIMULATOR_ENTRY_POINTS, name="simulator")
    if not points:
        raise LaunchError("the simulator (sim_runtime) is not installed; use --cann on hardware")
    try:
        environment = next(iter(points)).load()
    except ImportError as error:
        raise LaunchError(
            f"the simulator (sim_runtime) is not installed: {error}; use --cann on hardware"
        ) from error
    try:
        return dict(environment(mspti, soc, clock, environ))
    except (ValueError, OSError) as error:
        raise LaunchError(str(error)) from error


def run(args: argparse.Namespace, environ: dict[str, str]) -> int:
    script = list(args.script)
    if script[:1] == ["--"]:
        script = script[1:]
    if args.module is None and not script:
        raise LaunchError("missing SCRIPT: give the Python script to run (or -m MODULE)")
    if args.cann:
        if args.soc is not None or args.clock is not None:
            raise LaunchError("--soc and --clock configure the simulator; they do not apply with --cann")
        env = cann_environment(args.mspti, environ)
    else:
        env = simulator_environment(args.mspti, args.soc, args.clock, environ)
    env["PYTHONPATH"] = _python_path(env)
    env["LD_PRELOAD"] = preload_value(env.get("LD_PRELOAD", ""))  # sanitizer runtimes first
    if args.module is not None:
        argv = [sys.executable, "-m", args.module, *script]
    else:
        if not Path(script[0]).is_file():
            raise LaunchError(f"cannot run {script[0]!r}: no such file")
        argv = [sys.executable, *script]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, argv, env)
    return 0  # not reached


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return run(args, dict(os.environ))
    except LaunchError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
