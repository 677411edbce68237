"""The low-level Activity API: collect records of any kind, in the session the monitors share.

::

    from mspti_core import activity
    from mspti_core.enums import MsptiActivityKind as Kind

    with activity.Collector(Kind.MSPTI_ACTIVITY_KIND_MEMORY, Kind.MSPTI_ACTIVITY_KIND_KERNEL) as found:
        run_workload()
    for record in found:           # MemoryData / KernelData objects, in delivery order
        print(activity.to_dict(record, c_names=True))

A Collector with a ``callback`` hands each record to it instead of keeping a list. Records arrive
on a delivery thread; ``stop()`` (or leaving the ``with`` block) returns once all of them have
been delivered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any

from mspti_core import _library, _mspti  # type: ignore[attr-defined]
from mspti_core.data import ActivityData, data_class_for, to_dict
from mspti_core.enums import (
    MsptiActivityKind,
    MsptiDropReason,
    MsptiExternalCorrelationKind,
    MsptiResult,
    result,
)
from mspti_core.monitor.base import BaseMonitor, _grace_ms

__all__ = [
    "ActivityError",
    "Collector",
    "callback_errors",
    "dropped_records",
    "dropped_records_by_reason",
    "is_enabled",
    "pop_external_correlation_id",
    "push_external_correlation_id",
    "stats",
    "timestamp",
    "to_dict",
]

_FIRST_KIND = MsptiActivityKind.MSPTI_ACTIVITY_KIND_MARKER
_LAST_KIND = MsptiActivityKind.MSPTI_ACTIVITY_KIND_RUNTIME_API


class ActivityError(RuntimeError):
    """An msPTI call failed; ``result`` is its msptiResult."""

    def __init__(self, what: str, code: MsptiResult | int) -> None:
        name = code.name if isinstance(code, MsptiResult) else str(code)
        super().__init__(f"{what} failed with {name}")
        self.result = code


class Collector:
    """Enables ``kinds`` while running and collects their records (or passes them to ``callback``)."""

    def __init__(self, *kinds: int, callback: Callable[[ActivityData], object] | None = None) -> None:
        if not kinds:
            raise ValueError("give at least one activity kind")
        for kind in kinds:
            if isinstance(kind, bool) or not isinstance(kind, int) or not _FIRST_KIND <= kind <= _LAST_KIND:
                raise ValueError(f"{kind!r} is not an activity kind with records (1..12)")
            data_class_for(kind)
        self.kinds = tuple(MsptiActivityKind(k) for k in dict.fromkeys(kinds))
        self.records: list[ActivityData] = []
        self._callback = callback if callback is not None else self.records.append
        self._token: int | None = None
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        return self._token is not None

    def start(self) -> MsptiResult | int:
        """Joins the shared session and enables the kinds; INVALID_PARAMETER if already running."""
        _library.check_not_in_callback("started")
        with self._lock:
            if self._token is not None:
                return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
            code, token = _library.start_native(
                [int(k) for k in self.kinds], [(int(k), self._callback) for k in self.kinds]
            )
            if code == MsptiResult.MSPTI_SUCCESS:
                self._token = token
            return result(code)

    def stop(self) -> MsptiResult | int:
        """Delivers every pending record, disables the kinds (unless others use them) and leaves."""
        _library.check_not_in_callback("stopped")
        with self._lock:
            if _mspti.loaded_path() is None:
                self._token = None
                return MsptiResult.MSPTI_SUCCESS
            code = _library.stop_native(self._token or 0, _grace_ms())  # raises inside a callback
            self._token = None
            return result(code)

    def flush(self) -> MsptiResult | int:
        """Delivers the records produced so far (of every monitor and collector)."""
        return BaseMonitor.flush_all()

    def __enter__(self) -> list[ActivityData]:
        code = self.start()
        if code != MsptiResult.MSPTI_SUCCESS:
            raise ActivityError("starting the collector", code)
        return self.records

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __iter__(self) -> Iterator[ActivityData]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)


def is_enabled(kind: int) -> bool | None:
    """msptiActivityIsEnabled (None when the library predates it)."""
    _library.ensure_loaded()
    value = _mspti.is_enabled(int(kind))
    return None if value is None else bool(value)


def push_external_correlation_id(
    kind: MsptiExternalCorrelationKind | int, external_id: int
) -> MsptiResult | int:
    _library.ensure_loaded()
    return result(_mspti.push_external_correlation_id(int(kind), int(external_id)))


def pop_external_correlation_id(kind: MsptiExternalCorrelationKind | int) -> tuple[MsptiResult | int, int]:
    """(result, the id popped); MSPTI_ERROR_QUEUE_EMPTY when nothing was pushed on this thread."""
    _library.ensure_loaded()
    code, external_id = _mspti.pop_external_correlation_id(int(kind))
    return result(code), int(external_id)


def dropped_records(kind: int = 0) -> int | None:
    """Records of ``kind`` (0: all kinds) msPTI had to drop; None if the library cannot tell."""
    _library.ensure_loaded()
    value = _mspti.dropped_records(int(kind))
    return None if value is None else int(value)


def dropped_records_by_reason(
    kind: MsptiActivityKind | int = 0, reason: MsptiDropReason | int = MsptiDropReason.MSPTI_DROP_REASON_ANY
) -> int | None:
    """Records of ``kind`` (0: all kinds) msPTI dropped for ``reason`` (0: every reason); the counts
    of the reasons add up to ``dropped_records(kind)``. None if the library cannot tell (no such
    extension) or for a kind or reason it does not know."""
    _library.ensure_loaded()
    value = _mspti.dropped_records_by_reason(int(kind), int(reason))
    return None if value is None else int(value)


def timestamp() -> int | None:
    """Now, in the records' time base (ns since the epoch); None if the library cannot tell."""
    _library.ensure_loaded()
    value = _mspti.timestamp()
    return None if value is None else int(value)


def callback_errors() -> int:
    """How many times a monitor or collector callback raised (each was printed to stderr)."""
    return int(_mspti.callback_errors())


def stats() -> dict[str, Any]:
    """Counters of the delivery machinery (buffers, records seen / skipped / delivered, ...)."""
    return dict(_mspti.stats())
