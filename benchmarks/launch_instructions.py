"""Instructions per kernel launch on the simulator, profiling off and traced, counted by callgrind.

Runs the launch_rate program under `valgrind --tool=callgrind --separate-threads=yes` with two
launch counts in each mode (off, and KERNEL + API + RUNTIME_API traced, virtual clock) and takes the
difference, so start-up and shut-down cancel out. Prints the instructions per launch of the
launching thread and of all threads together (msPTI's reader and delivery threads included), and
what tracing adds. Instruction counts do not depend on the machine's load, but which thread does the
parsing depends on scheduling: if msPTI's reader thread did not run, the launching thread would
parse in its final flush or when a task-track ring fills (`--fair-sched=yes` lets threads take
turns, so this is rare). The third column counts only the instructions spent inside the launch
call (`--toggle-collect` on the program's out-of-line `launch_once`): what an application thread
waits for. Needs valgrind; skipped without it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from support.native import ProgramBuilder, find_native_tree  # noqa: E402

PROGRAM = Path(__file__).resolve().parent / "programs" / "launch_rate.c"
COUNTS = (20_000, 40_000)
WARM_UP = 1.1  # the program launches count / 10 more before its timed loop

_TOTALS = re.compile(r"^(?:summary|totals):\s+(\d+)", re.MULTILINE)


def thread_instructions(out_dir: Path) -> list[int]:
    """Instructions of each thread (thread 1, the launching thread, first) of one callgrind run."""
    counts: dict[int, int] = {}
    for path in out_dir.glob("callgrind.out*-*"):
        thread = int(path.name.rsplit("-", 1)[1])
        found = _TOTALS.findall(path.read_text(errors="replace"))
        if found:
            counts[thread] = int(found[-1])
    return [counts[t] for t in sorted(counts)]


def run_counted(exe: Path, mode: str, launches: int, work: Path, inside_call: bool = False) -> list[int]:
    tree = find_native_tree()
    env = tree.env(preload_mspti=mode != "off", NPU_SIM_CLOCK="virtual", NPU_SIM_LOG_LEVEL="error")
    out_dir = work / f"{mode}-{launches}{'-inside' if inside_call else ''}"
    out_dir.mkdir()
    only_inside = ["--collect-atstart=no", "--toggle-collect=launch_once"] if inside_call else []
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--separate-threads=yes",
        "--fair-sched=yes",  # threads take turns, so msPTI's reader keeps up as on a real machine
        *only_inside,
        f"--callgrind-out-file={out_dir}/callgrind.out",
        str(exe),
        mode,
        str(launches),
    ]
    result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800, check=False)
    if result.returncode != 0:
        failure = f"callgrind {mode} {launches} failed ({result.returncode})"
        raise RuntimeError(f"{failure}:\n{result.stderr[-2000:]}")
    return thread_instructions(out_dir)


def main(argv: list[str] | None = None) -> int:
    if shutil.which("valgrind") is None:
        print("valgrind not found: skipped")
        return 0
    low, high = (int(argv[0]), int(argv[1])) if argv and len(argv) == 2 else COUNTS
    launches = (high - low) * WARM_UP
    per_launch: dict[str, tuple[float, float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="launch-instructions-") as tmp:
        work = Path(tmp)
        builder = ProgramBuilder(find_native_tree(), work)
        exe = builder.build([PROGRAM], libs=["ascendcl"], extra_flags=["-O2"])
        for mode in ("off", "traced"):
            a, b = run_counted(exe, mode, low, work), run_counted(exe, mode, high, work)
            inside = run_counted(exe, mode, low, work, inside_call=True)[0] / (low * WARM_UP)
            per_launch[mode] = ((b[0] - a[0]) / launches, (sum(b) - sum(a)) / launches, inside)
    header = f"{'mode':<8} {'launching thread':>17} {'all threads':>12} {'inside the call':>16}"
    print(f"{header}   (instructions per launch)")
    for mode, (thread, total, inside) in per_launch.items():
        print(f"{mode:<8} {thread:>17.0f} {total:>12.0f} {inside:>16.0f}")
    off, traced = per_launch["off"], per_launch["traced"]
    print(
        f"added per traced launch: {traced[0] - off[0]:.0f} on the launching thread, "
        f"{traced[1] - off[1]:.0f} in all threads, {traced[2] - off[2]:.0f} inside the launch call"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
