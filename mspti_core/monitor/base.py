"""What every monitor shares: one msPTI subscription, one buffer pool, one buffer size.

The first monitor that starts subscribes to msPTI and registers the buffer callbacks; the last one
that stops unsubscribes. Monitors of different kinds run side by side; two monitors of the same
kind both receive every record of that kind.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from mspti_core import _library, _mspti  # type: ignore[attr-defined]
from mspti_core.constant import Constant
from mspti_core.enums import MsptiResult, result

__all__ = ["BaseMonitor"]

Route = tuple[int, Callable[[Any], object]]


class BaseMonitor:
    """Start/stop plumbing and the class methods shared by all monitors."""

    _session_tokens: ClassVar[list[int]] = []
    _session_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self._token: int | None = None
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        """Whether this monitor has been started and not stopped."""
        return self._token is not None

    # ---- for subclasses ----

    def _start(self, kinds: Sequence[int], routes: Sequence[Route]) -> MsptiResult | int:
        _library.check_not_in_callback("started")
        with self._lock:
            if self._token is not None:
                return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER  # already started
            code, token = _library.start_native([int(k) for k in kinds], [(int(r), cb) for r, cb in routes])
            if code == MsptiResult.MSPTI_SUCCESS:
                self._token = token
            return result(code)

    def _stop(self) -> MsptiResult | int:
        _library.check_not_in_callback("stopped")
        with self._lock:
            if _mspti.loaded_path() is None:
                self._token = None
                return MsptiResult.MSPTI_SUCCESS
            code = _library.stop_native(self._token or 0, _grace_ms())  # raises inside a callback
            self._token = None
            return result(code)

    # ---- class methods: the shared session ----

    @classmethod
    def flush_all(cls) -> MsptiResult | int:
        """Delivers every pending record of every monitor before returning."""
        if _mspti.loaded_path() is None:
            return MsptiResult.MSPTI_SUCCESS
        return result(_mspti.flush_all())

    @classmethod
    def flush_period(cls, time_ms: int) -> MsptiResult | int:
        """Has msPTI deliver buffers every ``time_ms`` milliseconds (0: only when full or flushed)."""
        if not isinstance(time_ms, int) or isinstance(time_ms, bool) or not 0 <= time_ms <= 0xFFFFFFFF:
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        _library.ensure_loaded()
        return result(_mspti.flush_period(time_ms))

    @classmethod
    def set_buffer_size(cls, size: int) -> MsptiResult:
        """Size of each activity buffer in MB (1..256, default 8), for all monitors.

        It applies from the next time the shared session opens (the first monitor starting after
        all were stopped). Invalid sizes leave the size unchanged and return INVALID_PARAMETER.
        """
        try:
            _library.set_buffer_size(size)
        except ValueError:
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        return MsptiResult.MSPTI_SUCCESS

    @classmethod
    def start_monitor(cls) -> MsptiResult | int:
        """Joins the shared session without collecting anything (balanced by :meth:`stop_monitor`)."""
        code, token = _library.start_native([], [])
        if code == MsptiResult.MSPTI_SUCCESS:
            with cls._session_lock:
                BaseMonitor._session_tokens.append(token)
        return result(code)

    @classmethod
    def stop_monitor(cls) -> MsptiResult | int:
        """Leaves the shared session joined by :meth:`start_monitor`."""
        with cls._session_lock:
            token = BaseMonitor._session_tokens.pop() if BaseMonitor._session_tokens else 0
        if _mspti.loaded_path() is None:
            return MsptiResult.MSPTI_SUCCESS
        try:
            return result(_library.stop_native(token, _grace_ms()))
        except RuntimeError:
            if token:
                with cls._session_lock:
                    BaseMonitor._session_tokens.append(token)
            raise


def _grace_ms() -> int:
    """How long a stop waits after unsubscribing before it flushes (see Constant.FLUSH_SLEEP_TIME)."""
    return 0 if _mspti.has_extensions() else int(Constant.FLUSH_SLEEP_TIME * 1000)
