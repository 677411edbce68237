"""The mspti-conformance command line (listing and argument errors; runs are in test_end_to_end)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main


def test_list_prints_the_selected_clauses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "-k", "ACT-REG"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[:4]] == ["ACT-REG-01", "ACT-REG-02", "ACT-REG-03", "ACT-REG-04"]
    assert out[0].split()[1:4] == ["MUST", "HOST", "register_errors"]
    assert out[-1] == "4 of 190 clauses; 4 automated, 0 not yet automated"


def test_list_with_a_profile_shows_applicability(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--profile", "upstream", "-k", "ACT-ITER-06,ACT-ITER-07"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "n/a" in lines[0] and "applies" in lines[1]


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--json", "--profile", "spec", "-k", "ACT-EXT-05"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows == [
        {
            "id": "ACT-EXT-05",
            "level": "AMB",
            "environment": ["HOST"],
            "scenario": "ext_stack",
            "automated": True,
            "statement": rows[0]["statement"],
            "source": rows[0]["source"],
            "applies": True,
            "expect": {"null_out": ["SUCCESS"], "pops": True},
        }
    ]


def test_run_rejects_a_missing_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["run", "--cann", str(tmp_path), "--report-dir", str(tmp_path / "r")])
    assert status == 2
    assert "does not look like a CANN toolkit" in capsys.readouterr().err
    (tmp_path / "include").mkdir()
    (tmp_path / "lib64").mkdir()
    assert main(["run", "--cann", str(tmp_path), "--report-dir", str(tmp_path / "r")]) == 2
    assert "msPTI library" in capsys.readouterr().err


def test_bad_arguments_exit_with_usage_status() -> None:
    with pytest.raises(SystemExit) as error:
        main(["run", "--profile", "strict"])
    assert error.value.code == 2


def test_python_package_choices() -> None:
    from conformance.cli import build_parser

    assert build_parser().parse_args(["run"]).python_package == "auto"
    assert build_parser().parse_args(["run", "--python-package", "mspti"]).python_package == "mspti"
    with pytest.raises(SystemExit) as error:
        main(["run", "--python-package", "torch"])
    assert error.value.code == 2
