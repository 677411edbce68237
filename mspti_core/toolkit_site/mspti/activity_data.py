"""The data classes monitors hand to their callbacks, with the fields of CANN's msPTI package.

Each class is the view of the :mod:`mspti_core.data` class of the same name in CANN's package's
terms; its fields are that class's fields (which come from the record schema), so the two packages
cannot disagree about them. What this package adapts, and only that, is stated below:

* Construction from a dict keyed like the C record (``deviceId``, ``correlationId``, ...; a
  MarkerData's object id from the same flat dict: ``processId``, ``threadId``, ``deviceId``,
  ``streamId``), missing keys taking the package's defaults. Fields may also be given by name:
  ``KernelData(name="k", start=1)``. ``RangeMarkerData()`` takes no dict.
* Each class names its keys in upper-case class attributes (``KernelData.DEVICE_ID == "deviceId"``;
  CANN spells ``comm_name``'s ``COMMNAME``; a marker names no key for its object id).
* Enum fields hold this package's plain Enums and are converted on construction, so a value outside
  the enum raises ValueError (mspti_core keeps the plain number).
* CANN's package's defaults where they differ from mspti_core's (``_VENDOR_DEFAULTS``): ``kind`` is
  MSPTI_ACTIVITY_KIND_INVALID (mspti_core: the record's kind); a marker's ``flag`` is
  MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS (mspti_core: NONE); MsptiObjectId's ``device_id`` and
  ``stream_id`` are 0 (mspti_core: -1, "does not apply"). Delivered markers carry -1 in the pair of
  the object id that does not apply, in both packages, as CANN's adapter sets them.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from enum import Enum, IntEnum
from typing import Any, ClassVar

from mspti.constant import MsptiActivityKind, from_core
from mspti_core import data as _core

__all__ = ["CommunicationData", "HcclData", "KernelData", "MarkerData", "MsptiObjectId", "RangeMarkerData"]

#: CANN's spelling of a key constant where it is not the field's name in upper case.
_VENDOR_CONSTANTS: Mapping[str, str] = {"comm_name": "COMMNAME"}
#: Fields that name no key constant (CANN's MarkerData builds its object id from the same dict).
_NO_CONSTANT = frozenset({"object_id"})
#: CANN's package's defaults where they differ from mspti_core's: class -> field -> default.
_VENDOR_DEFAULTS: Mapping[str, Mapping[str, Any]] = {
    "KernelData": {"kind": MsptiActivityKind.MSPTI_ACTIVITY_KIND_INVALID},
    "HcclData": {"kind": MsptiActivityKind.MSPTI_ACTIVITY_KIND_INVALID},
    "CommunicationData": {"kind": MsptiActivityKind.MSPTI_ACTIVITY_KIND_INVALID},
    "MarkerData": {"kind": MsptiActivityKind.MSPTI_ACTIVITY_KIND_INVALID, "flag": 1},
    "MsptiObjectId": {"device_id": 0, "stream_id": 0},
}


def _member(cls: type[Enum], value: Any) -> Enum:
    """``value`` (a member of any enum, or a number) as a member of ``cls``; ValueError if none."""
    if isinstance(value, cls):
        return value
    return cls(value.value if isinstance(value, Enum) else value)


class _FromDict:
    """The constructor of the dict-built data classes: ``Cls(origin_data=None, /, **fields)``."""

    #: (field, dict key or None, plain Enum / nested class / None, default) per field.
    _LAYOUT: ClassVar[tuple[tuple[str, str | None, Any, Any], ...]] = ()

    def __init__(self, origin_data: Mapping[str, Any] | None = None, /, **values: Any) -> None:
        if origin_data is None:
            origin_data = {}
        elif not isinstance(origin_data, Mapping):
            raise TypeError(f"{type(self).__name__} is built from a dict, not {type(origin_data).__name__}")
        for name, key, special, default in self._LAYOUT:
            if name in values:
                value = values.pop(name)
            elif isinstance(special, type) and issubclass(special, _FromDict):
                value = special(origin_data)
            elif key is not None and key in origin_data:
                value = origin_data[key]
            else:
                value = default
            if isinstance(special, type) and issubclass(special, Enum):
                value = _member(special, value)
            setattr(self, name, value)
        if values:
            raise TypeError(f"{type(self).__name__} has no field(s) {', '.join(sorted(values))}")


def _adapter(core: type, adapted: Mapping[str, type], from_dict: bool = True) -> type:
    """CANN's package's class over the mspti_core data class ``core``."""
    name = core.__name__
    defaults = _VENDOR_DEFAULTS.get(name, {})
    specs: list[tuple[str, Any, Any]] = []
    namespace: dict[str, Any] = {}
    layout = []
    hints = typing.get_type_hints(core)
    for item in dataclasses.fields(core):
        hint = hints[item.name]
        special: Any = None
        if isinstance(hint, type) and issubclass(hint, IntEnum):
            special = from_core(hint)
        elif isinstance(hint, type) and hint.__name__ in adapted:
            special = adapted[hint.__name__]
        if item.default is not dataclasses.MISSING:
            default = defaults.get(item.name, item.default)
            if special is not None and isinstance(default, (int, Enum)):
                default = _member(special, default)
            field = dataclasses.field(default=default)
        else:
            default = None
            field = dataclasses.field(default_factory=special or item.default_factory)
        specs.append((item.name, special or hint, field))
        key = _core.c_field_name(item.name)
        if from_dict and item.name not in _NO_CONSTANT:
            namespace[_VENDOR_CONSTANTS.get(item.name, item.name.upper())] = key
        layout.append((item.name, key if item.name not in _NO_CONSTANT else None, special, default))
    namespace["_LAYOUT"] = tuple(layout)
    cls = dataclasses.make_dataclass(
        name, specs, bases=(_FromDict,) if from_dict else (), init=not from_dict, namespace=namespace
    )
    cls.__module__ = __name__
    cls.__doc__ = f"{core.__doc__}\n\nThe view of mspti_core.data.{name} in CANN's package's terms."
    return cls


_ADAPTED: dict[str, type] = {}
for _core_class in (
    _core.MsptiObjectId,
    _core.KernelData,
    _core.MarkerData,
    _core.HcclData,
    _core.CommunicationData,
):
    _ADAPTED[_core_class.__name__] = _adapter(_core_class, _ADAPTED)
_ADAPTED["RangeMarkerData"] = _adapter(_core.RangeMarkerData, _ADAPTED, from_dict=False)

MsptiObjectId: Any = _ADAPTED["MsptiObjectId"]
KernelData: Any = _ADAPTED["KernelData"]
MarkerData: Any = _ADAPTED["MarkerData"]
HcclData: Any = _ADAPTED["HcclData"]
CommunicationData: Any = _ADAPTED["CommunicationData"]
RangeMarkerData: Any = _ADAPTED["RangeMarkerData"]
