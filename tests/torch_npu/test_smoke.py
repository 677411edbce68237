"""torch_npu on the simulator: `import torch, torch_npu`, a tensor to the device and back, the
operators that work and the first that does not (docs/torch_npu.md). Each program runs under
`npu-sim run` in a fresh process, as a user runs it. Skipped, with the reason, when
`import torch, torch_npu` fails (`tox -e torch-npu` installs both and fails instead)."""

from __future__ import annotations

import json

from torch_npu_harness import run_on_simulator, simulator_run


def test_import_torch_and_torch_npu() -> None:
    out = run_on_simulator(
        """
        import json, torch, torch_npu
        print(json.dumps({"torch": torch.__version__, "torch_npu": torch_npu.__version__,
                          "available": torch.npu.is_available(), "count": torch.npu.device_count()}))
        """
    )
    assert out["available"] is True
    assert out["count"] >= 1
    assert str(out["torch"]).split("+")[0].rsplit(".", 1)[0] == str(out["torch_npu"]).rsplit(".", 1)[0]


def test_a_tensor_goes_to_the_device_and_an_addition_comes_back() -> None:
    out = run_on_simulator(
        """
        import json, torch, torch_npu
        x = torch.ones(4).npu()
        print(json.dumps({"device": str(x.device), "sum": (x + x).cpu().tolist()}))
        """
    )
    assert out == {"device": "npu:0", "sum": [2.0, 2.0, 2.0, 2.0]}


def test_the_operators_that_run_match_the_cpu() -> None:
    out = run_on_simulator(
        """
        import json, torch, torch_npu
        x = torch.arange(6, dtype=torch.float32).reshape(2, 3) - 2.5
        ops = {"mul": lambda t: t * t, "sub_scalar": lambda t: t - 1, "mm": lambda t: t @ t.T,
               "sum": lambda t: t.sum(), "mean": lambda t: t.mean(), "relu": torch.relu,
               "softmax": lambda t: t.softmax(-1), "silu": torch.nn.functional.silu,
               "layer_norm": lambda t: torch.nn.functional.layer_norm(t, (3,)),
               "transpose_contiguous": lambda t: t.T.contiguous(), "exp": torch.exp, "neg": lambda t: -t,
               "sigmoid": torch.sigmoid, "tanh": torch.tanh, "div_scalar": lambda t: t / 2,
               "gelu": lambda t: torch.nn.functional.gelu(t, approximate="tanh"), "pow": lambda t: t ** 2,
               "max": lambda t: t.max()}
        close = lambda f: torch.allclose(f(x.npu()).cpu(), f(x), rtol=1e-5, atol=1e-6)
        result = {name: close(f) for name, f in ops.items()}
        # CANN's Gelu kernel is the tanh form, which torch_npu reaches for F.gelu's default as well
        tanh_gelu = torch.nn.functional.gelu(x, approximate="tanh")
        result["gelu_default_is_tanh_form"] = torch.allclose(
            torch.nn.functional.gelu(x.npu()).cpu(), tanh_gelu, rtol=1e-5, atol=1e-6)
        result["zeros"] = torch.zeros(3, device="npu").cpu().tolist()
        result["full"] = torch.full((2,), 3.0, device="npu").cpu().tolist()
        print(json.dumps(result))
        """
    )
    assert out == {
        "mul": True, "sub_scalar": True, "mm": True, "sum": True, "mean": True, "relu": True, "softmax": True,
        "silu": True, "layer_norm": True, "transpose_contiguous": True, "exp": True, "neg": True,
        "sigmoid": True, "tanh": True, "div_scalar": True, "gelu": True, "pow": True, "max": True,
        "gelu_default_is_tanh_form": True, "zeros": [0.0, 0.0, 0.0],
        "full": [3.0, 3.0],
    }  # fmt: skip


def test_an_operator_without_an_aclnn_kernel_fails_through_torch_npus_error_path() -> None:
    # torch.erfinv needs aclnnErfinv, which libopapi lacks; torch_npu then takes its aclop path
    # (operator Erfinv), which the simulator does not support: a RuntimeError naming the operator,
    # not a crash, and one log line.
    result = simulator_run(
        """
        import json, torch, torch_npu
        x = torch.ones(3).npu()
        try:
            torch.erfinv(x * 0.5).cpu()
            print(json.dumps({"raised": None}))
        except RuntimeError as e:
            print(json.dumps({"raised": str(e).splitlines()[0]}))
        """
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert "Erfinv" in str(json.loads(result.stdout.splitlines()[-1])["raised"])
    assert (
        "aclopCompileAndExecute" in result.stderr
        and '("Erfinv") is not supported by the simulator' in result.stderr
    )


def test_mspti_kernel_monitor_sees_the_kernels_torch_npu_launches() -> None:
    # The vendor-compatible `mspti` package of the toolkit (python/site-packages), one subscriber.
    out = run_on_simulator(
        """
        import json, torch, torch_npu
        from mspti import KernelMonitor
        kernels = []
        monitor = KernelMonitor()
        started = monitor.start(lambda k: kernels.append([k.name.split("_")[0], k.correlation_id]))
        x = torch.arange(6, dtype=torch.float32).reshape(2, 3).npu()
        (x @ x.T + x.sum()).relu().cpu()
        torch.npu.synchronize()
        stopped = monitor.stop()
        print(json.dumps({"start": started.value, "stop": stopped.value, "kernels": kernels}))
        """
    )
    assert out["start"] == out["stop"] == 0
    kernels = out["kernels"]
    assert [name for name, _ in kernels] == ["MatMulV2", "ReduceSum", "Add", "Relu"]
    ids = [cid for _, cid in kernels]
    assert ids == sorted(ids) and len(set(ids)) == len(ids) and ids[0] > 0
