"""Running a program with a libmspti.so and the trace collector preloaded.

Works with any ABI-compatible libmspti.so: on an Ascend host the toolkit's
(``$ASCEND_HOME_PATH/tools/mspti/lib64/libmspti.so``), on the simulator ours (``npu-sim trace``
sets that environment up). The collector library (libnpusim_trace.so, built from
csrc/tools/trace_collector) is found at ``$NPU_SIM_TRACE_COLLECTOR``, else in
``$NPU_SIM_BUILD_DIR/lib64``, else in this package's lib64.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mspti_base.preload import preload_parts, preload_value
from mspti_trace.capture_format import pids_in
from mspti_trace.kinds import KIND_NAMES, kind_from_name
from mspti_trace.reader import RUN_FILE

__all__ = [
    "COLLECTOR_LIBRARY",
    "CaptureResult",
    "capture",
    "find_collector",
    "find_mspti",
    "kinds_value",
    "trace_environment",
]

COLLECTOR_LIBRARY = "libnpusim_trace.so"
COLLECTOR_VAR = "NPU_SIM_TRACE_COLLECTOR"
MSPTI_LIBRARY = "libmspti.so"
#: Where a CANN toolkit keeps libmspti.so, below each of these variables' directories.
TOOLKIT_VARS = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME")
TOOLKIT_MSPTI = Path("tools") / "mspti" / "lib64" / MSPTI_LIBRARY
PACKAGE_LIB64 = Path(__file__).resolve().parent / "lib64"


#: After a timeout, how long the program's group has between SIGTERM and SIGKILL.
KILL_GRACE_SECONDS = 2.0


@dataclass(frozen=True)
class CaptureResult:
    directory: Path
    returncode: int
    pids: list[int]
    timed_out: bool = False


def find_collector(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    candidates = []
    if env.get(COLLECTOR_VAR):
        candidates.append(Path(env[COLLECTOR_VAR]))
    if env.get("NPU_SIM_BUILD_DIR"):
        candidates.append(Path(env["NPU_SIM_BUILD_DIR"]) / "lib64" / COLLECTOR_LIBRARY)
    candidates.append(PACKAGE_LIB64 / COLLECTOR_LIBRARY)
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"the trace collector {COLLECTOR_LIBRARY} is not built (looked in: {tried})")


def find_mspti(environ: Mapping[str, str] | None = None) -> Path:
    """The CANN toolkit's libmspti.so: ``$ASCEND_HOME_PATH/tools/mspti/lib64`` (or below
    ``$ASCEND_TOOLKIT_HOME``), as ``source set_env.sh`` sets them up."""
    env = os.environ if environ is None else environ
    tried = []
    for variable in TOOLKIT_VARS:
        if env.get(variable):
            candidate = Path(env[variable]) / TOOLKIT_MSPTI
            if candidate.is_file():
                return candidate.resolve()
            tried.append(str(candidate))
    where = f" (looked in: {', '.join(tried)})" if tried else f" ({' and '.join(TOOLKIT_VARS)} are not set)"
    raise FileNotFoundError(
        f"no {MSPTI_LIBRARY} found{where}: source the CANN toolkit's set_env.sh or pass --mspti PATH"
    )


def preload_mspti(base: Mapping[str, str], library: Path) -> dict[str, str]:
    """``base`` with ``library`` (a libmspti.so) in LD_PRELOAD in place of any other libmspti.so,
    after what is already preloaded (a sanitizer runtime must stay first)."""
    env = dict(base)
    env["LD_PRELOAD"] = preload_value(
        env.get("LD_PRELOAD", ""),
        last=[str(library)],
        drop=lambda part: Path(part).name == MSPTI_LIBRARY,
        separator=" ",
    )
    return env


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
    just before it (so that the program's msptiSubscribe reaches the collector's, which diagnoses a
    refusal caused by the collector's own subscription) and the capture settings."""
    env = dict(base)
    library = collector or find_collector(env)
    preload = [
        part for part in preload_parts(env.get("LD_PRELOAD", "")) if Path(part).name != COLLECTOR_LIBRARY
    ]
    names = [Path(part).name for part in preload]
    if MSPTI_LIBRARY not in names:
        raise FileNotFoundError("the environment does not preload libmspti.so; the collector needs it")
    preload.insert(names.index(MSPTI_LIBRARY), str(library))
    env["LD_PRELOAD"] = " ".join(preload)
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
    run_info: Mapping[str, object] | None = None,
) -> CaptureResult:
    """Runs ``program`` and captures its activity records in ``out_dir`` (one capture per process).

    ``environ`` is the program's environment with a libmspti.so preloaded (default: this process's
    environment with the CANN toolkit's libmspti.so, :func:`find_mspti`, preloaded). ``run_info``
    goes into the capture's run.json (``npu-sim trace`` records the simulated SoC and its
    ``device_properties`` there; the exporters read them).
    """
    out = Path(out_dir).absolute()
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("trace-*.*"):
        stale.unlink()
    base = preload_mspti(os.environ, find_mspti()) if environ is None else dict(environ)
    env = trace_environment(base, out, kinds, collector)
    returncode, timed_out = _run(list(program), env, timeout)
    run = {
        "program": list(program),
        "returncode": returncode,
        "timed_out": timed_out,
        "kinds": env["NPU_SIM_TRACE_KINDS"],
        "soc": env.get("NPU_SIM_SOC"),
        "clock": env.get("NPU_SIM_CLOCK"),
        "devices": env.get("NPU_SIM_DEVICES"),
        **(run_info or {}),
    }
    (out / RUN_FILE).write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")
    return CaptureResult(directory=out, returncode=returncode, pids=pids_in(out), timed_out=timed_out)


def _run(program: list[str], env: dict[str, str], timeout: float | None) -> tuple[int, bool]:
    """Runs ``program``; with a timeout in its own process group, which is killed (SIGTERM, then
    SIGKILL after a grace period) when the time is up. Returns the exit code and whether it timed out."""
    if timeout is None:
        return subprocess.run(program, env=env, check=False).returncode, False
    group: dict[str, Any] = (
        {"process_group": 0} if sys.version_info >= (3, 11) else {"preexec_fn": os.setpgrp}
    )
    with subprocess.Popen(program, env=env, **group) as process:
        try:
            return process.wait(timeout=timeout), False
        except subprocess.TimeoutExpired:
            pass
        _signal_group(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=KILL_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            _signal_group(process.pid, signal.SIGKILL)
            process.wait()
        _signal_group(process.pid, signal.SIGKILL)  # anything the program left behind in its group
        return process.returncode, True


def _signal_group(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signum)
