"""Records per second that msPTI delivers from producer threads into the client's CompleteFunc.

Runs one C program (programs/record_delivery.c) that makes host markers on 1 and on 2 producer
threads with a fixed pool of client buffers; CompleteFunc walks every buffer with
msptiActivityGetNextRecord and counts. The window ends when msptiActivityFlushAll(1) has returned,
so the rate counts only records that reached CompleteFunc. Each configuration runs in the virtual
clock (a marker's timestamp is a load of the simulator's clock) and in the wall clock (one
clock_gettime per marker, as on a real host). Prints the rates, the process CPU time per record
and the ratio to the target, all measured in this one run.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from support.native import ProgramBuilder, find_native_tree, run_program  # noqa: E402

PROGRAM = Path(__file__).resolve().parent / "programs" / "record_delivery.c"
RECORDS = 10_000_000
TARGET_PER_SECOND = 20_000_000


def run(exe: Path, clock: str, threads: int, records: int) -> dict[str, float]:
    env = find_native_tree().env(NPU_SIM_CLOCK=clock, NPU_SIM_LOG_LEVEL="error")
    result = run_program(exe, env, [str(threads), str(records // threads)], timeout=600)
    if result.returncode != 0:
        raise RuntimeError(
            f"record_delivery {clock} {threads} failed ({result.returncode}):\n{result.stderr}"
        )
    return {"clock": clock, **json.loads(result.stdout.strip().splitlines()[-1])}


def main(argv: list[str] | None = None) -> int:
    records = int(argv[0]) if argv else RECORDS
    with tempfile.TemporaryDirectory(prefix="record-delivery-") as tmp:
        exe = ProgramBuilder(find_native_tree(), Path(tmp)).build(
            [PROGRAM], libs=["mspti"], extra_flags=["-O2", f"-I{PROGRAM.parent}"]
        )
        results = [run(exe, clock, threads, records) for clock in ("virtual", "wall") for threads in (1, 2)]
    header = ("clock", "threads", "delivered", "dropped", "records/s", "cpu ns/record", "vs target")
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, (7, 7, 11, 8, 14, 14, 10), strict=True)))
    for r in results:
        print(
            f"{r['clock']:>7} {r['threads']:>7} {r['delivered']:>11} {r['dropped']:>8} "
            f"{r['records_per_second']:>14,.0f} {r['process_cpu_ns_per_record']:>14.1f} "
            f"{r['records_per_second'] / TARGET_PER_SECOND:>9.2f}x"
        )
    for clock in ("virtual", "wall"):
        best = max(r["records_per_second"] for r in results if r["clock"] == clock)
        print(
            f"record delivery into CompleteFunc, {clock} clock: {best:,.0f} records/s "
            f"(target >= {TARGET_PER_SECOND:,})"
        )
    return 0 if all(r["delivered"] == r["produced"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
