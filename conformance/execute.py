"""Running one invocation of a workload program in a fresh process.

Each invocation gets its own directory (script, log, stdout, stderr); a crash or a timeout is kept
with its log as the evidence of a failed run.

A workload that has logged the end of its work (the collector's ``finish`` event, or ``exit_called``
before the driver's ``exit`` command) but whose process is still alive :data:`EXIT_GRACE` seconds
later is killed then rather than at its timeout: it hangs in its exit (a library's teardown that
waits forever), and waiting out the rest of the timeout would only cost time. The run fails as a
timed-out run does, its failure saying so.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from conformance import abi_probe
from conformance.build import Builder, BuildError, Program, Source, collector, workload
from conformance.log import RunLog
from conformance.target import Target

__all__ = ["EXIT_GRACE", "PROGRAMS", "Invocation", "RunResult", "execute", "not_run"]

#: Seconds a workload's process gets to end after its log says its work is done (see above).
EXIT_GRACE = 10.0
#: The log events after which a workload has nothing left to do but exit.
_DONE_EVENTS = (b'"ev":"finish"', b'"ev":"exit_called"')
#: How often a running workload's log is looked at (seconds).
_POLL = 0.2

#: Runtime libraries the driver links when the target has them (mstx and HCCL live in their own).
_DRIVER_LIBRARIES = ("ascendcl", "ms_tools_ext", "hccl", "opapi", "nnopbase")
#: The driver's translation units: the dispatch, what the command families share, one per family.
_DRIVER_FILES = (
    "driver.cpp",
    "driver_common.cpp",
    "driver_mspti.cpp",
    "driver_acl.cpp",
    "driver_aclnn.cpp",
    "driver_hccl.cpp",
    "driver_mstx.cpp",
    "driver_process.cpp",
)


def _driver_sources() -> tuple[Source, ...]:
    return (*(workload(name) for name in _DRIVER_FILES), collector())


PROGRAMS: Mapping[str, Callable[[], Program]] = {
    "driver": lambda: Program("driver", _driver_sources(), _DRIVER_LIBRARIES),
    "iterate": lambda: Program("iterate", (workload("iterate.cpp"), collector())),
    # The driver as a library, loaded by the Python scenario drivers (conformance/pydriver).
    "driver_library": lambda: Program(
        "conformance_driver.so",
        _driver_sources(),
        _DRIVER_LIBRARIES,
        extra_flags=("-shared",),
        defines=("CONFORMANCE_DRIVER_LIBRARY",),
    ),
    "abi_layout": abi_probe.layout_program,
    "abi_enums": abi_probe.enums_program,
    "abi_symbols": abi_probe.symbols_program,
}


@dataclass(frozen=True)
class Invocation:
    """One process of a scenario: which program, with which script or arguments and policies.

    With ``python_module`` the process is ``python -m MODULE [SCRIPT] ARGS`` (a Python scenario
    driver, see conformance/pydriver) and ``program`` is the native library it loads.
    """

    name: str = "main"
    program: str = "driver"
    python_module: str = ""
    script: str | None = None
    args: tuple[str, ...] = ()
    preload: bool = True
    buffer: str = ""  # MSPTI_CONFORMANCE_BUFFER
    cbdata: str = ""  # MSPTI_CONFORMANCE_CBDATA
    env: Mapping[str, str] = field(default_factory=dict)
    timeout: float = 60.0
    crash_ok: bool = False  # the checker judges a crash itself (robustness probes)


@dataclass
class RunResult:
    scenario: str
    invocation: Invocation
    log: RunLog
    directory: Path
    command: list[str] = field(default_factory=list)
    exit_code: int | None = None
    timed_out: bool = False
    duration: float = 0.0
    stdout: str = ""
    stderr: str = ""
    build_error: str | None = None
    not_run: str = ""  # why the run was not started (the suite gave up on the library)
    exit_hang: bool = False  # timed out because it did not end EXIT_GRACE s after its work was done

    @property
    def log_path(self) -> Path:
        return self.directory / "log.jsonl"

    @property
    def crashed(self) -> bool:
        return self.exit_code is not None and self.exit_code < 0

    @property
    def failed(self) -> bool:
        return bool(self.not_run) or self.build_error is not None or self.timed_out or self.exit_code != 0

    def failure(self) -> str:
        """What went wrong, in one paragraph (empty when the run succeeded)."""
        if self.not_run:
            return f"not run: {self.not_run}"
        if self.build_error is not None:
            return f"the workload did not build: {self.build_error.splitlines()[0]}"
        if self.exit_hang:
            return f"timed out: did not exit within {EXIT_GRACE:.0f} s of finishing its work (killed)"
        if self.timed_out:
            return f"timed out after {self.invocation.timeout:.0f} s (killed)"
        if self.exit_code is None or self.exit_code == 0:
            return ""
        if self.exit_code < 0:
            try:
                name = signal.Signals(-self.exit_code).name
            except ValueError:
                name = f"signal {-self.exit_code}"
            return f"the workload crashed ({name})" + self._tail()
        unsupported = self.log.unsupported()
        if self.exit_code == 4 and unsupported:
            return f"the target does not support the command {unsupported!r}"
        driver_error = self.log.driver_error()
        if driver_error:
            return f"the workload stopped: {driver_error}"
        return f"the workload exited with status {self.exit_code}" + self._tail()

    def _tail(self) -> str:
        text = self.stderr.strip().splitlines()
        return f"; stderr ends with: {text[-1][:300]}" if text else ""


def execute(
    scenario: str,
    invocation: Invocation,
    target: Target,
    builder: Builder,
    work_dir: Path,
) -> RunResult:
    """Build the program (cached) and run it once; never raises for a failing workload."""
    directory = work_dir / scenario / invocation.name
    directory.mkdir(parents=True, exist_ok=True)
    log_path = directory / "log.jsonl"
    log_path.unlink(missing_ok=True)
    for child_log in directory.glob("log.jsonl.*"):  # logs of forked children (the driver's fork command)
        child_log.unlink()
    result = RunResult(scenario, invocation, RunLog([]), directory)
    program = "driver_library" if invocation.python_module else invocation.program
    try:
        exe = builder.build(PROGRAMS[program]())
    except BuildError as error:
        result.build_error = str(error)
        (directory / "build.txt").write_text(str(error), encoding="utf-8")
        return result
    args = list(invocation.args)
    if invocation.script is not None:
        script_path = directory / "script.txt"
        script_path.write_text(invocation.script, encoding="utf-8")
        args = [str(script_path), *args]
    extra = {"MSPTI_CONFORMANCE_LOG": str(log_path), **invocation.env}
    if invocation.python_module:
        extra["MSPTI_CONFORMANCE_DRIVER_LIB"] = str(exe)
    if invocation.buffer:
        extra["MSPTI_CONFORMANCE_BUFFER"] = invocation.buffer
    if invocation.cbdata:
        extra["MSPTI_CONFORMANCE_CBDATA"] = invocation.cbdata
    env = target.env(preload=invocation.preload, extra=extra)
    if invocation.python_module:
        result.command = [sys.executable, "-X", "faulthandler", "-m", invocation.python_module, *args]
    else:
        result.command = [str(exe), *args]
    started = time.monotonic()
    with subprocess.Popen(
        result.command,
        env=env,
        cwd=directory,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
    ) as process:
        stdout, stderr, result.timed_out, result.exit_hang = _wait(process, invocation.timeout, log_path)
        result.exit_code = process.returncode
    result.duration = time.monotonic() - started
    result.stdout, result.stderr = stdout, stderr
    (directory / "stdout.txt").write_text(stdout, encoding="utf-8")
    (directory / "stderr.txt").write_text(stderr, encoding="utf-8")
    (directory / "command.txt").write_text(
        " ".join(result.command) + "\n" + "".join(f"{k}={v}\n" for k, v in sorted(extra.items())),
        encoding="utf-8",
    )
    result.log = RunLog.from_file(log_path)
    return result


def not_run(scenario: str, invocation: Invocation, work_dir: Path, reason: str) -> RunResult:
    """The result of a run that is not started, saying why."""
    return RunResult(scenario, invocation, RunLog([]), work_dir / scenario / invocation.name, not_run=reason)


class _DoneWatch:
    """Reads a growing log from where it last stopped and remembers when it first saw the work done."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.tail = b""
        self.done_at: float | None = None

    def poll(self, now: float) -> float | None:
        if self.done_at is None:
            try:
                with self.path.open("rb") as log:
                    log.seek(self.offset)
                    chunk = log.read()
            except OSError:
                chunk = b""
            self.offset += len(chunk)
            text = self.tail + chunk
            if any(marker in text for marker in _DONE_EVENTS):
                self.done_at = now
            self.tail = text[-32:]  # a marker split between two reads
        return self.done_at


def _wait(process: subprocess.Popen[str], timeout: float, log_path: Path) -> tuple[str, str, bool, bool]:
    """The process's output once it ended: (stdout, stderr, timed out, hung after its work was done).
    It is killed at ``timeout``, or :data:`EXIT_GRACE` s after its log said its work was done."""
    started = time.monotonic()
    watch = _DoneWatch(log_path)
    while True:
        now = time.monotonic()
        done_at = watch.poll(now)
        deadline = started + timeout
        if done_at is not None:
            deadline = min(deadline, done_at + EXIT_GRACE)
        try:
            stdout, stderr = process.communicate(timeout=max(0.0, min(_POLL, deadline - now)))
            return stdout, stderr, False, False
        except subprocess.TimeoutExpired:
            if time.monotonic() < deadline:
                continue
        _kill_group(process)
        stdout, stderr = process.communicate()
        return stdout, stderr, True, done_at is not None and time.monotonic() - started < timeout


def _kill_group(process: subprocess.Popen[str]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
