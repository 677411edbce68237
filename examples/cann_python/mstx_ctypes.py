"""mstx through ctypes and `libms_tools_ext.so`, collected with `from mspti import MstxMonitor`.

CANN documents two ways for Python to emit mstx markers; this is the one that needs no framework:
`ctypes.CDLL("libms_tools_ext.so")`, found on LD_LIBRARY_PATH as set_env.sh sets it. The script
marks and opens ranges on the host, collects them with CANN's MstxMonitor, and checks that every
mark and range arrived with its message. Exits non-zero on any mismatch.

Run after `source <toolkit>/set_env.sh`:
    LD_PRELOAD=$ASCEND_HOME_PATH/lib64/libmspti.so python examples/cann_python/mstx_ctypes.py [N]
"""

from __future__ import annotations

import ctypes
import sys
import threading

from mspti import MarkerData, MsptiResult, MstxMonitor, RangeMarkerData

marks: list[MarkerData] = []
ranges: list[RangeMarkerData] = []
lock = threading.Lock()


def on_mark(data: MarkerData) -> None:
    with lock:
        marks.append(data)


def on_range(data: RangeMarkerData) -> None:
    with lock:
        ranges.append(data)


def load_mstx() -> ctypes.CDLL:
    lib = ctypes.CDLL("libms_tools_ext.so")
    lib.mstxMarkA.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    lib.mstxMarkA.restype = None
    lib.mstxRangeStartA.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    lib.mstxRangeStartA.restype = ctypes.c_uint64
    lib.mstxRangeEnd.argtypes = [ctypes.c_uint64]
    lib.mstxRangeEnd.restype = None
    return lib


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    lib = load_mstx()
    monitor = MstxMonitor()
    result = monitor.start(on_mark, on_range)
    if result is not MsptiResult.MSPTI_SUCCESS:
        print(f"MstxMonitor.start returned {result}")
        return 1
    for i in range(count):
        lib.mstxMarkA(f"mark {i}".encode(), None)
        range_id = lib.mstxRangeStartA(f"range {i}".encode(), None)
        lib.mstxRangeEnd(range_id)
    result = monitor.stop()
    mark_names = sorted(data.name for data in marks)
    range_names = sorted(data.name for data in ranges)
    print(f"stop: {result}; marks: {len(marks)}, ranges: {len(ranges)} (of {count} each)")
    ok = (
        result is MsptiResult.MSPTI_SUCCESS
        and mark_names == sorted(f"mark {i}" for i in range(count))
        and range_names == sorted(f"range {i}" for i in range(count))
        and all(data.end >= data.start for data in ranges)
    )
    print("mstx_ctypes: OK" if ok else f"mstx_ctypes: FAILED (marks {mark_names}, ranges {range_names})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
