"""Names shared by the emitter and the validator: file names, keys and enumerations."""

from __future__ import annotations

__all__ = [
    "ANALYSIS_SCHEMA_VERSION",
    "COUNTER_KEYS",
    "FREQ_BASES",
    "GRAPH_FILE",
    "GRAPH_SCHEMA",
    "METRIC_SCOPES",
    "NODE_KINDS",
    "PERF_KEYS",
    "TIMELINE_KEYS",
    "facts_paths",
]

ANALYSIS_SCHEMA_VERSION = "2.1-ui"
GRAPH_SCHEMA = "model_architecture_graph.v1"
GRAPH_FILE = "model_architecture_graph.json"

#: Every perf data record carries every one of these keys; null means "not measured".
PERF_KEYS: tuple[str, ...] = (
    "node_id",
    "module",
    "metric_scope",
    "time_us",
    "time_pct",
    "nops",
    "hbm_mb",
    "gflops",
    "mfu_bf16_pct",
    "mfu_int8_pct",
    "aicore_time_us",
    "aiv_time_us",
    "aicore_time_pct",
    "mac_ratio",
    "mte2_ratio",
    "mte1_ratio",
    "scalar_ratio",
    "fixpipe_ratio",
    "vec_ratio",
    "aiv_mte2_ratio",
    "cube_utilization_pct",
    "aic_total_cycles",
    "aiv_total_cycles",
    "aicore_cycle_time_us",
    "aiv_cycle_time_us",
    "counter_coverage",
    "op_ratio",
    "instance_indices",
    "code_ref",
    "kernel_scope_note",
    "sampled_window_span_us",
)
#: Keys of hardware counters (never measured by msPTI activity records).
COUNTER_KEYS: tuple[str, ...] = (
    "mac_ratio",
    "mte2_ratio",
    "mte1_ratio",
    "scalar_ratio",
    "fixpipe_ratio",
    "vec_ratio",
    "aiv_mte2_ratio",
    "cube_utilization_pct",
    "aic_total_cycles",
    "aiv_total_cycles",
    "aicore_cycle_time_us",
    "aiv_cycle_time_us",
)
TIMELINE_KEYS: tuple[str, ...] = (
    "event_id",
    "event_class",
    "op_index",
    "name",
    "op_type",
    "device_id",
    "stream_id",
    "accelerator_core",
    "start_time_us",
    "ts_us",
    "duration_us",
    "end_us",
    "wait_time_us",
    "owner_node_id",
    "instance_index",
    "structure_instance_node_id",
    "submodule",
    "mapping_status",
    "trace_join_status",
    "correlation_id",
    "duplicate_of",
    "counters",
    "sampled_window_span_us",
)
METRIC_SCOPES = ("aggregate", "all_observed_instances", "single_instance", "sampled_window_context")
NODE_KINDS = ("module", "op", "runtime_auxiliary")
FREQ_BASES = ("derived", "declared", "unavailable")


def facts_paths(prefix: str) -> dict[str, str]:
    """File names of the four facts files of a report ``prefix``."""
    return {
        "analysis": f"{prefix}_analysis_config.json",
        "perf": f"{prefix}_perf_data.json",
        "timeline": f"{prefix}_timeline.json",
        "graph": GRAPH_FILE,
    }
