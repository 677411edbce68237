"""The kernel cost table (sim_runtime/data/kernel_costs.toml) and its loader (sim_runtime.kernel_costs)."""

from __future__ import annotations

import dataclasses
import fnmatch
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim_runtime.kernel_costs import (
    CORE_TYPES,
    DEFAULT_KERNEL_COSTS_PATH,
    FALLBACK_DURATION_NS,
    KernelCostError,
    KernelCostTable,
    kernel_costs_from_mapping,
    load_kernel_costs,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

with DEFAULT_KERNEL_COSTS_PATH.open("rb") as _fh:
    RAW: dict[str, Any] = tomllib.load(_fh)

DEFAULTS = load_kernel_costs()

# Kernel names as they appear in ASCII kernel symbols.
NAMES = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "costs.toml"
    path.write_text(body, encoding="utf-8")
    return path


def _entry(pattern: object, **keys: object) -> dict[str, object]:
    return {"pattern": pattern, **keys}


# --------------------------------------------------------------------------------------------------
# The shipped table


def test_shipped_table_ends_with_an_explicit_catch_all() -> None:
    last_raw = RAW["kernel"][-1]
    assert last_raw == {"pattern": "*", "duration_ns": 3000, "per_block": False, "core": "inherit"}
    assert len(DEFAULTS) == len(RAW["kernel"])  # nothing was appended
    last = DEFAULTS.entries[-1]
    assert (last.pattern, last.duration_ns, last.core, last.is_catch_all) == ("*", 3000, "inherit", True)
    assert [e.pattern for e in DEFAULTS].count("*") == 1


def test_shipped_entries_spell_out_every_key() -> None:
    for i, entry in enumerate(RAW["kernel"]):
        assert {"pattern", "per_block", "core"} <= set(entry), i
        assert ("duration_ns" in entry) != ("flops" in entry and "bytes" in entry), i


@pytest.mark.parametrize("pattern", ["*matmul*", "*gemm*", "*add*", "*mul*", "*softmax*", "*allreduce*"])
def test_shipped_table_covers_common_kernels(pattern: str) -> None:
    assert pattern in [e.pattern for e in DEFAULTS]


@pytest.mark.parametrize(
    ("name", "pattern", "core"),
    [
        ("MatMulV2_tiling_key_1", "*matmul*", "AIC"),
        ("mul_custom", "*mul*", "AIV"),
        ("hcom_allReduce__123_0", "*allreduce*", "AIV"),
        ("ReduceScatterAIV", "*reducescatter*", "AIV"),
        ("reduce_sum_fp16", "*reduce*", "AIV"),
        ("AllGatherMatmul", "*allgather*", "AIV"),
        ("GatherV2", "*gather*", "AIV"),
        ("convert_layout", "*convert*", "AIV"),
        ("Conv2D", "*conv*", "AIC"),
        ("broadcast_to", "*broadcast*", "AIV"),
        ("expand_dims", "*expand*", "AIV"),
        ("FlashAttentionScore", "*attention*", "MIX"),
        ("aicpu_add", "*aicpu*", "AICPU"),
        ("SoftmaxV2", "*softmax*", "AIV"),
        ("my_kernel", "*", "inherit"),
    ],
)
def test_first_match_wins_in_the_shipped_order(name: str, pattern: str, core: str) -> None:
    entry = DEFAULTS.lookup(name)
    assert (entry.pattern, entry.core) == (pattern, core)


def test_every_shipped_entry_is_reachable() -> None:
    # The bare stem of each pattern ("matmul" for "*matmul*") must land on that entry, so no earlier
    # entry shadows it.
    for entry in DEFAULTS.entries[:-1]:
        stem = entry.pattern.strip("*")
        assert DEFAULTS.lookup(stem) is entry, entry.pattern


def test_shipped_roofline_figures() -> None:
    matmul = DEFAULTS.lookup("matmul")
    assert matmul.per_block and not matmul.is_fixed
    assert matmul.flops == 2 * 256 * 256 * 4096
    assert matmul.work(20) == (20 * matmul.flops, 20 * matmul.bytes)
    add = DEFAULTS.lookup("add")
    assert (add.flops, add.bytes) == (32768.0, 3 * 65536.0)
    assert DEFAULTS.lookup("allreduce").duration_ns == 30000


@given(NAMES)
def test_every_name_has_a_cost(name: str) -> None:
    entry = DEFAULTS.lookup(name)
    assert entry.matches(name)
    assert entry.core in CORE_TYPES
    assert entry.is_fixed or (entry.flops is not None and entry.bytes is not None)


@given(NAMES)
def test_lookup_is_case_insensitive(name: str) -> None:
    entry = DEFAULTS.lookup(name)
    assert DEFAULTS.lookup(name.upper()) is entry
    assert DEFAULTS.lookup(name.lower()) is entry
    assert DEFAULTS.lookup(name.swapcase()) is entry


@given(NAMES)
def test_lookup_returns_the_first_matching_entry(name: str) -> None:
    entry = DEFAULTS.lookup(name)
    folded = name.lower()
    assert fnmatch.fnmatchcase(folded, entry.pattern.lower())
    for earlier in DEFAULTS.entries[: entry.index]:
        assert not fnmatch.fnmatchcase(folded, earlier.pattern.lower()), earlier.pattern


# --------------------------------------------------------------------------------------------------
# User tables


def test_user_table_order_decides(tmp_path: Path) -> None:
    body = """
[[kernel]]
pattern = "Add*"
duration_ns = 100
per_block = false
core = "AIV"

[[kernel]]
pattern = "*add*"
flops = 10.0
bytes = 30
per_block = true
core = "AIV"

[[kernel]]
pattern = "*"
duration_ns = 7
per_block = false
core = "inherit"
"""
    table = load_kernel_costs(_write(tmp_path, body))
    assert isinstance(table, KernelCostTable)
    assert [e.index for e in table] == [0, 1, 2]
    assert table.lookup("ADDCUSTOM").duration_ns == 100
    fused = table.lookup("fused_add")
    assert (fused.index, fused.flops, fused.bytes) == (1, 10.0, 30.0)
    assert isinstance(fused.bytes, float)
    assert fused.work(4) == (40.0, 120.0)
    assert table.lookup("relu").duration_ns == 7
    assert len(table) == 3  # explicit catch-all, nothing appended


def test_optional_keys_default_and_catch_all_is_appended() -> None:
    table = kernel_costs_from_mapping({"kernel": [_entry("*matmul*", flops=1e9, bytes=1e6)]})
    matmul = table.lookup("MatMul")
    assert (matmul.per_block, matmul.core) == (False, "inherit")
    assert matmul.work(8) == (1e9, 1e6)
    fallback = table.lookup("anything")
    assert (fallback.index, fallback.pattern, fallback.duration_ns, fallback.core) == (
        1,
        "*",
        FALLBACK_DURATION_NS,
        "inherit",
    )


def test_a_non_star_catch_all_still_gets_the_fallback_appended() -> None:
    # Only an exact "*" counts as the table's catch-all, as in the simulator's C++ reader.
    table = kernel_costs_from_mapping({"kernel": [_entry("**", duration_ns=5)]})
    assert [e.pattern for e in table] == ["**", "*"]
    assert table.lookup("x").duration_ns == 5


def test_character_classes_and_single_character_wildcards() -> None:
    table = kernel_costs_from_mapping(
        {
            "kernel": [
                _entry("k[0-9]", duration_ns=1),
                _entry("k?", duration_ns=2),
                _entry("[!k]*", duration_ns=3),
                _entry("*", duration_ns=4),
            ]
        }
    )
    assert [table.lookup(n).duration_ns for n in ("k7", "kx", "K7", "ab", "kxy")] == [1, 2, 1, 3, 4]


def test_per_block_only_scales_roofline_work() -> None:
    table = kernel_costs_from_mapping({"kernel": [_entry("*", duration_ns=10, per_block=True)]})
    entry = table.lookup("x")
    assert entry.duration_ns == 10 and entry.is_fixed
    with pytest.raises(ValueError, match="fixed duration"):
        entry.work(4)


@given(
    flops=st.floats(min_value=0, max_value=1e15),
    nbytes=st.floats(min_value=0, max_value=1e12),
    per_block=st.booleans(),
    block_dim=st.integers(min_value=1, max_value=65535),
)
def test_work_scales_with_block_dim_only_per_block(
    flops: float, nbytes: float, per_block: bool, block_dim: int
) -> None:
    table = kernel_costs_from_mapping(
        {"kernel": [_entry("*", flops=flops, bytes=nbytes, per_block=per_block, core="AIV")]}
    )
    scale = block_dim if per_block else 1
    assert table.lookup("k").work(block_dim) == (flops * scale, nbytes * scale)


@given(
    patterns=st.lists(st.text(alphabet="ab*?", min_size=1, max_size=4), min_size=1, max_size=6),
    name=st.text(alphabet="abAB", max_size=5),
)
def test_lookup_agrees_with_first_match_over_any_table(patterns: list[str], name: str) -> None:
    table = kernel_costs_from_mapping(
        {"kernel": [_entry(p, duration_ns=i + 1) for i, p in enumerate(patterns)]}
    )
    expected = next(
        (i for i, p in enumerate(patterns) if fnmatch.fnmatchcase(name.lower(), p.lower())),
        None,
    )
    entry = table.lookup(name)
    if expected is None:
        assert (entry.pattern, entry.duration_ns) == ("*", FALLBACK_DURATION_NS)
    else:
        assert entry.index == expected


def test_records_are_immutable() -> None:
    entry = DEFAULTS.lookup("matmul")
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.flops = 1.0  # type: ignore[misc]


# --------------------------------------------------------------------------------------------------
# Malformed tables


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            _entry("*a*", duration_ns=5, flops=1.0, bytes=1.0),
            r"give either duration_ns or flops \+ bytes, not both",
        ),
        (_entry("*a*", duration_ns=5, bytes=1.0), r"not both"),
        (_entry("*a*", core="AIV"), r"give either duration_ns \(fixed time\) or flops \+ bytes"),
        (_entry("*a*", flops=1.0), r"'bytes' is given without|'flops' is given without"),
        (_entry("*a*", bytes=1.0), r"'bytes' is given without 'flops'"),
        (_entry("*a*", duration_ns=5.0), r"'duration_ns' must be an integer, got float"),
        (_entry("*a*", duration_ns=0), r"'duration_ns' must be greater than 0"),
        (_entry("*a*", duration_ns=True), r"'duration_ns' must be an integer, got boolean"),
        (_entry("*a*", flops=-1.0, bytes=1.0), r"'flops' must be a finite number >= 0"),
        (_entry("*a*", flops=1.0, bytes=float("inf")), r"'bytes' must be a finite number >= 0"),
        (_entry("*a*", flops="1e9", bytes=1.0), r"'flops' must be a number, got string"),
        (
            _entry("*a*", duration_ns=5, core="aic"),
            r"'core' must be one of 'inherit', 'AIC', 'AIV', 'MIX', 'AICPU'",
        ),
        (_entry("*a*", duration_ns=5, per_block="yes"), r"'per_block' must be true or false, got string"),
        (_entry("*a*", duraton_ns=5), r"unknown key 'duraton_ns'; allowed keys: pattern, duration_ns"),
        ({"duration_ns": 5}, r"'pattern' must be a non-empty string, got nothing"),
        (_entry("", duration_ns=5), r"'pattern' must be a non-empty string"),
        (_entry(5, duration_ns=5), r"'pattern' must be a non-empty string, got integer"),
    ],
)
def test_invalid_entry_is_reported_with_its_index(entry: dict[str, object], expected: str) -> None:
    good = _entry("*ok*", duration_ns=1)
    with pytest.raises(KernelCostError, match=r"kernel\[2\]") as info:
        kernel_costs_from_mapping({"kernel": [good, good, entry, _entry("*", duration_ns=1)]})
    assert info.value.index == 2
    assert isinstance(info.value, ValueError)
    with pytest.raises(KernelCostError, match=expected):
        kernel_costs_from_mapping({"kernel": [entry]})


def test_message_names_file_index_and_pattern(tmp_path: Path) -> None:
    body = """
[[kernel]]
pattern = "*gemm*"
flops = 1.0
per_block = true
core = "AIC"
"""
    path = _write(tmp_path, body)
    with pytest.raises(KernelCostError) as info:
        load_kernel_costs(path)
    message = str(info.value)
    assert message.startswith(f"{path}: kernel[0] (pattern '*gemm*'): ")
    assert "roofline entries need both flops and bytes" in message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({}, r"no \[\[kernel\]\] entries"),
        ({"kernel": []}, r"no \[\[kernel\]\] entries"),
        ({"kernel": {"pattern": "*"}}, r"no \[\[kernel\]\] entries"),
        ({"kernel": ["*"]}, r"kernel\[0\]: must be a \[\[kernel\]\] table, got string"),
        ({"kernel": [_entry("*", duration_ns=1)], "soc": "x"}, r"unknown top-level key or table 'soc'"),
    ],
)
def test_malformed_table_layout(data: dict[str, Any], expected: str) -> None:
    with pytest.raises(KernelCostError, match=expected):
        kernel_costs_from_mapping(data)


def test_invalid_toml_is_a_kernel_cost_error(tmp_path: Path) -> None:
    path = _write(tmp_path, '[[kernel]]\npattern = "*\n')
    with pytest.raises(KernelCostError, match="not valid TOML"):
        load_kernel_costs(path)


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_kernel_costs(tmp_path / "absent.toml")
