"""The performance breakdown: kernels attributed to the structure a program declares with mstx
ranges, written as facts files in oam-tools' stage-2 schema (with the stage-3 inputs) and checked
by :func:`validate_facts`."""

from mspti_trace.breakdown.declarations import load_declarations
from mspti_trace.breakdown.facts import Breakdown, build_breakdown, emit_facts
from mspti_trace.breakdown.options import BreakdownError, BreakdownOptions, ConversionRefused
from mspti_trace.breakdown.validate import (
    INVARIANTS,
    Failure,
    ValidationReport,
    validate_documents,
    validate_facts,
)

__all__ = [
    "INVARIANTS",
    "Breakdown",
    "BreakdownError",
    "BreakdownOptions",
    "ConversionRefused",
    "Failure",
    "ValidationReport",
    "build_breakdown",
    "emit_facts",
    "load_declarations",
    "validate_documents",
    "validate_facts",
]
