"""ABI lock: record layouts, enumerator values, the public symbol set and header hygiene."""

from __future__ import annotations

from conformance.abi import ENUMS, LAYOUTS, NEWER_VALUES, PUBLIC_FUNCTIONS
from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.scenarios.registry import ScenarioEnv, scenario


@scenario("abi_lock", "sizeof/offsetof of every record, enum values, symbols, C and C++14 headers")
def abi_lock(env: ScenarioEnv) -> list[Invocation]:
    return [
        Invocation("layout", program="abi_layout", preload=False),
        Invocation("enums", program="abi_enums", preload=False),
        Invocation("symbols", program="abi_symbols", preload=False),
    ]


def _check_layouts(ctx: CheckContext, clause_id: str, types: list[str]) -> None:
    with ctx.clause(clause_id) as c:
        log = ctx.log("layout")
        sizes = {str(e["type"]): e for e in log.of_type("layout")}
        fields = {(str(e["type"]), str(e["field"])): e for e in log.of_type("field")}
        for type_name in types:
            layout = LAYOUTS[type_name]
            probed = sizes.get(type_name)
            if probed is None:
                c.fail(f"the probe printed nothing for {type_name}")
                continue
            c.equal(probed["size"], layout.size, f"sizeof({type_name})")
            c.equal(probed["align"], layout.align, f"alignof({type_name})")
            for field in layout.fields:
                entry = fields.get((type_name, field.name))
                if entry is None:
                    c.fail(f"the probe printed nothing for {type_name}.{field.name}")
                    continue
                c.check(
                    entry["offset"] == field.offset and entry["size"] == field.size,
                    f"{type_name}.{field.name} is at offset {entry['offset']} with size {entry['size']}; "
                    f"expected offset {field.offset} size {field.size}",
                )
        c.note(f"{len(types)} types and their fields match the reference layout")


@abi_lock.checker
def check_abi(ctx: CheckContext) -> None:
    # Structs of the newer API (since = ...) are not probed: older targets do not declare them.
    _check_layouts(ctx, "GEN-ABI-01", [name for name, layout in LAYOUTS.items() if not layout.since])
    _check_layouts(ctx, "ACT-EXT-13", ["msptiActivityExternalCorrelation"])

    for clause_id, types in (("GEN-ABI-02", list(ENUMS)), ("GEN-RES-01", ["msptiResult"])):
        with ctx.clause(clause_id) as c:
            log = ctx.log("enums")
            widths = {str(e["type"]): int(e["size"]) for e in log.of_type("enum_type")}
            values = {(str(e["type"]), str(e["name"])): int(e["value"]) for e in log.of_type("enum")}
            for type_name in types:
                c.equal(widths.get(type_name), 4, f"sizeof({type_name})")
                for name, expected in ENUMS[type_name].items():
                    if name in NEWER_VALUES:
                        allowed = (expected, NEWER_VALUES[name])
                        got = values.get((type_name, name))
                        c.check(got in allowed, f"{name} is {got}; expected one of {allowed}", name)
                        continue
                    c.equal(values.get((type_name, name)), expected, name)
            if clause_id == "GEN-ABI-02":
                macros = {str(e["name"]): e for e in log.of_type("macro")}
                for macro, value, size in (
                    ("MSPTI_INVALID_DEVICE_ID", 0xFFFFFFFF, 4),
                    ("MSPTI_INVALID_STREAM_ID", 0xFFFFFFFF, 4),
                    ("MSPTI_INVALID_CORRELATION_ID", 0, 8),
                ):
                    entry = macros.get(macro)
                    c.check(
                        entry is not None and int(entry["value"]) == value and int(entry["size"]) == size,
                        f"{macro} is {entry and (entry['value'], entry['size'])}; "
                        f"expected ({value}, {size} bytes)",
                        f"{macro} = {value}",
                    )

    with ctx.clause("GEN-HDR-01") as c:
        log = ctx.log("symbols")
        units = log.first("units")
        c.check(units is not None, "the C11/C++14 probe did not run")
        if units is not None:
            c.equal(
                units["c11"], len(PUBLIC_FUNCTIONS), "functions reachable from a C11 unit including mspti.h"
            )
            c.equal(
                units["cxx14"],
                len(PUBLIC_FUNCTIONS),
                "functions reachable from a C++14 unit including mspti.h",
            )

    with ctx.clause("GEN-SYM-01") as c:
        log = ctx.log("symbols")
        library = log.first("library")
        c.check(
            library is not None and bool(library.get("loaded")),
            f"dlopen of the library failed: {library and library.get('error')}",
        )
        symbols = log.of_type("symbol")
        present = {str(e["name"]) for e in symbols if e.get("present")}
        for name in PUBLIC_FUNCTIONS:
            c.check(name in present, f"{name} is not exported", None)
        c.note(f"all {len(PUBLIC_FUNCTIONS)} public functions are exported")
        extras = sorted(str(e["name"]) for e in symbols if not e.get("public") and e.get("present"))
        if extras:
            c.note("extra helpers exported (informational): " + ", ".join(extras))
