"""SimConfig: precedence of defaults, TOML file and NPU_SIM_* variables; validation; to_env."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim_runtime.config import (
    CONFIG_VAR,
    DEFAULT_LOG_LEVEL,
    ENV_VARS,
    ConfigError,
    SimConfig,
    parse_setting,
)
from sim_runtime.faults import FaultAction, FaultRule, parse_fault_plan
from sim_runtime.soc import default_catalogue

CATALOGUE = default_catalogue()
DEFAULTS = CATALOGUE.defaults
SOC_NAMES = list(CATALOGUE.socs)
OTHER_SOC = next(name for name in SOC_NAMES if name != DEFAULTS.soc)
THIRD_SOC = next(name for name in SOC_NAMES if name not in (DEFAULTS.soc, OTHER_SOC))


def write_toml(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --- precedence -----------------------------------------------------------------------------------


def test_defaults_come_from_the_catalogue() -> None:
    config = SimConfig.from_env({})
    assert config == SimConfig(
        soc=DEFAULTS.soc, devices=DEFAULTS.devices, clock=DEFAULTS.clock, seed=DEFAULTS.seed
    )
    assert config.faults == ()
    assert config.kernel_costs is None
    assert config.log_level == DEFAULT_LOG_LEVEL
    assert SimConfig.defaults() == config


def test_toml_overrides_defaults(tmp_path: Path) -> None:
    costs = write_toml(tmp_path / "costs.toml", "")
    config_file = write_toml(
        tmp_path / "sim.toml",
        f'soc = "{OTHER_SOC}"\ndevices = 4\nclock = "virtual"\nseed = 99\n'
        'faults = "aclrtMalloc:error=7@2"\nkernel_costs = "costs.toml"\nlog_level = "debug"\n',
    )
    config = SimConfig.from_env({CONFIG_VAR: str(config_file)})
    assert config == SimConfig(
        soc=OTHER_SOC,
        devices=4,
        clock="virtual",
        seed=99,
        faults=(FaultRule("aclrtMalloc", FaultAction.ERROR, 7, 2, 2),),
        kernel_costs=costs.resolve(),
        log_level="debug",
    )


def test_toml_may_set_only_some_keys(tmp_path: Path) -> None:
    config_file = write_toml(tmp_path / "sim.toml", "devices = 2\n")
    config = SimConfig.from_env({CONFIG_VAR: str(config_file)})
    assert config == SimConfig.defaults().replace(devices=2)


def test_environment_overrides_toml(tmp_path: Path) -> None:
    write_toml(tmp_path / "a.toml", "")
    env_costs = write_toml(tmp_path / "b.toml", "")
    config_file = write_toml(
        tmp_path / "sim.toml",
        f'soc = "{OTHER_SOC}"\ndevices = 4\nclock = "virtual"\nseed = 99\n'
        'faults = "prof_channel_poll:stall"\nkernel_costs = "a.toml"\nlog_level = "debug"\n',
    )
    environ = {
        CONFIG_VAR: str(config_file),
        "NPU_SIM_SOC": THIRD_SOC,
        "NPU_SIM_DEVICES": "16",
        "NPU_SIM_CLOCK": "wall",
        "NPU_SIM_SEED": "18446744073709551615",
        "NPU_SIM_FAULTS": "prof_channel_read:garble@every=2",
        "NPU_SIM_KERNEL_COSTS": str(env_costs),
        "NPU_SIM_LOG_LEVEL": "off",
    }
    config = SimConfig.from_env(environ)
    assert config == SimConfig(
        soc=THIRD_SOC,
        devices=16,
        clock="wall",
        seed=2**64 - 1,
        faults=parse_fault_plan("prof_channel_read:garble@every=2"),
        kernel_costs=env_costs.resolve(),
        log_level="off",
    )


@pytest.mark.parametrize(
    ("variable", "raw", "field", "value"),
    [
        ("NPU_SIM_DEVICES", "3", "devices", 3),
        ("NPU_SIM_CLOCK", "virtual", "clock", "virtual"),
        ("NPU_SIM_SEED", "0", "seed", 0),
        ("NPU_SIM_LOG_LEVEL", "error", "log_level", "error"),
        ("NPU_SIM_DEVICE_LOGS", "sync", "device_logs", "sync"),
    ],
)
def test_each_variable_overrides_only_its_field(
    tmp_path: Path, variable: str, raw: str, field: str, value: object
) -> None:
    config_file = write_toml(
        tmp_path / "sim.toml", 'devices = 5\nclock = "wall"\nseed = 8\nlog_level = "info"\n'
    )
    base = SimConfig.from_env({CONFIG_VAR: str(config_file)})
    config = SimConfig.from_env({CONFIG_VAR: str(config_file), variable: raw})
    assert getattr(config, field) == value
    assert config == base.replace(**{field: value})


def test_empty_faults_and_kernel_costs_variables_clear_the_toml_values(tmp_path: Path) -> None:
    write_toml(tmp_path / "costs.toml", "")
    config_file = write_toml(
        tmp_path / "sim.toml", 'faults = "prof_channel_poll:stall"\nkernel_costs = "costs.toml"\n'
    )
    config = SimConfig.from_env(
        {CONFIG_VAR: str(config_file), "NPU_SIM_FAULTS": "", "NPU_SIM_KERNEL_COSTS": ""}
    )
    assert config.faults == ()
    assert config.kernel_costs is None


def test_empty_config_variable_means_no_file() -> None:
    assert SimConfig.from_env({CONFIG_VAR: ""}) == SimConfig.defaults()


def test_toml_seed_may_be_a_decimal_string_for_large_values(tmp_path: Path) -> None:
    config_file = write_toml(tmp_path / "sim.toml", 'seed = "18446744073709551615"\n')
    assert SimConfig.from_env({CONFIG_VAR: str(config_file)}).seed == 2**64 - 1


def test_relative_kernel_costs_variable_is_resolved_against_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    costs = write_toml(tmp_path / "costs.toml", "")
    monkeypatch.chdir(tmp_path)
    config = SimConfig.from_env({"NPU_SIM_KERNEL_COSTS": "costs.toml"})
    assert config.kernel_costs == costs.resolve()
    assert config.kernel_costs.is_absolute()


def test_from_env_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in (CONFIG_VAR, *ENV_VARS.values()):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("NPU_SIM_DEVICES", "7")
    assert SimConfig.from_env().devices == 7


# --- validation errors: variables -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("variable", "raw", "expected"),
    [
        ("NPU_SIM_DEVICES", "0", "expected a decimal integer in 1..64"),
        ("NPU_SIM_DEVICES", "65", "expected a decimal integer in 1..64"),
        ("NPU_SIM_DEVICES", "-1", "expected a decimal integer in 1..64"),
        ("NPU_SIM_DEVICES", "eight", "expected a decimal integer in 1..64"),
        ("NPU_SIM_DEVICES", "", "expected a decimal integer in 1..64"),
        ("NPU_SIM_DEVICES", "0x8", "expected a decimal integer in 1..64"),
        ("NPU_SIM_SEED", "-1", "expected a decimal integer in 0..18446744073709551615"),
        ("NPU_SIM_SEED", "18446744073709551616", "expected a decimal integer in 0..18446744073709551615"),
        ("NPU_SIM_SEED", "1.5", "expected a decimal integer in 0..18446744073709551615"),
        ("NPU_SIM_CLOCK", "fast", "expected one of wall | virtual"),
        ("NPU_SIM_CLOCK", "Wall", "expected one of wall | virtual"),
        ("NPU_SIM_CLOCK", "", "expected one of wall | virtual"),
        ("NPU_SIM_LOG_LEVEL", "verbose", "expected one of debug | info | warn | error | off"),
        ("NPU_SIM_LOG_LEVEL", "warning", "expected one of debug | info | warn | error | off"),
        ("NPU_SIM_DEVICE_LOGS", "later", "expected one of due | sync"),
        ("NPU_SIM_SOC", "", "expected a SoC name such as Ascend910B3 (see `npu-sim info`)"),
    ],
)
def test_malformed_variable_names_variable_value_and_form(variable: str, raw: str, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({variable: raw})
    assert str(caught.value) == f"{variable}: invalid value {raw!r}; {expected}"


def test_out_of_range_parsed_value_is_reported_with_the_variable() -> None:
    with pytest.raises(ConfigError, match=r"^NPU_SIM_DEVICES: invalid value '99'; expected"):
        SimConfig.from_env({"NPU_SIM_DEVICES": "99"})


def test_unknown_soc_lists_the_valid_choices() -> None:
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({"NPU_SIM_SOC": "Ascend9000"})
    message = str(caught.value)
    assert message.startswith("NPU_SIM_SOC: unknown SoC 'Ascend9000'")
    assert "valid choices:" in message
    for name in SOC_NAMES:
        assert name in message


def test_unknown_soc_suggests_the_right_case() -> None:
    with pytest.raises(ConfigError, match="did you mean 'Ascend910B3'"):
        SimConfig.from_env({"NPU_SIM_SOC": "ascend910b3"})


def test_bad_fault_plan_names_variable_and_rule() -> None:
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({"NPU_SIM_FAULTS": "aclrtMalloc:error=7;aclrtFree:boom@2"})
    message = str(caught.value)
    assert message.startswith("NPU_SIM_FAULTS: fault rule 2 'aclrtFree:boom@2': unknown action 'boom'")
    assert "expected FUNCTION:ACTION[@WHEN]" in message


def test_fault_plan_on_a_function_without_fault_point_is_refused_with_the_nearest_names() -> None:
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({"NPU_SIM_FAULTS": "aclrtMalloc:error=7;aclrtMaloc:error=1@2"})
    message = str(caught.value)
    assert message.startswith(
        "NPU_SIM_FAULTS: fault rule 2 'aclrtMaloc:error=1@2': 'aclrtMaloc' is not a simulator function "
        "with a fault point; did you mean aclrtMalloc"
    ), message
    assert "\n" not in message


def test_fault_rules_given_as_objects_must_name_fault_points() -> None:
    with pytest.raises(
        ConfigError, match="'no_such_function' is not a simulator function with a fault point"
    ):
        SimConfig.defaults().replace(faults=(FaultRule("no_such_function", FaultAction.STALL),))


def test_missing_kernel_cost_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({"NPU_SIM_KERNEL_COSTS": str(missing)})
    assert str(caught.value) == (
        f"NPU_SIM_KERNEL_COSTS: kernel cost file {str(missing)!r} does not exist; give an existing file"
    )


def test_kernel_costs_must_be_a_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^NPU_SIM_KERNEL_COSTS: kernel cost file .* does not exist"):
        SimConfig.from_env({"NPU_SIM_KERNEL_COSTS": str(tmp_path)})


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


# --- validation errors: TOML ----------------------------------------------------------------------


def test_missing_config_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "absent.toml"
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({CONFIG_VAR: str(missing)})
    assert str(caught.value) == f"NPU_SIM_CONFIG: config file {str(missing)!r} does not exist"


def test_unreadable_config_path_is_reported(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^NPU_SIM_CONFIG: cannot read config file"):
        SimConfig.from_env({CONFIG_VAR: str(tmp_path)})


def test_invalid_toml_is_reported_with_the_file(tmp_path: Path) -> None:
    config_file = write_toml(tmp_path / "sim.toml", "devices = = 3\n")
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(config_file))}: not valid TOML: "):
        SimConfig.from_env({CONFIG_VAR: str(config_file)})


def test_binary_config_file_is_named_without_a_traceback(tmp_path: Path) -> None:
    config_file = tmp_path / "sim.toml"
    config_file.write_bytes(b"\xff\xfe\x00soc = 1\n\x80")
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({CONFIG_VAR: str(config_file)})
    assert str(caught.value) == (
        f"NPU_SIM_CONFIG: config file {str(config_file)!r} is not UTF-8 text (byte 0xff at offset 0); "
        "give a TOML file"
    )


def test_unknown_toml_keys_are_errors(tmp_path: Path) -> None:
    config_file = write_toml(tmp_path / "sim.toml", 'devices = 2\nsocs = "x"\n[extra]\na = 1\n')
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({CONFIG_VAR: str(config_file)})
    assert str(caught.value) == (
        f"{config_file}: unknown key(s) extra, socs; expected flat keys: "
        "soc, devices, clock, seed, faults, kernel_costs, log_level, device_logs, timing"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('devices = "8"', "devices in {file}: invalid value '8'; expected an integer in 1..64"),
        ("devices = true", "devices in {file}: invalid value True; expected an integer in 1..64"),
        ("devices = 65", "devices in {file}: invalid value 65; expected an integer in 1..64"),
        ("devices = 2.0", "devices in {file}: invalid value 2.0; expected an integer in 1..64"),
        ("seed = -5", "seed in {file}: invalid value -5; expected an integer in 0..18446744073709551615"),
        (
            'seed = "abc"',
            "seed in {file}: invalid value 'abc'; expected a decimal integer in 0..18446744073709551615",
        ),
        ("soc = 910", "soc in {file}: invalid value 910; expected a string"),
        ("clock = 1", "clock in {file}: invalid value 1; expected a string"),
        ('clock = "sundial"', "clock in {file}: invalid value 'sundial'; expected one of wall | virtual"),
        ("log_level = false", "log_level in {file}: invalid value False; expected a string"),
        (
            'log_level = "loud"',
            "log_level in {file}: invalid value 'loud'; expected one of debug | info | warn | error | off",
        ),
        ("faults = 3", "faults in {file}: invalid value 3; expected a string"),
        ("kernel_costs = 3", "kernel_costs in {file}: invalid value 3; expected a path string"),
    ],
)
def test_bad_toml_values_name_key_file_value_and_form(tmp_path: Path, line: str, message: str) -> None:
    config_file = write_toml(tmp_path / "sim.toml", line + "\n")
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({CONFIG_VAR: str(config_file)})
    assert str(caught.value) == message.format(file=config_file)


def test_unknown_soc_in_toml(tmp_path: Path) -> None:
    config_file = write_toml(tmp_path / "sim.toml", 'soc = "Ascend1"\n')
    with pytest.raises(
        ConfigError, match=rf"^soc in {re.escape(str(config_file))}: unknown SoC 'Ascend1'.*valid choices: "
    ):
        SimConfig.from_env({CONFIG_VAR: str(config_file)})


def test_bad_fault_plan_in_toml(tmp_path: Path) -> None:
    config_file = write_toml(tmp_path / "sim.toml", 'faults = "aclrtFree:delay=3"\n')
    with pytest.raises(
        ConfigError,
        match=rf"^faults in {re.escape(str(config_file))}: fault rule 1 'aclrtFree:delay=3': delay '3'",
    ):
        SimConfig.from_env({CONFIG_VAR: str(config_file)})


def test_toml_kernel_costs_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    config_file = write_toml(tmp_path / "conf" / "sim.toml", 'kernel_costs = "missing.toml"\n')
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({CONFIG_VAR: str(config_file)})
    expected = str(tmp_path.resolve() / "conf" / "missing.toml")
    assert str(caught.value) == (
        f"kernel_costs in {config_file}: kernel cost file {expected!r} does not exist; give an existing file"
    )


def test_timing_profile_from_the_toml_file_and_the_variable(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    profile = write_toml(tmp_path / "conf" / "site.toml", "[soc.Ascend910B2]\ncube_efficiency = 0.8\n")
    config_file = write_toml(tmp_path / "conf" / "sim.toml", 'timing = "site.toml"\n')
    config = SimConfig.from_env({CONFIG_VAR: str(config_file)})
    assert config.timing == profile.resolve()
    assert config.to_env()["NPU_SIM_TIMING"] == str(profile.resolve())
    assert SimConfig.from_env({CONFIG_VAR: str(config_file), "NPU_SIM_TIMING": ""}).timing is None
    missing = str(tmp_path / "none.toml")
    with pytest.raises(ConfigError) as caught:
        SimConfig.from_env({"NPU_SIM_TIMING": missing})
    assert str(caught.value) == (
        f"NPU_SIM_TIMING: timing profile {missing!r} does not exist; give an existing file"
    )


def test_toml_errors_come_before_environment_overrides(tmp_path: Path) -> None:
    config_file = write_toml(tmp_path / "sim.toml", "devices = 0\n")
    with pytest.raises(ConfigError, match="devices in"):
        SimConfig.from_env({CONFIG_VAR: str(config_file), "NPU_SIM_DEVICES": "2"})


# --- parse_setting, construction and replace ------------------------------------------------------


def test_parse_setting_uses_the_given_source() -> None:
    assert parse_setting("devices", "12", source="--devices") == 12
    with pytest.raises(
        ConfigError, match=r"^--devices: invalid value 'x'; expected a decimal integer in 1\.\.64$"
    ):
        parse_setting("devices", "x", source="--devices")


def test_parse_setting_rejects_unknown_names() -> None:
    with pytest.raises(ConfigError, match="unknown setting 'speed'; expected one of: soc, devices"):
        parse_setting("speed", "1", source="--speed")


def test_constructor_validates_every_field() -> None:
    good = SimConfig.defaults()
    cases = {
        "soc": ("nope", "SimConfig.soc: unknown SoC 'nope'"),
        "devices": (0, "SimConfig.devices: invalid value 0; expected an integer in 1..64"),
        "clock": ("fast", "SimConfig.clock: invalid value 'fast'; expected one of wall | virtual"),
        "seed": (2**64, "SimConfig.seed: invalid value 18446744073709551616; expected an integer in 0.."),
        "faults": (
            [1],
            "SimConfig.faults: invalid value [1]; expected a fault plan string or a tuple of FaultRule",
        ),
        "log_level": ("WARN", "SimConfig.log_level: invalid value 'WARN'; expected one of debug"),
    }
    for field, (value, message) in cases.items():
        with pytest.raises(ConfigError) as caught:
            good.replace(**{field: value})
        assert str(caught.value).startswith(message), field


def test_replace_returns_a_validated_copy(tmp_path: Path) -> None:
    costs = write_toml(tmp_path / "costs.toml", "")
    base = SimConfig.defaults()
    changed = base.replace(
        devices=2, faults="prof_channel_read:garble@3+", kernel_costs=str(costs), clock="virtual"
    )
    assert changed.devices == 2
    assert changed.clock == "virtual"
    assert changed.faults == (FaultRule("prof_channel_read", FaultAction.GARBLE, None, 3),)
    assert changed.kernel_costs == costs.resolve()
    assert base == SimConfig.defaults()


def test_replace_rejects_unknown_fields() -> None:
    with pytest.raises(ConfigError, match=r"^unknown setting\(s\) colour, speed; expected: soc, devices"):
        SimConfig.defaults().replace(speed=3, colour="red")


def test_config_is_frozen() -> None:
    config = SimConfig.defaults()
    with pytest.raises(AttributeError):
        config.devices = 3  # type: ignore[misc]


# --- to_env ---------------------------------------------------------------------------------------


def test_to_env_sets_every_variable_explicitly() -> None:
    env = SimConfig.defaults().to_env()
    assert set(env) == {CONFIG_VAR, *ENV_VARS.values()}
    assert env == {
        CONFIG_VAR: "",
        "NPU_SIM_SOC": DEFAULTS.soc,
        "NPU_SIM_DEVICES": str(DEFAULTS.devices),
        "NPU_SIM_CLOCK": DEFAULTS.clock,
        "NPU_SIM_SEED": str(DEFAULTS.seed),
        "NPU_SIM_FAULTS": "",
        "NPU_SIM_KERNEL_COSTS": "",
        "NPU_SIM_LOG_LEVEL": DEFAULT_LOG_LEVEL,
        "NPU_SIM_DEVICE_LOGS": "due",
        "NPU_SIM_TIMING": "",
    }


def test_to_env_round_trips_a_full_config(tmp_path: Path) -> None:
    costs = write_toml(tmp_path / "costs.toml", "")
    config = SimConfig(
        soc=OTHER_SOC,
        devices=64,
        clock="virtual",
        seed=2**64 - 1,
        faults=parse_fault_plan(
            "aclrtMalloc:error=-0x10@2-9; prof_channel_read:short=3@every=2; aclrtFree:delay=7us"
        ),
        kernel_costs=costs,
        log_level="debug",
        device_logs="sync",
    )
    env = config.to_env()
    assert (
        env["NPU_SIM_FAULTS"]
        == "aclrtMalloc:error=-16@2-9;prof_channel_read:short=3@every=2;aclrtFree:delay=7us"
    )
    assert env["NPU_SIM_KERNEL_COSTS"] == str(costs.resolve())
    assert SimConfig.from_env(env) == config


def test_to_env_wins_over_an_inherited_config_file(tmp_path: Path) -> None:
    config_file = write_toml(tmp_path / "sim.toml", "devices = 3\n")
    config = SimConfig.defaults().replace(devices=5)
    child_env = {CONFIG_VAR: str(config_file), **config.to_env()}
    assert SimConfig.from_env(child_env) == config


_fault_plans = st.sampled_from(
    [
        "",
        "prof_channel_poll:stall",
        "aclrtMalloc:error=207001@3;prof_channel_read:garble@every=5",
        "aclrtFree:delay=2ms@4+",
    ]
)


@given(
    soc=st.sampled_from(SOC_NAMES),
    devices=st.integers(min_value=1, max_value=64),
    clock=st.sampled_from(["wall", "virtual"]),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    faults=_fault_plans,
    log_level=st.sampled_from(["debug", "info", "warn", "error", "off"]),
    device_logs=st.sampled_from(["due", "sync"]),
)
def test_to_env_round_trip_property(
    soc: str, devices: int, clock: str, seed: int, faults: str, log_level: str, device_logs: str
) -> None:
    config = SimConfig(
        soc=soc,
        devices=devices,
        clock=clock,
        seed=seed,
        faults=faults,
        log_level=log_level,
        device_logs=device_logs,
    )
    assert SimConfig.from_env(config.to_env()) == config
