"""The enumerations and limits of CANN's msPTI Python package, with its types.

Every enumeration here is a plain :class:`enum.Enum`, as in CANN's package: members do not compare
equal to numbers (``MsptiResult.MSPTI_SUCCESS == 0`` is False) and ``int()`` of a member fails;
``member.value`` is the number of the C API. Each is the plain-Enum view of the
:mod:`mspti_core.enums` type of the same name (same members, same values, both from the record
schema), so the two packages cannot disagree; ``to_core``/``from_core`` convert a member.
"""

from __future__ import annotations

from enum import Enum, IntEnum

from mspti_core import enums as _core
from mspti_core.constant import Constant as _CoreConstant

__all__ = [
    "Constant",
    "MsptiActivityFlag",
    "MsptiActivityKind",
    "MsptiActivitySourceKind",
    "MsptiCommunicationDataType",
    "MsptiResult",
    "from_core",
    "to_core",
]


class Constant:
    #: Largest buffer size set_buffer_size accepts, in MB.
    MAX_BUFFER_SIZE = _CoreConstant.MAX_BUFFER_SIZE
    #: Seconds CANN's package waits after leaving the session before it flushes (see
    #: BaseMonitor.stop_monitor: here mspti_core decides whether the library needs that wait).
    FLUSH_SLEEP_TIME = _CoreConstant.FLUSH_SLEEP_TIME


def _plain(core: type[IntEnum]) -> type[Enum]:
    """The plain-Enum view of an mspti_core enum type (CANN's package's type of that name)."""
    name = core.__name__
    enum = Enum(name, [(member.name, member.value) for member in core], module=__name__, qualname=name)  # type: ignore[misc]
    enum.__doc__ = f"{core.__doc__} A plain Enum, as in CANN's package."
    return enum


MsptiResult = _plain(_core.MsptiResult)
MsptiActivityKind = _plain(_core.MsptiActivityKind)
MsptiActivityFlag = _plain(_core.MsptiActivityFlag)
MsptiActivitySourceKind = _plain(_core.MsptiActivitySourceKind)
MsptiCommunicationDataType = _plain(_core.MsptiCommunicationDataType)

_BY_NAME: dict[str, type[Enum]] = {
    enum.__name__: enum
    for enum in (
        MsptiResult,
        MsptiActivityKind,
        MsptiActivityFlag,
        MsptiActivitySourceKind,
        MsptiCommunicationDataType,
    )
}


def from_core(core_type: type[IntEnum]) -> type[Enum]:
    """This package's enum type for an mspti_core enum type; KeyError for one it does not have."""
    return _BY_NAME[core_type.__name__]


def to_core(member: Enum) -> IntEnum:
    """The mspti_core member of ``member``."""
    core: type[IntEnum] = getattr(_core, type(member).__name__)
    return core(member.value)
