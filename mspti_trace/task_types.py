"""The task type msprof writes for a kernel (op_summary's Task Type, op_statistic's Core Type,
kernel_details' Accelerator Core, the timeline's Task Type), from the type a KERNEL record names:
one table for the toolkit's msprof and the ascend_pt export."""

from __future__ import annotations

__all__ = ["TASK_TYPES", "task_type"]

#: msPTI's kernel types (CANN's registered type names) and the task types msprof writes for them.
TASK_TYPES = {
    "KERNEL_AICORE": "AI_CORE",
    "KERNEL_AIVEC": "AI_VECTOR_CORE",
    "KERNEL_MIX_AIC": "MIX_AIC",
    "KERNEL_MIX_AIV": "MIX_AIV",
    "KERNEL_AICPU": "AI_CPU",
}


def task_type(kernel_type: str) -> str:
    """The task type of a kernel of ``kernel_type``; a type not in the table loses its ``KERNEL_``
    prefix (``KERNEL_FFTS`` -> ``FFTS``)."""
    return TASK_TYPES.get(kernel_type, kernel_type.removeprefix("KERNEL_"))
