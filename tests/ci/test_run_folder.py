"""The xdist workers of one run share the folder of built test programs (tests/support/run_folder.py):
a program compiled by one worker is the other's too, so each is compiled once per run (docs/ci.md)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from support.nested_pytest import run_on_two_workers

pytest.importorskip("xdist")

WORKER_TEST = textwrap.dedent(
    """
    import os
    from pathlib import Path

    from support.native import NativeTree, ProgramBuilder
    from support.run_folder import shared_folder


    def test_build_the_program(tmp_path_factory):
        nowhere = Path("/nonexistent")
        tree = NativeTree(sim_lib64=nowhere, mspti_lib64=nowhere, include_dirs=())
        exe = ProgramBuilder(tree, shared_folder(tmp_path_factory, "programs")).build(
            [Path(os.environ["PROGRAM_SOURCE"])], []
        )
        assert exe.is_file()
        with open(os.environ["BUILT_LIST"], "a", encoding="utf-8") as out:
            out.write(f"{os.environ['PYTEST_XDIST_WORKER']} {exe}\\n")
    """
)


def test_both_workers_find_the_program_in_one_folder(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    for name in ("test_first.py", "test_second.py"):  # --dist loadfile: one file to each worker
        (run / name).write_text(WORKER_TEST, encoding="utf-8")
    source = tmp_path / "tiny.c"
    source.write_text("int main(void) { return 0; }\n", encoding="utf-8")
    built = tmp_path / "built.txt"
    result = run_on_two_workers(
        run,
        ["--dist", "loadfile", "-q", "--basetemp", str(tmp_path / "base"), "."],
        PROGRAM_SOURCE=str(source),
        BUILT_LIST=str(built),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = dict(line.split(" ", 1) for line in built.read_text(encoding="utf-8").splitlines())
    assert sorted(lines) == ["gw0", "gw1"], lines  # each worker ran one of the files
    assert lines["gw0"] == lines["gw1"], lines  # and both found the program at the same path
    assert Path(lines["gw0"]).parent == tmp_path / "base" / "shared-programs"
