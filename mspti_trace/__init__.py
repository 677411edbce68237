"""Trace capture and export: ``npu-sim trace`` runs a program with msPTI and the trace collector
preloaded, and this package reads the captures (numpy structured arrays per record kind), exports
them (Chrome/Perfetto trace JSON, Kineto traces per rank, the torch_npu ascend_pt layout), builds
and validates the performance breakdown and writes an HTML summary. Formats and fields:
docs/trace.md."""

from mspti_trace.ascend_pt import AscendPtOptions, export_ascend_pt
from mspti_trace.breakdown import (
    INVARIANTS,
    Breakdown,
    BreakdownError,
    BreakdownOptions,
    ConversionRefused,
    ValidationReport,
    build_breakdown,
    emit_facts,
    load_declarations,
    validate_documents,
    validate_facts,
)
from mspti_trace.capture import CaptureResult, capture, find_collector, trace_environment
from mspti_trace.capture_format import CaptureFormatError
from mspti_trace.chrome import ChromeExportStats, export_chrome_trace
from mspti_trace.chrome_check import TRACE_EVENT_SCHEMA, check_chrome_trace
from mspti_trace.html_summary import write_html_summary
from mspti_trace.kinds import ActivityKind
from mspti_trace.reader import Capture, Trace, load_capture, load_trace
from mspti_trace.writer import CaptureWriter, new_records

validate = validate_facts

__all__ = [
    "INVARIANTS",
    "TRACE_EVENT_SCHEMA",
    "ActivityKind",
    "AscendPtOptions",
    "Breakdown",
    "BreakdownError",
    "BreakdownOptions",
    "Capture",
    "CaptureFormatError",
    "CaptureResult",
    "CaptureWriter",
    "ChromeExportStats",
    "ConversionRefused",
    "Trace",
    "ValidationReport",
    "build_breakdown",
    "capture",
    "check_chrome_trace",
    "emit_facts",
    "export_ascend_pt",
    "export_chrome_trace",
    "find_collector",
    "load_capture",
    "load_declarations",
    "load_trace",
    "new_records",
    "trace_environment",
    "validate",
    "validate_documents",
    "validate_facts",
    "write_html_summary",
]
