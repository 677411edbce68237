"""Records delivered to a Python callback per second, and what KernelMonitor costs a launch loop.

Three measurements, each in a fresh child Python (msPTI state is per process):

1. end to end: our msPTI on the simulator (virtual clock), KernelMonitor on, kernels launched with
   ``launch_many`` (the launch loop in C, so the simulator produces records as fast as it can); the
   callback is a Python function counting records. Figures: records per second of the whole run
   (launch + delivery, overlapping), and how long delivery lags behind the last launch.
2. delivery ceiling: the same monitor fed by the stand-in msPTI of the tests
   (tests/mspti_core/fixtures/fake_mspti.cpp), which writes KERNEL records from a C loop at a rate
   no runtime reaches, so the Python side is the bottleneck.
3. overhead: a Python loop calling ``Kernel.launch()``, ns per launch with KernelMonitor off and on
   (msPTI preloaded in both), the ratio, and the part that is collection alone (KERNEL enabled
   with no Python callable, so records are dropped in C++ before Python).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from support.native import ProgramBuilder, find_native_tree, python_subprocess_env  # noqa: E402

FAKE_MSPTI = REPO / "tests" / "mspti_core" / "fixtures" / "fake_mspti.cpp"
END_TO_END_RECORDS = 1_000_000
CEILING_RECORDS = 4_000_000
LOOP_LAUNCHES = 200_000

COUNTING_CALLBACK = """
import json
import time
import mspti_core
from mspti_core import KernelMonitor
count = 0
def on_kernel(data):
    global count
    count += 1
def report(**values):
    print("RESULT " + json.dumps(values), flush=True)
"""

END_TO_END = (
    COUNTING_CALLBACK
    + """
from sim_runtime import npu
device = npu.Device(0)
stream = npu.Stream()
kernel = npu.Kernel("bench_kernel")
kernel.launch_many(1000, stream=stream)          # warm the simulator's paths
stream.synchronize()
monitor = KernelMonitor()
assert monitor.start(on_kernel) == 0
began = time.perf_counter()
kernel.launch_many(RECORDS, stream=stream)
stream.synchronize()
launched = time.perf_counter()
monitor.stop()
ended = time.perf_counter()
from mspti_core import _mspti
report(records=count, total=ended - began, launch=launched - began, dropped=_mspti.dropped_records(2),
       declined=_mspti.stats()["buffers_declined"])
"""
)

CEILING = (
    COUNTING_CALLBACK
    + """
import ctypes, os
mspti_core.load_library(os.environ["MSPTI_CORE_LIBRARY"])
fake = ctypes.CDLL(os.environ["MSPTI_CORE_LIBRARY"])
fake.fake_emit_kernels.argtypes = [ctypes.c_uint64, ctypes.c_char_p, ctypes.c_uint32, ctypes.c_uint32,
                                   ctypes.c_uint64]
fake.fake_emit_kernels.restype = ctypes.c_uint64
fake.fake_dropped.restype = ctypes.c_uint64
monitor = KernelMonitor()
assert monitor.start(on_kernel) == 0
began = time.perf_counter()
written = fake.fake_emit_kernels(RECORDS, b"bench_kernel", 0, 1, 1)
emitted = time.perf_counter()
monitor.stop()
ended = time.perf_counter()
report(records=count, written=written, total=ended - began, emit=emitted - began, dropped=fake.fake_dropped())
"""
)

OVERHEAD = (
    COUNTING_CALLBACK
    + """
from mspti_core import _library, _mspti
from sim_runtime import npu
device = npu.Device(0)
stream = npu.Stream()
kernel = npu.Kernel("bench_kernel")
def loop(n):
    launch = kernel.launch
    began = time.perf_counter()
    for _ in range(n):
        launch(stream=stream)
    elapsed = time.perf_counter() - began
    stream.synchronize()
    return elapsed / n * 1e9
loop(20_000)                                  # warm-up
off_before = loop(LAUNCHES)
monitor = KernelMonitor()
assert monitor.start(on_kernel) == 0
on = loop(LAUNCHES)
monitor.stop()
delivered = count
_library.ensure_loaded()
code, token = _mspti.start_monitor([2], [])   # KERNEL collected, no callable: records skipped in C++
assert code == 0
collect_only = loop(LAUNCHES)
_mspti.stop_monitor(token)
off_after = loop(LAUNCHES)
report(off=(off_before + off_after) / 2, on=on, collect_only=collect_only, records=delivered)
"""
)


def run_child(script: str, env: dict[str, str]) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(textwrap.dedent(script))
        path = handle.name
    try:
        proc = subprocess.run([sys.executable, path], env=env, capture_output=True, text=True, timeout=900)
    finally:
        os.unlink(path)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"benchmark child failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return json.loads(lines[-1][len("RESULT ") :])


def main(argv: list[str] | None = None) -> int:
    tree = find_native_tree()
    base = tree.env(preload_mspti=True, NPU_SIM_CLOCK="virtual", NPU_SIM_LOG_LEVEL="error")
    sim_env = python_subprocess_env(base)
    sim_env["LD_PRELOAD"] = base["LD_PRELOAD"]  # keep msPTI preloaded
    have_mspti = tree.mspti_library.is_file()

    if have_mspti:
        r = run_child(END_TO_END.replace("RECORDS", str(END_TO_END_RECORDS)), sim_env)
        print(
            f"end to end (our msPTI, simulator, virtual clock): {r['records']:,} KernelData delivered "
            f"(dropped {r['dropped']}, declined buffers {r['declined']})"
        )
        print(
            f"  {r['records'] / r['total']:,.0f} records/s over launch + delivery ({r['total']:.2f} s), "
            f"bounded by the launches: {r['records'] / r['launch']:,.0f} launches/s traced; "
            f"delivery finished {1e3 * (r['total'] - r['launch']):.0f} ms after the last launch"
        )
    else:
        print(f"end to end: skipped ({tree.mspti_library} is not built)")

    with tempfile.TemporaryDirectory(prefix="python-delivery-") as tmp:
        fake = ProgramBuilder(tree, Path(tmp)).build([FAKE_MSPTI], [], ["-O2", "-shared", "-fPIC"])
        env = python_subprocess_env(tree.env(preload_mspti=False))
        env["MSPTI_CORE_LIBRARY"] = str(fake)
        r = run_child(CEILING.replace("RECORDS", str(CEILING_RECORDS)), env)
    ceiling = r["records"] / r["total"]
    print(
        f"delivery ceiling (stand-in msPTI writing records from C): {r['records']:,} of {r['written']:,} "
        f"written delivered, {r['dropped']} dropped"
    )
    print(
        f"  {ceiling:,.0f} records/s to a Python callback ({r['total']:.2f} s; emitting alone "
        f"{r['emit']:.2f} s) (target >= 1,000,000)"
    )

    if have_mspti:
        r = run_child(OVERHEAD.replace("LAUNCHES", str(LOOP_LAUNCHES)), sim_env)
        print(
            f"overhead of KernelMonitor on a Python launch loop ({LOOP_LAUNCHES:,} launches, "
            f"{r['records']:,} records delivered):"
        )
        print(
            f"  off {r['off']:.0f} ns/launch, on {r['on']:.0f} ns/launch, "
            f"added {r['on'] - r['off']:.0f} ns, on/off = {r['on'] / r['off']:.2f}"
        )
        print(
            f"  collection alone (KERNEL enabled, records skipped before Python): "
            f"{r['collect_only']:.0f} ns/launch, added {r['collect_only'] - r['off']:.0f} ns; "
            f"delivery to the Python callback adds {r['on'] - r['collect_only']:.0f} ns/launch to the loop"
        )
    else:
        print("overhead: skipped (our libmspti.so is not built)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
