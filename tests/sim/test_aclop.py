"""The single-operator path (aclopCompileAndExecute[V2] of libacl_op_compiler) running the operator
types torch_npu sends there: Fill (DDP construction, list-form all_gather), StatelessDropOutGenMask and
DropOutDoMask (training-mode dropout), with the device RNG's properties: the same seed and offset give
the same mask, another seed or offset another, and about keep_prob of the elements are kept;
IsFinite (torch.isfinite) and PadV3Grad (the backward of reflect and replicate padding, with its
attributes) against numpy."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from support.native import NativeTree

ACL_ERROR_INVALID_PARAM = 100000
ACL = {"f32": 0, "f16": 1, "i32": 3, "u8": 4, "i64": 9}

# Runs in a fresh process: `call(type, inputs, outputs, v2=False)` with inputs and outputs as
# (acl dtype, numpy array) pairs; inputs stay in host memory (as torch_npu's constant inputs),
# outputs go through device memory and come back as lists.
PRELUDE = """
import ctypes, json
import numpy as np
from ctypes import byref, c_int64, c_size_t, c_void_p
acl = ctypes.CDLL(lib64 + "/libascendcl.so")
oc = ctypes.CDLL(lib64 + "/libacl_op_compiler.so")
acl.aclCreateTensorDesc.restype = c_void_p
acl.aclCreateDataBuffer.restype = c_void_p
acl.aclCreateDataBuffer.argtypes = [c_void_p, c_size_t]
assert acl.aclInit(None) == 0 and acl.aclrtSetDevice(0) == 0
stream = c_void_p()
assert acl.aclrtCreateStream(byref(stream)) == 0
keep = []

def describe(dtype, array):
    dims = (c_int64 * max(array.ndim, 1))(*array.shape)
    return c_void_p(acl.aclCreateTensorDesc(dtype, array.ndim, dims, 2))

acl.aclopCreateAttr.restype = c_void_p

def attributes(attrs):
    # attrs: {name: value}, a str or a bool
    if attrs is None:
        return None
    handle = c_void_p(acl.aclopCreateAttr())
    for name, value in attrs.items():
        if isinstance(value, bool):
            assert acl.aclopSetAttrBool(handle, name.encode(), ctypes.c_uint8(value)) == 0
        else:
            assert acl.aclopSetAttrString(handle, name.encode(), value.encode()) == 0
    keep.append(handle)
    return handle

def call(op, inputs, outputs, v2=False, attrs=None):
    descs = [describe(d, a) for d, a in inputs]
    bufs = []
    for _, a in inputs:
        keep.append(a)
        bufs.append(c_void_p(acl.aclCreateDataBuffer(a.ctypes.data, a.nbytes)))
    odescs, obufs, dev = [], [], []
    for d, a in outputs:
        p = c_void_p()
        assert acl.aclrtMalloc(byref(p), max(a.nbytes, 1), 0) == 0
        dev.append(p)
        odescs.append(describe(d, a))
        obufs.append(c_void_p(acl.aclCreateDataBuffer(p, a.nbytes)))
    arr = lambda xs: (c_void_p * max(len(xs), 1))(*xs)
    fn = oc.aclopCompileAndExecuteV2 if v2 else oc.aclopCompileAndExecute
    rc = fn(op.encode(), len(inputs), arr(descs), arr(bufs), len(outputs), arr(odescs), arr(obufs),
            attributes(attrs), 0, 0, None, stream)
    assert acl.aclrtSynchronizeStream(stream) == 0
    results = []
    for (d, a), p in zip(outputs, dev):
        host = np.empty_like(a)
        if rc == 0:
            acl.aclrtMemcpy(c_void_p(host.ctypes.data), c_size_t(a.nbytes), p, c_size_t(a.nbytes), 2)
        results.append(host.tolist())
    return rc, results

def gen_mask(n, prob, seed, offset, seed1=0):
    length = (n + 127) // 128 * 16
    rc, (mask,) = call("StatelessDropOutGenMask", [
        (9, np.array([n], dtype=np.int64)), (0, np.array(prob, dtype=np.float32)),
        (3, np.array(seed, dtype=np.int32)), (3, np.array(seed1, dtype=np.int32)),
        (9, np.array([0, offset], dtype=np.int64))], [(4, np.zeros(length, dtype=np.uint8))])
    return rc, mask
"""


def run(native: NativeTree, body: str) -> dict:
    code = f'lib64 = "{native.sim_lib64}"\n' + PRELUDE + textwrap.dedent(body)
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=native.env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize(
    ("dt", "dims_dt", "v2"), [("f32", "i64", False), ("f16", "i32", True), ("i32", "i64", False)]
)
def test_fill_writes_the_value_over_the_shape(native: NativeTree, dt: str, dims_dt: str, v2: bool) -> None:
    np_dt = {"f32": "float32", "f16": "float16", "i32": "int32"}[dt]
    np_dims = {"i32": "int32", "i64": "int64"}[dims_dt]
    out = run(
        native,
        f"""
        rc, (y,) = call("Fill", [({ACL[dims_dt]}, np.array([2, 3], dtype=np.{np_dims})),
                                 ({ACL[dt]}, np.array(2.5, dtype=np.{np_dt}))],
                        [({ACL[dt]}, np.zeros((2, 3), dtype=np.{np_dt}))], v2={v2})
        print(json.dumps({{"rc": rc, "y": y}}))
        """,
    )
    assert out["rc"] == 0
    expected = 2 if dt == "i32" else 2.5
    np.testing.assert_array_equal(np.array(out["y"]), np.full((2, 3), expected))


def test_fill_refuses_an_output_of_another_shape(native: NativeTree) -> None:
    out = run(
        native,
        """
        rc, _ = call("Fill", [(9, np.array([2, 3], dtype=np.int64)), (0, np.array(1, dtype=np.float32))],
                     [(0, np.zeros((3, 2), dtype=np.float32))])
        print(json.dumps({"rc": rc}))
        """,
    )
    assert out["rc"] == ACL_ERROR_INVALID_PARAM


def test_dropout_masks_follow_the_seed_and_offset_and_keep_about_keep_prob(native: NativeTree) -> None:
    n, keep = 20000, 0.7
    out = run(
        native,
        f"""
        r = {{}}
        for name, seed, offset in [("a", 1, 0), ("a2", 1, 0), ("seed", 2, 0), ("offset", 1, 4096)]:
            rc, mask = gen_mask({n}, {keep}, seed, offset)
            assert rc == 0, rc
            r[name] = mask
        print(json.dumps(r))
        """,
    )
    bits = {k: np.unpackbits(np.array(v, dtype=np.uint8), bitorder="little") for k, v in out.items()}
    assert (bits["a"] == bits["a2"]).all()
    assert (bits["a"] != bits["seed"]).mean() > 0.3
    assert (bits["a"] != bits["offset"]).mean() > 0.3
    sigma = np.sqrt(n * keep * (1 - keep))
    for b in bits.values():
        assert abs(int(b[:n].sum()) - n * keep) < 3 * sigma
        assert not b[n:].any()  # the padding up to 128 elements stays 0


def test_do_mask_keeps_the_masked_elements_scaled(native: NativeTree) -> None:
    out = run(
        native,
        """
        x = np.arange(1, 301, dtype=np.float32).reshape(3, 100)
        rc, mask = gen_mask(300, 0.5, 7, 0)
        m = np.array(mask, dtype=np.uint8)
        rc2, (y,) = call("DropOutDoMask", [(0, x), (4, m), (0, np.array(0.5, dtype=np.float32))],
                         [(0, np.zeros((3, 100), dtype=np.float32))])
        print(json.dumps({"rc": [rc, rc2], "mask": mask, "y": y}))
        """,
    )
    assert out["rc"] == [0, 0]
    kept = np.unpackbits(np.array(out["mask"], dtype=np.uint8), bitorder="little")[:300].reshape(3, 100)
    x = np.arange(1, 301, dtype=np.float64).reshape(3, 100)
    np.testing.assert_array_equal(np.array(out["y"]), np.where(kept == 1, x * 2, 0.0))


def test_gen_mask_refuses_a_mask_too_small(native: NativeTree) -> None:
    out = run(
        native,
        """
        rc, _ = call("StatelessDropOutGenMask", [
            (9, np.array([300], dtype=np.int64)), (0, np.array(0.5, dtype=np.float32)),
            (3, np.array(1, dtype=np.int32)), (3, np.array(0, dtype=np.int32)),
            (9, np.array([0, 0], dtype=np.int64))], [(4, np.zeros(16, dtype=np.uint8))])
        print(json.dumps({"rc": rc}))
        """,
    )
    assert out["rc"] == ACL_ERROR_INVALID_PARAM


# PadV3Grad's reference: np.pad of the element indices gives the element each padded position
# copies; the gradient adds each padded element to it.
def pad_backward(
    grad: np.ndarray, shape: tuple[int, ...], pads: list[tuple[int, int]], mode: str
) -> np.ndarray:
    source = np.pad(np.arange(int(np.prod(shape))).reshape(shape), pads, mode=mode)
    result = np.zeros(int(np.prod(shape)))
    np.add.at(result, source.ravel(), grad.astype(np.float64).ravel())
    return result.reshape(shape)


@pytest.mark.parametrize(
    ("mode", "np_mode", "contiguous"),
    [("reflect", "reflect", True), ("edge", "edge", True), ("edge", "edge", False), (None, "reflect", None)],
)
def test_pad_v3_grad_adds_each_padded_element_to_its_source(
    native: NativeTree, mode: str | None, np_mode: str, contiguous: bool | None
) -> None:
    shape, pads = (2, 3, 4, 5), [(0, 0), (0, 0), (1, 3), (2, 4)]
    grad = (
        np.random.default_rng(3)
        .standard_normal(tuple(s + b + a for s, (b, a) in zip(shape, pads, strict=True)))
        .astype(np.float32)
    )
    flat = (
        [v for p in pads for v in p]
        if contiguous in (True, None)
        else [p[0] for p in pads] + [p[1] for p in pads]
    )
    attrs = None if mode is None else {"mode": mode, "paddings_contiguous": contiguous}
    out = run(
        native,
        f"""
        grad = np.array({grad.tolist()}, dtype=np.float32)
        rc, (y,) = call("PadV3Grad", [(0, grad), (3, np.array({flat}, dtype=np.int32))],
                        [(0, np.zeros({shape}, dtype=np.float32))], attrs={attrs!r})
        print(json.dumps({{"rc": rc, "y": y}}))
        """,
    )
    assert out["rc"] == 0
    expected = pad_backward(grad, shape, pads, np_mode).astype(np.float32)
    np.testing.assert_allclose(np.array(out["y"]), expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(
    ("case", "y_shape", "pads", "attrs"),
    [
        ("mode", (2, 3), [0, 0, 1, 1], {"mode": "constant"}),
        ("attribute type", (2, 3), [0, 0, 1, 1], {"mode": True}),
        ("paddings length", (2, 3), [1, 1], {"mode": "reflect"}),
        ("shape", (2, 4), [0, 0, 1, 1], {"mode": "reflect"}),
        ("reflect wider than the input", (2, 1), [0, 0, 2, 2], {"mode": "reflect"}),
        ("negative", (2, 6), [0, 0, -1, 0], {"mode": "edge"}),
    ],
)
def test_pad_v3_grad_refuses_bad_input(
    native: NativeTree, case: str, y_shape: tuple[int, ...], pads: list[int], attrs: dict
) -> None:
    out = run(
        native,
        f"""
        x = np.ones((2, 5), dtype=np.float32)
        rc, _ = call("PadV3Grad", [(0, x), (3, np.array({pads}, dtype=np.int32))],
                     [(0, np.zeros({y_shape}, dtype=np.float32))], attrs={attrs!r})
        print(json.dumps({{"rc": rc}}))
        """,
    )
    assert out["rc"] == ACL_ERROR_INVALID_PARAM, case


@pytest.mark.parametrize(("dt", "np_dt"), [("f32", "float32"), ("f16", "float16")])
def test_is_finite_marks_finite_elements(native: NativeTree, dt: str, np_dt: str) -> None:
    out = run(
        native,
        f"""
        x = np.array([[1.0, np.nan, np.inf], [-np.inf, -0.0, 65504.0]], dtype=np.{np_dt})
        rc, (y,) = call("IsFinite", [({ACL[dt]}, x)], [(12, np.zeros((2, 3), dtype=np.bool_))])
        print(json.dumps({{"rc": rc, "y": y}}))
        """,
    )
    assert out["rc"] == 0
    assert out["y"] == [[True, False, False], [False, True, True]]


@pytest.mark.parametrize(
    ("case", "x_dt", "y_dt", "y_shape"),
    [("integer x", "i32", 12, (2, 3)), ("float y", "f32", 0, (2, 3)), ("shape", "f32", 12, (3, 2))],
)
def test_is_finite_refuses_bad_input(
    native: NativeTree, case: str, x_dt: str, y_dt: int, y_shape: tuple
) -> None:
    np_x = {"i32": "int32", "f32": "float32"}[x_dt]
    np_y = "bool_" if y_dt == 12 else "float32"
    out = run(
        native,
        f"""
        rc, _ = call("IsFinite", [({ACL[x_dt]}, np.ones((2, 3), dtype=np.{np_x}))],
                     [({y_dt}, np.zeros({y_shape}, dtype=np.{np_y}))])
        print(json.dumps({{"rc": rc}}))
        """,
    )
    assert out["rc"] == ACL_ERROR_INVALID_PARAM, case
