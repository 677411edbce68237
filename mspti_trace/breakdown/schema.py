"""Names shared by the emitter and the validator: file names, keys and enumerations.

The shapes follow the stage-2 skill of hicann/oam-tools (commit 5f42532,
``skills/cann-perf-breakdown/2-adapt-breakdown-to-ui-json``: ``scripts/emit_ui_facts.py``,
``scripts/build_architecture_graph.py``, ``scripts/build_overlay_and_config.py``,
``scripts/build_trace_bindings.py``, ``scripts/validate_conversion.py`` and
``references/schema-mapping.md``)."""

from __future__ import annotations

__all__ = [
    "ANALYSIS_SCHEMA_VERSION",
    "ATTRIBUTION_FILE",
    "ATTRIBUTION_SCHEMA_VERSION",
    "BINDINGS_CONTRACT",
    "BINDINGS_FILE",
    "COUNTER_KEYS",
    "COUNTER_METRIC_KEYS",
    "DATAFLOW_KINDS",
    "FREQ_BASES",
    "GRAPH_FILE",
    "GRAPH_SCHEMA",
    "HANDOFF_FILE",
    "HANDOFF_SCHEMA",
    "METRIC_SCOPES",
    "NODE_KINDS",
    "NON_COMPUTE_MAPPING",
    "OUTPUTS_DIR",
    "OVERLAY_FILE",
    "OVERLAY_SCHEMA",
    "PERF_KEYS",
    "RATIO_KEYS",
    "REQUIRED_METRIC_KEYS",
    "SEMANTIC_EDGE_TYPES",
    "SOURCE_ROOT",
    "TENSOR_ROLE_EDGE_TYPES",
    "TENSOR_TEXT_EDGE_TYPES",
    "TIMELINE_KEYS",
    "TIMELINE_SCHEMA_VERSION",
    "TRACE_EXTENSION_ORIGIN",
    "TRACE_VIEW_FILE",
    "facts_paths",
]

#: The version oam-tools' emitter writes into the analysis config and the perf data.
ANALYSIS_SCHEMA_VERSION = "2.1-ui"
TIMELINE_SCHEMA_VERSION = "1.4"
GRAPH_SCHEMA = "model_architecture_graph.v1"
HANDOFF_SCHEMA = "ui_report_handoff.v1"
OVERLAY_SCHEMA = "1.0"
BINDINGS_CONTRACT = "structure_tree_to_raw_traceview_v1"
#: Files beside the three facts files: the graph and the stage-3 inputs go under outputs/.
OUTPUTS_DIR = "outputs"
GRAPH_FILE = "outputs/model_architecture_graph.json"
BINDINGS_FILE = "outputs/trace_bindings.json"
OVERLAY_FILE = "outputs/architecture_overlay_map.json"
HANDOFF_FILE = "ui-report-handoff.json"
TRACE_VIEW_FILE = "trace_view.json"
#: The per-kernel attribution stage 2 reads for its kernel-conservation checks
#: (``validate_conversion.py --attribution``; written by oam-tools' ``attribute_kernels.py``).
ATTRIBUTION_FILE = "kernel_attribution.json"
ATTRIBUTION_SCHEMA_VERSION = 1

#: The stage-3 graph contract (``3-generate-ui-json-report/scripts/validate-architecture-graph.mjs``
#: at oam-tools commit 5f42532): the semantic edge types it allows, the types whose edges should
#: name their tensor (``name``, ``shape``, ``dtype`` as strings), and the tensor roles that fix an
#: edge's type (such a role on an ``activation`` edge is an error).
SEMANTIC_EDGE_TYPES = ("activation", "communication", "parameter", "state", "control", "residual")
TENSOR_TEXT_EDGE_TYPES = ("activation", "residual")
TENSOR_ROLE_EDGE_TYPES = {
    "parameter": "parameter",
    "state": "state",
    "weight": "parameter",
    "bias": "parameter",
}
#: The root whose items stage 3 checks for ``sourceRefs``; an item known only from the trace has
#: origin ``backend_trace_extension`` and needs none (nor do the synthetic section roots).
SOURCE_ROOT = "section/source_architecture"
TRACE_EXTENSION_ORIGIN = "backend_trace_extension"
#: A declared dataflow edge's ``kind`` -> its semantic edge type, as oam-tools' builder
#: (``build_architecture_graph.py``) maps the declared ``dataflow.edges[].kind``.
DATAFLOW_KINDS = {
    "activation": "activation",
    "residual": "residual",
    "parameter": "parameter",
    "cache": "state",
    "index": "control",
    "runtime_carry": "state",
}
#: mapping_status of timeline events that are windows, not kernels (validate_conversion.py counts
#: every other event as a compute event).
NON_COMPUTE_MAPPING = "sample_window_phase_owner"

#: Keys validate_conversion.py requires on every perf record (REQUIRED_METRIC_KEYS there).
REQUIRED_METRIC_KEYS: tuple[str, ...] = (
    "time_us",
    "time_pct",
    "nops",
    "hbm_mb",
    "mfu_int8_pct",
    "mfu_bf16_pct",
    "metric_scope",
    "op_ratio",
    "aicore_time_us",
    "mac_ratio",
    "mte2_ratio",
)
#: Keys it requires as well once any record carries counter_coverage (COUNTER_METRIC_KEYS there).
COUNTER_METRIC_KEYS: tuple[str, ...] = (
    "aiv_time_us",
    "aicore_time_pct",
    "cube_utilization_pct",
    "aic_total_cycles",
    "aicore_cycle_time_us",
    "counter_coverage",
)

#: The pipe ratios among them: shares of a kernel's cycles, each in [0, 1].
RATIO_KEYS: tuple[str, ...] = (
    "mac_ratio",
    "mte2_ratio",
    "mte1_ratio",
    "scalar_ratio",
    "fixpipe_ratio",
    "vec_ratio",
    "aiv_mte2_ratio",
)
#: Keys of hardware counters (never measured by msPTI activity records).
COUNTER_KEYS: tuple[str, ...] = (
    "aicore_time_us",
    "aiv_time_us",
    "aicore_time_pct",
    *RATIO_KEYS,
    "cube_utilization_pct",
    "aic_total_cycles",
    "aiv_total_cycles",
    "aicore_cycle_time_us",
    "aiv_cycle_time_us",
)

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
    *COUNTER_KEYS,
    "counter_coverage",
    "op_ratio",
    "instance_indices",
    "code_ref",
    "kernel_scope_note",
    "sampled_window_span_us",
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
    "start_time_us_raw",
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
    "layer_index",
    "correlation_id",
    "duplicate_of",
    "counters",
    "sampled_window_span_us",
)
METRIC_SCOPES = ("aggregate", "all_observed_instances", "single_instance", "sampled_window_context")
NODE_KINDS = ("module", "op", "runtime_auxiliary")
FREQ_BASES = ("derived", "declared", "unavailable")


def facts_paths(prefix: str) -> dict[str, str]:
    """Paths, relative to the output directory, of the facts files of a report ``prefix`` and of the
    stage-3 inputs written beside them."""
    return {
        "analysis": f"{prefix}_analysis_config.json",
        "perf": f"{prefix}_perf_data.json",
        "timeline": f"{prefix}_timeline.json",
        "graph": GRAPH_FILE,
        "bindings": BINDINGS_FILE,
        "overlay": OVERLAY_FILE,
        "handoff": HANDOFF_FILE,
        "trace": TRACE_VIEW_FILE,
        "attribution": ATTRIBUTION_FILE,
    }
