"""PY-IMPORT-01, PY-ENUM-01: what ``import <package>`` exposes, and the values of its enums."""

from __future__ import annotations

import enum
import inspect

from conformance.pydriver.runtime import Driver, import_package

#: Names the package must expose (PY-IMPORT-01).
NAMES = (
    "KernelMonitor",
    "KernelData",
    "MstxMonitor",
    "MarkerData",
    "RangeMarkerData",
    "HcclMonitor",
    "HcclData",
    "CommunicationMonitor",
    "CommunicationData",
    "MsptiObjectId",
    "MsptiResult",
    "MsptiActivityKind",
    "MsptiCommunicationDataType",
    "MsptiActivityFlag",
    "MsptiActivitySourceKind",
)


def main() -> int:
    driver = Driver()
    package = import_package(driver)
    if package is None:
        driver.finish()
        return 0
    exposed = {}
    for name in NAMES:
        value = getattr(package, name, None)
        if value is None:
            exposed[name] = "absent"
        elif inspect.isclass(value) and issubclass(value, enum.Enum):
            exposed[name] = "enum"
        elif inspect.isclass(value):
            exposed[name] = "class"
        else:
            exposed[name] = type(value).__name__
    driver.emit("py_names", names=exposed)
    enums = {}
    for name, value in exposed.items():
        if value == "enum":
            members = getattr(package, name).__members__.items()
            enums[name] = {member: int(item.value) for member, item in members}
    driver.emit("py_enums", enums=enums)
    driver.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
