"""What the facts documents share: the identity block, a node's declared attributes, metric
rounding and the core type of each kernel task type."""

from __future__ import annotations

from typing import Any

from mspti_trace.breakdown.options import BreakdownOptions
from mspti_trace.breakdown.structure import Node, Structure

#: The core type written for each kernel task type.
CORE_TYPES = {
    "KERNEL_AICORE": "AI_CORE",
    "KERNEL_AIVEC": "AI_VECTOR_CORE",
    "KERNEL_MIX_AIC": "MIX_AIC",
    "KERNEL_MIX_AIV": "MIX_AIV",
    "KERNEL_AICPU": "AI_CPU",
    "COMMUNICATION": "COMMUNICATION",
}


def rounded(value: float) -> float:
    return round(float(value), 6)


def declared_of(options: BreakdownOptions, node: Node) -> dict[str, Any]:
    relative = node.node_id[len(options.namespace) + 1 :]
    found = options.declarations.get("nodes", {}).get(relative, {})
    return found if isinstance(found, dict) else {}


def identity(options: BreakdownOptions, structure: Structure) -> dict[str, Any]:
    return {
        "model_id": options.resolved_model_id,
        "report_id": options.report_id,
        "representative_step": structure.representative_step,
    }
