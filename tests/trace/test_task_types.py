"""msprof's task type of a kernel, one table for the toolkit's msprof and the ascend_pt export
(mspti_trace/task_types.py)."""

from __future__ import annotations

from mspti_trace.task_types import task_type
from sim_runtime.msprof import raw, summaries


def test_known_kernel_types_and_the_fallback() -> None:
    assert task_type("KERNEL_AICORE") == "AI_CORE"
    assert task_type("KERNEL_AIVEC") == "AI_VECTOR_CORE"
    assert task_type("KERNEL_MIX_AIV") == "MIX_AIV"
    # A type msprof has no name for loses its prefix, in both exports alike.
    assert task_type("KERNEL_FFTS") == "FFTS"
    assert task_type("AI_CPU") == "AI_CPU"


def test_msprofs_summaries_use_the_same_table() -> None:
    kernel = raw.Kernel(0, 1, 0, 2, 1, "KERNEL_FFTS", "k")
    assert summaries.task_type(kernel) == task_type("KERNEL_FFTS")
