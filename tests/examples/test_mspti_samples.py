"""The msPTI samples of examples/ build with the toolkit's flags and print what they should.

Each sample is copied with examples/mspti_common into a scratch folder, built by its own build.sh
(ASCEND_CFLAGS / ASCEND_LDFLAGS as `npu-sim env` gives them) and run on the simulator with our
libmspti.so preloaded, the way CANN users run the vendor's samples.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from support.native import NativeTree, run_program

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Sample -> lines its output must contain.
EXPECTED = {
    "mspti_activity": ["[KERNEL]", "[API]", "[MEMCPY]", "[MEMORY]", "[RUNTIME_API]"],
    "mspti_correlation": ["result[0] is: 1.200000", "[KERNEL] type: KERNEL_AIVEC"],
    "mspti_external_correlation": ["[EXTERNAL_CORRELATION]", "[KERNEL]"],
    "mspti_mstx_activity_domain": ["[MARKER] flag: 16", "[MARKER] flag: 32", "domain: domainRange"],
    "mspti_callback_mstx": ["sourceKind: HOST_DATA", "sourceKind: DEVICE_DATA", "[KERNEL]"],
    "mspti_callback_domain": ["aclrtResetDevice func enter", "aclrtResetDevice func exit"],
}


@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_sample_builds_runs_and_prints_its_records(native: NativeTree, tmp_path: Path, sample: str) -> None:
    shutil.copytree(EXAMPLES / "mspti_common", tmp_path / "mspti_common")
    shutil.copytree(EXAMPLES / sample, tmp_path / sample)
    lib64 = native.sim_lib64
    env = native.env(
        ASCEND_CFLAGS=" ".join(f"-I{d}" for d in native.include_dirs),
        ASCEND_LDFLAGS=f"-L{lib64} -L{native.mspti_lib64} -Wl,-rpath,{lib64} -Wl,-rpath,{native.mspti_lib64}",
    )
    env.pop("LD_PRELOAD", None)  # the compiler needs no sanitizer runtime
    build = subprocess.run(
        ["bash", str(tmp_path / sample / "build.sh")], env=env, capture_output=True, text=True, timeout=300
    )
    assert build.returncode == 0, build.stderr
    result = run_program(tmp_path / sample / sample, native.env(preload_mspti=True), timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    for line in EXPECTED[sample]:
        assert line in result.stdout, f"{sample} did not print {line!r}:\n{result.stdout}"
