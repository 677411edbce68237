"""Resident memory of a traced process over 10 million records: bounded by the client's buffers.

Runs one C program (programs/record_memory.c) on the simulator in the virtual clock: KERNEL + API +
RUNTIME_API enabled (two records per launch), a fixed pool of client buffers recycled by
CompleteFunc, 5 million launches after a warm-up, the process RSS sampled along the way. Prints the
samples, the growth from the first sample to the last (per million records) and over the last half,
measured in this run. What grows at all grows with the largest backlog of the run (a reader held
off the cores), not with the number of records: the backlog is capped by fixed capacities.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from support.native import ProgramBuilder, find_native_tree, run_program  # noqa: E402

PROGRAM = Path(__file__).resolve().parent / "programs" / "record_memory.c"
LAUNCHES = 5_000_000
SAMPLES = 10
MIB = 1 << 20


def main(argv: list[str] | None = None) -> int:
    launches = int(argv[0]) if argv else LAUNCHES
    tree = find_native_tree()
    with tempfile.TemporaryDirectory(prefix="record-memory-") as tmp:
        exe = ProgramBuilder(tree, Path(tmp)).build(
            [PROGRAM], libs=["ascendcl", "mspti"], extra_flags=["-O2", f"-I{PROGRAM.parent}"]
        )
        env = tree.env(preload_mspti=True, NPU_SIM_CLOCK="virtual", NPU_SIM_LOG_LEVEL="error")
        result = run_program(exe, env, [str(launches), str(SAMPLES)], timeout=900)
    if result.returncode != 0:
        raise RuntimeError(f"record_memory failed ({result.returncode}):\n{result.stderr}")
    r = json.loads(result.stdout.strip().splitlines()[-1])
    rss = r["rss"]
    records = r["records"]
    per_sample = records / len(rss)
    print("records      RSS (MiB)")
    for i, value in enumerate(rss):
        print(f"{per_sample * (i + 1):>10,.0f}  {value / MIB:>9.1f}")
    growth = rss[-1] - rss[0]
    span = per_sample * (len(rss) - 1) / 1e6
    half = len(rss) // 2
    late_growth = rss[-1] - rss[half]
    late_span = per_sample * (len(rss) - 1 - half) / 1e6
    print(
        f"{records:,} records delivered, {r['dropped']} dropped; "
        f"client buffers {r['pool_bytes'] / MIB:.0f} MiB; "
        f"RSS growth after warm-up: {growth / MIB:+.2f} MiB over {span:.1f} M records "
        f"({growth / span / 1024:+.1f} KiB per million records); over the last {late_span:.1f} M records: "
        f"{late_growth / MIB:+.2f} MiB; peak RSS {max(rss) / MIB:.1f} MiB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
