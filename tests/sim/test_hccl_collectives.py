"""HCCL collectives move and reduce real data across ranks: threads of one process and separate processes.

programs/hccl_collectives.cpp runs a list of cases on every rank and prints each rank's output
buffer. The expected bytes are computed here, independently: numpy for the IEEE types, Python
integers (wrapping to the element width) for the integer types, and a restatement of the
documented encodings (csrc/sim/hccl/numeric_formats.h) for BFP16 and the 8-bit float formats.
Reductions run in rank order and round to the format after every step, as the library states.
"""

from __future__ import annotations

import bisect
import itertools
import math
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from support.hccl import rank_table
from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"

# HcclDataType / HcclReduceOp / HcclResult values (hccl_types.h).
INT8, INT16, INT32, FP16, FP32, INT64, UINT64, UINT8, UINT16, UINT32, FP64, BFP16, INT128 = range(13)
HIF8, FP8E4M3, FP8E5M2, FP8E8M0 = 14, 15, 16, 17
SUM, PROD, MAX, MIN = range(4)
SUCCESS, E_PARA, E_TIMEOUT = 0, 1, 9

ALL_DTYPES = [
    INT8,
    INT16,
    INT32,
    FP16,
    FP32,
    INT64,
    UINT64,
    UINT8,
    UINT16,
    UINT32,
    FP64,
    BFP16,
    INT128,
    HIF8,
    FP8E4M3,
    FP8E5M2,
    FP8E8M0,
]
SIZE = {
    INT8: 1,
    UINT8: 1,
    HIF8: 1,
    FP8E4M3: 1,
    FP8E5M2: 1,
    FP8E8M0: 1,
    INT16: 2,
    UINT16: 2,
    FP16: 2,
    BFP16: 2,
    INT32: 4,
    UINT32: 4,
    FP32: 4,
    INT64: 8,
    UINT64: 8,
    FP64: 8,
    INT128: 16,
}
INTS = {
    INT8: (8, True),
    INT16: (16, True),
    INT32: (32, True),
    INT64: (64, True),
    INT128: (128, True),
    UINT8: (8, False),
    UINT16: (16, False),
    UINT32: (32, False),
    UINT64: (64, False),
}


# --- the narrow float formats, restated from their documentation ----------------------------------


def _e4m3(c: int) -> float:
    s = -1.0 if c & 0x80 else 1.0
    e, m = (c >> 3) & 0xF, c & 7
    if e == 0xF and m == 7:
        return math.nan
    return s * (m / 8 * 2.0**-6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))


def _e5m2(c: int) -> float:
    s = -1.0 if c & 0x80 else 1.0
    e, m = (c >> 2) & 0x1F, c & 3
    if e == 0x1F:
        return s * math.inf if m == 0 else math.nan
    return s * (m / 4 * 2.0**-14 if e == 0 else (1 + m / 4) * 2.0 ** (e - 15))


def _e8m0(c: int) -> float:
    return math.nan if c == 0xFF else 2.0 ** (c - 127)


def _hif8(c: int) -> float:
    if c == 0x00:
        return 0.0
    if c == 0x80:
        return math.nan
    s = -1.0 if c & 0x80 else 1.0
    if c & 0x7F == 0x6F:
        return s * math.inf
    v = c & 0x7F
    if v >> 3 == 0:  # denormal
        return s * 2.0 ** ((v & 7) - 23)
    # Dot field: 11 -> 4 exponent bits, 10 -> 3, 01 -> 2, 001 -> 1, 0001 -> 0.
    if v >> 5 == 0b11:
        ebits, mbits = 4, 1
    elif v >> 5 == 0b10:
        ebits, mbits = 3, 2
    elif v >> 5 == 0b01:
        ebits, mbits = 2, 3
    elif v >> 4 == 0b001:
        ebits, mbits = 1, 3
    else:
        ebits, mbits = 0, 3
    m = v & ((1 << mbits) - 1)
    e = 0
    if ebits:
        field = (v >> mbits) & ((1 << ebits) - 1)
        negative = field >> (ebits - 1)
        magnitude = (field & ((1 << (ebits - 1)) - 1)) | (1 << (ebits - 1))
        e = -magnitude if negative else magnitude
    return s * 2.0**e * (1 + m / (1 << mbits))


@dataclass(frozen=True)
class Fp8:
    decode: object
    signed: bool
    ties_even: bool
    nan: int
    inf: tuple[float, int] | None  # (the value standing for infinity when rounding, its code)
    saturate_inf_to_nan: bool = False

    def table(self) -> list[tuple[float, int]]:
        top = 0x80 if self.signed else 0x100
        vals = [(self.decode(c), c) for c in range(top)]
        vals = [(v, c) for v, c in vals if math.isfinite(v) and v >= 0]
        if self.inf:
            vals.append(self.inf)
        return sorted(vals)

    def encode(self, x: float) -> int:
        if math.isnan(x):
            return self.nan
        neg = math.copysign(1, x) < 0
        if not self.signed and neg and x != 0:
            return self.nan
        if self.saturate_inf_to_nan and math.isinf(x):
            return self.nan | (0x80 if neg else 0)
        a = abs(x)
        t = self.table()
        keys = [v for v, _ in t]
        i = bisect.bisect_left(keys, a)
        if i == len(t):
            code = t[-1][1]
        elif keys[i] == a or i == 0:
            code = t[i][1]
        else:
            (lo, lc), (hi, hc) = t[i - 1], t[i]
            if a - lo < hi - a:
                code = lc
            elif hi - a < a - lo:
                code = hc
            else:
                code = (lc if lc % 2 == 0 else hc) if self.ties_even else hc
        if not self.signed:
            return code
        if self is FORMATS[HIF8] and code == 0:
            return 0
        return code | (0x80 if neg else 0)


FORMATS = {
    FP8E4M3: Fp8(_e4m3, True, True, 0x7F, None, saturate_inf_to_nan=True),
    FP8E5M2: Fp8(_e5m2, True, True, 0x7F, (65536.0, 0x7C)),
    FP8E8M0: Fp8(_e8m0, False, False, 0xFF, None),
    HIF8: Fp8(_hif8, True, False, 0x80, (49152.0, 0x6F)),
}


def bf16_round(x: float) -> int:
    b = struct.unpack("<I", struct.pack("<f", np.float32(x)))[0]
    if (b & 0x7FFFFFFF) > 0x7F800000:
        return (b >> 16) | 0x40
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def bf16_value(h: int) -> float:
    return struct.unpack("<f", struct.pack("<I", h << 16))[0]


# --- values <-> bytes ----------------------------------------------------------------------------


def input_values(dtype: int, rank: int, n: int, salt: int) -> list:
    """The formula programs/hccl_collectives.cpp fills inputs with."""
    if dtype == FP8E8M0:
        return [2.0 ** ((rank + i + salt) % 5 - 2) for i in range(n)]
    if dtype in INTS:
        signed = INTS[dtype][1]
        return [(rank * 7 + i * 3 + salt) % 11 - (5 if signed else 0) for i in range(n)]
    return [((rank * 5 + i * 3 + salt) % 15 - 7) * 0.25 for i in range(n)]


def encode(dtype: int, vals: list) -> bytes:
    if dtype in INTS:
        bits, _ = INTS[dtype]
        return b"".join((v % (1 << bits)).to_bytes(bits // 8, "little") for v in vals)
    if dtype == FP32:
        return np.array(vals, dtype=np.float32).tobytes()
    if dtype == FP64:
        return np.array(vals, dtype=np.float64).tobytes()
    if dtype == FP16:
        return np.array(vals, dtype=np.float32).astype(np.float16).tobytes()
    if dtype == BFP16:
        return b"".join(bf16_round(v).to_bytes(2, "little") for v in vals)
    return bytes(FORMATS[dtype].encode(v) for v in vals)


def reduce_step(dtype: int, op: int, a, b):
    """One step of the reduction, rounded to the format."""
    if dtype in INTS:
        bits, signed = INTS[dtype]
        r = {SUM: a + b, PROD: a * b, MAX: max(a, b), MIN: min(a, b)}[op] % (1 << bits)
        return r - (1 << bits) if signed and r >= 1 << (bits - 1) else r
    fa, fb = float(a), float(b)
    if op in (MAX, MIN) and (math.isnan(fa) or math.isnan(fb)):
        r = math.nan
    else:
        r = {SUM: fa + fb, PROD: fa * fb, MAX: max(fa, fb), MIN: min(fa, fb)}[op]
    if dtype == FP64:
        return r
    # The library applies the operation in float (binary32), then rounds to the format.
    r32 = float(np.float32(r))
    if dtype == FP32:
        return r32
    if dtype == FP16:
        return float(np.float32(r32).astype(np.float16))
    if dtype == BFP16:
        return bf16_value(bf16_round(r32))
    fmt = FORMATS[dtype]
    return fmt.decode(fmt.encode(r32))


def canon(dtype: int, vals: list) -> list:
    """Values as the format holds them (inputs are exact, so this only normalises types)."""
    if dtype in INTS:
        return vals
    return [float(v) for v in vals]


def reduce_all(dtype: int, op: int, columns: list[list], hosts: list[list[int]] | None = None) -> list:
    """The reduction of columns[0..p) in rank order, or, given the ranks of each host (hosts in
    order of their lowest rank), in the peer-to-peer path's order across hosts: each host's ranks
    in rank order, then the hosts' partials in host order."""
    if hosts is not None and len(hosts) > 1:
        return reduce_all(dtype, op, [reduce_all(dtype, op, [columns[r] for r in h]) for h in hosts])
    out = list(columns[0])
    for col in columns[1:]:
        out = [reduce_step(dtype, op, a, b) for a, b in zip(out, col, strict=False)]
    return out


# --- cases ----------------------------------------------------------------------------------------


@dataclass
class Case:
    id: int
    op: str
    dtype: int = INT32
    redop: int = SUM
    count: int = 5
    root: int = 0
    skew: str = "none"

    def line(self) -> str:
        return f"{self.id} {self.op} {self.dtype} {self.redop} {self.count} {self.root} {self.skew}"


def vcount(i: int, j: int) -> int:
    return (i + 2 * j) % 3 + 1


def expected(case: Case, p: int, hosts: list[list[int]] | None = None) -> dict[int, tuple[int, bytes | None]]:
    """rank -> (status, output bytes or None when the output is not checked). ``hosts``: the ranks
    of each host when the ranks span hosts on the peer-to-peer path (its reduction order)."""
    dt, n, es = case.dtype, case.count, SIZE[case.dtype]
    pad = b"\xab" * es

    def inp(r: int, count: int) -> list:
        return canon(dt, input_values(dt, r, count, case.id))

    if case.skew != "none":
        if case.op == "batch":
            # Point to point: only the two pairs the last rank is part of disagree.
            involved = {p - 2, p - 1, 0}
            normal = expected(Case(case.id, case.op, case.dtype, case.redop, case.count, case.root), p)
            return {r: (E_PARA, None) if r in involved else normal[r] for r in range(p)}
        return {r: (E_PARA, None) for r in range(p)}
    out: dict[int, tuple[int, bytes | None]] = {}
    op = case.op.removesuffix("_inplace")
    for r in range(p):
        if op == "allreduce":
            res = encode(dt, reduce_all(dt, case.redop, [inp(k, n) for k in range(p)], hosts))
        elif op == "reduce":
            res = (
                encode(dt, reduce_all(dt, case.redop, [inp(k, n) for k in range(p)], hosts))
                if r == case.root
                else pad * n
            )
        elif op == "broadcast":
            res = encode(dt, inp(case.root, n))
        elif op == "allgather":
            res = b"".join(encode(dt, inp(k, n)) for k in range(p))
        elif op == "allgatherv":
            res = b"".join(encode(dt, inp(k, n + k)) + pad for k in range(p))
        elif op == "reducescatter":
            cols = [inp(k, p * n)[r * n : (r + 1) * n] for k in range(p)]
            res = encode(dt, reduce_all(dt, case.redop, cols, hosts))
        elif op == "reducescatterv":
            counts = [n + j for j in range(p)]
            displs = [sum(c + 1 for c in counts[:j]) for j in range(p)]
            total = displs[-1] + counts[-1] + 1
            cols = [inp(k, total)[displs[r] : displs[r] + counts[r]] for k in range(p)]
            res = encode(dt, reduce_all(dt, case.redop, cols))  # the V forms cross whole: rank order
        elif op == "alltoall":
            res = b"".join(encode(dt, inp(k, p * n)[r * n : (r + 1) * n]) for k in range(p))
        elif op in ("alltoallv", "alltoallvc"):
            gap = op == "alltoallv"
            parts = []
            for j in range(p):
                sends = [vcount(j, k) for k in range(p)]
                sd = [sum(c + gap for c in sends[:k]) for k in range(p)]
                total = sd[-1] + sends[-1] + gap
                parts.append(encode(dt, inp(j, total)[sd[r] : sd[r] + vcount(j, r)]) + (pad if gap else b""))
            res = b"".join(parts)
        elif op == "scatter":
            res = encode(dt, inp(case.root, p * n)[r * n : (r + 1) * n])
        elif op == "sendrecv":
            peer = r ^ 1
            res = encode(dt, inp(peer, n)) if peer < p else pad * n
        elif op == "batch":
            res = encode(dt, inp((r - 1) % p, n))
        elif op == "barrier":
            res = b""
        else:
            raise AssertionError(op)
        out[r] = (SUCCESS, res)
    return out


def parse(stdout: str) -> tuple[dict, dict, dict, dict]:
    """(init status per rank, names per rank, results per (rank, case), waits per (rank, case))."""
    init, names, results, waits = {}, {}, {}, {}
    for line in stdout.splitlines():
        f = line.split()
        if f[0] == "I":
            init[int(f[1])] = int(f[2])
        elif f[0] == "N":
            names[int(f[1])] = (int(f[2]), int(f[3]), f[4])
        elif f[0] == "R":
            results[(int(f[1]), int(f[2]))] = (int(f[3]), b"" if f[4] == "-" else bytes.fromhex(f[4]))
        elif f[0] == "W":
            waits[(int(f[1]), int(f[2]))] = int(f[3])
    return init, names, results, waits


def check(cases: list[Case], p: int, stdout: str, hosts: list[list[int]] | None = None) -> None:
    init, names, results, _ = parse(stdout)
    assert init == {r: SUCCESS for r in range(p)}, stdout[:2000]
    assert sorted(names) == list(range(p))
    assert {names[r][:2] for r in range(p)} == {(p, r) for r in range(p)} or all(
        names[r][:2] == (p, r) for r in range(p)
    )
    assert len({names[r][2] for r in range(p)}) == 1, "every rank sees the same communicator name"
    failures = []
    for case in cases:
        for r, (status, data) in expected(case, p, hosts).items():
            got_status, got = results[(r, case.id)]
            if got_status != status or (data is not None and got != data):
                failures.append(
                    f"case {case.line()} rank {r}: status {got_status} (want {status})\n"
                    f"  got  {got.hex()}\n  want {data.hex() if data is not None else '-'}"
                )
    assert not failures, f"{len(failures)} mismatches:\n" + "\n".join(failures[:10])


def numbered(specs: list[tuple]) -> list[Case]:
    return [Case(i + 1, *spec) for i, spec in enumerate(specs)]


def full_suite(p: int) -> list[Case]:
    """Every operation; all-reduce over every data type and reduction."""
    specs: list[tuple] = []
    for dt, op in itertools.product(ALL_DTYPES, (SUM, PROD, MAX, MIN)):
        specs.append(("allreduce", dt, op, 7))
    specs += [("allreduce", FP32, SUM, 0), ("allreduce", INT8, SUM, 1)]
    for dt in (INT32, FP16, BFP16, HIF8, FP8E4M3, FP8E5M2, INT128, FP8E8M0):
        specs += [
            ("reduce", dt, SUM, 6, 1 % p),
            ("reducescatter", dt, MAX, 3),
            ("reducescatterv", dt, SUM, 2),
        ]
    for dt in (INT8, INT32, FP16, FP64, UINT64, INT128, HIF8):
        specs += [
            ("broadcast", dt, SUM, 6, p - 1),
            ("allgather", dt, SUM, 3),
            ("allgatherv", dt, SUM, 2),
            ("alltoall", dt, SUM, 2),
            ("alltoallv", dt, SUM, 0),
            ("alltoallvc", dt, SUM, 0),
            ("scatter", dt, SUM, 3, p // 2),
            ("sendrecv", dt, SUM, 4),
            ("batch", dt, SUM, 4),
        ]
    specs += [
        ("allreduce_inplace", FP32, SUM, 9),
        ("allreduce_inplace", INT16, PROD, 9),
        ("allgather_inplace", INT32, SUM, 4),
        ("reducescatter_inplace", FP16, SUM, 3),
        ("barrier", INT32, SUM, 0),
    ]
    return numbered(specs)


def mismatch_suite(p: int) -> list[Case]:
    """The last rank disagrees; the communicator stays usable afterwards."""
    return numbered(
        [
            ("allreduce", INT32, SUM, 5, 0, "count"),
            ("allreduce", INT32, SUM, 5, 0, "dtype"),
            ("allreduce", INT32, SUM, 5, 0, "redop"),
            ("broadcast", INT32, SUM, 5, 0, "root"),
            ("allgather", INT32, SUM, 5, 0, "count"),
            ("reducescatter", FP32, SUM, 5, 0, "redop"),
            ("alltoall", INT32, SUM, 2, 0, "count"),
            ("allreduce", INT32, SUM, 5),  # after the failures: still works
            ("batch", INT32, SUM, 3, 0, "count"),
            ("batch", INT32, SUM, 3),
        ]
    )


# --- running -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "hccl_collectives.cpp"], libs=["hccl", "hcomm", "ascendcl"])


def case_file(tmp_path: Path, cases: list[Case]) -> Path:
    path = tmp_path / "cases.txt"
    path.write_text("".join(c.line() + "\n" for c in cases))
    return path


def sim_env(native: NativeTree, **extra: str) -> dict[str, str]:
    return native.env(**{"NPU_SIM_DEVICES": "8", "HCCL_CONNECT_TIMEOUT": "30", **extra})


def run_threads(
    exe: Path, native: NativeTree, mode: str, p: int, cases: list[Case], tmp_path: Path, **extra: str
) -> str:
    result = run_program(
        exe, sim_env(native, **extra), [mode, str(p), str(case_file(tmp_path, cases))], timeout=240
    )
    assert result.returncode == 0, (
        f"exit {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
    return result.stdout


def run_processes(
    exe: Path,
    native: NativeTree,
    p: int,
    cases: list[Case],
    tmp_path: Path,
    mode: str = "proc",
    timeout: float = 240,
    **extra: str,
) -> str:
    """torchrun style: one process per rank, told its RANK and WORLD_SIZE by the environment."""
    cases_path = case_file(tmp_path, cases)
    root = tmp_path / "root_info.bin"
    procs = []
    for r in range(p):
        env = sim_env(native, RANK=str(r), WORLD_SIZE=str(p), HCCL_TEST_ROOT_FILE=str(root), **extra)
        procs.append(
            subprocess.Popen(
                [str(exe), mode, str(p), str(cases_path)],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=timeout)
        assert proc.returncode == 0, f"exit {proc.returncode}\n{out[-2000:]}\n{err[-2000:]}"
        outs.append(out)
    return "".join(outs)


@pytest.mark.parametrize("p", [2, 4, 8])
def test_threads_every_operation_dtype_and_reduction(
    exe: Path, native: NativeTree, tmp_path: Path, p: int
) -> None:
    cases = full_suite(p)
    check(cases, p, run_threads(exe, native, "threads", p, cases, tmp_path))


def test_comm_init_all_runs_the_operations(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    cases = numbered(
        [
            ("allreduce", FP32, SUM, 6),
            ("allgather", INT8, SUM, 3),
            ("batch", INT64, SUM, 2),
            ("alltoallv", INT32, SUM, 0),
            ("reduce", BFP16, MAX, 4, 2),
        ]
    )
    check(cases, 4, run_threads(exe, native, "initall", 4, cases, tmp_path))


def test_large_buffers_reduce_across_chunks(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    # 70000 int32 = 280 KB per rank: more than one reduction chunk (256 KiB).
    cases = numbered([("allreduce", INT32, SUM, 70000), ("reducescatter_inplace", FP32, SUM, 20000)])
    check(cases, 4, run_threads(exe, native, "threads", 4, cases, tmp_path))


@pytest.mark.parametrize("p", [2, 4, 8])
def test_processes_move_data_over_the_rendezvous(
    exe: Path, native: NativeTree, tmp_path: Path, p: int
) -> None:
    cases = numbered(
        [
            (op, dt, redop, 5, root)
            for op, dt, redop, root in [
                ("allreduce", FP32, SUM, 0),
                ("allreduce", FP16, PROD, 0),
                ("allreduce", HIF8, SUM, 0),
                ("allreduce", INT128, MIN, 0),
                ("reduce", INT32, MAX, p - 1),
                ("broadcast", UINT8, SUM, 1 % p),
                ("allgather", BFP16, SUM, 0),
                ("allgatherv", INT16, SUM, 0),
                ("reducescatter", FP8E4M3, SUM, 0),
                ("reducescatterv", FP8E5M2, SUM, 0),
                ("alltoall", INT64, SUM, 0),
                ("alltoallv", INT32, SUM, 0),
                ("alltoallvc", UINT16, SUM, 0),
                ("scatter", FP64, SUM, p - 1),
                ("sendrecv", INT32, SUM, 0),
                ("batch", FP32, SUM, 0),
                ("allreduce_inplace", INT32, SUM, 0),
                ("allgather_inplace", FP16, SUM, 0),
                ("barrier", INT32, SUM, 0),
            ]
        ]
    )
    check(cases, p, run_processes(exe, native, p, cases, tmp_path))


def test_processes_large_message_is_chunked(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    cases = numbered([("allreduce", INT32, SUM, 300000), ("alltoall", INT8, SUM, 100000)])
    check(cases, 2, run_processes(exe, native, 2, cases, tmp_path))


@pytest.mark.parametrize("mode,p", [("threads", 4), ("threads", 8)])
def test_mismatched_arguments_fail_on_every_rank(
    exe: Path, native: NativeTree, tmp_path: Path, mode: str, p: int
) -> None:
    cases = mismatch_suite(p)
    check(cases, p, run_threads(exe, native, mode, p, cases, tmp_path))


def test_mismatched_arguments_fail_on_every_process(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    cases = mismatch_suite(4)
    check(cases, 4, run_processes(exe, native, 4, cases, tmp_path))


# The operation times out (HCCL_EXEC_TIMEOUT), not the communicator's creation: that keeps
# run_threads' / run_processes' HCCL_CONNECT_TIMEOUT of 30 s, since ranks started under a sanitizer on
# a busy machine can take more than a second to meet.
def _missing(stdout: str, p: int, case_id: int, timeout_ms: int) -> None:
    _, _, results, waits = parse(stdout)
    for r in range(p - 1):
        assert results[(r, case_id)][0] == E_TIMEOUT, stdout
        assert timeout_ms * 0.9 <= waits[(r, case_id)] < timeout_ms + 5000, waits
    assert (p - 1, case_id) not in results


def test_a_rank_that_never_arrives_times_out_threads(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    cases = numbered([("allreduce", INT32, SUM, 4), ("missing", INT32, SUM, 4)])
    out = run_threads(
        exe,
        native,
        "threads",
        4,
        cases,
        tmp_path,
        HCCL_EXEC_TIMEOUT="1",
        HCCL_TEST_MISSING_SLEEP_MS="2500",
    )
    _missing(out, 4, 2, 1000)


def test_a_rank_that_never_arrives_times_out_processes(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    cases = numbered([("allreduce", INT32, SUM, 4), ("missing", INT32, SUM, 4)])
    out = run_processes(
        exe, native, 4, cases, tmp_path, HCCL_EXEC_TIMEOUT="1", HCCL_TEST_MISSING_SLEEP_MS="2500"
    )
    _missing(out, 4, 2, 1000)


@pytest.mark.parametrize("mode", ["threads", "proc"])
def test_a_rank_that_never_joins_times_out_at_init(
    exe: Path, native: NativeTree, tmp_path: Path, mode: str
) -> None:
    cases = numbered([("allreduce", INT32, SUM, 4)])
    extra = {"HCCL_CONNECT_TIMEOUT": "1", "HCCL_TEST_SKIP_LAST_INIT": "1"}
    if mode == "threads":
        out = run_threads(exe, native, "threads", 4, cases, tmp_path, **extra)
    else:
        out = run_processes(exe, native, 4, cases, tmp_path, **extra)
    init, _, results, _ = parse(out)
    assert [init[r] for r in range(3)] == [E_TIMEOUT] * 3, out
    assert not results


def test_rank_table_threads_meet_at_the_first_server(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    table = rank_table(tmp_path, 1, 4)
    cases = numbered([("allreduce", FP32, SUM, 5), ("alltoall", INT32, SUM, 2)])
    check(cases, 4, run_threads(exe, native, "cluster", 4, cases, tmp_path, RANK_TABLE_FILE=str(table)))


def test_rank_table_processes_meet_at_the_first_server(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    table = rank_table(tmp_path, 2, 2)
    cases = numbered([("allreduce", FP32, SUM, 5), ("broadcast", INT8, SUM, 5, 3)])
    out = run_processes(exe, native, 4, cases, tmp_path, mode="cluster-proc", RANK_TABLE_FILE=str(table))
    check(cases, 4, out)


def test_rank_table_processes_meet_at_hccl_sim_master(exe: Path, native: NativeTree, tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    table = rank_table(tmp_path, 1, 4)
    cases = numbered([("allreduce", INT64, MAX, 5), ("allgather", FP16, SUM, 2)])
    out = run_processes(
        exe,
        native,
        4,
        cases,
        tmp_path,
        mode="cluster-proc",
        RANK_TABLE_FILE=str(table),
        HCCL_SIM_MASTER=f"127.0.0.1:{port}",
    )
    check(cases, 4, out)


# --- the reference itself ----------------------------------------------------------------------------


def test_reference_formats_round_trip_their_codes() -> None:
    for dt, fmt in FORMATS.items():
        for code in range(256):
            v = fmt.decode(code)
            if math.isnan(v) or (dt == FP8E4M3 and code & 0x7F == 0x7F):
                continue
            if dt == HIF8 and code in (0x00, 0x80):
                continue
            assert fmt.encode(v) == code, (dt, hex(code), v)
    assert _hif8(0x6E) == 2.0**15 and _hif8(0x01) == 2.0**-22 and _hif8(0x08) == 1.0
    assert FORMATS[HIF8].encode(40960.0) == 0x6F and FORMATS[HIF8].encode(40959.0) == 0x6E
    assert FORMATS[FP8E5M2].encode(61440.0) == 0x7C and FORMATS[FP8E4M3].encode(1e6) == 0x7E


def test_reference_numpy_half_rounding() -> None:
    # numpy rounds binary32 -> binary16 to nearest even, as the library states for FP16.
    assert float(np.float32(2049.0).astype(np.float16)) == 2048.0
    assert float(np.float32(2051.0).astype(np.float16)) == 2052.0
