"""A child forked while an MstxMonitor runs (rel_py_fork).

    python -m conformance.pydriver.fork_monitor flush|stop|exit

The parent starts monitor "mark", makes 5 host marks (``parent N``) and forks. The child (log
``$MSPTI_CONFORMANCE_LOG.child``) makes 3 host marks (``child N``), then by mode calls
``flush_all()`` (@child_flush), ``stop()`` (@child_stop) or nothing, and leaves through the
interpreter's exit (``sys.exit(0)``), where the package's shutdown runs. The parent waits at most
20 s for it (then kills it), logs a ``fork`` event (pid, exit_code or signal, timed_out), stops its
monitor (@stop) and finishes.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

from conformance.pydriver.runtime import Driver, Recorder, import_package

MODES = ("flush", "stop", "exit")
PARENT_MARKS = 5
CHILD_MARKS = 3
CHILD_DEADLINE_S = 20.0


def _child(driver: Driver, mspti_monitor: object, mode: str) -> None:
    driver.forked("child")
    driver.emit("forked", child="child", pid=os.getpid(), tid=threading.get_native_id(), t=time.time_ns())
    driver.run("".join(f"mark child_{i}\n" for i in range(CHILD_MARKS)))
    if mode == "flush":
        driver.call("child_flush", "MstxMonitor.flush_all", mspti_monitor.flush_all)  # type: ignore[attr-defined]
    elif mode == "stop":
        driver.call("child_stop", "MstxMonitor.stop", mspti_monitor.stop)  # type: ignore[attr-defined]
    driver.finish()
    sys.exit(0)


def _wait(pid: int) -> tuple[int | None, int | None, bool]:
    """The child's exit code, signal and whether it had to be killed."""
    deadline = time.monotonic() + CHILD_DEADLINE_S
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.01)
    else:
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        return None, signal.SIGKILL, True
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status), None, False
    return None, os.WTERMSIG(status), False


def run(driver: Driver, mspti: object, mode: str) -> None:
    monitor = mspti.MstxMonitor()  # type: ignore[attr-defined]
    driver.call("start", "MstxMonitor.start", monitor.start, Recorder(driver, "mark"), None)
    driver.run("".join(f"mark parent_{i}\n" for i in range(PARENT_MARKS)))
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            _child(driver, monitor, mode)
        except SystemExit:
            raise  # the interpreter's exit, as the mode asks
        except BaseException:
            os._exit(3)
    exit_code, signal_number, timed_out = _wait(pid)
    driver.emit(
        "fork", child="child", pid=pid, exit_code=exit_code, signal=signal_number, timed_out=timed_out
    )
    driver.call("stop", "MstxMonitor.stop", monitor.stop)


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "flush"
    if mode not in MODES:
        print(f"fork_monitor: mode must be one of {', '.join(MODES)}", file=sys.stderr)
        return 2
    driver = Driver()
    mspti = import_package(driver)
    if mspti is not None:
        run(driver, mspti, mode)
    driver.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
