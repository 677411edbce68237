"""Every way of using ``mspti-conformance`` wrongly ends with exit 2 and one line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli import main
from support.usage_errors import assert_usage_error, call_main, run_cli

PROG = "mspti-conformance"
#: Selects one clause, so that the option under test is what the command refuses.
ONE = ("-k", "ACT-REG-01")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ((), "the following arguments are required: COMMAND"),
        (("grade",), "invalid choice: 'grade'"),
        (("list", "--profile", "strict"), "invalid choice: 'strict'"),
        (("run", "--profile", "strict"), "invalid choice: 'strict'"),
        (("run", "--python-package", "torch"), "invalid choice: 'torch'"),
        (("run", "--devices", "0", *ONE), "--devices: invalid value '0'; expected a positive whole number"),
        (("run", "--devices", "two", *ONE), "--devices: invalid value 'two'"),
        (("run", "--jobs", "0", *ONE), "--jobs: invalid value '0'"),
        (("run", "--stateful-examples", "-5", *ONE), "--stateful-examples: invalid value '-5'"),
        (("run", "--stateful-seed", "-1", *ONE), "--stateful-seed: invalid value '-1'"),
        (("run", "--timeout", "0", *ONE), "--timeout: invalid value '0'"),
        (("run", "--timeout", "nan", *ONE), "--timeout: invalid value 'nan'"),
        (("run", "--sim", "BOGUS", *ONE), "--sim: unknown SoC 'BOGUS'"),
        (("run", "--devices", "1000", *ONE), "--devices: invalid value '1000'; expected a decimal integer"),
        (("run", "--mspti", "/nonexistent/libmspti.so", *ONE), "/nonexistent/libmspti.so does not exist"),
        (("run", "--cann", "/nonexistent", *ONE), "does not look like a CANN toolkit"),
        (("run", "-k", "no-clause-is-called-this"), "selects no clause; nothing was graded"),
        (
            ("run", "-k", "no-such-clause", "-k", "nor-this"),
            "-k no-such-clause -k nor-this selects no clause",
        ),
    ],
)
def test_bad_invocations_exit_2_with_one_line(
    args: tuple[str, ...], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report_dir = ("--report-dir", str(tmp_path / "report")) if args[:1] == ("run",) else ()
    assert_usage_error(call_main(main, [*args, *report_dir], capsys), PROG, says)


def test_a_usage_error_in_a_process_is_one_line_and_exit_2() -> None:
    result = run_cli("conformance", ["run", "--devices", "1000", "-k", "ACT-REG-01"])
    assert_usage_error(result, PROG, "--devices: invalid value '1000'")


def test_an_unwritable_report_dir_is_refused_before_anything_runs(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = run_cli("conformance", ["run", *ONE, "--report-dir", str(blocker / "report")])
    assert_usage_error(
        result, PROG, f"--report-dir {blocker / 'report'}: cannot write there (Not a directory)"
    )
    assert result.stdout == ""


def test_a_selection_of_no_clause_writes_no_report(tmp_path: Path) -> None:
    result = run_cli("conformance", ["run", "-k", "zzz", "--report-dir", str(tmp_path / "report")])
    assert_usage_error(result, PROG, "nothing was graded")
    assert "PASSED" not in result.stdout + result.stderr
    assert not (tmp_path / "report").exists()
