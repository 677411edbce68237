"""A minimal process group over HCCL for the example: ``all_reduce`` on every rank of one process.

Ranks are threads (one device each), standing in for the processes ``torchrun`` would start. The
HCCL functions are taken from the process's global scope, as for a program linked against libhccl,
so the preloaded msPTI sees every call.
"""

from __future__ import annotations

import ctypes
import os

HCCL_DATA_TYPE_FP16 = 3
HCCL_REDUCE_SUM = 0


class _RootInfo(ctypes.Structure):
    _fields_ = [("internal", ctypes.c_char * 4108)]


class ProcessGroup:
    """An HCCL communicator of ``world_size`` ranks (``torch.distributed.init_process_group``)."""

    def __init__(self, world_size: int) -> None:
        home = os.environ.get("ASCEND_HOME_PATH", "")
        ctypes.CDLL(os.path.join(home, "lib64", "libhccl.so"), mode=ctypes.RTLD_GLOBAL)
        self._hccl = ctypes.CDLL(None)
        self.world_size = world_size
        self._root = _RootInfo()
        self._check("HcclGetRootInfo", self._hccl.HcclGetRootInfo(ctypes.byref(self._root)))
        self._comms: dict[int, ctypes.c_void_p] = {}

    def join(self, rank: int) -> None:
        """Called by each rank (on its device) to create its communicator; blocks until all joined."""
        comm = ctypes.c_void_p()
        code = self._hccl.HcclCommInitRootInfo(
            self.world_size, ctypes.byref(self._root), rank, ctypes.byref(comm)
        )
        self._check("HcclCommInitRootInfo", code)
        self._comms[rank] = comm

    def all_reduce(self, rank: int, buffer_ptr: int, count: int, stream_handle: int) -> None:
        """In-place fp16 sum over the ranks, queued on ``stream_handle``."""
        code = self._hccl.HcclAllReduce(
            ctypes.c_void_p(buffer_ptr),
            ctypes.c_void_p(buffer_ptr),
            ctypes.c_uint64(count),
            HCCL_DATA_TYPE_FP16,
            HCCL_REDUCE_SUM,
            self._comms[rank],
            ctypes.c_void_p(stream_handle),
        )
        self._check("HcclAllReduce", code)

    def leave(self, rank: int) -> None:
        self._hccl.HcclCommDestroy(self._comms.pop(rank))

    @staticmethod
    def _check(call: str, code: int) -> None:
        if code != 0:
            raise RuntimeError(f"{call} failed with HcclResult {code}")
