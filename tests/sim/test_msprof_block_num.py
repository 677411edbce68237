"""op_summary's Block Num from the raw data (sim_runtime/msprof/block_num.py, docs/msprof.md "Block Num"):
the blockDim of a kernel's task track, else the node basic info of its node launch, as msprof takes it."""

from __future__ import annotations

from pathlib import Path

from sim_runtime.msprof import raw
from sim_runtime.msprof.block_num import block_dims
from support.msprof_collections import synthetic_collection

BASE = 1_780_000_000_000_000_000


def kernel(i: int) -> dict[str, object]:
    t = BASE + i * 100_000
    return {"kind": "kernel", "start": t + 20_000, "end": t + 45_000, "device": 0, "stream": 3,
            "correlation": i + 1, "type": "KERNEL_AICORE", "name": f"k{i}"}  # fmt: skip


def node(i: int, block_dim: int) -> list[dict[str, object]]:
    """Kernel i's node launch and its basic info (same thread, the launch's end)."""
    t = BASE + i * 100_000
    return [
        {"kind": "node_api", "start": t + 1_000, "end": t + 8_000, "pid": 7, "tid": 70, "correlation": i + 1,
         "name": f"aclnnK_K_K{i}"},
        {"kind": "node_info", "start": t + 8_000, "end": t + 8_000, "tid": 70, "block_dim": block_dim,
         "task_type": 0},
    ]  # fmt: skip


def task(i: int, block_dim: int | None) -> dict[str, object]:
    """Kernel i's task line; without `block_dim` as a collection made before the field was written."""
    k = kernel(i)
    line = {"kind": "kernel_task", **{f: k[f] for f in ("start", "end", "device", "stream", "correlation")},
            "task": i, "start_count": i * 10, "end_count": i * 10 + 5}  # fmt: skip
    if block_dim is not None:
        line["block_dim"] = block_dim
    return line


def test_the_tracks_block_dim_wins_over_the_nodes_and_either_alone_is_taken(tmp_path: Path) -> None:
    records = [
        kernel(0), *node(0, 24), task(0, 20),  # both: the track's, as msprof's ProcessRuntimeTrackInfo
        kernel(1), *node(1, 5), task(1, 0),  # a track without one (0): the node's
        kernel(2), task(2, 7),  # launched alone: the track's
        kernel(3), task(3, 0),  # neither (an AI CPU kernel launched alone): none
        kernel(4), *node(4, 3), task(4, None),  # an older collection's task line: the node's
    ]  # fmt: skip
    collection = raw.load(synthetic_collection(tmp_path, records))
    assert [t.block_dim for t in collection.kernel_tasks] == [20, 0, 7, 0, 0]
    dims = block_dims(collection)
    assert [dims.get(raw.record_key(k)) for k in collection.kernels] == [20, 5, 7, None, 3]
