"""Simulated HCCL all-reduce time and bus bandwidth against message size.

For each SoC it runs one all-reduce per message size (8 B, then powers of 4 from 16 B to 1 GiB)
on every device of one server (Ascend910B3: an 8-card A2 HCCS mesh; Ascend910_9382: a 16-die A3
server), on the virtual clock and with HCCL_SIM_DATA=0 (timing only: buffers are not touched, so
a gigabyte costs no memory). The time of an operation is its device task (STARS begin to end)
on rank 0; algBw = size / time and busBw = algBw * 2 (p - 1) / p, as hccl_test reports them.
The model's inputs (alpha, link and aggregate bandwidth, reduce rate from the SoC's topology
table) and the algorithm HCCL reported are printed above each table.

    NPU_SIM_BUILD_DIR=build/dev python benchmarks/hccl_bandwidth.py [--soc NAME ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from support.native import ProgramBuilder, find_native_tree, run_program  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

PROGRAM = REPO / "tests" / "sim" / "programs" / "hccl_reports.cpp"
CATALOGUE = tomllib.loads((REPO / "sim_runtime" / "data" / "socs.toml").read_text(encoding="utf-8"))
SIZES = [8] + [4**k for k in range(2, 16)]  # 8 B, 16 B ... 1 GiB
SOCS = ["Ascend910B3", "Ascend910_9382"]
SWITCH = 0x820  # TASK_TIME (task tracks) | HCCL_TRACE (op info with the algorithm)


def measure(soc: str, build_dir: Path) -> dict:
    tree = find_native_tree()
    exe = ProgramBuilder(tree, build_dir).build(
        [PROGRAM], libs=["hccl", "hcomm", "ascendcl", "profapi", "ascend_hal"], extra_flags=["-O2"]
    )
    spec = CATALOGUE["soc"][soc]
    topo = CATALOGUE["topology"][spec["topology"]]
    ranks = topo["ranks_per_server"]
    env = tree.env(
        NPU_SIM_SOC=soc,
        NPU_SIM_DEVICES=str(ranks),
        NPU_SIM_CLOCK="virtual",
        HCCL_SIM_DATA="0",
        NPU_SIM_LOG_LEVEL="error",
        HCCL_CONNECT_TIMEOUT="120",
    )
    ops = [f"allreduce:{max(size // 4, 1)}" for size in SIZES]
    result = run_program(exe, env, [str(ranks), f"{SWITCH:x}", *ops], timeout=900)
    if result.returncode != 0:
        raise RuntimeError(f"hccl_reports failed ({result.returncode}):\n{result.stderr[-2000:]}")
    lines = [line.split() for line in result.stdout.splitlines()]
    hashes = {int(f[1]): " ".join(f[2:]) for f in lines if f[0] == "H"}
    rank0_tid = next(int(f[2]) for f in lines if f[0] == "Q" and f[1] == "0")
    logs: dict[tuple[int, int, int], dict[int, int]] = {}
    for f in lines:
        if f[0] == "S":
            dev, func, stream, task, ts = map(int, f[2:7])
            logs.setdefault((dev, stream, task), {})[func] = ts
    tracks = sorted(
        (int(f[1]), int(f[4]), int(f[5]), int(f[6])) for f in lines if f[0] == "K" and int(f[2]) == rank0_tid
    )
    algorithms = [hashes.get(int(f[5]), "?") for f in lines if f[0] == "O" and int(f[2]) == rank0_tid]
    rows = []
    for size, (_, dev, stream, task), algo in zip(SIZES, tracks, algorithms, strict=False):
        log = logs[(dev, stream, task)]
        ns = log[1] - log[0]
        alg_bw = size / ns  # bytes per ns = GB/s
        rows.append(
            {
                "bytes": size,
                "time_us": ns / 1000,
                "alg_gbps": alg_bw,
                "bus_gbps": alg_bw * 2 * (ranks - 1) / ranks,
                "algorithm": algo,
            }
        )
    return {
        "soc": soc,
        "ranks": ranks,
        "topology": spec["topology"],
        "alpha_ns": topo["alpha_ns"],
        "link_gbps": topo["link_gbps"],
        "aggregate_gbps": topo["aggregate_gbps"],
        "sio_alpha_ns": topo["sio_alpha_ns"],
        "sio_gbps": topo["sio_gbps"],
        "reduce_gbps": topo["reduce_gbps"],
        "jitter_pct": CATALOGUE["defaults"]["jitter_pct"],
        "rows": rows,
    }


def human(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:g} {unit}"
        n //= 1024
    return str(n)


def print_table(r: dict) -> None:
    links = [
        f"alpha {r['alpha_ns'] / 1000:g} us",
        f"link {r['link_gbps']:g} GB/s",
        f"aggregate {r['aggregate_gbps']:g} GB/s",
    ]
    if r["sio_gbps"]:
        links += [f"SIO alpha {r['sio_alpha_ns'] / 1000:g} us", f"SIO {r['sio_gbps']:g} GB/s"]
    links += [f"reduce {r['reduce_gbps']:g} GB/s", f"jitter +-{r['jitter_pct']:g}%"]
    print(f"{r['soc']}: {r['ranks']} ranks, topology {r['topology']} ({', '.join(links)})")
    print(f"  {'size':>9} {'time (us)':>12} {'algBw GB/s':>11} {'busBw GB/s':>11}  algorithm")
    for row in r["rows"]:
        figures = f"{row['time_us']:12.2f} {row['alg_gbps']:11.3f} {row['bus_gbps']:11.3f}"
        print(f"  {human(row['bytes']):>9} {figures}  {row['algorithm']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", action="append", choices=sorted(CATALOGUE["soc"]), help="SoC (repeatable)")
    parser.add_argument(
        "--build-dir",
        type=Path,
        default=None,
        help="where the benchmark program is compiled (default: a temporary folder)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    socs = args.soc or SOCS
    with tempfile.TemporaryDirectory(prefix="hccl-bench-") as tmp:
        build_dir = args.build_dir or Path(tmp)
        build_dir.mkdir(parents=True, exist_ok=True)
        results = [measure(soc, build_dir) for soc in socs]
    if args.json:
        print(json.dumps(results))
        return 0
    for r in results:
        print_table(r)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
