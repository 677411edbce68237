"""``npu-sim bench``: the benchmarks of the simulator and of msPTI on it, shipped with the package.

Each benchmark module defines ``BENCHMARK`` (a :class:`sim_runtime.bench.core.Benchmark`); its C
programs are in ``programs/`` and are compiled at run time against the installed toolkit (a C
compiler is needed; ``launch_instructions`` also needs valgrind). Targets are in
``sim_runtime/data/bench_targets.toml``. How the figures are measured: docs/performance.md.
"""

from __future__ import annotations

from sim_runtime.bench import (
    hccl_all_reduce,
    launch_instructions,
    launch_rate,
    record_delivery,
    record_memory,
    trace_export,
    training_step,
)
from sim_runtime.bench.core import Benchmark

#: Every benchmark by name, in the order ``npu-sim bench`` runs them.
BENCHMARKS: dict[str, Benchmark] = {
    module.BENCHMARK.name: module.BENCHMARK
    for module in (
        launch_rate,
        launch_instructions,
        record_delivery,
        record_memory,
        trace_export,
        training_step,
        hccl_all_reduce,
    )
}

__all__ = ["BENCHMARKS", "Benchmark"]
