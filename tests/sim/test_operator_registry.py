"""The operator registry of libopapi (csrc/sim/opapi/registry.h) and `npu-sim ops`: every aclnn
operator libopapi exports is registered and nothing else, the aclop types that run are listed, and
the data types shown are those the operators accept (test_aclnn_elementwise.py runs them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim_runtime import paths
from sim_runtime.operators import op_plugin_operators, operator_coverage, registered_operators
from support.fake_tree import make_native_tree
from support.native import NativeTree, python_subprocess_env


def exported_aclnn_operators(library: Path) -> set[str]:
    out = subprocess.run(
        ["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True, check=True
    )
    names = {line.split()[-1] for line in out.stdout.splitlines()}
    return {
        n.removesuffix("GetWorkspaceSize")
        for n in names
        if n.startswith("aclnn") and n.endswith("GetWorkspaceSize")
    }


def test_every_exported_aclnn_operator_is_registered_once(native: NativeTree) -> None:
    library = native.sim_lib64 / "libopapi.so"
    operators = registered_operators(library)
    aclnn = [op.name for op in operators if op.path == "aclnn"]
    assert len(aclnn) == len(set(aclnn))
    assert set(aclnn) == exported_aclnn_operators(library)
    assert {op.name for op in operators if op.path == "aclop"} == {
        "Fill",
        "StatelessDropOutGenMask",
        "DropOutDoMask",
        "IsFinite",
        "PadV3Grad",
    }


def sim_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("NPU_SIM_")}
    return subprocess.run(
        [sys.executable, "-m", "sim_runtime", *args],
        env={**python_subprocess_env(inherited), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_npu_sim_ops_lists_operators_with_their_data_types(native: NativeTree) -> None:
    result = sim_cli("ops", "--json", **{paths.SIM_PREFIX_VAR: str(native.sim_lib64.parent)})
    assert result.returncode == 0, result.stderr
    ops = {op["name"]: op for op in json.loads(result.stdout)}
    assert ops["aclnnLerp"]["dtypes"] == ["float32", "float16", "bfloat16"]
    assert ops["aclnnLerp"]["family"] == "ternary" and ops["aclnnLerp"]["kernel"] == "Lerp"
    assert {"int64", "bool"} <= set(ops["aclnnAdd"]["dtypes"])
    assert ops["aclnnForeachMulScalarV2"]["family"] == "foreach"
    assert ops["Fill"]["path"] == "aclop"
    table = sim_cli("ops", **{paths.SIM_PREFIX_VAR: str(native.sim_lib64.parent)})
    assert table.returncode == 0 and f"{len(ops)} operators:" in table.stdout


@pytest.mark.parametrize("broken", ["missing", "not a library"])
def test_npu_sim_ops_without_a_usable_libopapi_is_a_user_error(tmp_path: Path, broken: str) -> None:
    sim, _ = make_native_tree(tmp_path)
    library = sim / "lib64" / "libopapi.so"
    if broken == "missing":
        library.unlink(missing_ok=True)
    else:
        library.write_text("not ELF")
    result = sim_cli("ops", **{paths.SIM_PREFIX_VAR: str(sim)})
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("npu-sim: error: ") and "Traceback" not in result.stderr


# --------------------------------------------------------------------------------------------------
# Coverage of op-plugin's aclnn operators (sim_runtime/data/op_plugin_aclnn.txt)

TORCH_NPU_DOC = Path(__file__).resolve().parents[2] / "docs" / "torch_npu.md"


def test_the_op_plugin_list_records_its_commit_and_real_names() -> None:
    called = op_plugin_operators()
    assert called.repository == "Ascend/op-plugin" and len(called.commit) == 40
    assert {"aclnnAdd", "aclnnBatchNorm", "aclnnMaxPool2dWithMask", "aclnnCumsum"} <= called.names
    assert all(name.startswith("aclnn") and name.isidentifier() for name in called.names)


def test_docs_print_the_coverage_figure(native: NativeTree) -> None:
    # Fails when an operator is added or removed without updating docs/torch_npu.md's figure.
    coverage = operator_coverage(
        registered_operators(native.sim_lib64 / "libopapi.so"), op_plugin_operators()
    )
    assert coverage.line() in TORCH_NPU_DOC.read_text(), f"docs/torch_npu.md should print: {coverage.line()}"
    result = sim_cli("ops", "--coverage", **{paths.SIM_PREFIX_VAR: str(native.sim_lib64.parent)})
    assert result.returncode == 0 and result.stdout.strip() == coverage.line(), result.stderr
    listed = json.loads(
        sim_cli("ops", "--coverage", "--json", **{paths.SIM_PREFIX_VAR: str(native.sim_lib64.parent)}).stdout
    )
    assert len(listed["covered"]) + len(listed["missing"]) == listed["called"]
    assert "aclnnCumsum" in listed["covered"]
