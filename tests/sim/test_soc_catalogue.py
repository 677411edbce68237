"""The SoC catalogue (sim_runtime/data/socs.toml) and its loader (sim_runtime.soc)."""

from __future__ import annotations

import copy
import dataclasses
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim_runtime.soc import (
    DEFAULT_CATALOGUE_PATH,
    Catalogue,
    CatalogueError,
    SocSpec,
    UnknownSocError,
    catalogue_from_mapping,
    default_catalogue,
    load_catalogue,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA_DIR = DEFAULT_CATALOGUE_PATH.parent

# Every SoC row of device-specs.md section 1, ranges expanded.
A2_NAMES = ["Ascend910B1", "Ascend910B2", "Ascend910B2C", "Ascend910B3", "Ascend910B4", "Ascend910B4-1"]
A3_NAMES = [f"Ascend910_{n}" for n in ("9362", "9363", "9372", "9381", "9382", "9391", "9392")]
PR_NAMES = [f"Ascend950PR_{n}" for n in ("950z", "9579", "957b", "957c", "957d", "9589", "958b", "9599")]
DT_NAMES = (
    [f"Ascend950DT_957{i}" for i in range(1, 9)]
    + [f"Ascend950DT_958{i}" for i in range(1, 9)]
    + [f"Ascend950DT_{n}" for n in ("9591", "9592", "9595", "9596", "95A1", "95A2", "950x", "950y")]
)
B310_NAMES = ["Ascend310B1", "Ascend310B4"]
ALL_NAMES = A2_NAMES + A3_NAMES + PR_NAMES + DT_NAMES + B310_NAMES

# The keys every [soc.*] table must carry, as the catalogue format defines them.
SOC_KEYS = {
    "chip_type": int,
    "family": str,
    "aic": int,
    "aiv": int,
    "aicpu": int,
    "cube_mhz": int,
    "memory_gib": int,
    "l2_mib": int,
    "cube_flops_per_cycle": int,
    "vector_flops_per_cycle": int,
    "hbm_gbps": float,
    "hbm_peak_gbps": float,
    "host_link_gbps": float,
    "hd_connect_type": int,
    "host_api_ns": int,
    "launch_latency_ns": int,
    "task_gap_ns": int,
    "task_overhead_ns": int,
    "sync_wake_ns": int,
    "memcpy_fixed_ns": int,
    "event_task_ns": int,
    "devices_per_server": int,
    "topology": str,
    "dev_osc_khz": int,
    "source": str,
}
TOPOLOGY_KEYS = {
    "kind": str,
    "ranks_per_server": int,
    "alpha_ns": int,
    "link_gbps": float,
    "aggregate_gbps": float,
    "sio_alpha_ns": int,
    "sio_gbps": float,
    "scaleout_alpha_ns": int,
    "scaleout_gbps": float,
    "reduce_gbps": float,
    "source": str,
}
SCHEDULING_KEYS = (
    "launch_latency_ns",
    "task_gap_ns",
    "task_overhead_ns",
    "sync_wake_ns",
    "memcpy_fixed_ns",
    "event_task_ns",
)


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


with DEFAULT_CATALOGUE_PATH.open("rb") as _fh:
    RAW: dict[str, Any] = tomllib.load(_fh)  # the shipped file as parsed TOML; tests copy before changing
SHIPPED = DEFAULT_CATALOGUE_PATH.read_text(encoding="utf-8")


# --------------------------------------------------------------------------------------------------
# Contents


def test_every_reference_soc_is_catalogued(catalogue: Catalogue) -> None:
    assert len(ALL_NAMES) == 47
    assert set(catalogue.names) == set(ALL_NAMES)


@pytest.mark.parametrize(
    ("name", "tflops"),
    [
        ("Ascend910B1", 363.7),
        ("Ascend910B2", 353.9),
        ("Ascend910B3", 294.9),
        ("Ascend910B4", 245.8),
        ("Ascend910_9382", 353.9),
        ("Ascend910_9392", 363.7),
        ("Ascend950PR_9579", 378.5),
        ("Ascend950PR_9589", 432.5),
        ("Ascend950DT_9581", 432.5),
        ("Ascend950PR_9599", 530.8),
        ("Ascend950DT_9591", 530.8),
        ("Ascend310B1", 10.0),
        ("Ascend310B4", 4.1),
    ],
)
def test_fp16_peak_matches_reference(catalogue: Catalogue, name: str, tflops: float) -> None:
    assert catalogue.get(name).fp16_tflops == pytest.approx(tflops, abs=0.1)


def test_vector_peak_matches_reference_estimate(catalogue: Catalogue) -> None:
    # device-specs section 2: 40 AIV x 128 x 1.8 GHz ~ 9.2 TFLOPS on 910B3
    assert catalogue.get("Ascend910B3").vector_fp16_tflops == pytest.approx(9.2, abs=0.05)


@pytest.mark.parametrize(
    ("names", "family", "chip_type"),
    [(A2_NAMES, "A2", 5), (A3_NAMES, "A3", 5), (PR_NAMES + DT_NAMES, "950", 15), (B310_NAMES, "310B", 7)],
)
def test_chip_type_and_version_per_family(
    catalogue: Catalogue, names: list[str], family: str, chip_type: int
) -> None:
    for name in names:
        soc = catalogue.get(name)
        assert (soc.family, soc.chip_type) == (family, chip_type), name
        assert soc.chip_version == chip_type << 8 == chip_type * 256


def test_every_soc_table_carries_every_key_with_its_type() -> None:
    for name, table in RAW["soc"].items():
        assert set(table) == set(SOC_KEYS), name
        for key, expected in SOC_KEYS.items():
            assert type(table[key]) is expected, (name, key, table[key])


def test_every_topology_table_carries_every_key_with_its_type() -> None:
    for name, table in RAW["topology"].items():
        assert set(table) == set(TOPOLOGY_KEYS), name
        for key, expected in TOPOLOGY_KEYS.items():
            assert type(table[key]) is expected, (name, key, table[key])


def test_spec_dataclass_mirrors_the_file_keys() -> None:
    assert [f.name for f in dataclasses.fields(SocSpec)] == ["name", *SOC_KEYS]


def test_required_topologies_exist_and_every_reference_resolves(catalogue: Catalogue) -> None:
    required = {"a2_hccs_mesh8", "a3_server16", "a3_superpod", "a950_ub", "a310b_single", "roce_scaleout"}
    assert required <= set(catalogue.topologies)
    for soc in catalogue.socs.values():
        topology = catalogue.topology_of(soc)
        assert topology.name == soc.topology
        assert topology.ranks_per_server == soc.devices_per_server, soc.name


def test_topology_shapes(catalogue: Catalogue) -> None:
    topologies = catalogue.topologies
    assert topologies["a2_hccs_mesh8"].kind == "mesh"
    assert topologies["a2_hccs_mesh8"].ranks_per_server == 8
    a3 = topologies["a3_server16"]
    assert (a3.kind, a3.ranks_per_server) == ("sio_mesh", 16)
    assert a3.sio_gbps > 0 and a3.sio_alpha_ns > 0
    assert topologies["a3_superpod"].kind == "ub"
    assert topologies["a950_ub"].kind == "ub"
    assert (topologies["a310b_single"].kind, topologies["a310b_single"].ranks_per_server) == ("single", 1)
    for name in ("a2_hccs_mesh8", "a950_ub", "roce_scaleout"):
        assert topologies[name].sio_gbps == 0.0 and topologies[name].sio_alpha_ns == 0
    for topology in topologies.values():
        assert topology.aggregate_gbps >= topology.link_gbps
        assert topology.reduce_gbps > 0


def test_device_counter_reports_nanosecond_ticks(catalogue: Catalogue) -> None:
    assert {soc.dev_osc_khz for soc in catalogue.socs.values()} == {1_000_000}


def test_defaults(catalogue: Catalogue) -> None:
    d = catalogue.defaults
    assert (d.soc, d.devices, d.clock, d.seed, d.jitter_pct) == ("Ascend910B3", 8, "wall", 0, 2.0)
    assert catalogue.default_soc is catalogue.get("Ascend910B3")


def test_910b_latency_estimates(catalogue: Catalogue) -> None:
    soc = catalogue.get("Ascend910B3")
    assert (
        soc.host_api_ns,
        soc.launch_latency_ns,
        soc.task_gap_ns,
        soc.task_overhead_ns,
        soc.sync_wake_ns,
        soc.memcpy_fixed_ns,
        soc.event_task_ns,
    ) == (4000, 6000, 500, 500, 6000, 12000, 500)  # the three task costs fitted in issue 39 (docs/timing.md)


def test_950_halves_and_310b_triples_the_scheduling_figures(catalogue: Catalogue) -> None:
    a2 = catalogue.get("Ascend910B3")
    for name in PR_NAMES + DT_NAMES:
        soc = catalogue.get(name)
        for key in SCHEDULING_KEYS:
            assert getattr(soc, key) * 2 == getattr(a2, key), (name, key)
        assert soc.host_api_ns == a2.host_api_ns
    for name in B310_NAMES:
        soc = catalogue.get(name)
        for key in (*SCHEDULING_KEYS, "host_api_ns"):
            assert getattr(soc, key) == 3 * getattr(a2, key), (name, key)


def test_a2_and_a3_share_the_910b_latencies(catalogue: Catalogue) -> None:
    a2 = catalogue.get("Ascend910B3")
    for name in A2_NAMES + A3_NAMES:
        soc = catalogue.get(name)
        for key in (*SCHEDULING_KEYS, "host_api_ns"):
            assert getattr(soc, key) == getattr(a2, key), (name, key)


@pytest.mark.parametrize(
    ("name", "aic", "aiv", "aicpu", "mhz", "memory", "l2"),
    [
        ("Ascend910B1", 24, 48, 6, 1850, 64, 192),
        ("Ascend910B4-1", 20, 40, 6, 1500, 32, 168),
        ("Ascend910_9363", 20, 40, 6, 1500, 32, 168),
        ("Ascend950PR_950z", 4, 8, 5, 1650, 24, 16),
        ("Ascend950PR_957c", 28, 56, 5, 1650, 84, 112),
        ("Ascend950PR_958b", 32, 64, 7, 1650, 112, 112),
        ("Ascend950DT_95A1", 36, 72, 6, 1800, 144, 128),
        ("Ascend950DT_950y", 8, 16, 5, 1650, 16, 32),
        ("Ascend310B1", 1, 1, 4, 1224, 32, 4),
    ],
)
def test_configuration_rows(
    catalogue: Catalogue, name: str, aic: int, aiv: int, aicpu: int, mhz: int, memory: int, l2: int
) -> None:
    soc = catalogue.get(name)
    assert (soc.aic, soc.aiv, soc.aicpu, soc.cube_mhz, soc.memory_gib, soc.l2_mib) == (
        aic,
        aiv,
        aicpu,
        mhz,
        memory,
        l2,
    )
    assert soc.memory_bytes == memory << 30
    assert soc.l2_bytes == l2 << 20


def test_950dt_range_rows_follow_the_documented_reading(catalogue: Catalogue) -> None:
    memory = [144, 96, 126, 84, 64, 56, 144, 96]
    for series in ("957", "958"):
        got = [catalogue.get(f"Ascend950DT_{series}{i}") for i in range(1, 9)]
        assert [s.memory_gib for s in got] == memory
        assert [s.l2_mib for s in got] == [128 if m >= 126 else 112 for m in memory]
        assert {s.aicpu for s in got} == {6}
        assert {s.cube_mhz for s in got} == {1650}


def test_every_core_pairs_one_cube_with_two_vector_units(catalogue: Catalogue) -> None:
    for soc in catalogue.socs.values():
        if soc.family != "310B":
            assert soc.aiv == 2 * soc.aic, soc.name
        assert soc.cube_flops_per_cycle == 16 * 16 * 16 * 2
        assert soc.vector_flops_per_cycle == 128


def test_bandwidth_figures_are_consistent(catalogue: Catalogue) -> None:
    b3 = catalogue.get("Ascend910B3")
    assert (b3.hbm_gbps, b3.hbm_peak_gbps) == (1280.0, 1600.0)  # effective 0.80 x peak (docs/timing.md)
    assert catalogue.get("Ascend950DT_9591").hbm_peak_gbps == 4000.0
    assert catalogue.get("Ascend950PR_9599").hbm_peak_gbps == 1600.0
    for soc in catalogue.socs.values():
        assert 0 < soc.hbm_gbps <= soc.hbm_peak_gbps, soc.name
        assert soc.host_link_gbps > 0
    connect = {
        family: {s.hd_connect_type for s in catalogue.socs.values() if s.family == family}
        for family in ("A2", "A3", "950", "310B")
    }
    assert connect == {"A2": {0}, "A3": {1}, "950": {2}, "310B": {0}}


def test_sources_carry_quality_tags(catalogue: Catalogue) -> None:
    for item in [*catalogue.socs.values(), *catalogue.topologies.values()]:
        assert re.search(r"\[(cfg|doc|pub|est)", item.source), item.name


def test_records_are_immutable(catalogue: Catalogue) -> None:
    soc = catalogue.get("Ascend910B3")
    with pytest.raises(dataclasses.FrozenInstanceError):
        soc.aic = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        catalogue.socs["x"] = soc  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        catalogue.defaults.soc = "Ascend310B1"  # type: ignore[misc]


def test_default_catalogue_is_loaded_once() -> None:
    assert default_catalogue() is default_catalogue()
    assert default_catalogue().get("Ascend910B3") == load_catalogue().get("Ascend910B3")


# --------------------------------------------------------------------------------------------------
# Unknown names


def test_unknown_soc_message_lists_every_choice(catalogue: Catalogue) -> None:
    with pytest.raises(UnknownSocError) as info:
        catalogue.get("Ascend920")
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "'Ascend920'" in message
    for name in ALL_NAMES:
        assert name in message
    assert info.value.choices == catalogue.names


def test_unknown_soc_suggests_the_name_in_its_proper_case(catalogue: Catalogue) -> None:
    with pytest.raises(UnknownSocError, match=r"did you mean 'Ascend910B3'\?"):
        catalogue.get("ascend910b3")


@given(st.text(min_size=1, max_size=30).filter(lambda s: s not in ALL_NAMES))
def test_any_other_name_is_rejected_with_the_choices(name: str) -> None:
    with pytest.raises(UnknownSocError) as info:
        default_catalogue().get(name)
    assert info.value.name == name
    assert "valid choices: " + ", ".join(default_catalogue().names) in str(info.value)


# --------------------------------------------------------------------------------------------------
# Malformed catalogues


def _edit(text: str, header: str, key: str, replacement: str | None) -> str:
    """Replace (or with None, delete) the line setting ``key`` in the table under ``header``."""
    lines = text.splitlines(keepends=True)
    start = lines.index(header + "\n")
    for i in range(start + 1, len(lines)):
        assert not lines[i].startswith("["), f"{key} not found under {header}"
        if re.match(rf"{re.escape(key)}\s*=", lines[i]):
            lines[i] = "" if replacement is None else replacement + "\n"
            return "".join(lines)
    raise AssertionError(f"{key} not found under {header}")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "socs.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_key_names_soc_and_key(tmp_path: Path) -> None:
    path = _write(tmp_path, _edit(SHIPPED, "[soc.Ascend910B3]", "aic", None))
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert (info.value.section, info.value.key) == ("soc.Ascend910B3", "aic")
    assert "[soc.Ascend910B3] is missing key 'aic'" in str(info.value)
    assert str(path) in str(info.value)


def test_extra_key_is_rejected(tmp_path: Path) -> None:
    path = _write(tmp_path, _edit(SHIPPED, "[soc.Ascend910B3]", "aic", "aic = 20\naic_count = 20"))
    with pytest.raises(CatalogueError, match=r"\[soc\.Ascend910B3\] has unknown key 'aic_count'") as info:
        load_catalogue(path)
    assert info.value.key == "aic_count"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('aic = "20"', r"key 'aic': expected integer, got string"),
        ("aic = 20.0", r"key 'aic': expected integer, got float"),
        ("aic = true", r"key 'aic': expected integer, got boolean"),
    ],
)
def test_wrong_type_names_soc_and_key(tmp_path: Path, line: str, expected: str) -> None:
    path = _write(tmp_path, _edit(SHIPPED, '[soc."Ascend910B4-1"]', "aic", line))
    with pytest.raises(CatalogueError, match=r'\[soc\."Ascend910B4-1"\] ' + expected) as info:
        load_catalogue(path)
    assert info.value.key == "aic"


def test_integer_is_accepted_where_a_float_is_expected(tmp_path: Path) -> None:
    path = _write(tmp_path, _edit(SHIPPED, "[soc.Ascend910B3]", "hbm_gbps", "hbm_gbps = 900"))
    soc = load_catalogue(path).get("Ascend910B3")
    assert soc.hbm_gbps == 900.0 and isinstance(soc.hbm_gbps, float)


def test_unknown_topology_reference(tmp_path: Path) -> None:
    path = _write(tmp_path, _edit(SHIPPED, "[soc.Ascend910_9382]", "topology", 'topology = "a3_ring"'))
    with pytest.raises(
        CatalogueError, match=r"\[soc\.Ascend910_9382\] key 'topology': no \[topology\.a3_ring\]"
    ):
        load_catalogue(path)


def test_chip_type_must_match_family(tmp_path: Path) -> None:
    path = _write(tmp_path, _edit(SHIPPED, "[soc.Ascend950PR_9599]", "chip_type", "chip_type = 5"))
    with pytest.raises(CatalogueError, match=r"key 'chip_type': family '950' has chip type 15, got 5"):
        load_catalogue(path)


@pytest.mark.parametrize(
    ("header", "line", "expected"),
    [
        ("[soc.Ascend910B3]", 'family = "A4"', r"key 'family': must be one of"),
        ("[soc.Ascend910B3]", "aic = 0", r"key 'aic': must be greater than 0"),
        ("[soc.Ascend910B3]", "task_gap_ns = -1", r"key 'task_gap_ns': must not be negative"),
        ("[soc.Ascend910B3]", "hd_connect_type = 3", r"key 'hd_connect_type': must be one of 0, 1, 2"),
        ("[soc.Ascend910B3]", "hbm_gbps = 2000.0", r"key 'hbm_gbps': achievable bandwidth"),
        ("[soc.Ascend910B3]", "hbm_gbps = nan", r"key 'hbm_gbps': must be a finite number"),
        ("[topology.a950_ub]", 'kind = "torus"', r"\[topology\.a950_ub\] key 'kind': must be one of"),
        ("[topology.a2_hccs_mesh8]", "aggregate_gbps = 10.0", r"key 'aggregate_gbps': must be at least"),
        ("[defaults]", 'clock = "fast"', r"\[defaults\] key 'clock': must be one of 'virtual', 'wall'"),
        ("[defaults]", "jitter_pct = 150.0", r"\[defaults\] key 'jitter_pct': must be below 100"),
        ("[defaults]", 'soc = "Ascend910"', r"\[defaults\] key 'soc': 'Ascend910' is not a SoC"),
    ],
)
def test_out_of_range_values(tmp_path: Path, header: str, line: str, expected: str) -> None:
    key = line.split(" = ")[0]
    with pytest.raises(CatalogueError, match=expected):
        load_catalogue(_write(tmp_path, _edit(SHIPPED, header, key, line)))


def test_invalid_toml_is_a_catalogue_error(tmp_path: Path) -> None:
    text = SHIPPED.replace("\n[defaults]\n", "\n[defaults\n", 1)
    assert text != SHIPPED
    path = _write(tmp_path, text)
    with pytest.raises(CatalogueError, match="not valid TOML"):
        load_catalogue(path)


def test_missing_section(tmp_path: Path) -> None:
    text = SHIPPED.replace("\n[defaults]\n", "\n[unused]\n", 1)
    assert text != SHIPPED
    with pytest.raises(CatalogueError, match=r"missing \[defaults\]"):
        load_catalogue(_write(tmp_path, text))


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_catalogue(tmp_path / "absent.toml")


@given(name=st.sampled_from(ALL_NAMES), key=st.sampled_from(sorted(SOC_KEYS)))
def test_any_missing_soc_key_is_reported(name: str, key: str) -> None:
    data = copy.deepcopy(RAW)
    del data["soc"][name][key]
    with pytest.raises(CatalogueError) as info:
        catalogue_from_mapping(data)
    assert info.value.key == key
    assert info.value.section is not None and name in info.value.section
    assert repr(key) in str(info.value) and name in str(info.value)


_WRONG_VALUES = {
    int: st.one_of(st.text(max_size=5), st.booleans(), st.floats(allow_nan=False)),
    float: st.one_of(st.text(max_size=5), st.booleans()),
    str: st.one_of(st.integers(), st.floats(allow_nan=False), st.booleans()),
}


@given(data=st.data(), name=st.sampled_from(ALL_NAMES), key=st.sampled_from(sorted(SOC_KEYS)))
def test_any_wrongly_typed_soc_key_is_reported(data: st.DataObject, name: str, key: str) -> None:
    value = data.draw(_WRONG_VALUES[SOC_KEYS[key]])
    mapping = copy.deepcopy(RAW)
    mapping["soc"][name][key] = value
    with pytest.raises(CatalogueError) as info:
        catalogue_from_mapping(mapping)
    assert info.value.key == key
    assert info.value.section is not None and name in info.value.section


@given(name=st.sampled_from(sorted(RAW["topology"])), key=st.sampled_from(sorted(TOPOLOGY_KEYS)))
def test_any_missing_topology_key_is_reported(name: str, key: str) -> None:
    data = copy.deepcopy(RAW)
    del data["topology"][name][key]
    with pytest.raises(CatalogueError) as info:
        catalogue_from_mapping(data)
    assert (info.value.section, info.value.key) == (f"topology.{name}", key)


# --------------------------------------------------------------------------------------------------
# The build embeds the data files through configure_file(@ONLY), which would replace @NAME@ in them


@pytest.mark.parametrize("name", ["socs.toml", "kernel_costs.toml", "timing.toml", "kernel_names.toml"])
def test_embedded_data_files_hold_no_at_sign(name: str) -> None:
    assert "@" not in (DATA_DIR / name).read_text(encoding="utf-8")
