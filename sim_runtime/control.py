"""In-process control of the simulator: fault plans and call counters.

A thin layer over ``sim_runtime._native`` that turns its error strings into exceptions.
"""

from __future__ import annotations

from sim_runtime import _native  # type: ignore[attr-defined]

__all__ = [
    "call_count",
    "clear_fault_plan",
    "fault_plan",
    "faults_injected",
    "reset_call_counts",
    "set_fault_plan",
]


def set_fault_plan(plan: str) -> None:
    """Replaces this process's fault plan (the grammar of ``NPU_SIM_FAULTS``)."""
    error = _native.try_set_fault_plan(plan)
    if error:
        raise ValueError(error)  # the message names the rule and the expected form


def clear_fault_plan() -> None:
    _native.clear_fault_plan()


def fault_plan() -> str:
    return str(_native.fault_plan())


def call_count(function: str) -> int:
    """How many times an exported simulator function has been called in this process."""
    return int(_native.call_count(function))


def reset_call_counts() -> None:
    _native.reset_call_counts()


def faults_injected() -> int:
    """How many calls a fault rule has acted on."""
    return int(_native.faults_injected())
