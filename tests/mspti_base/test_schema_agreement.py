"""The compiled C headers and every view derived from the record schema agree.

One probe program is compiled against the public msPTI headers (csrc/mspti/include) and the C++
view of the schema (record_schema.h with its static_asserts of every sizeof, alignof, offsetof and
member size): it builds only if the C layout is the schema's, and prints the compiled value of every
enumerator, the C++ size table and the C++ kind names. The Python views (mspti_core's enums and data
classes, the vendor-compatible ``mspti`` package, the trace reader's dtypes, the conformance ABI
tables) are compared with the schema and with the compiled values.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import typing
from enum import Enum, IntEnum
from pathlib import Path

import pytest

from mspti_base import record_layouts
from mspti_base.record_layouts import ENUMS, KIND_RECORD, LAYOUTS, RecordLayout, python_name
from mspti_base.record_layouts_cpp import header_text
from support.vendor_mspti import imported_vendor_package

REPO = Path(__file__).resolve().parents[2]
INCLUDE = REPO / "csrc" / "mspti" / "include"
TOOLKIT_SITE = REPO / "mspti_core" / "toolkit_site"
#: Kinds the probe asks the C++ table about: every enumerator and a few past them.
PROBED_KINDS = range(0, 20)


def _probe_source() -> str:
    lines = [
        '#include "mspti/mspti.h"',
        '#include "mspti/mspti_ext.h"',
        "#define MSPTI_SCHEMA_CHECK_LAYOUTS",
        "#define MSPTI_SCHEMA_CHECK_OVERHEAD",
        '#include "mspti_schema/record_schema.h"',
        "#include <cstdio>",
        "int main() {",
    ]
    for schema in ENUMS.values():
        for member in schema.members:
            lines.append(
                f'    std::printf("enum {schema.name} {member.name} %lld\\n", (long long){member.name});'
            )
    for kind in PROBED_KINDS:
        lines.append(
            f'    std::printf("size {kind} %zu %s\\n", mspti_schema::RecordSize({kind}),'
            f' mspti_schema::KindName({kind}) ? mspti_schema::KindName({kind}) : "-");'
        )
    lines.append('    std::printf("max %zu\\n", mspti_schema::kMaxRecordSize);')
    lines += ["    return 0;", "}", ""]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, typing.Any]:
    """What the probe compiled against the headers prints: enum values, the C++ sizes and names."""
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    work = tmp_path_factory.mktemp("schema_probe")
    header = work / "mspti_schema" / "record_schema.h"
    header.parent.mkdir()
    header.write_text(header_text(), encoding="utf-8")
    source = work / "probe.cpp"
    source.write_text(_probe_source(), encoding="utf-8")
    built = subprocess.run(
        [compiler, "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{INCLUDE}", f"-I{work}", str(source),
         "-o", str(work / "probe")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert built.returncode == 0, (
        f"the compiled C headers and the record schema read from them disagree:\n{built.stderr}"
    )
    out = subprocess.run([str(work / "probe")], capture_output=True, text=True, check=True).stdout
    enums: dict[str, dict[str, int]] = {}
    sizes: dict[int, tuple[int, str]] = {}
    largest = 0
    for line in out.splitlines():
        word, *rest = line.split()
        if word == "enum":
            enums.setdefault(rest[0], {})[rest[1]] = int(rest[2])
        elif word == "size":
            sizes[int(rest[0])] = (int(rest[1]), rest[2])
        else:
            largest = int(rest[0])
    return {"enums": enums, "sizes": sizes, "max": largest}


def test_the_headers_enumerators_are_the_schemas(compiled: dict[str, typing.Any]) -> None:
    assert compiled["enums"] == {name: schema.values() for name, schema in ENUMS.items()}


def test_the_table_names_no_field_the_headers_lack() -> None:
    """record_layouts.toml adds to the headers' fields (names, types, meanings), never a field."""
    table = Path(record_layouts.__file__).with_name("record_layouts.toml")
    data = record_layouts.tomllib.loads(table.read_text(encoding="utf-8"))
    leaves = {f.leaf for layout in LAYOUTS.values() for f in layout.fields}
    named = set(data["python_names"]) | set(data["field_types"])
    assert named <= leaves
    for struct in data["struct"]:
        assert set(struct.get("meanings", {})) <= {f.name for f in LAYOUTS[struct["name"]].fields}


def test_the_cpp_size_table_and_kind_names_are_the_schemas(compiled: dict[str, typing.Any]) -> None:
    expected = {
        kind: (
            LAYOUTS[KIND_RECORD[kind]].size if kind in KIND_RECORD else 0,
            _kind_suffix(kind).lower() if kind in KIND_RECORD else "-",
        )
        for kind in PROBED_KINDS
    }
    assert compiled["sizes"] == expected
    assert compiled["max"] == max(LAYOUTS[name].size for name in KIND_RECORD.values())


def _kind_suffix(kind: int) -> str:
    kinds = {v: n for n, v in ENUMS["msptiActivityKind"].values().items() if not n.endswith("_COUNT")}
    return kinds[kind].removeprefix("MSPTI_ACTIVITY_KIND_")


def test_mspti_core_enums_are_the_headers(compiled: dict[str, typing.Any]) -> None:
    from mspti_core import enums

    for c_name, values in compiled["enums"].items():
        enum = getattr(enums, c_name[:1].upper() + c_name[1:])
        assert {member.name: member.value for member in enum} == values, c_name


def _python_fields(layout: RecordLayout) -> list[str]:
    return list(dict.fromkeys(python_name(field.name) for field in layout.fields))


@pytest.mark.parametrize("layout", [layout for layout in LAYOUTS.values() if layout.python], ids=str)
def test_mspti_core_data_classes_are_the_schemas(layout: RecordLayout) -> None:
    from mspti_core import data, enums

    cls = getattr(data, layout.python)
    fields = dataclasses.fields(cls)
    assert [field.name for field in fields] == _python_fields(layout)
    hints = typing.get_type_hints(cls)
    for item in layout.fields:
        name = python_name(item.name)
        if item.enum:
            assert hints[name] is getattr(enums, item.enum[:1].upper() + item.enum[1:]), name
        # The C name of every field round-trips through the dict form.
        assert data.c_field_name(name) == item.leaf
    instance = cls()
    if "kind" in hints:
        assert instance.kind in {kind for kind, name in KIND_RECORD.items() if name == layout.type_name}
    # Every Python data class holds a record of its kind: all its kinds map to it.
    for kind, name in KIND_RECORD.items():
        if name == layout.type_name:
            assert data.data_class_for(kind) is cls


@pytest.fixture(scope="module")
def vendor() -> typing.Any:
    """The vendor-compatible ``mspti`` package (on the path as the simulated toolkit puts it)."""
    with imported_vendor_package(TOOLKIT_SITE) as package:
        yield package


def test_the_vendor_packages_enums_are_plain_views_of_mspti_core(vendor: typing.Any) -> None:
    from mspti_core import enums

    for name in ("MsptiResult", "MsptiActivityKind", "MsptiActivityFlag", "MsptiActivitySourceKind",
                 "MsptiCommunicationDataType"):  # fmt: skip
        plain, core = getattr(vendor, name), getattr(enums, name)
        assert issubclass(plain, Enum) and not issubclass(plain, IntEnum)
        assert [(m.name, m.value) for m in plain] == [(m.name, m.value) for m in core]


@pytest.mark.parametrize(
    "name", ["MsptiObjectId", "KernelData", "MarkerData", "HcclData", "CommunicationData"]
)
def test_the_vendor_packages_data_classes_have_mspti_cores_fields(vendor: typing.Any, name: str) -> None:
    from mspti_core import data

    plain, core = getattr(vendor, name), getattr(data, name)
    assert [f.name for f in dataclasses.fields(plain)] == [f.name for f in dataclasses.fields(core)]
    layout = next(layout for layout in LAYOUTS.values() if layout.python == name)
    keys = {value for key, value in vars(plain).items() if key.isupper() and isinstance(value, str)}
    # Every key constant is a C field name of the record; every field but a nested object id has one.
    assert keys == {field.leaf for field in layout.fields if field.type != "msptiObjectId"}


def test_the_trace_readers_dtypes_are_the_schemas() -> None:
    from mspti_trace.kinds import DTYPES, ActivityKind

    assert {int(kind) for kind in ActivityKind} == {
        kind for kind, name in KIND_RECORD.items() if not LAYOUTS[name].since
    }
    for kind, dtype in DTYPES.items():
        layout = LAYOUTS[KIND_RECORD[int(kind)]]
        assert dtype.itemsize == layout.size
        offsets = {offset for _, offset in dtype.fields.values()}
        union_halves = {f.offset + 4 for f in layout.fields if f.type == "msptiObjectId"}
        assert offsets == {f.offset for f in layout.fields} | union_halves


def test_the_conformance_abi_tables_are_the_schemas(compiled: dict[str, typing.Any]) -> None:
    from conformance import abi

    assert abi.LAYOUTS is LAYOUTS and abi.KIND_RECORD is KIND_RECORD
    for name, values in abi.ENUMS.items():
        if name in ENUMS:
            # The baseline: the header's value, or the value before the newer API changed it.
            for enumerator, value in values.items():
                assert (
                    value == compiled["enums"][name][enumerator]
                    or abi.NEWER_VALUES.get(enumerator) == (compiled["enums"][name][enumerator])
                )
    for name, values in abi.NEWER_ENUMS.items():
        assert values.items() <= compiled["enums"][name].items()


@pytest.mark.parametrize(
    "name", ["MsptiObjectId", "KernelData", "MarkerData", "HcclData", "CommunicationData"]
)
def test_the_vendor_packages_defaults_differ_from_mspti_cores_only_where_stated(
    vendor: typing.Any, name: str
) -> None:
    from mspti.activity_data import _VENDOR_DEFAULTS  # the one table of CANN's own defaults

    from mspti_core import data

    plain, core = getattr(vendor, name)(), getattr(data, name)()

    def number(value: typing.Any) -> typing.Any:
        return value.value if isinstance(value, Enum) else value

    differing = {
        field.name
        for field in dataclasses.fields(core)
        if field.name != "object_id"
        and number(getattr(plain, field.name)) != number(getattr(core, field.name))
    }
    assert differing == set(_VENDOR_DEFAULTS.get(name, {}))
    for field, default in _VENDOR_DEFAULTS.get(name, {}).items():
        assert number(getattr(plain, field)) == number(default)
