"""op_summary's Block Num: the blockDim each kernel was launched with (docs/msprof.md, "Block Num")."""

from __future__ import annotations

from sim_runtime.msprof.raw import Collection, RecordKey, record_key


def block_dims(collection: Collection) -> dict[RecordKey, int]:
    """Each kernel's Block Num by its record's key, as msprof takes it: the blockDim its task track
    reported (the runtime's MsprofKernelInfo, for every AI Core and AI Vector kernel, however it was
    launched: ``kernel_task``), which wins over the blockDim of the node basic info CANN reported with
    its node launch (same thread, the launch's end as its time; msprof's cann_trace_db_dumper.cpp
    ProcessRuntimeTrackInfo). A kernel with neither (an AI CPU kernel, or a collection made without
    the tasks) has none: N/A."""
    launches = {(a.tid, a.end): a.correlation for a in collection.apis if a.level == "node"}
    by_correlation: dict[int, int] = {}
    for info in collection.node_infos:
        correlation = launches.get((info.tid, info.time))
        if correlation is not None:
            by_correlation[correlation] = info.block_dim
    tracked = {t.record_key: t.block_dim for t in collection.kernel_tasks if t.block_dim}
    dims: dict[RecordKey, int] = {}
    for k in collection.kernels:
        key = record_key(k)
        block = tracked.get(key, by_correlation.get(k.correlation))
        if block is not None:
            dims[key] = block
    return dims
