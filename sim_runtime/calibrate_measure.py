"""``npu-sim calibrate --measure``: the calibration rows measured on a CANN installation.

The calibration runner (``data/calibrate_runner.cpp``, public CANN API only) is compiled against the
CANN toolkit at ``--cann`` (``$ASCEND_HOME_PATH``: its ``include/`` and ``lib64/``) and run once per
row in the caller's environment (on an Atlas host: after CANN's ``set_env.sh``). Each row's time is
written back as a row of the calibration table's format, with the SoC the runtime reports
(``aclrtGetSocName``), ``unit = "us"`` and ``use = "fit"``: the input of ``npu-sim calibrate --fit``.
The simulator's own toolkit is a CANN too (``npu-sim toolkit``), which is how the procedure is tested.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sim_runtime.calibrate import (
    CalibrationError,
    CalibrationUsageError,
    Row,
    build_runner,
    run_runner,
)
from sim_runtime.toolkit import Toolkit

#: What the runner links on a real CANN (ACL, aclnn, HCCL, HIXL): nothing of the profiling seam.
MEASURE_LIBRARIES = ("ascendcl", "nnopbase", "opapi", "hccl", "hixl", "pthread")
#: Variables that only the simulator reads: aclnn operators launch without computing their outputs,
#: collectives move no data. A real CANN ignores them.
SIM_ONLY_ENV = {"NPU_SIM_TIMING_ONLY": "1", "HCCL_SIM_DATA": "0"}
_VERSION = re.compile(r"^\s*version\s*=\s*(\S+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Measured:
    """One row measured on the host: the table row it repeats, the SoC reported and the time."""

    row: Row
    soc: str
    ns: float


def cann_toolkit(root: Path) -> Toolkit:
    """The CANN installation at ``root`` as a toolkit to build against (its include/ and lib64/)."""
    root = root.expanduser()
    missing = [name for name in ("include", "lib64") if not (root / name).is_dir()]
    if missing:
        raise CalibrationUsageError(
            f"--cann {root}: no {' or '.join(f'{m}/' for m in missing)} there; give the CANN toolkit root "
            "($ASCEND_HOME_PATH after sourcing CANN's set_env.sh)"
        )
    resolved = root.resolve()
    return Toolkit(
        ascend_home=resolved,
        lib64=resolved / "lib64",
        include=resolved / "include",
        mspti=resolved / "lib64" / "libmspti.so",
    )


def cann_version(root: Path) -> str:
    """The version an installation states (``version.cfg`` or ``*install.info``), else "not stated"."""
    for path in [
        root / "version.cfg",
        *sorted(root.glob("*install.info")),
        *sorted(root.glob("*/*install.info")),
    ]:
        try:
            found = _VERSION.search(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if found:
            return found.group(1)
    return "not stated"


def measure(
    root: Path,
    rows: Sequence[Row],
    *,
    cache: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[Measured]:
    """Runs every row once on the CANN at ``root`` and returns the measured times, in row order."""
    toolkit = cann_toolkit(root)
    runner = build_runner(toolkit, cache, libs=MEASURE_LIBRARIES)
    env = dict(os.environ if environ is None else environ)
    env.update(SIM_ONLY_ENV)
    out: list[Measured] = []
    for row in rows:
        soc, ns = run_runner(runner, row, env)
        out.append(Measured(row, soc, ns))
    return out


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def render_rows(measured: Sequence[Measured], root: Path) -> str:
    """The measured rows in calibration.toml's format (``npu-sim calibrate --fit`` reads them)."""
    version = cann_version(root)
    lines = [
        "# Rows measured by `npu-sim calibrate --measure`: each row of the calibration table run once",
        f"# on the NPU of this host through the CANN at {root} (public API only). docs/timing.md.",
    ]
    for m in measured:
        row = m.row
        fields: dict[str, object] = {"id": row.id, "class": row.cls, "op": row.op, "soc": m.soc}
        fields.update(row.shape)
        fields.update(
            {
                "real": round(m.ns / 1e3, 6),
                "unit": "us",
                "method": row.method,
                "use": "fit",
                "quality": "measured: one run of the calibration runner",
                "source": "npu-sim calibrate --measure",
                "conditions": f"calibration runner, method {row.method}, shape of row {row.id}",
                "hardware": m.soc,
                "cann": version,
            }
        )
        lines.append("")
        lines.append("[[row]]")
        lines.extend(f"{key} = {_toml_value(value)}" for key, value in fields.items())
    return "\n".join(lines) + "\n"


__all__ = [
    "MEASURE_LIBRARIES",
    "CalibrationError",
    "Measured",
    "cann_toolkit",
    "cann_version",
    "measure",
    "render_rows",
]
