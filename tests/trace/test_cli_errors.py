"""The trace commands given damaged captures, wrong options and folders they may not use: a notice
or a one-line error (exit 2 for usage, 1 with --strict or a failed check, 124 on timeout), never a
traceback, never a silent success."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from mspti_trace.breakdown.output_dir import MANIFEST_FILE
from mspti_trace.cli import main as trace_main
from sim_runtime.cli import main as npu_sim
from support.usage_errors import assert_usage_error, call_main, run_cli

COMMANDS = ("export", "report", "breakdown")


def _capture(fakes: ModuleType, directory: Path) -> Path:
    fakes.decoder_capture(directory, layers=1, steps=2, meta={"soc": "Ascend910B3", "clock": "virtual"})
    return directory


def _damage(directory: Path, how: str) -> None:
    (records,) = directory.glob("trace-*.records")
    if how == "truncated":
        records.write_bytes(records.read_bytes()[:-20])
    elif how == "padded":
        records.write_bytes(records.read_bytes() + bytes(range(1, 200)) * 50)
    elif how == "incomplete":
        meta = records.with_suffix(".json")
        meta.write_text(json.dumps({**json.loads(meta.read_text()), "complete": False}))
    elif how == "empty":
        for path in directory.glob("trace-*"):
            path.unlink()


_SAYS = {
    "truncated": "ends inside a chunk",
    "padded": "ends inside a chunk",
    "incomplete": "the process did not finish its capture",
    "empty": "no capture (trace-<pid>.records) in it",
}


def _output(command: str, tmp_path: Path) -> Path:
    return tmp_path / {"export": "trace.json", "report": "summary.html", "breakdown": "facts"}[command]


@pytest.mark.parametrize("how", list(_SAYS))
@pytest.mark.parametrize("command", COMMANDS)
def test_a_damaged_capture_gets_a_notice_and_strict_fails(
    fakes: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, how: str
) -> None:
    capture = _capture(fakes, tmp_path / "cap")
    _damage(capture, how)
    out = _output(command, tmp_path)
    if not (how == "empty" and command == "breakdown"):  # an empty capture has no process to break down
        assert npu_sim(["trace", command, str(capture), "-o", str(out)]) == 0
        assert "npu-sim trace: notice: " in capsys.readouterr().err
    capsys.readouterr()
    strict = tmp_path / "strict"
    assert npu_sim(["trace", command, str(capture), "-o", str(strict), "--strict"]) == 1
    err = capsys.readouterr().err
    assert "npu-sim trace: error: " in err and _SAYS[how] in err, err
    assert "Traceback" not in err
    assert not strict.exists()


def test_a_sound_capture_has_no_notice(
    fakes: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capture = _capture(fakes, tmp_path / "cap")
    assert npu_sim(["trace", "export", str(capture), "--strict", "-o", str(tmp_path / "t.json")]) == 0
    assert "notice" not in capsys.readouterr().err


@pytest.mark.parametrize("content", ["", "{not json", "[1, 2]"])
@pytest.mark.parametrize("name", ["run.json", "trace-4242.json"])
def test_an_empty_or_invalid_json_file_is_named(
    fakes: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: str
) -> None:
    capture = _capture(fakes, tmp_path / "cap")
    (capture / name).write_text(content)
    assert npu_sim(["trace", "export", str(capture)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"npu-sim trace: error: {capture / name}: "), err
    assert len(err.splitlines()) == 1


def test_an_invalid_facts_file_is_named(
    facts_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (config,) = facts_dir.glob("*_analysis_config.json")
    config.write_text("")
    assert npu_sim(["trace", "validate", str(facts_dir)]) == 2
    assert capsys.readouterr().err.startswith(f"npu-sim trace: error: {config}: empty")


def test_breakdown_rerun_into_its_own_folder_leaves_only_the_new_files(
    fakes: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capture = _capture(fakes, tmp_path / "cap")
    out = tmp_path / "facts"
    assert npu_sim(["trace", "breakdown", str(capture), "-o", str(out), "--model-name", "first"]) == 0
    first = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert "first_analysis_config.json" in first and MANIFEST_FILE in first
    assert npu_sim(["trace", "breakdown", str(capture), "-o", str(out), "--model-name", "second"]) == 0
    second = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert second == {name.replace("first", "second") for name in first}
    capsys.readouterr()
    assert npu_sim(["trace", "validate", str(out)]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("foreign", ["notes.txt", "outputs/mine.json"])
def test_breakdown_refuses_a_folder_it_did_not_write(
    fakes: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str], foreign: str
) -> None:
    capture = _capture(fakes, tmp_path / "cap")
    out = tmp_path / "facts"
    if foreign.startswith("outputs/"):  # a file added to a folder breakdown wrote
        assert npu_sim(["trace", "breakdown", str(capture), "-o", str(out)]) == 0
    (out / foreign).parent.mkdir(parents=True, exist_ok=True)
    (out / foreign).write_text("mine")
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    capsys.readouterr()
    assert npu_sim(["trace", "breakdown", str(capture), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"npu-sim trace: error: {out}: ") and len(err.splitlines()) == 1, err
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before


def test_declarations_naming_a_node_the_capture_lacks_are_an_error(
    fakes: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capture = _capture(fakes, tmp_path / "cap")
    declarations = tmp_path / "declarations.json"
    declarations.write_text(json.dumps({"nodes": {"decoder_layers/atention": {"semantic": "typo"}}}))
    out = tmp_path / "facts"
    code = npu_sim(["trace", "breakdown", str(capture), "-o", str(out), "--declarations", str(declarations)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "declared node 'decoder_layers/atention' is not in the capture; did you mean" in err, err
    assert not out.exists()


def test_trace_timeout_kills_and_exits_124(tmp_path: Path) -> None:
    result = run_cli(
        "sim_runtime",
        [
            "trace",
            "--timeout",
            "0.5",
            "-o",
            str(tmp_path / "cap"),
            "--",
            sys.executable,
            "-c",
            "import time; time.sleep(60)",
        ],
        timeout=30,
    )
    assert result.returncode == 124, result.stderr
    assert "Traceback" not in result.stderr
    assert "npu-sim trace: error: " in result.stderr and "timed out after 0.5 s; killed it" in result.stderr


def test_capture_help_gives_the_subscribe_advice() -> None:
    result = run_cli("sim_runtime", ["trace", "--help"])
    assert result.returncode == 0
    assert "NPU_SIM_TRACE_SUBSCRIBE=0" in result.stdout


@pytest.mark.parametrize(
    ("module", "prog"), [("mspti_trace", "mspti-trace"), ("sim_runtime", "npu-sim trace")]
)
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--timeout", "-1", "--", "true"), "--timeout: invalid value '-1'"),
        (("--timeout", "soon", "--", "true"), "--timeout: invalid value 'soon'"),
        (("--kinds", "bogus", "--", "true"), "unknown activity kind 'bogus'"),
        (("-o", "x"), "missing PROGRAM"),
        (("export",), "the following arguments are required: DIR"),
        (("export", "/nonexistent-capture"), "/nonexistent-capture: not a capture directory"),
        (("export", "/nonexistent-capture", "--format", "svg"), "invalid choice: 'svg'"),
        (("breakdown", "/nonexistent-capture"), "not a capture directory"),
        (("breakdown", "/nonexistent-capture", "--pid", "x"), "--pid: invalid int value: 'x'"),
        (("validate", "/nonexistent-facts"), "/nonexistent-facts"),
        (("report", "/nonexistent-capture"), "not a capture directory"),
        (("report",), "the following arguments are required: DIR"),
    ],
)
def test_bad_invocations_exit_2_with_one_line(
    module: str, prog: str, args: tuple[str, ...], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if module == "mspti_trace" and args[:1] == ("--timeout",):
        args = ("--mspti", "/nonexistent/libmspti.so", *args)
    main = trace_main if module == "mspti_trace" else npu_sim
    command = ["trace", *args] if module == "sim_runtime" else list(args)
    assert_usage_error(call_main(main, command, capsys), prog, says)


def test_a_usage_error_in_a_process_is_one_line_and_exit_2() -> None:
    assert_usage_error(run_cli("sim_runtime", ["trace", "export"]), "npu-sim trace", "required: DIR")


def test_capture_names_an_mspti_library_that_crashes_as_it_loads(tmp_path: Path) -> None:
    source = tmp_path / "crash.c"
    source.write_text(
        "#include <signal.h>\n__attribute__((constructor)) static void boom(void) { raise(SIGSEGV); }\n"
    )
    library = tmp_path / "libmspti.so"
    command = ["gcc", "-shared", "-fPIC", "-Wl,-soname,libmspti.so", "-o", str(library), str(source)]
    subprocess.run(command, check=True)
    # Under a sanitizer build the runtime would catch the signal and exit with its own code; the
    # signal is left to the process, as it is without one.
    no_handler = {
        name: ":".join(filter(None, [os.environ.get(name, ""), "handle_segv=0"]))
        for name in ("ASAN_OPTIONS", "TSAN_OPTIONS")
    }
    result = run_cli(
        "mspti_trace", ["--mspti", str(library), "-o", str(tmp_path / "cap"), "--", "true"], env=no_handler
    )
    assert result.returncode == 128 + signal.SIGSEGV, result.stderr
    assert "Traceback" not in result.stderr
    assert (
        f"mspti-trace: error: 'true' was killed by SIGSEGV with the msPTI library {library}" in result.stderr
    )
