"""When a collective runs on each rank's device and how long it takes, on the virtual clock.

A collective's task begins when its rank's stream reaches it and waits inside; its work starts on
every rank when the last rank's stream reaches it, and lasts what the alpha-beta-gamma model of the
algorithm HCCL would pick says (device-specs sec7), with the coefficients of the SoC's topology
table. The model is restated here from
sim_runtime/data/socs.toml, so a change of a coefficient moves both sides.

programs/hccl_reports.cpp runs the operations (HCCL_SIM_DATA=0: timing only, buffers are not
touched) and prints the task tracks and the STARS begin/end logs of every device.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, run_program

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

PROGRAMS = Path(__file__).resolve().parent / "programs"
DATA = Path(__file__).resolve().parents[2] / "sim_runtime" / "data"
CATALOGUE = tomllib.loads((DATA / "socs.toml").read_text(encoding="utf-8"))
# Collective and point-to-point coefficients per topology (docs/timing.md).
TIMING = tomllib.loads((DATA / "timing.toml").read_text(encoding="utf-8"))["hccl"]
JITTER = CATALOGUE["defaults"]["jitter_pct"] / 100.0
TASK_TIME = 0x800
HCCL_TRACE = 0x20  # the HCCL op records, which name the algorithm
FFTS_BEGIN = 34  # STARS_FUNC_TYPE_FFTS_BEGIN: a sub-task's begin log


# --- the model, restated -----------------------------------------------------------------------------


def ceil_log2(p: int) -> int:
    return max(0, math.ceil(math.log2(p))) if p > 1 else 0


def half(prim: str, algo: str, p: int, n: float, link: dict) -> tuple[float, float, float]:
    """(alpha steps, transfer ns, bytes reduced) of a reduce-scatter ("rs") or all-gather ("ag")."""
    frac = (p - 1) / p
    b = 1 / link["gbps"]
    if algo == "ring":
        steps, moved = p - 1, frac * n
    elif algo == "hd":
        k = math.floor(math.log2(p))
        pp = 1 << k
        steps, moved = (k, frac * n) if pp == p else (k + 1, ((pp - 1) / pp + 1) * n)
    elif algo == "nhr":
        steps, moved = ceil_log2(p), frac * n
    else:  # mesh: every rank sends its p - 1 blocks at once
        return 1, max(n / p * b, frac * n / link["aggregate"]), frac * n if prim == "rs" else 0.0
    reduced = (moved if algo == "hd" else frac * n) if prim == "rs" else 0.0
    return steps, moved * b, reduced


def prim_ns(prim: str, algo: str, p: int, n: float, link: dict, reduce_gbps: float) -> float:
    if p <= 1:
        return 0.0

    def cost(which: str) -> float:
        steps, transfer, reduced = half(which, algo, p, n, link)
        return steps * link["alpha"] + transfer + (reduced / reduce_gbps if reduce_gbps > 0 else 0.0)

    if prim == "rs":
        return cost("rs")
    if prim in ("ag", "scatter", "gather"):
        return cost("ag")
    if prim == "ar":
        return cost("rs") + cost("ag")
    if prim == "bc":
        b = 1 / link["gbps"]
        return {
            "ring": (p - 1) * (link["alpha"] + n * b),
            "hd": ceil_log2(p) * (link["alpha"] + n * b),
            "nhr": 2 * ceil_log2(p) * link["alpha"] + 2 * (p - 1) / p * n * b,
            "mesh": 2 * cost("ag"),
        }[algo]
    if prim == "a2a":
        return cost("ag") if algo == "mesh" else (p - 1) * link["alpha"] + (p - 1) / p * n / link["gbps"]
    raise AssertionError(prim)


def levels(soc: str, p: int, inter: str | None = None) -> tuple[list[tuple[str, int, dict]], float]:
    """Innermost-first (algorithm, ranks, link) levels of p ranks filling servers in order."""
    spec = CATALOGUE["soc"][soc]
    topo = CATALOGUE["topology"][spec["topology"]]
    per = topo["ranks_per_server"]
    servers, local = math.ceil(p / per), min(p, per)
    h = TIMING[spec["topology"]]
    intra = {
        "alpha": h["collective_alpha_ns"],
        "gbps": h["collective_link_gbps"],
        "aggregate": max(h["collective_aggregate_gbps"], h["collective_link_gbps"]),
    }
    sio = {"alpha": topo["sio_alpha_ns"], "gbps": topo["sio_gbps"], "aggregate": topo["sio_gbps"]}
    # Between servers: timing.toml's RoCE link of the topology, else the topology table's.
    out_gbps = h.get("scaleout_link_gbps") or topo["scaleout_gbps"]
    out_alpha = h["scaleout_alpha_ns"] if h.get("scaleout_link_gbps") else topo["scaleout_alpha_ns"]
    out = {"alpha": out_alpha, "gbps": out_gbps, "aggregate": out_gbps}
    lv = []
    if local > 1:
        if topo["kind"] == "sio_mesh" and local % 2 == 0:
            lv.append(("mesh", 2, sio))
            if local > 2:
                lv.append(("mesh", local // 2, intra))
        elif spec["chip_type"] == 15:
            lv.append(("nhr", local, intra))
        else:
            lv.append(("mesh", local, intra))
    if servers > 1:
        lv.append((inter or "hd", servers, out))
    return lv, h["reduce_gbps"]


def staging_ns(soc: str, n: float) -> float:
    """Messages above the staging buffer move in chunks; each chunk after the first costs one more step."""
    h = TIMING[CATALOGUE["soc"][soc]["topology"]]
    return (math.ceil(n / h["staging_bytes"]) - 1) * h["staging_chunk_ns"] if n > h["staging_bytes"] else 0.0


# HCCL's own planning figures for its level-1 choice on A2 (hcomm coll_alg_operator.cc, device_capacity.cc):
# 60 us a step and 25 x 0.8 GiB/s of RDMA per NPU; the pipeline from a block of 1 MiB per rank (all-reduce).
PLANNING = {"alpha": 60000.0, "gbps": 25 * 0.8 * 1.073741824, "aggregate": 25 * 0.8 * 1.073741824}
PIPELINE_ALLREDUCE_BLOCK = 1 << 20


def levels_ns(lv: list[tuple[str, int, dict]], g: float, n: float) -> float:
    """An all-reduce over the levels: reduce-scatter up, all-reduce at the top, all-gather down."""
    if len(lv) == 2 and lv[1][0] == "pipeline":
        # S - 1 steps of one block per rank between servers, each overlapped with the next step's
        # reduce-scatter (all-gather) inside the server over the n / S bytes bound for one server.
        (algo, local, link), (_, servers, out) = lv
        between = out["alpha"] + n / (servers * local) / out["gbps"]
        return sum(
            (servers - 1) * max(inside, between) + inside
            for inside in (prim_ns(h, algo, local, n / servers, link, g) for h in ("rs", "ag"))
        )
    t, inner = 0.0, 1
    for algo, ranks, link in lv[:-1]:
        t += prim_ns("rs", algo, ranks, n / inner, link, g) + prim_ns("ag", algo, ranks, n / inner, link, g)
        inner *= ranks
    algo, ranks, link = lv[-1]
    return t + prim_ns("ar", algo, ranks, n / inner, link, g)


def hccl_pick(soc: str, p: int, n: float) -> str:
    """The level-1 algorithm HCCL picks for an fp32 sum all-reduce of n bytes across A2 servers."""
    lv, g = levels(soc, p, "ring")
    if len(lv) == 2 and n / p >= PIPELINE_ALLREDUCE_BLOCK:
        return "pipeline"
    loop = min(n, TIMING[CATALOGUE["soc"][soc]["topology"]]["staging_bytes"])
    costs = {a: levels_ns([*lv[:-1], (a, lv[-1][1], PLANNING)], g, loop) for a in ("ring", "nhr", "hd")}
    return min(costs, key=lambda a: (costs[a], ("ring", "nhr", "hd").index(a)))


def allreduce_ns(soc: str, p: int, n: float, inter: str | None = None) -> float:
    """Hierarchical all-reduce; without `inter`, the algorithm HCCL picks between A2 servers, the
    cheapest of H-D_R, ring and NHR on the other topologies (NHR on the 950)."""
    spec = CATALOGUE["soc"][soc]
    kind = CATALOGUE["topology"][spec["topology"]]["kind"]
    if inter is None and len(levels(soc, p)[0]) > 1 and spec["chip_type"] != 15:
        if kind == "mesh":
            inter = hccl_pick(soc, p, n)
        else:
            return min(allreduce_ns(soc, p, n, algo) for algo in ("hd", "ring", "nhr"))
    if inter is None and spec["chip_type"] == 15:
        inter = "nhr"
    lv, g = levels(soc, p, inter)
    return levels_ns(lv, g, n) + staging_ns(soc, n)


def flat_ns(prim: str, soc: str, p: int, n: float) -> float:
    ((algo, ranks, link),) = levels(soc, p)[0]
    return prim_ns(prim, algo, ranks, n, link, levels(soc, p)[1]) + staging_ns(soc, n)


def p2p_ns(soc: str, n: float) -> float:
    h = TIMING[CATALOGUE["soc"][soc]["topology"]]
    return h["p2p_alpha_ns"] + n / h["p2p_link_gbps"] + staging_ns(soc, n)


# --- running ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def exe(programs: ProgramBuilder) -> Path:
    return programs.build(
        [PROGRAMS / "hccl_reports.cpp"], libs=["hccl", "hcomm", "ascendcl", "profapi", "ascend_hal"]
    )


def tasks(exe: Path, native: NativeTree, soc: str, p: int, ops: list[str], **env: str) -> dict:
    """device -> [(work start, end)] of the HCCL tasks in order (matched through their task tracks).

    A collective's task begins when its rank's stream reaches it and waits inside for the other
    ranks; its work, the FFTS+ sub-task of its logs, starts once every rank's stream is there.
    Ascend 950 logs carry no sub-tasks: there the task's begin is returned (see `waits`)."""
    return task_spans(run_ops(exe, native, soc, p, ops, **env), soc)


def run_ops(
    exe: Path, native: NativeTree, soc: str, p: int, ops: list[str], bits: int = TASK_TIME, **env: str
) -> str:
    """The program's output for p ranks running the operations on the virtual clock."""
    settings = {
        "NPU_SIM_CLOCK": "virtual",
        "NPU_SIM_DEVICES": str(max(p, 8)),
        "NPU_SIM_SOC": soc,
        "NPU_SIM_SEED": "7",
        "HCCL_SIM_DATA": "0",
        "HCCL_CONNECT_TIMEOUT": "60",
        **env,
    }
    result = run_program(exe, native.env(**settings), [str(p), f"{bits:x}", *ops], timeout=180)
    assert result.returncode == 0, (
        f"exit {result.returncode}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    )
    return result.stdout


def task_spans(stdout: str, soc: str) -> dict:
    wide = CATALOGUE["soc"][soc]["chip_type"] == 15
    lines = [line.split() for line in stdout.splitlines()]
    assert all(f[3] == "0" for f in lines if f[0] == "X"), stdout[-2000:]
    logs: dict[tuple, dict[int, int]] = {}
    for f in lines:
        if f[0] == "S":
            dev, func, stream, task, ts = map(int, f[2:7])
            logs.setdefault((dev, 0 if wide else stream, task), {})[func] = ts
    out: dict[int, list[tuple[int, int]]] = {}
    for f in sorted((f for f in lines if f[0] == "K"), key=lambda f: int(f[1])):
        dev, stream, task = map(int, f[4:7])
        log = logs[(dev, 0 if wide else stream, task)]
        out.setdefault(dev, []).append((log.get(FFTS_BEGIN, log[0]), log[1]))
    return out


def within_jitter(observed: int, model: float) -> bool:
    return abs(observed - model) <= model * JITTER + 2


@pytest.mark.parametrize("p", [2, 4, 8])
def test_allreduce_starts_when_the_last_stream_is_ready(exe: Path, native: NativeTree, p: int) -> None:
    soc = "Ascend910B3"
    n = 4 << 20  # 1 Mi floats
    t = tasks(exe, native, soc, p, ["stagger", f"allreduce:{n // 4}"])
    # Ranks 0 and 1 first exchange 256 MiB (each direction alone takes alpha + n beta); the others are idle.
    stagger_end = max(t[0][0][1], t[1][0][1])
    for dev in (0, 1):
        start, end = t[dev][0]
        assert within_jitter(end - start, p2p_ns(soc, 256 << 20))
    gap = CATALOGUE["soc"][soc]["task_gap_ns"]
    starts = {t[d][-1][0] for d in range(p)}
    assert starts == {stagger_end + gap}
    for d in range(p):
        start, end = t[d][-1]
        assert within_jitter(end - start, allreduce_ns(soc, p, n)), (d, end - start, allreduce_ns(soc, p, n))


@pytest.mark.parametrize(
    "soc,p,algo",
    [
        ("Ascend910B3", 8, None),  # A2: HCCS full mesh
        ("Ascend910B3", 16, None),  # A2, two servers: mesh inside, HCCL's pipeline between (4 MiB per rank)
        ("Ascend910B3", 24, None),  # three servers: the pipeline again
        ("Ascend910_9382", 16, None),  # A3 server: SIO pairs, then mesh over the 8 packages
        ("Ascend910_9382", 2, None),  # one package: SIO only
        ("Ascend950PR_9599", 8, None),  # 950: NHR
    ],
)
def test_allreduce_duration_follows_the_model(
    exe: Path, native: NativeTree, soc: str, p: int, algo: str | None
) -> None:
    n = 64 << 20
    model = allreduce_ns(soc, p, n)
    t = tasks(exe, native, soc, p, [f"allreduce:{n // 4}"])
    if CATALOGUE["soc"][soc]["chip_type"] == 15:
        # No sub-task logs: the work starts when the last rank's task begins (it waits for none).
        latest = max(t[d][0][0] for d in range(p))
        assert all(t[d][0][0] <= latest for d in range(p))
        t = {d: [(latest, t[d][0][1])] for d in range(p)}
    starts = {t[d][0][0] for d in range(p)}
    assert len(starts) == 1, "every rank starts together"
    for d in range(p):
        start, end = t[d][0]
        assert within_jitter(end - start, model), (soc, p, end - start, model)


def test_hccl_algo_selects_the_inter_server_algorithm(exe: Path, native: NativeTree) -> None:
    n = 16 << 20
    t = tasks(exe, native, "Ascend910B3", 16, [f"allreduce:{n // 4}"], HCCL_ALGO="level0:NA;level1:ring")
    model = allreduce_ns("Ascend910B3", 16, n, "ring")
    assert all(within_jitter(e - s, model) for s, e in (t[d][0] for d in range(16)))


@pytest.mark.parametrize(
    "op,prim,bytes_of",
    [
        ("allgather", "ag", lambda n, p: 2 * n * p),  # fp16 elements; n per rank, output p * n
        ("reducescatter", "rs", lambda n, p: 2 * n * p),  # bfp16; input p * n
        ("alltoall", "a2a", lambda n, p: 8 * n * p),  # int64; p * n per rank
        ("broadcast", "bc", lambda n, p: n),  # int8 buffer
    ],
)
def test_other_collectives_follow_the_model(
    exe: Path, native: NativeTree, op: str, prim: str, bytes_of
) -> None:
    soc, p, n = "Ascend910B3", 8, 1 << 20
    model = flat_ns(prim, soc, p, bytes_of(n, p))
    t = tasks(exe, native, soc, p, [f"{op}:{n}"])
    for d in range(p):
        start, end = t[d][0]
        assert within_jitter(end - start, model), (op, end - start, model)


def algorithms(stdout: str) -> set[str]:
    """The algorithm names the HCCL op records carry (their hash ids resolved)."""
    lines = [line.split(maxsplit=2) for line in stdout.splitlines()]
    names = {int(f[1]): f[2] for f in lines if f[0] == "H" and len(f) == 3}
    return {names[int(line.split()[5])] for line in stdout.splitlines() if line.startswith("O ")}


def test_two_servers_cross_roce_with_the_algorithm_hccl_picks(exe: Path, native: NativeTree) -> None:
    """Sixteen ranks of an A2 SoC fill two servers of eight: the all-reduce runs each server's HCCS
    mesh and crosses the RoCE link (timing.toml's scaleout_link_gbps and scaleout_alpha_ns) in the
    algorithm HCCL's rule picks. A 1 MiB buffer (64 KiB per rank) is below the pipeline's 1 MiB per
    rank, and HCCL's planning costs of ring, NHR and H-D_R tie for two servers: ring, an all-reduce of
    the server's n / 8 bytes between the two. 256 MiB (16 MiB per rank) takes the pipeline: one step
    of n / 16 bytes over RoCE overlapped with the mesh over the n / 2 bytes bound for the other
    server. Each time is written out from the coefficients, beside the one-server time."""
    soc = "Ascend910B3"
    h = TIMING["a2_hccs_mesh8"]
    alpha, link = h["collective_alpha_ns"], h["collective_link_gbps"]
    aggregate = h["collective_aggregate_gbps"]
    out_alpha, out_gbps = h["scaleout_alpha_ns"], h["scaleout_link_gbps"]
    assert h["reduce_gbps"] == 0, "reductions inline: the times below carry no reduction term"

    def mesh(n: float) -> float:  # a reduce-scatter or all-gather over a server's 8 ranks
        return alpha + max(n / 8 / link, 7 / 8 * n / aggregate)

    for n, between in ((1 << 20, "RING"), (256 << 20, "PIPELINE")):
        one_server = 2 * mesh(n) + staging_ns(soc, n)
        if between == "RING":
            two_servers = 2 * mesh(n) + 2 * out_alpha + n / 8 / out_gbps + staging_ns(soc, n)
        else:
            step = mesh(n / 2)
            two_servers = 2 * (max(out_alpha + n / 16 / out_gbps, step) + step) + staging_ns(soc, n)
        for p, model, name in ((8, one_server, "MESH"), (16, two_servers, f"MESH-{between}")):
            out = run_ops(exe, native, soc, p, [f"allreduce:{n // 4}"], TASK_TIME | HCCL_TRACE)
            assert algorithms(out) == {name}, (n, p, algorithms(out))
            spans = task_spans(out, soc)
            for d in range(p):
                start, end = spans[d][0]
                assert within_jitter(end - start, model), (n, p, end - start, model)


@pytest.mark.parametrize(
    "op,count,env",
    [
        ("allgather", 1 << 20, {}),  # 2 MiB per rank (fp16) is over HCCL's 32 KiB block: the pipeline
        ("allreduce", 1 << 18, {"HCCL_ALGO": "level0:NA;level1:pipeline"}),  # 1 MiB, named by HCCL_ALGO
    ],
)
def test_pipeline_between_servers(exe: Path, native: NativeTree, op: str, count: int, env: dict) -> None:
    """The pipeline across two A2 servers: one RoCE step of a block per rank overlapped with the mesh
    all-gather (and reduce-scatter) over the half bound for the other server."""
    soc, p = "Ascend910B3", 16
    h = TIMING["a2_hccs_mesh8"]
    alpha, link = h["collective_alpha_ns"], h["collective_link_gbps"]
    aggregate = h["collective_aggregate_gbps"]
    n = 2 * count * p if op == "allgather" else 4 * count  # the all-gather's output; the all-reduce's buffer

    def mesh(m: float) -> float:
        return alpha + max(m / 8 / link, 7 / 8 * m / aggregate)

    step = mesh(n / 2)
    half = max(h["scaleout_alpha_ns"] + n / 16 / h["scaleout_link_gbps"], step) + step
    model = (half if op == "allgather" else 2 * half) + staging_ns(soc, n)
    out = run_ops(exe, native, soc, p, [f"{op}:{count}"], TASK_TIME | HCCL_TRACE, **env)
    assert algorithms(out) == {"MESH-PIPELINE"}, algorithms(out)
    spans = task_spans(out, soc)
    for d in range(p):
        start, end = spans[d][0]
        assert within_jitter(end - start, model), (op, end - start, model)
