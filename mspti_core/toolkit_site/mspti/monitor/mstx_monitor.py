"""MstxMonitor: instant marks (MarkerData) and ranges (RangeMarkerData) of mstx.

Ranges are put together by mspti_core (START and END records of one id and source kind); CANN's
package does the same pairing in Python, per monitor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import mspti_core
from mspti.activity_data import MarkerData, MsptiObjectId, RangeMarkerData
from mspti.constant import MsptiActivityKind, MsptiActivitySourceKind, MsptiResult
from mspti.monitor.base_monitor import BaseMonitor, Channel, c_keyed
from mspti.utils import print_error_msg

__all__ = ["MstxMonitor"]


class MstxMonitor(BaseMonitor):
    _channel: ClassVar[Channel] = Channel(mspti_core.MstxMonitor, "_receive_mark", "_receive_range")

    def __init__(self) -> None:
        super().__init__()
        self.mark_user_cb: Callable[[MarkerData], object] | None = None
        self.range_user_cb: Callable[[RangeMarkerData], object] | None = None

    def empty_callback(self) -> None:
        """The default of both callbacks of start(): takes the data object and does nothing."""

    def start(
        self,
        mark_cb: Callable[[MarkerData], None] = empty_callback,
        range_cb: Callable[[RangeMarkerData], None] = empty_callback,
    ) -> MsptiResult:
        """Enables MARKER records.

        ``mark_cb`` gets every instant mark (host, and device for marks on a stream), ``range_cb``
        one RangeMarkerData per range and source kind. MSPTI_ERROR_INVALID_PARAMETER only when
        neither is callable; a non-callable one (such as None) makes each of its records print an
        error instead.
        """
        if not callable(mark_cb) and not callable(range_cb):
            print_error_msg(f"mstx callbacks are not callable: {mark_cb!r}, {range_cb!r}")
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        result = BaseMonitor.start_monitor()
        if result is MsptiResult.MSPTI_SUCCESS:
            self.mark_user_cb = mark_cb
            self.range_user_cb = range_cb
            return MsptiResult(self._channel.register(self))
        return result

    def stop(self) -> MsptiResult:
        """Gives the session reference back, then ends MARKER collection (for every MstxMonitor)
        after delivering the pending marks and ranges."""
        result = BaseMonitor.stop_monitor()
        if result is MsptiResult.MSPTI_SUCCESS:
            result = MsptiResult(self._channel.unregister())
            self.mark_user_cb = None
            self.range_user_cb = None
        return result

    def enable_domain(self, domain_name: str) -> int | MsptiResult:
        """Collects markers of ``domain_name`` again (all domains are collected by default).

        As in CANN's package, a valid name returns the msPTI result as a plain int; an empty or
        non-str name is printed and returns MsptiResult.MSPTI_ERROR_INVALID_PARAMETER.
        """
        if _valid_domain(domain_name):
            return int(mspti_core.MstxMonitor().enable_domain(domain_name))
        return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER

    def disable_domain(self, domain_name: str) -> int | MsptiResult:
        """Stops collecting markers of ``domain_name``; results as for :meth:`enable_domain`."""
        if _valid_domain(domain_name):
            return int(mspti_core.MstxMonitor().disable_domain(domain_name))
        return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER

    def _receive_mark(self, record: Any) -> None:
        try:
            self.mark_user_cb(MarkerData(c_keyed(record)))  # type: ignore[misc]
        except Exception as error:
            print_error_msg(f"mstx callback failed: {error}")

    def _receive_range(self, record: Any) -> None:
        try:
            data = RangeMarkerData(
                kind=MsptiActivityKind.MSPTI_ACTIVITY_KIND_MARKER,
                source_kind=MsptiActivitySourceKind(int(record.source_kind)),
                id=record.id,
                object_id=MsptiObjectId(c_keyed(record.object_id)),
                name=record.name,
                domain=record.domain,
                start=record.start,
                end=record.end,
            )
            self.range_user_cb(data)  # type: ignore[misc]
        except Exception as error:
            print_error_msg(f"mstx callback failed: {error}")


def _valid_domain(name: object) -> bool:
    if isinstance(name, str) and name:
        if "\0" in name:
            raise TypeError("a domain name cannot contain a NUL character")
        return True
    print_error_msg(f"a domain name is a non-empty str, not {name!r}")
    return False
