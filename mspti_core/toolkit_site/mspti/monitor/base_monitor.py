"""BaseMonitor, and the process-wide state all monitors share, as CANN's msPTI package has them.

CANN's package keeps, in its native module, one reference-counted msPTI session and one callback
slot per activity kind. Here the session is a reference to mspti_core's shared session
(``mspti_core.monitor.BaseMonitor.start_monitor``) and each slot is a :class:`Channel`: a running
mspti_core monitor whose callables hand every record to the monitor that holds the slot. What
follows from that design is kept:

* every ``start()`` takes a session reference and every ``stop()`` gives one back; the session
  ends with the last reference. Stopping with no reference held returns MSPTI_SUCCESS;
* a monitor started while another of its kind runs (or the same monitor started again) takes the
  kind over and returns MSPTI_SUCCESS: from then on records go to the newest callback only;
* ``stop()`` of any monitor of a kind ends collection of that kind for every monitor of it.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from mspti.constant import Constant, MsptiResult
from mspti.utils import print_error_msg
from mspti_core import _library
from mspti_core.data import to_dict
from mspti_core.monitor import BaseMonitor as CoreMonitor

__all__ = ["BaseMonitor", "Channel", "c_keyed"]

_UINT32 = 0xFFFFFFFF


def c_keyed(record: Any) -> dict[str, Any]:
    """An mspti_core record as the flat dict CANN's native module builds (C field names, numbers
    for enums, a marker's object id merged in)."""
    data = to_dict(record, c_names=True)
    object_id = data.pop("objectId", None)
    if isinstance(object_id, Mapping):
        data.update(object_id)
    return {key: int(value) if isinstance(value, int) else value for key, value in data.items()}


class _Session:
    """The reference-counted session (CANN's adapter Start/Stop)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.references = 0

    def start(self) -> int:
        _library.check_not_in_callback("started")
        with self._lock:
            if self.references == 0:
                code = int(CoreMonitor.start_monitor())
                if code != MsptiResult.MSPTI_SUCCESS.value:
                    return code  # CANN's adapter keeps the reference of a failed start; none is kept here
            self.references += 1
            return MsptiResult.MSPTI_SUCCESS.value

    def stop(self) -> int:
        _library.check_not_in_callback("stopped")
        with self._lock:
            if self.references == 0:
                return MsptiResult.MSPTI_SUCCESS.value
            self.references -= 1
            if self.references:
                return MsptiResult.MSPTI_SUCCESS.value
            return int(CoreMonitor.stop_monitor())


_SESSION = _Session()


class Channel:
    """One activity kind's callback slot (CANN's Register/Unregister<Kind>Callback).

    ``core_class`` is the mspti_core monitor that collects the kind; it is started with one callable
    per name in ``hooks``, each calling the method of that name on the monitor holding the slot.
    """

    def __init__(self, core_class: type[Any], *hooks: str) -> None:
        self._core_class = core_class
        self._hooks = hooks
        self._lock = threading.Lock()
        self._core: Any = None
        self.holder: object | None = None

    def _router(self, hook: str) -> Callable[[Any], None]:
        def route(record: Any) -> None:
            holder = self.holder
            if holder is not None:
                getattr(holder, hook)(record)

        return route

    def register(self, holder: object) -> int:
        """``holder`` receives the kind's records from now on; enables the kind if it is not."""
        with self._lock:
            self.holder = holder
            if self._core is not None:
                return MsptiResult.MSPTI_SUCCESS.value
            core = self._core_class()
            code = int(core.start(*(self._router(hook) for hook in self._hooks)))
            if code == MsptiResult.MSPTI_SUCCESS.value:
                self._core = core
            return code

    def unregister(self) -> int:
        """Delivers the kind's pending records to the holder, disables the kind and empties the slot."""
        with self._lock:
            core, self._core = self._core, None
            try:
                return int(core.stop()) if core is not None else MsptiResult.MSPTI_SUCCESS.value
            finally:
                self.holder = None


class BaseMonitor:
    """The class methods every monitor has: the shared session, flushing and the buffer size."""

    @classmethod
    def start_monitor(cls) -> MsptiResult:
        """Takes a reference to the shared session, opening it with the first one."""
        return MsptiResult(_SESSION.start())

    @classmethod
    def stop_monitor(cls) -> MsptiResult:
        """Gives a session reference back (the last one ends the session), then flushes.

        Errors, such as a call from inside a monitor callback, are printed and give MSPTI_ERROR_INNER.
        """
        try:
            result = MsptiResult(_SESSION.stop())
            if result is MsptiResult.MSPTI_SUCCESS:
                return MsptiResult(int(CoreMonitor.flush_all()))
            return result
        except Exception as error:
            print_error_msg(f"stopping the msPTI session failed: {error}")
            return MsptiResult.MSPTI_ERROR_INNER

    @classmethod
    def flush_all(cls) -> MsptiResult:
        """Delivers every pending record of every monitor before returning."""
        try:
            return MsptiResult(int(CoreMonitor.flush_all()))
        except Exception as error:
            print_error_msg(f"flush_all failed: {error}")
            return MsptiResult.MSPTI_ERROR_INNER

    @classmethod
    def flush_period(cls, time_ms: int) -> MsptiResult:
        """Has msPTI deliver buffers every ``time_ms`` ms (0: only when full or flushed).

        ``time_ms`` is taken as a C unsigned int, modulo 2**32; TypeError for a non-integer.
        """
        try:
            value = operator.index(time_ms)
        except TypeError:
            raise TypeError(f"flush_period takes an integer number of ms, not {time_ms!r}") from None
        return MsptiResult(int(CoreMonitor.flush_period(value & _UINT32)))

    @classmethod
    def set_buffer_size(cls, size: int) -> MsptiResult:
        """Size of each activity buffer in MB, 1..256, used from the next time the session opens.

        Anything else is printed and returns MSPTI_ERROR_INVALID_PARAMETER.
        """
        if not isinstance(size, int) or size <= 0:
            print_error_msg(f"invalid buffer size {size!r}: give a whole number of MB")
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        if size > Constant.MAX_BUFFER_SIZE:
            print_error_msg(f"buffer size {size} MB is above the limit of {Constant.MAX_BUFFER_SIZE} MB")
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        return MsptiResult(int(CoreMonitor.set_buffer_size(int(size))))


class SingleKindMonitor(BaseMonitor):
    """What KernelMonitor, HcclMonitor and CommunicationMonitor share: one callback, one kind."""

    _channel: ClassVar[Channel]
    _data_class: ClassVar[Callable[[Mapping[str, Any]], object]]
    _label: ClassVar[str]

    def __init__(self) -> None:
        super().__init__()
        self.user_cb: Callable[[Any], object] | None = None

    def _start(self, cb: Callable[[Any], object]) -> MsptiResult:
        if not callable(cb):
            print_error_msg(f"{self._label} callback is not callable: {cb!r}")
            return MsptiResult.MSPTI_ERROR_INVALID_PARAMETER
        result = BaseMonitor.start_monitor()
        if result is MsptiResult.MSPTI_SUCCESS:
            self.user_cb = cb
            return MsptiResult(self._channel.register(self))
        return result

    def stop(self) -> MsptiResult:
        """Gives the session reference back, then ends collection of the kind (for every monitor
        of it) after delivering its pending records."""
        result = BaseMonitor.stop_monitor()
        if result is MsptiResult.MSPTI_SUCCESS:
            result = MsptiResult(self._channel.unregister())
            self.user_cb = None
        return result

    def callback(self, origin_data: Mapping[str, Any]) -> None:
        """Hands one record (a dict keyed like the C record) to the user callback; an exception,
        also one building the data object, is printed and the record dropped."""
        try:
            if callable(self.user_cb):
                self.user_cb(self._data_class(origin_data))
        except Exception as error:
            print_error_msg(f"{self._label} callback failed: {error}")

    def _receive(self, record: Any) -> None:
        self.callback(c_keyed(record))
