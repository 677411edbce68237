"""The device description of a PROF_* directory: ``device_<n>/info.json.<n>``, which libmsprofiler
writes as CANN's collection does (csrc/sim/msprofiler/prof_dir.cpp), and the chip name msprof's
``NPU_INFO`` gives a device: its ``platform_version`` (the chip type) looked up in msprof's
``CHIP_TABLE`` (Ascend/msprof 024471cf, analysis/csrc/application/database/db_constant.h), or
``UNKNOWN`` when the file or the chip type is missing, as msprof's ``UpdateNpuData`` writes it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

UNKNOWN = "UNKNOWN"
CHIP_TABLE = {
    0: "Ascend310",
    1: "Ascend910A",
    4: "Ascend310P",
    5: "Ascend910B",
    7: "Ascend310B",
    15: "Ascend950",
}


@dataclass(frozen=True)
class DeviceInfo:
    device: int
    chip_type: int | None  # None: no readable info.json
    ai_core_num: int = 0
    aiv_num: int = 0
    aic_frequency_mhz: int = 0
    hwts_frequency_mhz: int = 0

    @property
    def chip_name(self) -> str:
        return CHIP_TABLE.get(self.chip_type, UNKNOWN) if self.chip_type is not None else UNKNOWN


def read(prof_dir: Path, device: int) -> DeviceInfo:
    """The device's info.json.<n>; a missing or unreadable file gives chip type None."""
    path = prof_dir / f"device_{device}" / f"info.json.{device}"
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        first = info["DeviceInfo"][0]
        return DeviceInfo(
            device,
            int(info["platform_version"]),
            int(first["ai_core_num"]),
            int(first["aiv_num"]),
            int(first["aic_frequency"]),
            int(first["hwts_frequency"]),
        )
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return DeviceInfo(device, None)
