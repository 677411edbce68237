"""Writes the seed corpus of every fuzz target into fuzz/corpus/<config>/ (seed-*.bin).

Each seed is a well-formed input in its target's encoding (the decoders are in
fuzz/targets/*.cpp), chosen so a campaign starts from deep states: whole API sequences with a
workload, valid device records of every record layout, named reports. Run it again after changing
a decoder; campaigns may add their own units to the same folders (campaign.py --update-corpus).
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's mspti_base
from mspti_base.record_layouts import KIND_RECORD, record_size

CORPUS = Path(__file__).resolve().parent / "corpus"

# ---- record layouts (the record schema, mspti_base/record_layouts.toml): kind -> size -----------
#: Every activity kind with a record, in value order: a kind the schema gains is in every seed below.
RECORD_KINDS = tuple(sorted(KIND_RECORD))
RECORD_SIZES = {kind: record_size(kind) for kind in RECORD_KINDS}
#: The first kind past the schema's: no msPTI has a record of it.
UNKNOWN_KIND = RECORD_KINDS[-1] + 1


def record(kind: int) -> bytes:
    body = struct.pack("<i", kind) + bytes(range(1, RECORD_SIZES[kind] - 3))
    return body[: RECORD_SIZES[kind]]


def next_record_seeds() -> dict[str, bytes]:
    every = b"".join(record(k) for k in RECORD_KINDS)
    return {
        "all-kinds": b"\x00\x00" + every,
        "all-kinds-unaligned": b"\x03\x45" + every,
        "truncated-last": b"\x00\x80" + every[:-5],
        "unknown-kind-middle": b"\x00\x10"
        + record(7)
        + struct.pack("<i", UNKNOWN_KIND)
        + bytes(20)
        + record(8),
        "negative-kind": b"\x00\xc1" + struct.pack("<i", -1) + bytes(60),
        "kind-only": b"\x00\x00" + struct.pack("<i", 8),
        "empty": b"\x00\x00",
        "cursor-edge": b"\x00\x41" + record(9) + record(9),
        "cursor-outside": b"\x00\xc3" + record(5),
    }


# ---- api_calls: [mode] then (opcode, sel, arguments) per operation --------------------------------
(
    SUBSCRIBE,
    UNSUBSCRIBE,
    ENABLE_CALLBACK,
    ENABLE_DOMAIN,
    REGISTER,
    ENABLE,
    DISABLE,
    IS_ENABLED,
    ENABLE_MARKER_DOMAIN,
    DISABLE_MARKER_DOMAIN,
    BAD_NEXT_RECORD,
    FLUSH_ALL,
    FLUSH_PERIOD,
    PUSH,
    POP,
    DROPPED,
    RESULT_STRING,
    VERSION,
    TIMESTAMP,
    POLICY,
    MALLOC,
    FREE,
    MEMCPY,
    MEMSET,
    LAUNCH,
    SYNC,
    MARK,
    RANGE_START,
    RANGE_END,
    DOMAIN_CREATE,
    DOMAIN_MARK,
) = range(31)


def text(s: str) -> bytes:
    raw = s.encode("latin-1")
    assert len(raw) < 24
    return bytes([len(raw)]) + raw


def op(code: int, sel: int = 0, args: bytes = b"", thread: int = 0) -> bytes:
    return bytes([code | (thread << 7), sel]) + args


def kind_op(code: int, kind: int, thread: int = 0) -> bytes:
    return op(code, 0, bytes([kind]), thread)


def enable_all(thread: int = 0) -> bytes:
    return b"".join(kind_op(ENABLE, k, thread) for k in RECORD_KINDS)


def workload(thread: int = 0) -> bytes:
    t = thread
    return b"".join(
        [
            op(MALLOC, 0, struct.pack("<I", 512), t),
            op(MEMCPY, 0, bytes([1]) + struct.pack("<H", 256), t),  # H2D sync
            op(MEMCPY, 1, bytes([2]) + struct.pack("<H", 256), t),  # D2H async
            op(MEMCPY, 2, bytes([3]) + struct.pack("<H", 1024), t),  # D2D 2d
            op(MEMSET, 0, struct.pack("<iH", 7, 128), t),
            op(MEMSET, 1, struct.pack("<iH", -1, 4096), t),
            op(LAUNCH, 0, b"", t),
            op(MARK, 0, text("host-mark"), t),
            op(MARK, 1, text("device-mark"), t),
            op(RANGE_START, 0, text("range"), t),
            op(RANGE_END, 0, b"", t),
            op(DOMAIN_CREATE, 0, text("domain-a"), t),
            op(DOMAIN_MARK, 0, text("in-domain"), t),
            op(PUSH, 0, bytes([2]) + struct.pack("<Q", 77), t),
            op(MALLOC, 0, struct.pack("<I", 64), t),
            op(POP, 0, bytes([2]) + struct.pack("<Q", 0), t),
            op(FREE, 0, b"", t),
            op(SYNC, 0, b"", t),
            op(FREE, 0, b"", t),
        ]
    )


def api_call_seeds() -> dict[str, bytes]:
    session = op(SUBSCRIBE, 0) + op(ENABLE_DOMAIN, 1, bytes([1, 1])) + enable_all()
    return {
        "session": b"\x00" + session + workload() + op(FLUSH_ALL, 0, bytes(4)) + op(UNSUBSCRIBE, 0),
        "two-threads": b"\x01" + session + workload(0) + workload(1) + op(FLUSH_ALL, 0, bytes(4), 1),
        "two-threads-toggle": b"\x01"
        + session
        + b"".join(kind_op(DISABLE, k, 1) + kind_op(ENABLE, k, 1) for k in RECORD_KINDS)
        + workload(0),
        "declined-buffers": b"\x00" + session + op(POLICY, 0, struct.pack("<H", 2)) + workload(),
        "tiny-buffers": b"\x00" + session + op(POLICY, 0, struct.pack("<H", 3 | (5 << 3))) + workload(),
        "max-records": b"\x00" + session + op(POLICY, 0, struct.pack("<H", 4 | (1 << 3))) + workload(),
        "small-buffers": b"\x00" + session + op(POLICY, 0, struct.pack("<H", 1)) + workload() + workload(),
        "flush-period": b"\x00" + session + op(FLUSH_PERIOD, 0, bytes([1, 1])) + workload() + workload(),
        "no-subscriber": b"\x00" + enable_all() + workload(),
        "enum-sweep": b"\x00"
        + b"".join(
            kind_op(ENABLE, k, 0) + kind_op(IS_ENABLED, k) + kind_op(DROPPED, k)
            for k in (0, UNKNOWN_KIND, 0xE0)
        )
        + op(ENABLE_CALLBACK, 1, bytes([1, 0, 37, 1]))
        + op(ENABLE_CALLBACK, 1, bytes([2, 0, 13, 1]))
        + op(RESULT_STRING, 0, bytes([0xE1]))
        + op(PUSH, 0, bytes([0]) + bytes(8))
        + op(POP, 3, bytes([5]) + bytes(8)),
        "marker-domains": b"\x00"
        + session
        + op(DISABLE_MARKER_DOMAIN, 0, text("default"))
        + op(MARK, 0, text("suppressed"))
        + op(ENABLE_MARKER_DOMAIN, 0, text("default"))
        + op(DISABLE_MARKER_DOMAIN, 0, bytes([0xC2, ord("n")]))  # a 255-byte name
        + op(ENABLE_MARKER_DOMAIN, 7, text("x"))  # NULL name
        + op(MARK, 0, text("\xff\xfe-not-utf8")),
        "resubscribe": b"\x00"
        + (op(SUBSCRIBE, 0) + op(SUBSCRIBE, 0) + op(UNSUBSCRIBE, 2) + op(UNSUBSCRIBE, 0)) * 4,
    }


# ---- channel_bytes: [flags][short][launches][garble] then (length, bytes) chunks -------------------
def stars(func: int, stream: int, task: int, ts: int) -> bytes:
    head = (func & 0x3F) | (1 << 6)
    return struct.pack("<HHHHQHH", head, 0, stream, task, ts, 0, 0) + bytes(44)


def stars_v6(func: int, task: int, ts: int) -> bytes:
    return struct.pack("<HHIQHH", func & 0x3F, 0, task, ts, 0, 0) + bytes(12)


def ffts(func: int, stream: int, task: int, ts: int, sub: int) -> bytes:
    return struct.pack("<HHHHQHHHH", func, 0, stream, task, ts, 0, sub, 0, 0) + bytes(40)


def step_trace(rpt: int, stream: int, task: int, ts: int, index: int, tag: int = 11) -> bytes:
    return struct.pack("<BBH4xQQQHHHH", 0, rpt, 40, ts, index, 0x5A5A, stream, task, tag, 0)


def chunks(*parts: bytes) -> bytes:
    out = b""
    for part in parts:
        while part:
            piece, part = part[:255], part[255:]
            out += bytes([len(piece)]) + piece
    return out


def channel_seeds(v6: bool) -> dict[str, bytes]:
    pair = (
        (stars_v6(0, 7, 1000) + stars_v6(1, 7, 2000)) if v6 else (stars(0, 5, 7, 1000) + stars(1, 5, 7, 2000))
    )
    seeds = {
        "stars-pair": bytes([0, 0, 2, 1]) + chunks(pair),
        "stars-pair-short-reads": bytes([4, 13, 2, 1]) + chunks(pair * 3),
        "end-before-start": bytes([0, 0, 1, 1]) + chunks(pair[len(pair) // 2 :] + pair[: len(pair) // 2]),
        "unknown-functype": bytes([0, 0, 1, 1])
        + chunks(stars(0x3F, 1, 1, 1) if not v6 else stars_v6(0x3F, 1, 1)),
        "partial-record": bytes([0, 0, 1, 1]) + chunks(pair[:13]),
        "step-traces": bytes([1, 0, 2, 1])
        + chunks(
            step_trace(10, 3, 9, 500, 1) + step_trace(11, 3, 9, 600, 2) + step_trace(10, 3, 9, 700, 1, 3)
        ),
        "both-channels": bytes([2, 0, 3, 1]) + chunks(pair, step_trace(10, 0, 0, 10, 99)),
        "garbled-phase": bytes([16 | 8, 0, 4, 3]) + chunks(pair),
        "short-and-garbled": bytes([16 | 4, 1, 4, 1]) + chunks(pair),
    }
    if not v6:
        seeds["ffts-subtasks"] = bytes([0, 0, 1, 1]) + chunks(
            ffts(34, 5, 8, 100, 1) + ffts(35, 5, 8, 200, 1) + ffts(34, 5, 8, 150, 2) + ffts(35, 5, 8, 250, 2)
        )
        seeds["expanded-ids"] = bytes([0, 0, 1, 1]) + chunks(
            stars(0, 0x1005, 0xE007, 5) + stars(1, 0x2003, 7, 9)
        )
    return seeds


# ---- profapi_reports: [mode] then (opcode, aging, fields) per operation ---------------------------
REG, HASH, API, COMPACT, EVENT, ADDITIONAL, DEVICE, LAUNCH_K, FLUSH = range(9)
ACL, RUNTIME, NODE, HCCL_NODE = 0, 1, 2, 3  # Level() selectors


def name(index: int) -> bytes:  # Name(): dictionary entry
    return bytes([index])


def reg(level: int, type_index: int, name_index: int, api_base: bool = False) -> bytes:
    return bytes([REG, 0, level, 0, type_index, 1 if api_base else 0]) + name(name_index) + b"\x00"


def hash_of(name_index: int) -> bytes:
    return bytes([HASH, 0]) + name(name_index) + b"\x00"


def api(level: int, type_sel: int, item_sel: int) -> bytes:
    return bytes([API, 0, 0, level, type_sel, 0, 0, 0, 100, 0, 0, 50, 0, item_sel])


def task_track(stream: int, task: int, type_sel: int, item_sel: int) -> bytes:
    return bytes([COMPACT, 0, 0, 0, 0, 0, 0]) + struct.pack("<HI", stream, task) + bytes([type_sel, item_sel])


def profapi_seeds() -> dict[str, bytes]:
    names = reg(RUNTIME, 0, 0) + reg(ACL, 1, 4, True) + reg(NODE, 2, 4) + hash_of(4) + hash_of(5) + hash_of(6)
    reports = (
        api(ACL, 1, 0)
        + api(RUNTIME, 0, 0)
        + api(NODE, 2, 0)
        + task_track(3, 11, 0, 0)
        + bytes([LAUNCH_K, 0, FLUSH, 0])
    )
    hccl = (
        bytes([COMPACT, 0, 1, 0, 0, 0])
        + bytes([0, 4, 1])
        + bytes(8)
        + bytes([2])  # op info
        + bytes([API, 0, 0, HCCL_NODE, 5, 0, 0, 0, 10, 0, 0, 20, 0, 1])
        + bytes([API, 0, 0, NODE, 1, 0, 0, 0, 10, 0, 0, 20, 0, 2])
    )
    devices = b"".join(bytes([DEVICE, 0, sel, 1]) for sel in range(8)) + bytes(
        [DEVICE, 0, 0, 0, DEVICE, 0, 0, 1]
    )
    return {
        "named-reports": b"\x00" + names + reports,
        "two-threads": b"\x01" + names + reports + names + reports,
        "unnamed-reports": b"\x00" + api(ACL, 0xF0, 0xC0) + api(NODE, 0xF1, 0xC1) + api(RUNTIME, 3, 0xC2),
        "communication": b"\x00" + names + hccl + bytes([FLUSH, 0]),
        "device-states": b"\x00" + devices + bytes([LAUNCH_K, 0, FLUSH, 0]),
        "events-additional": b"\x00"
        + bytes([EVENT, 0, 0, 0])
        + bytes(8)
        + bytes([ADDITIONAL, 0, 1, 0])
        + bytes(40),
    }


def write(config: str, seeds: dict[str, bytes]) -> None:
    folder = CORPUS / config
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("seed-*.bin"):
        old.unlink()
    for label, data in seeds.items():
        (folder / f"seed-{label}.bin").write_bytes(data)
    print(f"{folder}: {len(seeds)} seeds")


def main() -> None:
    write("get_next_record", next_record_seeds())
    write("api_calls", api_call_seeds())
    write("channel_bytes", channel_seeds(v6=False))
    write("channel_bytes_v6", channel_seeds(v6=True))
    write("profapi_reports", profapi_seeds())


if __name__ == "__main__":
    main()
