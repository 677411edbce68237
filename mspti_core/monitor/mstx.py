"""MstxMonitor: mstx marks (MarkerData) and ranges (RangeMarkerData)."""

from __future__ import annotations

from collections.abc import Callable

from mspti_core import _library, _mspti  # type: ignore[attr-defined]
from mspti_core.data import MarkerData, RangeMarkerData
from mspti_core.enums import MsptiActivityKind, MsptiResult, result
from mspti_core.monitor.base import BaseMonitor, Route

__all__ = ["MstxMonitor"]

_KIND = MsptiActivityKind.MSPTI_ACTIVITY_KIND_MARKER
#: msPTI's limit on domain names (255 characters and more are rejected).
_MAX_DOMAIN_NAME = 254


def _ignore(_data: object) -> None:
    """The default callback: records of that sort are not delivered at all."""


class MstxMonitor(BaseMonitor):
    def start(
        self,
        mark_cb: Callable[[MarkerData], None] = _ignore,
        range_cb: Callable[[RangeMarkerData], None] = _ignore,
    ) -> MsptiResult | int:
        """Enables MARKER records.

        ``mark_cb`` gets every instant mark (host, and device for marks with a stream); START/END
        records never reach it. ``range_cb`` gets one RangeMarkerData per range and source (host,
        and device for ranges with a stream) once both ends have been seen. Either may be left out
        (or be None); INVALID_PARAMETER when neither is callable.
        """
        routes: list[Route] = []
        if callable(mark_cb) and mark_cb is not _ignore:
            routes.append((_mspti.ROUTE_INSTANT_MARKS, mark_cb))
        if callable(range_cb) and range_cb is not _ignore:
            routes.append((_mspti.ROUTE_RANGES, range_cb))
        if not callable(mark_cb) and not callable(range_cb):
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        return self._start([_KIND], routes)

    def stop(self) -> MsptiResult | int:
        """Delivers the pending records, then stops; the callbacks are dropped."""
        return self._stop()

    def enable_domain(self, domain_name: str) -> MsptiResult | int:
        """Collects markers of ``domain_name`` again (all domains are collected by default)."""
        if not isinstance(domain_name, str) or not domain_name:
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        _library.ensure_loaded()
        return result(_mspti.enable_marker_domain(domain_name))

    def disable_domain(self, domain_name: str) -> MsptiResult | int:
        """Stops collecting markers of ``domain_name`` ("default" names the default domain)."""
        if not isinstance(domain_name, str) or not domain_name:
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        _library.ensure_loaded()
        return result(_mspti.disable_marker_domain(domain_name))
