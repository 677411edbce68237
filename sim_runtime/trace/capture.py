"""Running a program under the simulator with msPTI and the trace collector preloaded.

The collector library (libnpusim_trace.so, built from csrc/tools/trace_collector) is found at
``$NPU_SIM_TRACE_COLLECTOR``, else in ``$NPU_SIM_BUILD_DIR/lib64``, else in the simulator's lib64.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sim_runtime import paths
from sim_runtime.trace.capture_format import pids_in
from sim_runtime.trace.kinds import KIND_NAMES, kind_from_name
from sim_runtime.trace.reader import RUN_FILE

__all__ = [
    "COLLECTOR_LIBRARY",
    "CaptureResult",
    "capture",
    "find_collector",
    "kinds_value",
    "trace_environment",
]

COLLECTOR_LIBRARY = "libnpusim_trace.so"
COLLECTOR_VAR = "NPU_SIM_TRACE_COLLECTOR"


@dataclass(frozen=True)
class CaptureResult:
    directory: Path
    returncode: int
    pids: list[int]


def find_collector(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    candidates = []
    if env.get(COLLECTOR_VAR):
        candidates.append(Path(env[COLLECTOR_VAR]))
    if env.get("NPU_SIM_BUILD_DIR"):
        candidates.append(Path(env["NPU_SIM_BUILD_DIR"]) / "lib64" / COLLECTOR_LIBRARY)
    candidates.append(paths.sim_tree(env).lib64 / COLLECTOR_LIBRARY)
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"the trace collector {COLLECTOR_LIBRARY} is not built (looked in: {tried})")


def kinds_value(kinds: Sequence[str] | None) -> str:
    """The NPU_SIM_TRACE_KINDS value for ``--kinds`` entries (ValueError for an unknown kind)."""
    if not kinds:
        return "all"
    names = []
    for entry in kinds:
        for name in entry.split(","):
            if name.strip().lower() == "all":
                return "all"
            if name.strip():
                names.append(KIND_NAMES[kind_from_name(name)])
    return ",".join(dict.fromkeys(names))


def trace_environment(
    base: Mapping[str, str], out_dir: Path, kinds: Sequence[str] | None = None, collector: Path | None = None
) -> dict[str, str]:
    """``base`` (an environment that already preloads libmspti.so) with the collector preloaded
    after it and the capture settings."""
    env = dict(base)
    library = collector or find_collector(env)
    preload = [part for part in env.get("LD_PRELOAD", "").replace(":", " ").split() if part]
    if not any(Path(part).name == "libmspti.so" for part in preload):
        raise FileNotFoundError("the environment does not preload libmspti.so; the collector needs it")
    env["LD_PRELOAD"] = " ".join([*(p for p in preload if Path(p).name != COLLECTOR_LIBRARY), str(library)])
    env["NPU_SIM_TRACE_DIR"] = str(out_dir)
    env["NPU_SIM_TRACE_KINDS"] = kinds_value(kinds)
    return env


def capture(
    program: Sequence[str],
    out_dir: Path | str,
    *,
    kinds: Sequence[str] | None = None,
    environ: Mapping[str, str] | None = None,
    collector: Path | None = None,
    timeout: float | None = None,
) -> CaptureResult:
    """Runs ``program`` and captures its activity records in ``out_dir`` (one capture per process).

    ``environ`` is the program's environment on the simulator with libmspti.so preloaded (default:
    the toolkit's, as ``npu-sim run`` sets it up from the NPU_SIM_* variables).
    """
    out = Path(out_dir).absolute()
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("trace-*.*"):
        stale.unlink()
    if environ is None:
        from sim_runtime.config import SimConfig
        from sim_runtime.toolkit import build_toolkit

        base = dict(os.environ)
        base.update(build_toolkit(None).env(SimConfig.from_env(), preload=True, environ=os.environ))
    else:
        base = dict(environ)
    env = trace_environment(base, out, kinds, collector)
    completed = subprocess.run(list(program), env=env, timeout=timeout, check=False)
    run = {
        "program": list(program),
        "returncode": completed.returncode,
        "kinds": env["NPU_SIM_TRACE_KINDS"],
        "soc": env.get("NPU_SIM_SOC"),
        "clock": env.get("NPU_SIM_CLOCK"),
        "devices": env.get("NPU_SIM_DEVICES"),
    }
    (out / RUN_FILE).write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")
    return CaptureResult(directory=out, returncode=completed.returncode, pids=pids_in(out))
