"""Fakes of the simulated CANN functions, in the style of mockcpp, for tests in this process.

Every exported simulator function starts with a fault point; a fake installed here is consulted
there (on the fault point's slow path, so a process without fakes pays nothing)::

    from sim_runtime import fakes

    with fakes.scope():
        fakes.fake("prof_drv_start").will(returns=-1).times(1)     # any function with a fault point
        fakes.fake("halGetDeviceInfo").will(call=my_device_info)    # decoded functions: a callable
        fakes.expect("aclrtLaunchKernel").called(at_least=1).with_args(numBlocks=8)
        ...                                                         # expectations checked at exit

- ``will(returns=code)``: the call returns ``code`` without running the function.
- ``will(call=f)`` (decoded functions): ``f`` receives the arguments, decoded as the table
  ``data/fakes.toml`` says (ints, pointers as ints, buffers as bytes, structs as dataclasses), and
  returns an int (the call returns it without running the function), a :class:`Result` (a code and
  out-parameters to write) or None (the function runs; with ``returns=`` given, that code instead).
- ``will(outputs={...})`` (decoded functions): writes out-parameters, then returns ``returns``
  (default 0) without running the function.
- ``.after(k)`` lets the first ``k`` calls through; ``.times(n)`` acts on ``n`` calls, then lets
  the others through. ``.calls`` and ``.acted`` count the calls seen and acted on since the fake was
  installed or last changed.
- ``channel(device, channel_id).feed(data)`` hands the profiler device-log bytes, readable at once.
- ``report(kind, record)`` sends a profapi report as a CANN module would.

Threads. A callable runs on the thread that called the faked function, with the GIL taken. A C
thread (msPTI's channel reader, for instance) that calls a faked function waits for the GIL: a
Python thread must therefore not hold the GIL while it waits for such a thread. The simulator's
and mspti_core's bindings release the GIL around calls that may wait (launches, synchronisation,
flushes), and ctypes releases it around every foreign call; code calling other extensions that
wait on msPTI's threads must do the same. A callable may call any simulator function (the fake
registry's lock is not held while it runs).

In-process only: a process started with ``npu-sim run`` gets no fakes from its parent, and a forked
child starts with none (its copies of this module's objects no longer act).
"""

from __future__ import annotations

import atexit
import ctypes
import difflib
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, make_dataclass
from functools import cache
from pathlib import Path
from typing import Any

from sim_runtime import _native  # type: ignore[attr-defined]
from sim_runtime.faults import fault_point_names, nearest_fault_points

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = [
    "TABLE_PATH",
    "Call",
    "Channel",
    "Expectation",
    "Fake",
    "FakeError",
    "FunctionSpec",
    "Param",
    "Result",
    "channel",
    "decoded_functions",
    "doc_table",
    "expect",
    "fake",
    "fault_point_functions",
    "function_spec",
    "report",
    "reset",
    "scope",
    "stars_head",
    "struct_bytes",
    "struct_type",
    "verify",
]

TABLE_PATH = Path(__file__).resolve().parent / "data" / "fakes.toml"

PROF_OK = 0
REPORT_KINDS = {"api": "MsprofApi", "event": "MsprofEvent", "compact": "MsprofCompactInfo",
                "additional": "MsprofAdditionalInfo"}  # fmt: skip

_SCALARS: dict[str, tuple[int, bool]] = {  # bits, signed
    "i16": (16, True),
    "u16": (16, False),
    "i32": (32, True),
    "u32": (32, False),
    "i64": (64, True),
    "u64": (64, False),
}
_CTYPES: dict[str, type] = {
    "u8": ctypes.c_uint8,
    "i16": ctypes.c_int16,
    "u16": ctypes.c_uint16,
    "i32": ctypes.c_int32,
    "u32": ctypes.c_uint32,
    "i64": ctypes.c_int64,
    "u64": ctypes.c_uint64,
    "ptr": ctypes.c_void_p,
}


class FakeError(AssertionError):
    """An expectation not met, or a fake's callable that raised (reported at verification)."""


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # i16 u16 i32 u32 i64 u64 bool ptr cstr bytes in out outbuf
    ref: str = ""  # bytes/outbuf: the length parameter; in: the struct; out: the pointee type


@dataclass(frozen=True)
class FunctionSpec:
    name: str
    library: str
    params: tuple[Param, ...]


@dataclass(frozen=True)
class Call:
    """One call seen by an expectation: its number since installation and its decoded arguments."""

    function: str
    number: int
    args: dict[str, Any]

    def __str__(self) -> str:
        shown = ", ".join(f"{k}={_show(v)}" for k, v in self.args.items())
        return f"{self.function}({shown})"


@dataclass
class Result:
    """What a fake's callable returns to set out-parameters as well as the return code."""

    code: int = 0
    outputs: dict[str, Any] = field(default_factory=dict)


def _show(value: Any) -> str:
    if isinstance(value, bytes) and len(value) > 16:
        return f"<{len(value)} bytes {value[:16].hex()}...>"
    return repr(value)


def _parse_param(text: str, where: str) -> Param:
    name, _, kind = text.partition(":")
    base, _, ref = kind.partition("=")
    known = {*_SCALARS, "bool", "ptr", "cstr", "bytes", "in", "out", "outbuf"}
    if not name or base not in known or (base in {"bytes", "in", "out", "outbuf"}) != bool(ref):
        raise ValueError(f"{TABLE_PATH.name}: {where}: bad parameter {text!r}")
    return Param(name, base, ref)


@cache
def _table() -> tuple[dict[str, FunctionSpec], dict[str, dict[str, Any]]]:
    data = tomllib.loads(TABLE_PATH.read_text())
    structs: dict[str, dict[str, Any]] = dict(data.get("structs", {}))
    functions: dict[str, FunctionSpec] = {}
    for name, entry in data.get("functions", {}).items():
        params = tuple(_parse_param(p, name) for p in entry["params"])
        names = {p.name for p in params}
        for p in params:
            if p.kind in {"bytes", "outbuf"} and p.ref not in names:
                raise ValueError(f"{TABLE_PATH.name}: {name}: {p.name} names no length parameter {p.ref!r}")
            if p.kind == "in" and p.ref not in structs:
                raise ValueError(f"{TABLE_PATH.name}: {name}: {p.name} names no struct {p.ref!r}")
        functions[name] = FunctionSpec(name, str(entry["library"]), params)
    return functions, structs


@cache
def _struct_classes(name: str) -> tuple[type[ctypes.Structure], type]:
    _, structs = _table()
    if name not in structs:
        raise ValueError(f"unknown struct {name!r}; known: {', '.join(sorted(structs))}")
    entry = structs[name]
    c_fields: list[tuple[str, Any]] = []
    for spec in entry["fields"]:
        fname, _, ftype = spec.partition(":")
        if ftype.startswith("bytes"):
            c_fields.append((fname, ctypes.c_uint8 * int(ftype[5:])))
        else:
            c_fields.append((fname, _CTYPES[ftype]))
    c_type = type(name, (ctypes.Structure,), {"_fields_": c_fields})
    if ctypes.sizeof(c_type) != int(entry["size"]):
        raise ValueError(
            f"{TABLE_PATH.name}: struct {name} is {ctypes.sizeof(c_type)} bytes, not {entry['size']}"
        )
    defaults: list[tuple[str, type, Any]] = []
    for spec in entry["fields"]:
        fname, _, ftype = spec.partition(":")
        is_bytes = ftype.startswith("bytes")
        defaults.append((fname, bytes if is_bytes else int, field(default=b"" if is_bytes else 0)))
    py_type = make_dataclass(name, defaults)
    py_type.__module__ = __name__
    return c_type, py_type


def struct_type(name: str) -> type:
    """The dataclass of a struct of the table (MsprofApi, MsprofCompactInfo, prof_start_para, ...)."""
    return _struct_classes(name)[1]


def _struct_from_address(name: str, address: int) -> Any:
    c_type, py_type = _struct_classes(name)
    raw = c_type.from_buffer_copy(ctypes.string_at(address, ctypes.sizeof(c_type)))
    values = {}
    for fname, _ in c_type._fields_:
        value = getattr(raw, fname)
        if isinstance(value, ctypes.Array):
            value = bytes(value)
        elif value is None:  # a NULL c_void_p
            value = 0
        values[fname] = value
    return py_type(**values)


def struct_bytes(record: Any) -> bytes:
    """The C bytes of a struct dataclass made by :func:`struct_type` (bytes fields zero-padded)."""
    c_type, _ = _struct_classes(type(record).__name__)
    raw = c_type()
    for f in fields(record):
        value = getattr(record, f.name)
        if isinstance(value, bytes):
            size = getattr(c_type, f.name).size
            if len(value) > size:
                raise ValueError(f"{type(record).__name__}.{f.name}: {len(value)} bytes, at most {size}")
            ctypes.memmove(ctypes.addressof(raw) + getattr(c_type, f.name).offset, value, len(value))
        else:
            setattr(raw, f.name, value)
    return ctypes.string_at(ctypes.addressof(raw), ctypes.sizeof(c_type))


STARS_FUNC_TYPE_BEGIN = 0
STARS_FUNC_TYPE_END = 1


def stars_head(func_type: int, task_type: int = 0, cnt: int = 0) -> int:
    """The header word of a STARS log (bits 0-5 funcType, 6-9 cnt, 10-15 taskType; device_log.h)."""
    return (func_type & 0x3F) | ((cnt & 0xF) << 6) | ((task_type & 0x3F) << 10)


def decoded_functions() -> list[str]:
    """The functions whose fakes see their arguments (the table's, as built into the simulator)."""
    return sorted(_table()[0])


def fault_point_functions() -> list[str]:
    """Every exported simulator function with a fault point: the names :func:`fake` accepts."""
    return sorted(fault_point_names())


def function_spec(name: str) -> FunctionSpec:
    _check_name(name)
    spec = _table()[0].get(name)
    if spec is None:
        close = difflib.get_close_matches(name, decoded_functions(), n=5)
        hint = f"; decoded functions close to it: {', '.join(close)}" if close else ""
        raise ValueError(f"{name} is not a decoded function (see docs/fakes.md){hint}")
    return spec


def _check_name(name: str) -> None:
    if name not in fault_point_names():
        close = nearest_fault_points(name)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"{name!r} is not an exported simulator function with a fault point{hint}")


def _signed(word: int, bits: int) -> int:
    word &= (1 << bits) - 1
    return word - (1 << bits) if word >= 1 << (bits - 1) else word


def _decode(spec: FunctionSpec, words: list[int]) -> dict[str, Any]:
    raw = {p.name: w for p, w in zip(spec.params, words, strict=False)}
    out: dict[str, Any] = {}
    for p in spec.params:
        word = raw.get(p.name, 0)
        if p.kind in _SCALARS:
            bits, signed = _SCALARS[p.kind]
            out[p.name] = _signed(word, bits) if signed else word & ((1 << bits) - 1)
        elif p.kind == "bool":
            out[p.name] = bool(word)
        elif p.kind in {"ptr", "out", "outbuf"}:
            out[p.name] = word
        elif p.kind == "cstr":
            out[p.name] = ctypes.string_at(word).decode(errors="replace") if word else None
        elif p.kind == "bytes":
            length = raw.get(p.ref, 0) & 0xFFFFFFFFFFFFFFFF
            out[p.name] = ctypes.string_at(word, length) if word and length else (b"" if word else None)
        elif p.kind == "in":
            out[p.name] = _struct_from_address(p.ref, word) if word else None
    return out


def _write_outputs(spec: FunctionSpec, args: dict[str, Any], outputs: dict[str, Any]) -> None:
    params = {p.name: p for p in spec.params}
    for name, value in outputs.items():
        p = params[name]
        address = args[name]
        if not address:
            continue  # the caller passed NULL: nothing to write (the real function would refuse it)
        if p.kind == "out":
            _CTYPES[p.ref].from_address(address).value = value
        else:  # outbuf
            data = bytes(value)
            ctypes.memmove(address, data, min(len(data), int(args[p.ref])))


def _check_outputs(spec: FunctionSpec, outputs: dict[str, Any]) -> None:
    writable = {p.name for p in spec.params if p.kind in {"out", "outbuf"}}
    bad = sorted(set(outputs) - writable)
    if bad:
        raise ValueError(
            f"{spec.name}: {', '.join(bad)} not out-parameters; "
            f"out-parameters: {', '.join(sorted(writable)) or 'none'}"
        )


class Fake:
    """The fake of one function (made by :func:`fake`; configure it before the calls it is for)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._returns: int | None = None
        self._call: Callable[..., Any] | None = None
        self._outputs: dict[str, Any] = {}
        self._after = 0
        self._times = 0
        self._id = 0

    def will(
        self,
        *,
        returns: int | None = None,
        call: Callable[..., Any] | None = None,
        outputs: dict[str, Any] | None = None,
    ) -> Fake:
        if returns is None and call is None and outputs is None:
            raise ValueError(f"{self.name}: will() needs returns=, call= or outputs=")
        if call is not None or outputs:
            spec = function_spec(self.name)  # raises for functions that are not decoded
            if outputs:
                _check_outputs(spec, outputs)
        if returns is not None and not isinstance(returns, int):
            raise ValueError(f"{self.name}: returns= must be an int, not {type(returns).__name__}")
        self._returns = returns if returns is not None else (0 if outputs and call is None else None)
        self._call = call
        self._outputs = dict(outputs or {})
        _STATE.sync(self.name)
        return self

    def times(self, n: int) -> Fake:
        if n < 1:
            raise ValueError(f"{self.name}: times({n}): n must be at least 1")
        self._times = n
        _STATE.sync(self.name)
        return self

    def after(self, k: int) -> Fake:
        if k < 0:
            raise ValueError(f"{self.name}: after({k}): k must be at least 0")
        self._after = k
        _STATE.sync(self.name)
        return self

    @property
    def calls(self) -> int:
        """Calls of the function since this fake was installed (or last changed)."""
        return int(_native.fake_counts(self.name)[1])

    @property
    def acted(self) -> int:
        """Calls this fake's behaviour applied to."""
        return int(_native.fake_counts(self.name)[2])

    def remove(self) -> None:
        _STATE.remove_fake(self.name)

    @property
    def _hooked(self) -> bool:
        return self._call is not None or bool(self._outputs)

    def _run(self, spec: FunctionSpec | None, args: dict[str, Any]) -> int | None:
        """An acted-on call: the code to return, or None to run the function."""
        code = self._returns
        outputs = dict(self._outputs)
        if self._call is not None and spec is not None:
            got = self._call(*args.values())
            if isinstance(got, Result):
                code = got.code
                _check_outputs(spec, got.outputs)
                outputs.update(got.outputs)
            elif isinstance(got, bool) or not (got is None or isinstance(got, int)):
                raise TypeError(
                    f"{self.name}: the fake's callable returned {got!r}, not an int, a Result or None"
                )
            elif got is not None:
                code = got
        if outputs and spec is not None:
            _write_outputs(spec, args, outputs)
        return code


class Expectation:
    """``expect(name).called(at_least=1).with_args(...)``: checked by :func:`verify` (scope exit)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.at_least = 1
        self.at_most: int | None = None
        self.match: dict[str, Any] = {}
        self.seen: list[Call] = []

    def called(
        self, *, at_least: int | None = None, at_most: int | None = None, exactly: int | None = None
    ) -> Expectation:
        if exactly is not None:
            at_least = at_most = exactly
        self.at_least = 0 if at_least is None else at_least
        self.at_most = at_most
        return self

    def with_args(self, **match: Any) -> Expectation:
        """Counts only calls whose arguments equal the values given (or satisfy them, for callables)."""
        spec = function_spec(self.name)
        unknown = sorted(set(match) - {p.name for p in spec.params})
        if unknown:
            raise ValueError(
                f"{self.name}: no parameter {', '.join(unknown)}; "
                f"parameters: {', '.join(p.name for p in spec.params)}"
            )
        self.match = dict(match)
        return self

    def _matches(self, call: Call) -> bool:
        for name, want in self.match.items():
            got = call.args.get(name)
            if callable(want) and not isinstance(want, type):
                if not want(got):
                    return False
            elif got != want:
                return False
        return True

    def describe(self) -> str:
        bounds = f"at_least={self.at_least}" + (
            f", at_most={self.at_most}" if self.at_most is not None else ""
        )
        text = f"expect({self.name!r}).called({bounds})"
        if self.match:
            text += ".with_args(" + ", ".join(f"{k}={_show(v)}" for k, v in self.match.items()) + ")"
        return text

    def failure(self) -> str | None:
        matching = [c for c in self.seen if self._matches(c)]
        n = len(matching)
        if n >= self.at_least and (self.at_most is None or n <= self.at_most):
            return None
        shown = "\n".join(f"    #{c.number} {c}" for c in self.seen[:20])
        more = f"\n    ... and {len(self.seen) - 20} more" if len(self.seen) > 20 else ""
        return f"{self.describe()} not met: {n} matching call(s) of {len(self.seen)} seen" + (
            f":\n{shown}{more}" if self.seen else ""
        )


class Channel:
    """A device's profiling channel, to feed device logs to the profiler."""

    def __init__(self, device: int, channel_id: int) -> None:
        self.device = device
        self.channel_id = channel_id

    def feed(self, data: bytes) -> None:
        """Makes ``data`` readable at once, as it is (any length; a partial or malformed log too)."""
        if _native.channel_feed(self.device, self.channel_id, bytes(data)) != PROF_OK:
            raise ValueError(
                f"cannot feed device {self.device} channel {self.channel_id}: the simulator offers "
                "channels 44 and 50 of each configured device, and holds at most 64 MiB unread on each"
            )


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.fakes: dict[str, Fake] = {}
        self.expectations: dict[str, list[Expectation]] = {}
        self.errors: list[str] = []
        self.dispatcher_set = False

    def sync(self, name: str) -> None:
        with self.lock:
            fake_ = self.fakes.get(name)
            observe = bool(self.expectations.get(name))
        if not self.dispatcher_set:
            _native.fake_set_dispatcher(_dispatch)
            self.dispatcher_set = True
        if fake_ is None and not observe:
            _native.fake_remove(name)
            return
        hooked = fake_ is not None and fake_._hooked
        returns = fake_._returns if fake_ is not None else None
        fid = _native.fake_install(
            name,
            returns is not None,
            returns or 0,
            hooked,
            observe,
            fake_._after if fake_ is not None else 0,
            fake_._times if fake_ is not None else 0,
        )
        if fake_ is not None:
            fake_._id = fid

    def remove_fake(self, name: str) -> None:
        with self.lock:
            self.fakes.pop(name, None)
        self.sync(name)

    def dispatch(self, function: str, acting: bool, number: int, words: list[int]) -> int | None:
        with self.lock:
            fake_ = self.fakes.get(function)
            expectations = list(self.expectations.get(function, ()))
        spec = _table()[0].get(function)
        try:
            if spec is not None and len(words) != len(spec.params):
                raise ValueError(
                    f"{TABLE_PATH.name} gives {len(spec.params)} parameters, "
                    f"its fault point passes {len(words)}"
                )
            args = _decode(spec, words) if spec is not None else {}
            if expectations:
                call = Call(function, number, args)
                for e in expectations:
                    e.seen.append(call)
            if acting and fake_ is not None:
                return fake_._run(spec, args)
        except Exception as exc:  # reported at verification; the call itself runs on
            with self.lock:
                self.errors.append(f"{function} call #{number}: the fake raised {exc!r}")
        return None


_STATE = _State()


def _dispatch(function: str, fake_id: int, number: int, acting: bool, words: list[int]) -> int | None:
    return _STATE.dispatch(function, acting, number, words)


def fake(name: str) -> Fake:
    """The fake of ``name`` (installed on first configuration); ValueError for an unknown name."""
    _check_name(name)
    with _STATE.lock:
        existing = _STATE.fakes.get(name)
        if existing is None:
            existing = _STATE.fakes[name] = Fake(name)
    return existing


def expect(name: str) -> Expectation:
    """An expectation on ``name``'s calls from now on (decoded functions record their arguments)."""
    _check_name(name)
    e = Expectation(name)
    with _STATE.lock:
        _STATE.expectations.setdefault(name, []).append(e)
    _STATE.sync(name)
    return e


def channel(device: int, channel_id: int) -> Channel:
    return Channel(device, channel_id)


def report(kind: str, record: Any, aging: int = 1) -> int:
    """Sends a profapi report (``api``, ``event``, ``compact`` or ``additional``) as a CANN module
    would, through libprofapi; ``record`` is the struct's dataclass (:func:`struct_type`) or its
    bytes. Returns libprofapi's result (0, or PROFAPI_ERROR = 5 for a compact/additional report
    of the wrong length)."""
    if kind not in REPORT_KINDS:
        raise ValueError(f"unknown report kind {kind!r}; kinds: {', '.join(REPORT_KINDS)}")
    data = record if isinstance(record, bytes) else struct_bytes(record)
    if not isinstance(record, bytes) and type(record).__name__ != REPORT_KINDS[kind]:
        raise ValueError(f"report kind {kind!r} takes a {REPORT_KINDS[kind]}, not a {type(record).__name__}")
    result = int(_native.report_bytes(kind, aging, data))
    if result == -1:
        size = ctypes.sizeof(_struct_classes(REPORT_KINDS[kind])[0])
        raise ValueError(
            f"report kind {kind!r} takes a {REPORT_KINDS[kind]} of {size} bytes, not {len(data)}"
        )
    return result


def verify() -> None:
    """Raises :class:`FakeError` naming every expectation not met (with the calls seen) and every
    exception a fake's callable raised."""
    with _STATE.lock:
        problems = list(_STATE.errors)
        expectations = [e for es in _STATE.expectations.values() for e in es]
    problems += [msg for e in expectations if (msg := e.failure()) is not None]
    if problems:
        raise FakeError("\n".join(problems))


def reset() -> None:
    """Removes every fake and expectation (and forgets the callables' errors)."""
    with _STATE.lock:
        _STATE.fakes.clear()
        _STATE.expectations.clear()
        _STATE.errors.clear()
    _native.fake_clear()


@contextmanager
def scope() -> Iterator[None]:
    """Fakes and expectations for the block: it starts with none (earlier ones are removed), they
    are verified at its end (unless the block raised), then removed."""
    reset()
    try:
        yield
        verify()
    finally:
        reset()


def doc_table() -> str:
    """The Markdown table of the decoded functions, as docs/fakes.md shows it."""
    rows = ["| function | library | parameters (name: how a fake sees it) |", "| --- | --- | --- |"]
    for spec in _table()[0].values():
        params = ", ".join(f"`{p.name}: {p.kind}{'=' + p.ref if p.ref else ''}`" for p in spec.params)
        rows.append(f"| `{spec.name}` | lib{spec.library} | {params} |")
    return "\n".join(rows) + "\n"


@atexit.register
def _at_exit() -> None:
    # No Python callable may run once the interpreter is finalising.
    _native.fake_clear()
    _native.fake_set_dispatcher(None)


if __name__ == "__main__":
    if sys.argv[1:] == ["--doc-table"]:
        sys.stdout.write(doc_table())
        raise SystemExit(0)
    sys.stderr.write("usage: python -m sim_runtime.fakes --doc-table\n")
    raise SystemExit(2)
