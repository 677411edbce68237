"""What every Python scenario driver uses: the log, the C driver as a library, the package under test.

Events written here (besides the C driver's): ``call`` with ``fn`` = the Python API called
(``KernelMonitor.start``), ``ret`` (an int, an enum member's value, or None), ``ret_type`` (the
returned object's type name), ``ret_enum`` (whether it is a member of the package's MsptiResult),
``exc`` (an exception it raised); ``pydata`` = one object handed to a callback (``cb`` = which
callback, ``cls``, ``data`` = its fields, ``tid``, ``main`` = on the main thread, ``gil`` =
PyGILState_Check()); ``note``.
"""

from __future__ import annotations

import ctypes
import dataclasses
import enum
import importlib
import importlib.util
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["Driver", "Recorder", "describe", "import_package"]


def describe(value: Any, depth: int = 0) -> Any:
    """A JSON-able picture of a value a package returned: enums keep their type and name."""
    if isinstance(value, enum.Enum):
        raw = value.value
        return {"enum": type(value).__name__, "name": value.name, "value": raw}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if depth > 3:
        return repr(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    elif hasattr(value, "__dict__"):
        fields = dict(vars(value))
    elif hasattr(value, "__slots__"):
        fields = {name: getattr(value, name) for name in value.__slots__ if hasattr(value, name)}
    else:
        return repr(value)
    picture = {name: describe(item, depth + 1) for name, item in fields.items() if not name.startswith("_")}
    picture["__class__"] = type(value).__name__
    return picture


def _gil_held() -> int:
    return int(ctypes.pythonapi.PyGILState_Check())


class Driver:
    """The C scenario driver, loaded into this process (its commands and its log)."""

    def __init__(self) -> None:
        path = os.environ["MSPTI_CONFORMANCE_DRIVER_LIB"]
        # Global scope: the driver resolves runtime functions with dlsym(RTLD_DEFAULT), as a linked
        # program would, so a preloaded msPTI still interposes them.
        self._lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        self._lib.conformance_driver_run.argtypes = [ctypes.c_char_p]
        self._lib.conformance_driver_emit.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        self._lib.conformance_driver_forked.argtypes = [ctypes.c_char_p]
        self._lib.conformance_driver_init()
        self.package: ModuleType | None = None

    def run(self, script: str) -> None:
        """Runs driver commands (conformance/workloads/driver.cpp) in this process; the GIL is released."""
        self._lib.conformance_driver_run(script.encode())

    def emit(self, event: str, **fields: Any) -> None:
        text = json.dumps(fields, default=repr)
        self._lib.conformance_driver_emit(event.encode(), text[1:-1].encode())

    def note(self, text: str) -> None:
        self.emit("note", text=text, t=time.time_ns())

    def call(self, label: str, fn: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Calls a package function and logs it (result, exception, time window, thread)."""
        t0 = time.time_ns()
        exc = None
        ret: Any = None
        try:
            ret = function(*args, **kwargs)
        except Exception as error:  # logged; the checker decides whether raising was allowed
            exc = f"{type(error).__name__}: {error}"
        t1 = time.time_ns()
        result_type = getattr(self.package, "MsptiResult", None)
        # The vendor's MsptiResult is a plain Enum (no int() of its members): log its value.
        number = ret.value if isinstance(ret, enum.Enum) else ret
        self.emit(
            "call",
            fn=fn,
            label=label,
            ret=int(number) if isinstance(number, int) else None,
            ret_type=type(ret).__name__,
            ret_enum=result_type is not None and isinstance(ret, result_type),
            exc=exc,
            args=[repr(a) for a in args],
            tid=threading.get_native_id(),
            t0=t0,
            t1=t1,
        )
        return ret

    def finish(self) -> None:
        self._lib.conformance_driver_finish()

    def forked(self, name: str) -> None:
        """In a forked child, first thing: its own log, ``$MSPTI_CONFORMANCE_LOG.NAME``."""
        self._lib.conformance_driver_forked(name.encode())


class Recorder:
    """A monitor callback that logs each object it receives (``raises``: then raises RuntimeError)."""

    def __init__(self, driver: Driver, name: str, raises: bool = False) -> None:
        self.driver = driver
        self.name = name
        self.raises = raises
        self.count = 0
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<callback {self.name}>"

    def __call__(self, data: Any) -> None:
        with self._lock:
            self.count += 1
            number = self.count
        self.driver.emit(
            "pydata",
            cb=self.name,
            n=number,
            cls=type(data).__name__,
            data=describe(data),
            tid=threading.get_native_id(),
            main=threading.current_thread() is threading.main_thread(),
            gil=_gil_held(),
            t=time.time_ns(),
        )
        if self.raises:
            raise RuntimeError(f"conformance probe: {self.name} callback raised on object {number}")


def import_package(driver: Driver) -> ModuleType | None:
    """Imports the package under test; logs ``py_import`` (ok or the error) and returns it or None."""
    name = os.environ.get("MSPTI_CONFORMANCE_PY_PACKAGE", "mspti_core")
    native = os.environ.get("MSPTI_CONFORMANCE_PY_NATIVE", "")
    try:
        if native:  # a build tree: the native module is not beside the package's sources
            spec = importlib.util.spec_from_file_location(f"{name}._mspti", native)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
        package = importlib.import_module(name)
    except Exception as error:  # logged for the checker (PY-IMPORT-01 fails with it)
        driver.emit("py_import", package=name, ok=False, error=f"{type(error).__name__}: {error}")
        return None
    driver.emit("py_import", package=name, ok=True, file=str(getattr(package, "__file__", "")))
    driver.package = package
    return package
