"""A small Python workload API over the simulated ACL runtime.

It stands in for ``torch_npu`` in examples and tests: devices, streams, device buffers,
events and kernels, each call going through the real exported ``aclrt*`` functions (so a
preloaded msPTI sees it exactly as it sees a C program). Errors raise :class:`AclError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import TracebackType

from sim_runtime import _native  # type: ignore[attr-defined]

_acl = _native.acl

MEMCPY_HOST_TO_DEVICE = 1
MEMCPY_DEVICE_TO_HOST = 2
MEMCPY_DEVICE_TO_DEVICE = 3
MAGIC_VECTOR_CORE = 0x41415246
MAGIC_CUBE_CORE = 0x41494343


class AclError(RuntimeError):
    """An ACL call returned a non-zero aclError."""

    def __init__(self, call: str, code: int) -> None:
        super().__init__(f"{call} failed with aclError {code}")
        self.call = call
        self.code = code


def check(call: str, code: int) -> None:
    if code != 0:
        raise AclError(call, code)


def device_count() -> int:
    code, n = _acl.get_device_count()
    check("aclrtGetDeviceCount", code)
    return int(n)


def soc_name() -> str:
    return str(_acl.get_soc_name())


@dataclass
class Device:
    """An opened device: ``aclrtSetDevice`` on entry, ``aclrtResetDevice`` on close."""

    index: int = 0
    _open: bool = field(default=False, init=False, repr=False)

    def __post_init__(self) -> None:
        check("aclrtSetDevice", _acl.set_device(self.index))
        self._open = True

    def synchronize(self) -> None:
        check("aclrtSynchronizeDevice", _acl.synchronize_device())

    def close(self) -> None:
        if self._open:
            self._open = False
            check("aclrtResetDevice", _acl.reset_device(self.index))

    def __enter__(self) -> Device:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class Stream:
    """A stream of the current device (``handle`` 0 is the default stream)."""

    def __init__(self, default: bool = False) -> None:
        self.handle = 0
        if not default:
            code, self.handle = _acl.create_stream()
            check("aclrtCreateStream", code)

    @property
    def id(self) -> int:
        code, sid = _acl.stream_get_id(self.handle)
        check("aclrtStreamGetId", code)
        return int(sid)

    def synchronize(self) -> None:
        check("aclrtSynchronizeStream", _acl.synchronize_stream(self.handle))

    def destroy(self) -> None:
        if self.handle:
            check("aclrtDestroyStream", _acl.destroy_stream(self.handle))
            self.handle = 0


class Buffer:
    """Device memory (``aclrtMalloc``), with host copies in and out."""

    def __init__(self, size: int) -> None:
        if size <= 0:
            raise ValueError(f"a device buffer needs a positive size, not {size}")
        code, self.ptr = _acl.malloc(size)
        check("aclrtMalloc", code)
        self.size = size

    def write(self, data: bytes) -> None:
        if len(data) > self.size:
            raise ValueError(f"{len(data)} bytes do not fit a {self.size}-byte buffer")
        check("aclrtMemcpy", _acl.write(self.ptr, bytes(data)))

    def read(self, count: int | None = None) -> bytes:
        code, data = _acl.read(self.ptr, self.size if count is None else count)
        check("aclrtMemcpy", code)
        return bytes(data)

    def copy_from(self, other: Buffer, stream: Stream | None = None) -> None:
        n = min(self.size, other.size)
        if stream is None:
            check("aclrtMemcpy", _acl.memcpy(self.ptr, self.size, other.ptr, n, MEMCPY_DEVICE_TO_DEVICE))
        else:
            code = _acl.memcpy_async(
                self.ptr, self.size, other.ptr, n, MEMCPY_DEVICE_TO_DEVICE, stream.handle
            )
            check("aclrtMemcpyAsync", code)

    def fill(self, value: int) -> None:
        check("aclrtMemset", _acl.memset(self.ptr, self.size, value, self.size))

    def free(self) -> None:
        if self.ptr:
            check("aclrtFree", _acl.free(self.ptr))
            self.ptr = 0


class Event:
    def __init__(self) -> None:
        code, self.handle = _acl.create_event()
        check("aclrtCreateEvent", code)

    def record(self, stream: Stream | None = None) -> None:
        check("aclrtRecordEvent", _acl.record_event(self.handle, stream.handle if stream else 0))

    def synchronize(self) -> None:
        check("aclrtSynchronizeEvent", _acl.synchronize_event(self.handle))

    def elapsed_ms(self, end: Event) -> float:
        code, ms = _acl.event_elapsed_ms(self.handle, end.handle)
        check("aclrtEventElapsedTime", code)
        return float(ms)

    def destroy(self) -> None:
        if self.handle:
            check("aclrtDestroyEvent", _acl.destroy_event(self.handle))
            self.handle = 0


class Kernel:
    """A kernel from an opaque binary; its cost comes from the simulator's kernel cost table."""

    def __init__(self, name: str, core: str = "AIV", binary: bytes = b"\x7fELF-sim-kernel") -> None:
        magic = {"AIV": MAGIC_VECTOR_CORE, "AIC": MAGIC_CUBE_CORE}.get(core)
        if magic is None:
            raise ValueError(f"core must be 'AIV' or 'AIC', not {core!r}")
        code, self.binary = _acl.binary_load(binary, magic)
        check("aclrtBinaryLoadFromData", code)
        code, self.function = _acl.binary_get_function(self.binary, name)
        check("aclrtBinaryGetFunction", code)
        self.name = name

    def launch(self, blocks: int = 1, stream: Stream | None = None, args: bytes = b"") -> None:
        check(
            "aclrtLaunchKernel",
            _acl.launch_kernel(self.function, blocks, stream.handle if stream else 0, args),
        )

    def launch_many(self, count: int, blocks: int = 1, stream: Stream | None = None) -> None:
        """Launches ``count`` times without returning to Python in between."""
        code = _acl.launch_kernels(self.function, blocks, stream.handle if stream else 0, count)
        check("aclrtLaunchKernel", code)
