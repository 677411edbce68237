"""`npu-sim calibrate --measure` / `--fit` on the simulator (a CANN), and site timing profiles."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support.native import NativeTree, python_subprocess_env

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

SOC = "Ascend910B2"
#: Built-in value (timing.toml, family A2) and the factor the perturbed profile applies.
PERTURBED = {
    "cube_efficiency": (0.805, 0.70),
    "cube_wave_ns": (900.0, 1.40),
    "attention_vector_tile_ns": (1125.0, 1.30),
    "attention_fill_tiles": (49.0, 0.75),
    "hixl_alpha_ns": (484.0, 1.50),
    "hixl_gbps": (20.18, 0.60),
    "hixl_read_alpha_ns": (459.0, 0.70),
    "hixl_read_gbps": (27.21, 1.25),
    "acl_sync_ns": (14151.0, 1.30),
}
#: Rows that determine the perturbed coefficients: two sizes of each class at least, one launch plus
#: synchronise for the host class (none of the `device` method, whose 256 MiB memset per call makes a run
#: ten times longer).
ROWS = [
    "matmul-fp16-1024",
    "matmul-fp16-2048",
    "matmul-fp16-4096",
    "fa-fwd-1024",
    "fa-fwd-4096",
    "fa-fwd-8192",
    "hixl-write-d2d-16kib-a2-cs",
    "hixl-write-8mib-a2",
    "hixl-read-d2d-16kib-a2-cs",
    "hixl-read-d2d-2mib-a2-cs",
    "launch-sync-gelu-256-cpp",
]


def _npu_sim(env: dict[str, str], *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sim_runtime", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


@pytest.fixture(scope="module")
def cli_env(calibrate_home: Path, native: NativeTree) -> dict[str, str]:
    env = python_subprocess_env(native.env(HOME=str(calibrate_home)))
    for name in ("NPU_SIM_CONFIG", "NPU_SIM_TIMING", "NPU_SIM_SOC"):
        env.pop(name, None)
    return env


@pytest.fixture(scope="module")
def cann_root(cli_env: dict[str, str]) -> Path:
    done = _npu_sim(cli_env, "env", "--json")
    assert done.returncode == 0, done.stderr
    return Path(json.loads(done.stdout)["ASCEND_HOME_PATH"])


def test_rows_exist() -> None:
    from sim_runtime import calibrate

    known = {row.id for row in calibrate.load_rows()}
    assert set(ROWS) <= known


def test_perturbed_profile_is_recovered(cli_env: dict[str, str], cann_root: Path, tmp_path: Path) -> None:
    perturbed = {key: base * factor for key, (base, factor) in PERTURBED.items()}
    profile = tmp_path / "perturbed.toml"
    profile.write_text(
        f"[soc.{SOC}]\n" + "".join(f"{key} = {value!r}\n" for key, value in perturbed.items()),
        encoding="utf-8",
    )
    config = tmp_path / "sim.toml"
    config.write_text(f'soc = "{SOC}"\nclock = "virtual"\ntiming = "perturbed.toml"\n', encoding="utf-8")
    rows_file = tmp_path / "rows.toml"
    measure_env = {**cli_env, "NPU_SIM_CONFIG": str(config)}
    ids = [f"--id={row}" for row in ROWS]
    done = _npu_sim(
        measure_env, "calibrate", "--measure", "--cann", str(cann_root), *ids, "--out", str(rows_file)
    )
    assert done.returncode == 0, done.stderr
    measured = tomllib.loads(rows_file.read_text(encoding="utf-8"))["row"]
    assert sorted(row["id"] for row in measured) == sorted(ROWS)
    assert {row["soc"] for row in measured} == {SOC}
    assert all(row["unit"] == "us" and row["use"] == "fit" and row["real"] > 0 for row in measured)

    site = tmp_path / "site.toml"
    done = _npu_sim(cli_env, "calibrate", "--fit", str(rows_file), "--out", str(site))
    assert done.returncode == 0, done.stderr
    fitted = tomllib.loads(site.read_text(encoding="utf-8"))["soc"][SOC]
    assert set(fitted) == set(PERTURBED)
    for key, want in perturbed.items():
        assert fitted[key] == pytest.approx(want, rel=0.02), (key, fitted[key], want)
    # The fit moved every coefficient: none is left at its built-in value.
    for key, (base, _) in PERTURBED.items():
        assert fitted[key] != pytest.approx(base, rel=0.1), key


def test_site_profile_with_an_unknown_coefficient_is_a_configuration_error(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    profile = tmp_path / "typo.toml"
    profile.write_text(f"[soc.{SOC}]\ncube_eficiency = 0.5\n", encoding="utf-8")
    env = {**cli_env, "NPU_SIM_TIMING": str(profile)}
    done = _npu_sim(env, "calibrate", "--id", "matmul-fp16-4096")
    assert done.returncode == 1
    assert "cube_eficiency: not a timing coefficient" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ("[soc.NoSuchSoc]\ncube_efficiency = 0.5\n", "[soc.NoSuchSoc]: unknown SoC"),
        ("[hccl.no_such_topology]\ncollective_link_gbps = 5\n", "[hccl.no_such_topology]: unknown topology"),
        ("[family.Z9]\ncube_efficiency = 0.5\n", "[family.Z9]: no SoC of the catalogue is of that family"),
        ("[kernel.x]\na = 1\n", "[kernel.x]: expected [soc.<name>], [family.<name>] or [hccl.<topology>]"),
        ("cube_efficiency = 0.5\n", "top-level keys are not allowed"),
        ("[family.A2]\ncube_efficiency = -1\n", "cube_efficiency: expected a non-negative number"),
    ],
)
def test_bad_site_profiles_name_what_to_fix(
    cli_env: dict[str, str], tmp_path: Path, profile: str, message: str
) -> None:
    path = tmp_path / "site.toml"
    path.write_text(profile, encoding="utf-8")
    done = _npu_sim({**cli_env, "NPU_SIM_TIMING": str(path)}, "calibrate", "--id", "matmul-fp16-4096")
    assert done.returncode == 1
    assert message in done.stderr


def test_a_family_table_changes_every_soc_of_the_family(cli_env: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "site.toml"
    path.write_text("[family.A2]\ncube_efficiency = 0.45\n", encoding="utf-8")
    ids = ["--id=matmul-fp16-4096", "--id=matmul-fp16-8192-a2", "--json"]
    before = json.loads(_npu_sim(cli_env, "calibrate", *ids).stdout)["rows"]
    after = json.loads(_npu_sim({**cli_env, "NPU_SIM_TIMING": str(path)}, "calibrate", *ids).stdout)["rows"]
    assert {row["soc"] for row in after} == {"Ascend910B2", "Ascend910B3"}
    for old, new in zip(before, after, strict=True):
        assert new["simulated_ns"] > 1.6 * old["simulated_ns"], new["id"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--measure"], "--cann DIR goes with --measure"),
        (["--cann", "/tmp"], "--cann DIR goes with --measure"),
        (
            ["--measure", "--cann", "/nonexistent-cann"],
            "--cann /nonexistent-cann: no include/ or lib64/ there",
        ),
        (["--fit", "/nonexistent/rows.toml"], "/nonexistent/rows.toml: no such file"),
        (["--out", "x.toml"], "--out goes with --measure or --fit"),
        (["--measure", "--fit", "rows.toml"], "not allowed with argument"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(cli_env: dict[str, str], args: list[str], message: str) -> None:
    done = _npu_sim(cli_env, "calibrate", *args, timeout=60)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_fit_rejects_rows_that_fit_nothing_and_bad_toml(cli_env: dict[str, str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[[row]]\nid = \n", encoding="utf-8")
    done = _npu_sim(cli_env, "calibrate", "--fit", str(bad), timeout=60)
    assert done.returncode == 2
    assert f"{bad}: not valid TOML" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    empty = tmp_path / "empty.toml"
    empty.write_text("# no rows\n", encoding="utf-8")
    done = _npu_sim(cli_env, "calibrate", "--fit", str(empty), timeout=60)
    assert done.returncode == 2
    assert "has no [[row]]" in done.stderr
