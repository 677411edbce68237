"""The npu-sim command, run as ``python -m sim_runtime`` in a subprocess over a fake native tree."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim_runtime import paths
from sim_runtime.config import CONFIG_VAR, ENV_VARS, SimConfig
from sim_runtime.soc import default_catalogue
from sim_runtime.toolkit import TOOLKIT_DIR_VAR
from support.fake_tree import elf_bytes, make_native_tree
from support.native import package_root
from support.usage_errors import assert_usage_error, call_main

SHOW_ENV = 'echo "$ASCEND_HOME_PATH"; echo "${LD_PRELOAD-unset}"; echo "$NPU_SIM_SOC $NPU_SIM_DEVICES"'


class Cli:
    """Runs ``python -m sim_runtime`` with a fake native tree and a private toolkit directory."""

    def __init__(self, base: Path) -> None:
        sim, mspti = make_native_tree(base)
        self.mspti = mspti / "lib64" / "libmspti.so"
        self.toolkit = base / "it's a toolkit"
        inherited = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith("NPU_SIM_") and name not in ("LD_PRELOAD", "LD_LIBRARY_PATH")
        }
        self.env = {
            **inherited,
            "PYTHONPATH": str(package_root()),
            paths.SIM_PREFIX_VAR: str(sim),
            paths.MSPTI_PREFIX_VAR: str(mspti),
            TOOLKIT_DIR_VAR: str(self.toolkit),
        }

    def __call__(self, *args: str, timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "sim_runtime", *args],
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


def assert_user_error(result: subprocess.CompletedProcess[str], message: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"npu-sim: error: {message}"), result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


# --- general --------------------------------------------------------------------------------------


def test_no_command_is_a_usage_error(cli: Cli) -> None:
    result = cli()
    assert result.returncode == 2
    assert "usage: npu-sim" in result.stderr


def test_trace_without_a_program_is_a_usage_error(cli: Cli) -> None:
    result = cli("trace")
    assert result.returncode == 2
    assert "usage: npu-sim trace" in result.stderr


def test_help_lists_the_commands(cli: Cli) -> None:
    result = cli("--help")
    assert result.returncode == 0
    for command in ("env", "info", "run", "trace"):
        assert command in result.stdout


# --- env ------------------------------------------------------------------------------------------


def test_env_exports_evaluate_in_a_shell(cli: Cli) -> None:
    script = 'eval "$("$0" -m sim_runtime env --preload)" && printf "%s\\n" "$ASCEND_HOME_PATH" "$LD_PRELOAD"'
    result = subprocess.run(
        ["sh", "-c", script, sys.executable],
        env=cli.env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [str(cli.toolkit), f"{cli.toolkit}/lib64/libmspti.so"]


def test_env_prints_quoted_exports(cli: Cli) -> None:
    result = cli("env")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    quoted_home = str(cli.toolkit).replace("'", "'\"'\"'")
    assert f"export ASCEND_HOME_PATH='{quoted_home}'" in lines
    assert f"export NPU_SIM_SOC='{default_catalogue().defaults.soc}'" in lines
    assert "export NPU_SIM_FAULTS=''" in lines
    assert all(line.startswith("export ") for line in lines)
    assert not any(line.startswith("export LD_PRELOAD=") for line in lines)


def test_env_json(cli: Cli) -> None:
    result = cli("env", "--json", "--preload", NPU_SIM_DEVICES="3", NPU_SIM_FAULTS="aclrtFree:stall@2")
    assert result.returncode == 0, result.stderr
    variables = json.loads(result.stdout)
    lib64 = f"{cli.toolkit}/lib64"
    assert variables["ASCEND_HOME_PATH"] == str(cli.toolkit)
    assert variables["LD_LIBRARY_PATH"] == lib64
    assert variables["LD_PRELOAD"] == f"{lib64}/libmspti.so"
    assert variables["MSTX_INJECTION_PATH"] == f"{lib64}/libprofapi.so"
    assert variables["ASCEND_CFLAGS"] == f"-I{cli.toolkit}/include"
    assert variables["ASCEND_LDFLAGS"].startswith(f"-L{lib64} -Wl,-rpath,{lib64} -lascendcl")
    assert variables["NPU_SIM_DEVICES"] == "3"
    assert variables["NPU_SIM_FAULTS"] == "aclrtFree:stall@2"
    assert {CONFIG_VAR, *ENV_VARS.values()} <= set(variables)


def test_env_with_other_mspti(cli: Cli, tmp_path: Path) -> None:
    vendor = tmp_path / "vendor.so"
    vendor.write_bytes(elf_bytes())
    result = cli("env", "--json", "--mspti", str(vendor))
    assert result.returncode == 0, result.stderr
    home = Path(json.loads(result.stdout)["ASCEND_HOME_PATH"])
    assert (home / "lib64" / "libmspti.so").resolve() == vendor.resolve()


def test_env_rejects_non_elf_mspti(cli: Cli, tmp_path: Path) -> None:
    fake = tmp_path / "libmspti.so"
    fake.write_text("not a library\n")
    assert_user_error(cli("env", "--mspti", str(fake)), f"msPTI library {fake} is not an ELF file")


def test_env_reports_missing_native_files(cli: Cli) -> None:
    cli.mspti.unlink()
    assert_user_error(cli("env"), f"missing library {cli.mspti}; run `pip install .`")


def test_env_reports_bad_configuration(cli: Cli) -> None:
    result = cli("env", NPU_SIM_DEVICES="100")
    assert_user_error(result, "NPU_SIM_DEVICES: invalid value '100'; expected a decimal integer in 1..64")


# --- info -----------------------------------------------------------------------------------------


def test_info_table(cli: Cli) -> None:
    result = cli("info")
    assert result.returncode == 0, result.stderr
    header, *rows = result.stdout.splitlines()
    assert re.split(r"\s{2,}", header) == [
        "name", "chip type", "family", "AIC/AIV", "clock MHz", "FP16 TFLOPS", "memory GiB", "HBM GB/s"
    ]  # fmt: skip
    catalogue = default_catalogue()
    assert [row.split()[0] for row in rows] == list(catalogue.socs)
    spec = catalogue.get("Ascend910B3")
    (row,) = [row for row in rows if row.startswith("Ascend910B3 ")]
    assert row.split() == [
        "Ascend910B3", str(spec.chip_type), spec.family, f"{spec.aic}/{spec.aiv}", str(spec.cube_mhz),
        f"{spec.fp16_tflops:.1f}", str(spec.memory_gib), f"{spec.hbm_gbps:g}",
    ]  # fmt: skip
    family_start = header.index("family")
    tflops_end = header.index("FP16 TFLOPS") + len("FP16 TFLOPS")
    for line in rows:
        cells = list(re.finditer(r"\S+", line))
        assert len(cells) == 8, line
        assert cells[2].start() == family_start, line  # text columns are left-aligned
        assert cells[5].end() == tflops_end, line  # numeric columns are right-aligned


def test_info_json_for_one_soc(cli: Cli) -> None:
    result = cli("info", "--json", "--soc", "Ascend310B1")
    assert result.returncode == 0, result.stderr
    (record,) = json.loads(result.stdout)
    spec = default_catalogue().get("Ascend310B1")
    assert record["name"] == "Ascend310B1"
    assert record["chip_type"] == spec.chip_type == 7
    assert record["aic"] == spec.aic
    assert record["fp16_tflops"] == pytest.approx(spec.fp16_tflops, rel=1e-3)


def test_info_json_lists_every_soc(cli: Cli) -> None:
    result = cli("info", "--json")
    assert [record["name"] for record in json.loads(result.stdout)] == list(default_catalogue().socs)


def test_info_unknown_soc(cli: Cli) -> None:
    result = cli("info", "--soc", "Ascend123")
    assert_user_error(result, "unknown SoC 'Ascend123'")
    assert "valid choices: " in result.stderr and "Ascend910B3" in result.stderr


# --- run ------------------------------------------------------------------------------------------


def test_run_shows_the_toolkit_to_the_program(cli: Cli) -> None:
    result = cli("run", "--", "sh", "-c", SHOW_ENV)
    assert result.returncode == 0, result.stderr
    catalogue = default_catalogue()
    assert result.stdout.splitlines() == [
        str(cli.toolkit),
        f"{cli.toolkit}/lib64/libmspti.so",
        f"{catalogue.defaults.soc} {catalogue.defaults.devices}",
    ]


def test_run_without_mspti_does_not_preload(cli: Cli) -> None:
    result = cli("run", "--no-mspti", "--", "sh", "-c", SHOW_ENV)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == "unset"


def test_run_with_other_mspti(cli: Cli, tmp_path: Path) -> None:
    vendor = tmp_path / "vendor.so"
    vendor.write_bytes(elf_bytes())
    result = cli("run", "--mspti", str(vendor), "--", "sh", "-c", 'readlink "$LD_PRELOAD"')
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(vendor.resolve())


def test_mspti_options_are_exclusive(cli: Cli) -> None:
    result = cli("run", "--no-mspti", "--mspti", "x.so", "--", "true")
    assert result.returncode == 2
    assert "not allowed with argument" in result.stderr


def test_run_options_override_environment_and_config(cli: Cli, tmp_path: Path) -> None:
    config = tmp_path / "sim.toml"
    config.write_text('soc = "Ascend910B1"\ndevices = 2\nseed = 5\nlog_level = "debug"\n')
    show = (
        'echo "$NPU_SIM_SOC|$NPU_SIM_DEVICES|$NPU_SIM_CLOCK|$NPU_SIM_SEED|$NPU_SIM_FAULTS|$NPU_SIM_LOG_LEVEL"'
    )
    result = cli(
        "run", "--config", str(config), "--soc", "Ascend950PR_9599", "--clock", "virtual",
        "--faults", " aclrtMalloc : error=0x10 @ 2 ", "--", "sh", "-c", show,
        NPU_SIM_DEVICES="6", NPU_SIM_SEED="1",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Ascend950PR_9599|6|virtual|1|aclrtMalloc:error=16@2|debug"


def test_run_config_reaches_the_child_intact(cli: Cli) -> None:
    script = (
        "import json, os; "
        "print(json.dumps({k: v for k, v in os.environ.items() if k.startswith('NPU_SIM_')}))"
    )
    result = cli(
        "run", "--devices", "9", "--seed", "18446744073709551615", "--", sys.executable, "-c", script
    )
    assert result.returncode == 0, result.stderr
    child_env = json.loads(result.stdout)
    config = SimConfig.from_env(child_env)
    assert config == SimConfig.defaults().replace(devices=9, seed=2**64 - 1)


def test_run_passes_arguments_through(cli: Cli) -> None:
    result = cli("run", "--", "sh", "-c", 'printf "%s\\n" "$@"', "x", "--soc", "-- two", "'q'")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["--soc", "-- two", "'q'"]


def test_run_without_double_dash(cli: Cli) -> None:
    result = cli("run", "sh", "-c", "exit 3")
    assert result.returncode == 3


@pytest.mark.parametrize("code", [0, 1, 7, 255])
def test_run_passes_the_exit_code_through(cli: Cli, code: int) -> None:
    result = cli("run", "--", "sh", "-c", f"exit {code}")
    assert result.returncode == code


def test_run_reports_death_by_signal_like_a_shell(cli: Cli) -> None:
    result = cli("run", "--", "sh", "-c", "kill -TERM $$")
    assert result.returncode == 128 + 15


def test_run_timeout_kills_the_program_and_its_children(cli: Cli) -> None:
    started = time.monotonic()
    result = cli("run", "--timeout", "0.5", "--", "sh", "-c", "sleep 30; echo late", timeout=30)
    assert time.monotonic() - started < 15
    assert result.returncode == 124
    assert "npu-sim: error: 'sh' timed out after 0.5 s" in result.stderr
    assert "late" not in result.stdout


def test_run_timeout_not_reached(cli: Cli) -> None:
    result = cli("run", "--timeout", "30", "--", "sh", "-c", "echo fast; exit 4")
    assert result.returncode == 4
    assert result.stdout == "fast\n"


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf"])
def test_run_rejects_bad_timeouts(cli: Cli, value: str) -> None:
    result = cli("run", "--timeout", value, "--", "true")
    assert result.returncode == 2
    assert f"invalid value '{value}'; expected a positive number of seconds" in result.stderr


@pytest.mark.parametrize("args", [("run",), ("run", "--"), ("run", "--soc", "Ascend910B3", "--")])
def test_run_without_program_is_a_usage_error(cli: Cli, args: tuple[str, ...]) -> None:
    result = cli(*args)
    assert result.returncode == 2
    assert "usage: npu-sim run" in result.stderr
    assert "npu-sim run: error: missing PROGRAM" in result.stderr


def test_run_missing_program(cli: Cli) -> None:
    result = cli("run", "--", "/nonexistent/program")
    assert result.returncode == 127
    assert "npu-sim: error: cannot run '/nonexistent/program': no such file or command" in result.stderr


def test_run_program_that_is_not_executable(cli: Cli, tmp_path: Path) -> None:
    script = tmp_path / "script.sh"
    script.write_text("echo hi\n")
    result = cli("run", "--", str(script))
    assert result.returncode == 126
    assert "permission denied" in result.stderr


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (("--devices", "0"), {}, "--devices: invalid value '0'; expected a decimal integer in 1..64"),
        (
            ("--seed", "-3"),
            {},
            "--seed: invalid value '-3'; expected a decimal integer in 0..18446744073709551615",
        ),
        (("--clock", "slow"), {}, "--clock: invalid value 'slow'; expected one of wall | virtual"),
        (("--soc", "Ascend1"), {}, "--soc: unknown SoC 'Ascend1'"),
        (("--faults", "f:bogus"), {}, "--faults: fault rule 1 'f:bogus': unknown action 'bogus'"),
        (
            (),
            {"NPU_SIM_CLOCK": "slow"},
            "NPU_SIM_CLOCK: invalid value 'slow'; expected one of wall | virtual",
        ),
        ((), {"NPU_SIM_LOG_LEVEL": "loud"}, "NPU_SIM_LOG_LEVEL: invalid value 'loud'"),
        (
            ("--config", "/nonexistent.toml"),
            {},
            "NPU_SIM_CONFIG: config file '/nonexistent.toml' does not exist",
        ),
    ],
)
def test_run_configuration_errors(cli: Cli, args: tuple[str, ...], env: dict[str, str], message: str) -> None:
    assert_user_error(cli("run", *args, "--", "sh", "-c", "echo ran", **env), message)


def test_run_refuses_a_binary_config_file(cli: Cli, tmp_path: Path) -> None:
    config_file = tmp_path / "sim.toml"
    config_file.write_bytes(bytes(range(256)) * 4)
    result = cli("run", "--config", str(config_file), "--", "sh", "-c", "echo ran")
    assert_user_error(result, f"NPU_SIM_CONFIG: config file {str(config_file)!r} is not UTF-8 text")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "how", [("--faults", "aclrtMaloc:error=1"), ("NPU_SIM_FAULTS", "aclrtMaloc:error=1")]
)
def test_run_refuses_a_fault_plan_on_a_misspelt_function(cli: Cli, how: tuple[str, str]) -> None:
    option, plan = how
    args, env = ((option, plan), {}) if option.startswith("--") else ((), {option: plan})
    result = cli("run", *args, "--", "sh", "-c", "echo ran", **env)
    assert_user_error(
        result,
        f"{option}: fault rule 1 '{plan}': 'aclrtMaloc' is not a simulator function with a fault point; "
        "did you mean aclrtMalloc",
    )
    assert len(result.stderr.splitlines()) == 1


def test_run_names_an_mspti_library_that_crashes_as_it_loads(cli: Cli, tmp_path: Path) -> None:
    source = tmp_path / "crash.c"
    source.write_text(
        "#include <signal.h>\n__attribute__((constructor)) static void boom(void) { raise(SIGSEGV); }\n"
    )
    library = tmp_path / "libmspti.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    # LD_PRELOAD separates by spaces: a toolkit folder without one.
    result = cli("run", "--mspti", str(library), "--", "true", **{TOOLKIT_DIR_VAR: str(tmp_path / "toolkit")})
    assert result.returncode == 128 + signal.SIGSEGV, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("npu-sim: error: 'true' was killed by SIGSEGV with the msPTI library ")
    assert "libmspti.so preloaded" in lines[0]


def test_run_rejects_non_elf_mspti(cli: Cli, tmp_path: Path) -> None:
    fake = tmp_path / "fake.so"
    fake.write_bytes(b"MZ\x90\x00")
    assert_user_error(
        cli("run", "--mspti", str(fake), "--", "true"), f"msPTI library {fake} is not an ELF file"
    )


def test_run_reports_missing_native_tree(cli: Cli, tmp_path: Path) -> None:
    result = cli("run", "--", "true", NPU_SIM_PREFIX=str(tmp_path / "gone"))
    assert_user_error(result, f"NPU_SIM_PREFIX='{tmp_path / 'gone'}' is not a directory")


def test_run_program_with_bad_format(cli: Cli, tmp_path: Path) -> None:
    blob = tmp_path / "blob"
    blob.write_bytes(b"\x00\x01\x02\x03" * 16)
    blob.chmod(0o755)
    result = cli("run", "--", str(blob))
    assert result.returncode == 126
    assert f"npu-sim: error: cannot run '{blob}': exec format error" in result.stderr


_TRAPPER = 'trap "echo got-$1; exit 42" TERM; echo ready; while :; do sleep 0.05; done'


@pytest.mark.parametrize("options", [(), ("--timeout", "60")])
@pytest.mark.skipif(
    bool(os.environ.get("NPU_SIM_SANITIZER_PRELOAD")),
    reason="pure-Python signal forwarding; a sanitizer-preloaded interpreter delays signal handling, "
    "and the sanitizer runs exist for the native code",
)
def test_run_forwards_sigterm_to_the_program(cli: Cli, options: tuple[str, ...]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "sim_runtime", "run", *options, "--", "sh", "-c", _TRAPPER, "sh", "term"],
        env=cli.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # so a failure can clean up the whole tree
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == "ready\n"
        process.send_signal(signal.SIGTERM)
        stdout, _ = process.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 42
    assert stdout == "got-term\n"


# --- usage errors: every command ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ((), "the following arguments are required: COMMAND"),
        (("simulate",), "invalid choice: 'simulate'"),
        (("info", "--soc", "Ascend1"), "unknown SoC 'Ascend1'"),
        (("info", "--bogus"), "unrecognized arguments: --bogus"),
        (("env", "--mspti", "/nonexistent/libmspti.so"), "/nonexistent/libmspti.so"),
        (("run",), "missing PROGRAM"),
        (("run", "--devices", "0", "--", "true"), "--devices: invalid value '0'"),
        (("run", "--timeout", "-1", "--", "true"), "--timeout: invalid value '-1'"),
        (("run", "--faults", "aclrtMalloc:bogus", "--", "true"), "unknown action 'bogus'"),
        (("run", "--faults", "aclrtMaloc:error=1", "--", "true"), "did you mean aclrtMalloc"),
        (("run", "--mspti", "/nonexistent/libmspti.so", "--", "true"), "/nonexistent/libmspti.so"),
        (("run", "--config", "/nonexistent.toml", "--", "true"), "does not exist"),
        (("bench", "--rounds", "0"), "--rounds: invalid value '0'"),
        (("bench", "no_such_benchmark"), "no_such_benchmark"),
        (("calibrate", "--rows", "some"), "invalid choice: 'some'"),
    ],
)
def test_bad_invocations_exit_2_with_one_line(
    args: tuple[str, ...], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sim_runtime.cli import main

    assert_usage_error(call_main(main, args, capsys), "npu-sim", says)
