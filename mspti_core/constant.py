"""Limits and defaults of the monitor package."""

from __future__ import annotations

__all__ = ["Constant"]


class Constant:
    #: Largest activity buffer, in MB (also the size of the whole buffer pool).
    MAX_BUFFER_SIZE = 256
    #: Smallest activity buffer, in MB.
    MIN_BUFFER_SIZE = 1
    #: Buffer size used until set_buffer_size is called, in MB.
    DEFAULT_BUFFER_SIZE = 8
    #: Seconds a stopping monitor waits between unsubscribing and flushing, for libraries whose
    #: msptiActivityFlushAll may return before device records arrive (libraries without this
    #: project's extensions; ours delivers device records within FlushAll and needs no wait).
    FLUSH_SLEEP_TIME = 0.05
    #: Environment variable naming the msPTI library to load (see mspti_core.load_library).
    LIBRARY_ENV = "MSPTI_CORE_LIBRARY"
