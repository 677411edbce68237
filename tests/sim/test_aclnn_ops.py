"""The aclnn operator library (libopapi + libnnopbase): numbers against numpy, views, and error paths.

One C++ program (programs/aclnn_runner.cpp) runs any operator from a spec file: the test writes
the input tensors' storage bytes (float32, float16 or bfloat16 bits, with arbitrary strides and
offsets), the program copies them to device memory, runs the two phases and writes the output
storage back; the reference is computed here with numpy in float64 from the same (quantized) inputs.
"""

from __future__ import annotations

import math
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from support.native import NativeTree, ProgramBuilder, run_program

PROGRAMS = Path(__file__).resolve().parent / "programs"

ACL = {"f32": 0, "f16": 1, "i8": 2, "i32": 3, "u8": 4, "i64": 9, "f64": 11, "bool": 12, "bf16": 27}
STORAGE = {
    "f32": np.float32,
    "f16": np.float16,
    "bf16": np.uint16,
    "i8": np.int8,
    "i32": np.int32,
    "u8": np.uint8,
    "i64": np.int64,
    "f64": np.float64,
    "bool": np.uint8,
}
FLOATS = ["f32", "f16", "bf16"]
# Tolerances per output type: about one unit in the last place, plus float32 accumulation.
TOL = {"f32": (2e-5, 2e-6), "f16": (2e-3, 2e-3), "bf16": (1.6e-2, 1.6e-2), "f64": (1e-12, 0)}

PARAM_NULLPTR = 161001
PARAM_INVALID = 161002
INNER = 561000
RUNTIME_ERROR = 361001
FIND_KERNEL = 561003


def bf16_bits(x: np.ndarray) -> np.ndarray:
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def encode(x: np.ndarray, dt: str) -> np.ndarray:
    if dt == "bf16":
        return bf16_bits(x)
    return np.asarray(x).astype(STORAGE[dt])


def decode(raw: np.ndarray, dt: str) -> np.ndarray:
    if dt == "bf16":
        return bf16_values(raw).astype(np.float64)
    return raw.astype(np.float64)


def quantize(x: np.ndarray, dt: str) -> np.ndarray:
    """The float64 values of x after a round trip through dt."""
    return decode(encode(x, dt), dt)


@dataclass
class T:
    """A device tensor: logical values plus an optional view (strides/offset in elements)."""

    name: str
    dt: str
    values: np.ndarray
    strides: tuple[int, ...] | None = None
    offset: int = 0
    storage: int | None = None
    out: bool = False
    positions: np.ndarray = field(init=False, repr=False)

    def layout(self) -> tuple[tuple[int, ...], int]:
        shape = self.values.shape
        strides = self.strides
        if strides is None:
            strides = tuple(int(np.prod(shape[i + 1 :])) for i in range(len(shape)))
        idx = np.indices(shape).reshape(len(shape), -1) if shape else np.zeros((0, 1), dtype=np.int64)
        self.positions = self.offset + (np.asarray(strides, dtype=np.int64)[:, None] * idx).sum(axis=0)
        span = int(self.positions.max()) + 1 if self.positions.size else 0
        return strides, max(self.storage or 0, span, 1)


def transposed_view(name: str, dt: str, values: np.ndarray, **kw: object) -> T:
    """values (2-D) held in storage as their transpose: a non-contiguous view."""
    rows = values.shape[0]
    return T(name, dt, values, strides=(1, rows), **kw)


@dataclass
class Result:
    phase1: int
    workspace: int
    phase2: list[int]
    outputs: dict[str, np.ndarray]
    proc: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def runner(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "aclnn_runner.cpp"], libs=["ascendcl", "opapi", "nnopbase"])


class Op:
    def __init__(self, exe: Path, native: NativeTree, tmp: Path) -> None:
        self.exe, self.native, self.tmp = exe, native, tmp
        self.count = 0

    def __call__(
        self,
        op: str,
        tensors: list[T],
        attrs: list[str] | None = None,
        after: list[str] | None = None,
        **env: str,
    ) -> Result:
        """Runs `op`; `attrs` are spec lines before the tensors, `after` lines after them (lists)."""
        self.count += 1
        work = self.tmp / f"run{self.count}"
        work.mkdir()
        lines = [f"op {op}", *(attrs or [])]
        for t in tensors:
            strides, storage = t.layout()
            raw = np.zeros(storage, dtype=STORAGE[t.dt])
            if t.values.size:
                raw[t.positions] = encode(t.values, t.dt).reshape(-1)
            infile, outfile = work / f"{t.name}.in", work / f"{t.name}.out"
            raw.tofile(infile)
            shape = t.values.shape
            lines.append(
                " ".join(
                    str(v)
                    for v in [
                        "tensor",
                        t.name,
                        ACL[t.dt],
                        len(shape),
                        *shape,
                        *strides,
                        t.offset,
                        storage,
                        infile,
                        outfile if t.out else "-",
                    ]
                )
            )
        lines.extend(after or [])
        spec = work / "spec.txt"
        spec.write_text("\n".join(lines) + "\n")
        proc = run_program(self.exe, self.native.env(NPU_SIM_CLOCK="virtual", **env), [str(spec)])
        out = proc.stdout.split()
        phase1 = int(out[1]) if len(out) > 1 else -1
        ws = int(out[2]) if len(out) > 2 else 0
        phase2 = [int(out[i + 1]) for i, tok in enumerate(out) if tok == "phase2"]
        outputs = {}
        for t in tensors:
            if t.out and phase2 and all(s == 0 for s in phase2):
                raw = np.fromfile(work / f"{t.name}.out", dtype=STORAGE[t.dt])
                outputs[t.name] = decode(raw[t.positions], t.dt).reshape(t.values.shape)
        return Result(phase1, ws, phase2, outputs, proc)


@pytest.fixture
def op(runner: Path, native: NativeTree, tmp_path: Path) -> Op:
    return Op(runner, native, tmp_path)


def rand(
    rng: np.random.Generator, shape: tuple[int, ...], dt: str, low: float = -2.0, high: float = 2.0
) -> np.ndarray:
    return quantize(rng.uniform(low, high, size=shape), dt)


def check(res: Result, name: str, ref: np.ndarray, dt: str, scale: float = 1.0) -> None:
    assert res.phase1 == 0 and res.phase2 and all(s == 0 for s in res.phase2), res.proc.stderr
    rtol, atol = TOL[dt]
    np.testing.assert_allclose(
        res.outputs[name], quantize(ref, dt) if dt != "f64" else ref, rtol=rtol * scale, atol=atol * scale
    )


def out(name: str, dt: str, shape: tuple[int, ...]) -> T:
    return T(name, dt, np.zeros(shape), out=True)


# --------------------------------------------------------------------------------------------------
# Numbers


def test_add_matches_the_upstream_sample(op: Op) -> None:
    self_ = np.arange(8, dtype=np.float64).reshape(4, 2)
    other = np.array([1, 1, 1, 2, 2, 2, 3, 3], dtype=np.float64).reshape(4, 2)
    res = op(
        "Add",
        [T("self", "f32", self_), T("other", "f32", other), out("out", "f32", (4, 2))],
        ["scalar alpha 0 1.2"],
    )
    assert res.workspace == 0
    np.testing.assert_allclose(
        res.outputs["out"].reshape(-1), [1.2, 2.2, 3.2, 5.4, 6.4, 7.4, 9.6, 10.6], rtol=1e-6
    )


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("Add", lambda a, b: a + 0.5 * b),
        ("Sub", lambda a, b: a - 0.5 * b),
        ("Mul", lambda a, b: a * b),
        ("Div", lambda a, b: a / b),
    ],
)
def test_binary_ops_broadcast(op: Op, dt: str, name: str, fn) -> None:
    rng = np.random.default_rng(1)
    a = rand(rng, (3, 4, 5), dt)
    b = rand(rng, (4, 1), dt, 0.5, 2.0)
    attrs = ["scalar alpha 0 0.5"] if name in ("Add", "Sub") else []
    res = op(name, [T("self", dt, a), T("other", dt, b), out("out", dt, (3, 4, 5))], attrs)
    check(res, "out", fn(a, b), dt)


def test_binary_op_reads_strided_views_and_writes_only_its_view(op: Op) -> None:
    rng = np.random.default_rng(2)
    a = rand(rng, (6, 5), "f32")
    b = rand(rng, (6, 5), "f32")
    y = T("out", "f32", np.zeros((6, 5)), strides=(8, 1), offset=3, storage=60, out=True)
    res = op("Mul", [transposed_view("self", "f32", a), T("other", "f32", b, strides=(10, 2), offset=1), y])
    check(res, "out", a * b, "f32")
    raw = np.fromfile(next(iter(sorted(Path(op.tmp).glob("run*/out.out")))), dtype=np.float32)
    untouched = np.ones(raw.size, dtype=bool)
    untouched[y.positions] = False
    assert (raw[untouched] == 0).all()


def test_mixed_float_types_promote(op: Op) -> None:
    rng = np.random.default_rng(3)
    a = rand(rng, (4, 4), "f16")
    b = rand(rng, (4, 4), "f32")
    res = op(
        "Add", [T("self", "f16", a), T("other", "f32", b), out("out", "bf16", (4, 4))], ["scalar alpha 0 1"]
    )
    check(res, "out", quantize(a + b, "f32"), "bf16")


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(
    ("name", "attrs", "fn"),
    [
        ("Adds", ["scalar other 0 1.5", "scalar alpha 0 2"], lambda a: a + 3.0),
        ("Subs", ["scalar other 0 1.5", "scalar alpha 0 1"], lambda a: a - 1.5),
        ("Muls", ["scalar other 0 -0.5"], lambda a: a * -0.5),
        ("Divs", ["scalar other 0 -2.5"], lambda a: a / -2.5),
    ],
)
def test_tensor_scalar_ops(op: Op, dt: str, name: str, attrs: list[str], fn) -> None:
    rng = np.random.default_rng(4)
    a = rand(rng, (3, 5), dt)
    res = op(name, [transposed_view("self", dt, a), out("out", dt, (3, 5))], attrs)
    check(res, "out", fn(a), dt)


def test_tensor_scalar_op_without_its_scalar_is_rejected(op: Op) -> None:
    res = op("Adds", [T("self", "f32", np.ones((2, 2))), out("out", "f32", (2, 2))], ["scalar alpha 0 1"])
    assert res.phase1 == PARAM_NULLPTR
    res = op("Divs", [T("self", "f32", np.ones((2, 2))), out("out", "f32", (2, 2))])
    assert res.phase1 == PARAM_NULLPTR


def test_divs_by_zero_follows_ieee(op: Op) -> None:
    x = np.array([1.0, -2.0, 0.0])
    res = op("Divs", [T("self", "f32", x), out("out", "f32", (3,))], ["scalar other 0 0"])
    assert res.phase1 == 0 and res.phase2 == [0], res.proc.stderr
    got = res.outputs["out"]
    assert got[0] == np.inf and got[1] == -np.inf and np.isnan(got[2])


@pytest.mark.parametrize("dt", FLOATS)
def test_inplace_fill_scalar_writes_the_value_over_a_strided_view(op: Op, dt: str) -> None:
    y = T("selfRef", dt, np.full((3, 4), 7.0), strides=(8, 1), offset=2, storage=32, out=True)
    res = op("InplaceFillScalar", [y], ["scalar value 0 0.1"])
    check(res, "selfRef", np.full((3, 4), 0.1), dt)
    raw = np.fromfile(next(iter(sorted(Path(op.tmp).glob("run*/selfRef.out")))), dtype=STORAGE[dt])
    untouched = np.ones(raw.size, dtype=bool)
    untouched[y.positions] = False
    assert (raw[untouched] == 0).all()


def test_inplace_fill_scalar_bad_arguments(op: Op) -> None:
    y = T("selfRef", "f32", np.ones((2, 3)), out=True)
    assert op("InplaceFillScalar", [y]).phase1 == PARAM_NULLPTR
    assert op("InplaceFillScalar", [], ["scalar value 0 1"]).phase1 == PARAM_NULLPTR
    # Integer and bool tensors are filled (test_aclnn_elementwise.py); float64 is outside the set.
    d = T("selfRef", "f64", np.ones((2, 3)), out=True)
    assert op("InplaceFillScalar", [d], ["scalar value 0 1"]).phase1 == PARAM_INVALID


@pytest.mark.parametrize("dt", FLOATS)
def test_inplace_zero_writes_zeros_over_a_strided_view(op: Op, dt: str) -> None:
    y = T("selfRef", dt, np.full((3, 4), 7.0), strides=(8, 1), offset=2, storage=32, out=True)
    check(op("InplaceZero", [y]), "selfRef", np.zeros((3, 4)), dt)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("Relu", lambda x: np.maximum(x, 0)),
        ("Silu", lambda x: x / (1 + np.exp(-x))),
        ("Gelu", lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))),
        ("Exp", np.exp),
        ("Neg", np.negative),
        ("Sigmoid", lambda x: 1 / (1 + np.exp(-x))),
        ("Tanh", np.tanh),
    ],
)
def test_activations(op: Op, dt: str, name: str, fn) -> None:
    x = rand(np.random.default_rng(4), (7, 9), dt, -4, 4)
    res = op(name, [T("self", dt, x), out("out", dt, (7, 9))])
    check(res, "out", fn(x), dt)


def test_gelu_is_the_tanh_form_cann_computes(op: Op) -> None:
    # CANN's Gelu kernel computes the tanh approximation: GELU(1) = 0.841192, GELU(2) = 1.954598
    # (the erf form x * Phi(x) gives 0.841345 and 1.954500).
    x = np.array([-1.0, 0.0, 1.0, 2.0])
    res = op("Gelu", [T("self", "f32", x), out("out", "f32", (4,))])
    check(res, "out", np.array([-0.15880800939172324, 0.0, 0.8411919906082768, 1.954597694087775]), "f32")


@pytest.mark.parametrize("name", ["Exp", "Neg", "Sigmoid", "Tanh"])
def test_unary_op_reads_a_strided_view_and_writes_only_its_view(op: Op, name: str) -> None:
    fns = {"Exp": np.exp, "Neg": np.negative, "Sigmoid": lambda v: 1 / (1 + np.exp(-v)), "Tanh": np.tanh}
    x = rand(np.random.default_rng(9), (4, 3), "f32")
    y = T("out", "f32", np.full((4, 3), 5.0), strides=(5, 1), offset=2, storage=24, out=True)
    res = op(name, [transposed_view("self", "f32", x), y])
    check(res, "out", fns[name](x), "f32")
    raw = np.fromfile(next(iter(sorted(Path(op.tmp).glob("run*/out.out")))), dtype=np.float32)
    untouched = np.ones(raw.size, dtype=bool)
    untouched[y.positions] = False
    assert (raw[untouched] == 0).all()


@pytest.mark.parametrize("name", ["Exp", "Neg", "Sigmoid", "Tanh"])
def test_unary_op_bad_arguments(op: Op, name: str) -> None:
    x = np.ones((2, 3))
    assert op(name, [T("self", "f32", x)]).phase1 == PARAM_NULLPTR
    assert op(name, [out("out", "f32", (2, 3))]).phase1 == PARAM_NULLPTR
    assert op(name, [T("self", "i32", x), out("out", "f32", (2, 3))]).phase1 == PARAM_INVALID
    assert op(name, [T("self", "f32", x), out("out", "i32", (2, 3))]).phase1 == PARAM_INVALID
    assert op(name, [T("self", "f32", x), out("out", "f32", (3, 2))]).phase1 == PARAM_INVALID


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("f32", "f16"),
        ("f32", "bf16"),
        ("f16", "f32"),
        ("bf16", "f16"),
        ("f32", "i32"),
        ("i64", "f32"),
        ("f32", "bool"),
        ("i32", "f64"),
    ],
)
def test_cast(op: Op, src: str, dst: str) -> None:
    rng = np.random.default_rng(5)
    x = (
        rng.integers(-50, 50, size=(5, 6)).astype(np.float64)
        if src in ("i32", "i64")
        else rand(rng, (5, 6), src, -50, 50)
    )
    res = op("Cast", [T("self", src, x), out("out", dst, (5, 6))], [f"int dtype {ACL[dst]}"])
    if dst in ("i32", "bool"):
        ref = np.trunc(x) if dst == "i32" else (x != 0).astype(np.float64)
        assert res.phase2 == [0]
        np.testing.assert_array_equal(res.outputs["out"], ref)
    else:
        check(res, "out", quantize(x, "f32") if dst != "f64" else x, dst)


@pytest.mark.parametrize("dt", FLOATS)
def test_matmul_2d_with_a_transposed_operand(op: Op, dt: str) -> None:
    rng = np.random.default_rng(6)
    a = rand(rng, (5, 64), dt)
    b = rand(rng, (64, 7), dt)
    res = op("Matmul", [T("self", dt, a), transposed_view("mat2", dt, b), out("out", dt, (5, 7))])
    check(res, "out", a @ b, dt, scale=4)


@pytest.mark.parametrize(
    ("sa", "sb", "so"),
    [
        ((16,), (16,), ()),
        ((3, 16), (16,), (3,)),
        ((16,), (16, 4), (4,)),
        ((2, 3, 8), (8, 4), (2, 3, 4)),
        ((2, 1, 3, 8), (5, 8, 4), (2, 5, 3, 4)),
    ],
)
def test_matmul_shapes(op: Op, sa, sb, so) -> None:
    rng = np.random.default_rng(7)
    a, b = rand(rng, sa, "f32"), rand(rng, sb, "f32")
    res = op("Matmul", [T("self", "f32", a), T("mat2", "f32", b), out("out", "f32", so)])
    check(res, "out", np.matmul(a, b), "f32", scale=4)


@pytest.mark.parametrize("dt", FLOATS)
def test_batch_matmul(op: Op, dt: str) -> None:
    rng = np.random.default_rng(8)
    a, b = rand(rng, (3, 4, 32), dt), rand(rng, (3, 32, 6), dt)
    res = op("BatchMatMul", [T("self", dt, a), T("mat2", dt, b), out("out", dt, (3, 4, 6))])
    check(res, "out", a @ b, dt, scale=4)


@pytest.mark.parametrize(("sa", "sb"), [((1, 4, 16), (3, 16, 6)), ((3, 4, 16), (1, 16, 6))])
def test_batch_matmul_broadcasts_a_batch_of_one(op: Op, sa, sb) -> None:
    # CANN's aclnnBatchMatMul.md: a batch of 1 on either side broadcasts (torch_npu's addbmm backward).
    rng = np.random.default_rng(9)
    a, b = rand(rng, sa, "f32"), rand(rng, sb, "f32")
    res = op("BatchMatMul", [T("self", "f32", a), T("mat2", "f32", b), out("out", "f32", (3, 4, 6))])
    check(res, "out", a @ b, "f32", scale=4)
    res = op(
        "BatchMatMul",
        [T("self", "f32", rand(rng, (2, 4, 16), "f32")), T("mat2", "f32", rand(rng, (3, 16, 6), "f32")),
         out("out", "f32", (3, 4, 6))],
    )  # fmt: skip
    assert res.phase1 == PARAM_INVALID and "batch sizes" in res.proc.stderr


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_softmax(op: Op, dt: str, dim: int) -> None:
    x = rand(np.random.default_rng(9), (4, 6, 5), dt, -3, 3)
    res = op("Softmax", [T("self", dt, x), out("out", dt, x.shape)], [f"int dim {dim}"])
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    check(res, "out", e / e.sum(axis=dim, keepdims=True), dt)


@pytest.mark.parametrize("dt", FLOATS)
def test_layer_norm_with_statistics(op: Op, dt: str) -> None:
    rng = np.random.default_rng(10)
    x, w, b = rand(rng, (3, 4, 8), dt), rand(rng, (4, 8), dt), rand(rng, (4, 8), dt)
    res = op(
        "LayerNorm",
        [
            T("input", dt, x),
            T("weight", dt, w),
            T("bias", dt, b),
            out("out", dt, x.shape),
            out("mean", "f32", (3, 1, 1)),
            out("rstd", "f32", (3, 1, 1)),
        ],
        ["ints normalizedShape 2 4 8", "float eps 1e-5"],
    )
    mu = x.mean(axis=(1, 2), keepdims=True)
    rstd = 1 / np.sqrt(x.var(axis=(1, 2), keepdims=True) + 1e-5)
    check(res, "out", (x - mu) * rstd * w + b, dt, scale=2)
    check(res, "mean", mu, "f32")
    check(res, "rstd", rstd, "f32")


def test_layer_norm_without_affine(op: Op) -> None:
    x = rand(np.random.default_rng(11), (5, 16), "f32")
    res = op("LayerNorm", [T("input", "f32", x), out("out", "f32", x.shape)], ["ints normalizedShape 1 16"])
    check(
        res, "out", (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5), "f32", scale=4
    )


@pytest.mark.parametrize("dt", FLOATS)
def test_rms_norm(op: Op, dt: str) -> None:
    rng = np.random.default_rng(12)
    x, g = rand(rng, (2, 3, 16), dt), rand(rng, (16,), dt)
    res = op(
        "RmsNorm",
        [T("x", dt, x), T("gamma", dt, g), out("y", dt, x.shape), out("rstd", "f32", (2, 3, 1))],
        ["float eps 1e-6"],
    )
    rstd = 1 / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6)
    check(res, "y", x * rstd * g, dt, scale=2)
    check(res, "rstd", rstd, "f32")


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("it", ["i32", "i64"])
def test_embedding(op: Op, dt: str, it: str) -> None:
    rng = np.random.default_rng(13)
    w = rand(rng, (10, 6), dt)
    idx = rng.integers(0, 10, size=(2, 3)).astype(np.float64)
    res = op("Embedding", [T("weight", dt, w), T("indices", it, idx), out("out", dt, (2, 3, 6))])
    check(res, "out", w[idx.astype(int)], dt)


@pytest.mark.parametrize("dt", [*FLOATS, "i64"])
def test_permute_and_transpose(op: Op, dt: str) -> None:
    x = rand(np.random.default_rng(14), (2, 3, 4), "f32", -100, 100)
    x = np.round(x) if dt == "i64" else quantize(x, dt)
    res = op("Permute", [T("self", dt, x), out("out", dt, (4, 2, 3))], ["ints dims 3 2 0 -2"])
    assert res.phase2 == [0], res.proc.stderr
    np.testing.assert_array_equal(res.outputs["out"], np.transpose(x, (2, 0, 1)))
    res = op("Transpose", [T("self", dt, x), out("out", dt, (2, 4, 3))], ["int dim0 1", "int dim1 -1"])
    np.testing.assert_array_equal(res.outputs["out"], np.swapaxes(x, 1, 2))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize(("name", "fn"), [("ReduceSum", np.sum), ("Mean", np.mean)])
@pytest.mark.parametrize(("dims", "keep"), [((1,), False), ((0, -1), True), ((), False)])
def test_reductions(op: Op, dt: str, name: str, fn, dims: tuple[int, ...], keep: bool) -> None:
    x = rand(np.random.default_rng(15), (3, 4, 5), dt)
    axis = tuple(dims) if dims else None
    ref = fn(x, axis=axis, keepdims=keep)
    attrs = [
        f"ints dim {len(dims)} {' '.join(map(str, dims))}",
        f"int keepDim {int(keep)}",
        f"int dtype {ACL[dt]}",
    ]
    res = op(name, [T("self", dt, x), out("out", dt, np.shape(ref))], attrs)
    check(res, "out", np.asarray(ref), dt, scale=2)


def test_reduce_sum_to_a_wider_type(op: Op) -> None:
    x = rand(np.random.default_rng(16), (8, 32), "f16")
    res = op(
        "ReduceSum",
        [T("self", "f16", x), out("out", "f32", (8,))],
        ["ints dim 1 1", "int keepDim 0", f"int dtype {ACL['f32']}"],
    )
    check(res, "out", x.sum(axis=1), "f32")


@pytest.mark.parametrize(("dst", "src"), [("f32", "f32"), ("f16", "f32"), ("bf16", "f16"), ("i32", "i64")])
def test_inplace_copy_broadcasts_into_a_view(op: Op, dst: str, src: str) -> None:
    rng = np.random.default_rng(17)
    s = rng.integers(-9, 9, size=(1, 5)).astype(np.float64) if src == "i64" else rand(rng, (1, 5), src)
    target = T("selfRef", dst, np.zeros((4, 5)), strides=(1, 4), out=True)
    res = op("InplaceCopy", [target, T("src", src, s)])
    check(res, "selfRef", np.broadcast_to(s, (4, 5)), dst if dst != "i32" else "f64")


def attention_ref(q, k, v, scale, mask=None):
    s = scale * q @ np.swapaxes(k, -1, -2)
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    m = s.max(-1, keepdims=True)
    e = np.exp(s - m)
    return (e / e.sum(-1, keepdims=True)) @ v, m[..., 0], e.sum(-1)


@pytest.mark.parametrize("dt", FLOATS)
def test_flash_attention_bnsd_with_mask_and_statistics(op: Op, dt: str) -> None:
    rng = np.random.default_rng(18)
    b, n, sq, skv, d = 2, 2, 5, 7, 8
    q, k, v = rand(rng, (b, n, sq, d), dt), rand(rng, (b, n, skv, d), dt), rand(rng, (b, n, skv, d), dt)
    mask = np.triu(np.ones((sq, skv), dtype=bool), k=3)
    scale = 1 / math.sqrt(d)
    ref, m, ssum = attention_ref(q, k, v, scale, mask)
    res = op(
        "FlashAttentionScore",
        [
            T("query", dt, q),
            T("key", dt, k),
            T("value", dt, v),
            T("mask", "bool", mask.astype(np.float64)),
            out("out", dt, q.shape),
            out("softmaxMax", "f32", (b, n, sq, 8)),
            out("softmaxSum", "f32", (b, n, sq, 8)),
        ],
        [f"float scale {scale!r}", f"int headNum {n}", "str layout BNSD"],
    )
    assert res.workspace > 0
    check(res, "out", ref, dt, scale=2)
    check(res, "softmaxMax", np.repeat(m[..., None], 8, -1), "f32", scale=4)
    check(res, "softmaxSum", np.repeat(ssum[..., None], 8, -1), "f32", scale=4)


@pytest.mark.parametrize("layout", ["BSH", "BSND"])
def test_flash_attention_sequence_major_layouts_with_grouped_heads(op: Op, layout: str) -> None:
    rng = np.random.default_rng(19)
    b, n, nkv, sq, skv, d = 1, 4, 2, 3, 6, 4
    q, k, v = (
        rand(rng, (b, n, sq, d), "f32"),
        rand(rng, (b, nkv, skv, d), "f32"),
        rand(rng, (b, nkv, skv, d), "f32"),
    )
    kk, vv = np.repeat(k, n // nkv, axis=1), np.repeat(v, n // nkv, axis=1)
    ref = attention_ref(q, kk, vv, 0.5)[0]

    def to_layout(x: np.ndarray) -> np.ndarray:
        x = np.transpose(x, (0, 2, 1, 3))  # BSND
        return x.reshape(x.shape[0], x.shape[1], -1) if layout == "BSH" else x

    res = op(
        "FlashAttentionScore",
        [
            T("query", "f32", to_layout(q)),
            T("key", "f32", to_layout(k)),
            T("value", "f32", to_layout(v)),
            out("out", "f32", to_layout(q).shape),
        ],
        ["float scale 0.5", f"int headNum {n}", f"str layout {layout}"],
    )
    check(res, "out", to_layout(ref), "f32", scale=4)


def test_repeatable_executor_runs_twice(op: Op) -> None:
    x = rand(np.random.default_rng(20), (3, 3), "f32")
    res = op("Relu", [T("self", "f32", x), out("out", "f32", (3, 3))], ["runs 2"])
    assert res.phase2 == [0, 0]
    check(res, "out", np.maximum(x, 0), "f32")


# --------------------------------------------------------------------------------------------------
# Error paths


def test_null_required_tensors(op: Op) -> None:
    x = np.ones((2, 2))
    assert (
        op("Add", [T("self", "f32", x), out("out", "f32", (2, 2))], ["scalar alpha 0 1"]).phase1
        == PARAM_NULLPTR
    )
    assert (
        op("Add", [T("self", "f32", x), T("other", "f32", x), out("out", "f32", (2, 2))]).phase1
        == PARAM_NULLPTR
    )
    assert op("Relu", [T("self", "f32", x)]).phase1 == PARAM_NULLPTR
    assert op("Matmul", [T("self", "f32", x), out("out", "f32", (2, 2))]).phase1 == PARAM_NULLPTR
    assert op("Permute", [T("self", "f32", x), out("out", "f32", (2, 2))]).phase1 == PARAM_NULLPTR
    assert op("LayerNorm", [T("input", "f32", x), out("out", "f32", (2, 2))]).phase1 == PARAM_NULLPTR
    assert op("RmsNorm", [T("x", "f32", x), out("y", "f32", (2, 2))]).phase1 == PARAM_NULLPTR
    assert op("Embedding", [T("weight", "f32", x), out("out", "f32", (2, 2))]).phase1 == PARAM_NULLPTR
    assert (
        op("ReduceSum", [T("self", "f32", x), out("out", "f32", ())], ["int dtype 0"]).phase1 == PARAM_NULLPTR
    )
    assert op("InplaceCopy", [T("src", "f32", x)]).phase1 == PARAM_NULLPTR
    assert (
        op(
            "FlashAttentionScore",
            [T("query", "f32", np.ones((1, 2, 4))), out("out", "f32", (1, 2, 4))],
            ["int headNum 1"],
        ).phase1
        == PARAM_NULLPTR
    )


@pytest.mark.parametrize(
    ("name", "tensors", "attrs"),
    [
        (
            "Add",
            [T("self", "f32", np.ones((2, 3))), T("other", "f32", np.ones((4,))), out("out", "f32", (2, 3))],
            ["scalar alpha 0 1"],
        ),
        (
            "Mul",
            [
                T("self", "f32", np.ones((2, 3))),
                T("other", "f32", np.ones((2, 3))),
                out("out", "f32", (3, 2)),
            ],
            [],
        ),
        (  # integer tensors multiply (test_aclnn_elementwise.py); a float result cannot go to int32
            "Mul",
            [
                T("self", "f32", np.ones((2, 3))),
                T("other", "i32", np.ones((2, 3))),
                out("out", "i32", (2, 3)),
            ],
            [],
        ),
        ("Relu", [T("self", "f32", np.ones((2,) * 9)), out("out", "f32", (2,) * 9)], []),
        ("Cast", [T("self", "f32", np.ones((2, 2))), out("out", "f16", (2, 2))], [f"int dtype {ACL['f32']}"]),
        (
            "Matmul",
            [T("self", "f32", np.ones((2, 3))), T("mat2", "f32", np.ones((4, 2))), out("out", "f32", (2, 2))],
            [],
        ),
        (
            "Matmul",
            [T("self", "f16", np.ones((2, 3))), T("mat2", "f32", np.ones((3, 2))), out("out", "f32", (2, 2))],
            [],
        ),
        (
            "BatchMatMul",
            [
                T("self", "f32", np.ones((2, 2, 3))),
                T("mat2", "f32", np.ones((3, 3, 2))),
                out("out", "f32", (2, 2, 2)),
            ],
            [],
        ),
        ("Softmax", [T("self", "f32", np.ones((2, 3))), out("out", "f32", (2, 3))], ["int dim 2"]),
        (
            "LayerNorm",
            [T("input", "f32", np.ones((2, 3))), out("out", "f32", (2, 3))],
            ["ints normalizedShape 1 2"],
        ),
        (
            "RmsNorm",
            [T("x", "f32", np.ones((2, 3))), T("gamma", "f32", np.ones((2,))), out("y", "f32", (2, 3))],
            [],
        ),
        (
            "Embedding",
            [
                T("weight", "f32", np.ones((4, 2))),
                T("indices", "f32", np.ones((3,))),
                out("out", "f32", (3, 2)),
            ],
            [],
        ),
        ("Permute", [T("self", "f32", np.ones((2, 3))), out("out", "f32", (3, 2))], ["ints dims 2 0 0"]),
        (
            "Transpose",
            [T("self", "f32", np.ones((2, 3))), out("out", "f32", (3, 2))],
            ["int dim0 0", "int dim1 2"],
        ),
        (
            "ReduceSum",
            [T("self", "f32", np.ones((2, 3))), out("out", "f32", (2,))],
            ["ints dim 2 1 1", "int dtype 0"],
        ),
        (
            "Mean",
            [T("self", "f32", np.ones((2, 3))), out("out", "f16", (2,))],
            ["ints dim 1 1", "int dtype 0"],
        ),
        ("InplaceCopy", [T("selfRef", "f32", np.ones((2, 3))), T("src", "f32", np.ones((3, 3)))], []),
        (
            "FlashAttentionScore",
            [
                T("query", "f32", np.ones((1, 2, 4))),
                T("key", "f32", np.ones((1, 2, 4))),
                T("value", "f32", np.ones((1, 2, 4))),
                out("out", "f32", (1, 2, 4)),
            ],
            ["int headNum 2", "str layout TND"],
        ),
        (
            "FlashAttentionScore",
            [
                T("query", "f32", np.ones((1, 2, 4))),
                T("key", "f32", np.ones((1, 2, 4))),
                T("value", "f32", np.ones((1, 2, 4))),
                out("out", "f32", (1, 2, 4)),
            ],
            ["int headNum 3"],
        ),
        (
            "FlashAttentionScore",
            [
                T("query", "f32", np.ones((1, 2, 4))),
                T("key", "f32", np.ones((1, 2, 4))),
                T("value", "f32", np.ones((1, 2, 4))),
                out("out", "f32", (1, 2, 4)),
            ],
            ["int headNum 2", "float keepProb 0.9"],
        ),
    ],
)
def test_invalid_shapes_and_types(op: Op, name: str, tensors: list[T], attrs: list[str]) -> None:
    res = op(name, tensors, attrs)
    assert res.phase1 == PARAM_INVALID, res.proc.stdout + res.proc.stderr


def test_too_small_a_workspace_is_refused(op: Op) -> None:
    q = np.ones((1, 2, 4))
    tensors = [T("query", "f32", q), T("key", "f32", q), T("value", "f32", q), out("out", "f32", q.shape)]
    res = op("FlashAttentionScore", tensors, ["int headNum 1", "wsdelta -1"])
    assert res.phase1 == 0 and res.workspace > 0
    assert res.phase2 == [INNER]


@pytest.mark.parametrize(
    ("fault", "status"),
    [
        ("aclrtLaunchKernelWithHostArgs:error=507000", RUNTIME_ERROR),
        ("aclrtBinaryLoadFromData:error=107000", FIND_KERNEL),
        ("aclrtBinaryGetFunction:error=107000", FIND_KERNEL),
    ],
)
def test_runtime_failures_in_the_second_phase(op: Op, fault: str, status: int) -> None:
    x = np.ones((2, 2))
    res = op("Relu", [T("self", "f32", x), out("out", "f32", (2, 2))], NPU_SIM_FAULTS=fault)
    assert (res.phase1, res.phase2) == (0, [status])


@pytest.fixture(scope="module")
def executor_exe(programs: ProgramBuilder) -> Path:
    return programs.build([PROGRAMS / "aclnn_executor.c"], libs=["ascendcl", "opapi", "nnopbase"])


def test_executor_misuse(executor_exe: Path, native: NativeTree) -> None:
    res = run_program(executor_exe, native.env(NPU_SIM_CLOCK="virtual"))
    assert res.returncode == 0, res.stdout + res.stderr
    got = dict(line.split(" ", 1) for line in res.stdout.splitlines())
    assert got == {
        "null_executor": str(PARAM_NULLPTR),
        "second_run": str(INNER),
        "other_op": str(INNER),
        "destroyed": str(INNER),
        "repeat_1": "0",
        "repeat_2": "0",
        "destroy_twice": str(INNER),
        "null_workspace_size_out": str(PARAM_NULLPTR),
        "create_tensor_bad_view": "null",
        "create_scalar_null": "null",
        "destroy_null_tensor": "0",
    }
