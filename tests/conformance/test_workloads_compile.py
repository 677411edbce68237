"""The workload programs and the collector compile warning-free against this project's headers."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.build import Builder, Program
from conformance.execute import PROGRAMS
from conformance.target import Target

REPO = Path(__file__).resolve().parents[2]
INCLUDES = (
    REPO / "csrc" / "sim" / "include",
    REPO / "csrc" / "mspti" / "include",
    REPO / "csrc" / "mspti" / "include" / "mspti",
)

pytestmark = pytest.mark.skipif(
    shutil.which("g++") is None or not (INCLUDES[2] / "mspti.h").is_file(),
    reason="needs g++ and the msPTI headers of the source tree",
)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_compiles_with_werror(name: str, tmp_path: Path) -> None:
    target = Target("sim", tmp_path / "libmspti.so", tmp_path, INCLUDES, (tmp_path,), {})
    builder = Builder(target, tmp_path / "cache", werror=True)
    program: Program = PROGRAMS[name]()
    for source in program.sources:
        path = source.path
        if source.text is not None:
            path = tmp_path / source.name
            path.write_text(source.text, encoding="utf-8")
        assert path is not None
        command = [
            builder._compiler(source.language),
            *builder._compile_flags(source.language),
            "-c",
            str(path),
            "-o",
            str(tmp_path / f"{Path(source.name).stem}.o"),
        ]
        result = subprocess.run(command, capture_output=True, text=True)
        assert result.returncode == 0, f"{' '.join(command)}\n{result.stderr}"
