"""Finding and loading the msPTI library (libmspti.so).

The bindings (``mspti_core._mspti``) do not link against msPTI: they load a library by path, so the
same package drives this project's msPTI on the simulator and the vendor's on Atlas hardware. The
library is chosen, first match wins, from:

1. the path given to :func:`load_library` (before the first monitor starts);
2. ``$MSPTI_CORE_LIBRARY``;
3. a ``libmspti.so`` already in the process, e.g. through ``LD_PRELOAD`` (two copies of msPTI in
   one process would not see each other's state, so a preloaded one always wins over 4-5);
4. ``lib64/libmspti.so`` beside this package (this project's msPTI, as installed);
5. ``$ASCEND_HOME_PATH/lib64/libmspti.so`` (a CANN install).
"""

from __future__ import annotations

import atexit
import os
import threading
from pathlib import Path
from typing import Any

from mspti_core import _mspti  # type: ignore[attr-defined]
from mspti_core.constant import Constant
from mspti_core.data import _native_types

__all__ = [
    "LibraryNotFoundError",
    "buffer_size",
    "candidate_paths",
    "check_not_in_callback",
    "ensure_loaded",
    "library_path",
    "load_library",
    "set_buffer_size",
    "start_native",
    "stop_native",
]

_PACKAGE_DIR = Path(__file__).resolve().parent
_lock = threading.Lock()


class LibraryNotFoundError(FileNotFoundError):
    """No msPTI library could be found; the message lists where it was looked for."""


def candidate_paths() -> list[tuple[str, Path]]:
    """Where a library would be looked for, in order, as (source, path); existing or not."""
    found: list[tuple[str, Path]] = []
    configured = os.environ.get(Constant.LIBRARY_ENV, "")
    if configured:
        found.append((f"${Constant.LIBRARY_ENV}", Path(configured)))
    loaded = _mspti.find_loaded()
    if loaded:
        found.append(("already loaded (LD_PRELOAD)", Path(loaded)))
    found.append(("mspti_core package", _PACKAGE_DIR / "lib64" / "libmspti.so"))
    ascend = os.environ.get("ASCEND_HOME_PATH", "")
    if ascend:
        found.append(("$ASCEND_HOME_PATH", Path(ascend) / "lib64" / "libmspti.so"))
    return found


def library_path() -> Path | None:
    """The path of the loaded library, or None before one is loaded."""
    loaded = _mspti.loaded_path()
    return Path(loaded) if loaded else None


def load_library(path: str | os.PathLike[str] | None = None) -> Path:
    """Loads the msPTI library (``path``, or the first of :func:`candidate_paths` that exists).

    Returns its path. Raises :class:`LibraryNotFoundError` when there is none, ``ValueError`` when
    the file is not a loadable msPTI library or another one is loaded already.
    """
    with _lock:
        if path is not None:
            chosen = Path(path)
            if not chosen.is_file():
                raise LibraryNotFoundError(f"msPTI library {chosen} does not exist")
        else:
            current = library_path()
            if current is not None:
                return current
            candidates = candidate_paths()
            existing = [p for source, p in candidates if p.is_file() or source.startswith("already")]
            if not existing:
                tried = "; ".join(f"{source}: {p}" for source, p in candidates)
                raise LibraryNotFoundError(
                    f"no msPTI library found (looked at {tried}); install mspti_core with its native "
                    f"libraries, set ${Constant.LIBRARY_ENV}, or run under `python -m mspti_core run`"
                )
            chosen = existing[0]
        error = _mspti.load(str(chosen))
        if error:
            raise ValueError(error)
        return Path(_mspti.loaded_path())


def ensure_loaded() -> Path:
    """The loaded library, loading the default one first if needed."""
    current = library_path()
    return current if current is not None else load_library()


def start_native(kinds: list[int], routes: list[tuple[int, Any]]) -> tuple[int, int]:
    """_mspti.start_monitor with its non-msPTI results turned into exceptions."""
    ensure_loaded()
    code, token = _mspti.start_monitor(kinds, routes)
    _raise_for(code, "started")
    return code, token


def stop_native(token: int, grace_ms: int) -> int:
    """_mspti.stop_monitor with its non-msPTI results turned into exceptions."""
    code = _mspti.stop_monitor(token, grace_ms)
    _raise_for(code, "stopped")
    return code


def check_not_in_callback(what: str) -> None:
    """Raises RuntimeError on the delivery thread: a monitor cannot start or stop from its callback
    (stopping waits for the callbacks to finish)."""
    if _mspti.in_callback():
        raise RuntimeError(f"a monitor cannot be {what} from inside a monitor callback")


def _raise_for(code: int, what: str) -> None:
    if code == _mspti.FROM_CALLBACK:
        raise RuntimeError(f"a monitor cannot be {what} from inside a monitor callback")
    if code == _mspti.NOT_READY:
        raise RuntimeError("mspti_core is not initialised: no msPTI library is loaded")


def set_buffer_size(megabytes: int) -> None:
    """Sets the size of each activity buffer (MB, 1..256, default 8) for all monitors.

    It takes effect when the shared session next opens (the first monitor starting after all had
    stopped). Raises ValueError for anything but an int in 1..256 (the size is then unchanged).
    """
    if not isinstance(megabytes, int):
        raise ValueError(f"the buffer size is a whole number of MB, 1..256, not {megabytes!r}")
    if not Constant.MIN_BUFFER_SIZE <= megabytes <= Constant.MAX_BUFFER_SIZE:
        raise ValueError(f"the buffer size must be 1..256 MB, not {megabytes}")
    _mspti.set_buffer_size(int(megabytes))


def buffer_size() -> int:
    """The buffer size (MB) the next session will use."""
    return int(_mspti.buffer_size())


_bind_error = _mspti.bind_types(_native_types())
if _bind_error:
    raise TypeError(f"mspti_core: {_bind_error}")
atexit.register(_mspti.shutdown)
