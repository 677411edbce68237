"""In-process control of the simulator: fault plans and call counters.

A thin layer over ``sim_runtime._native`` that turns its error strings into exceptions.

Fault points count calls only while counting is on, so that an unplanned launch pays one load for
them: counting starts with a fault plan (``NPU_SIM_FAULTS`` or :func:`set_fault_plan`; it stays on
after the plan is cleared) or with :func:`set_call_counting`. A rule's Nth call is the Nth call
counted.
"""

from __future__ import annotations

from sim_runtime import _native  # type: ignore[attr-defined]

__all__ = [
    "call_count",
    "call_counting",
    "clear_fault_plan",
    "fault_plan",
    "faults_injected",
    "reset_call_counts",
    "set_call_counting",
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
    """How many times an exported simulator function has been called while counting was on."""
    return int(_native.call_count(function))


def set_call_counting(on: bool) -> None:
    """Asks for call counts without a fault plan (on), or withdraws the request (off)."""
    _native.set_call_counting(on)


def call_counting() -> bool:
    """Whether the fault points count their calls (requested, or a plan has been installed)."""
    return bool(_native.call_counting())


def reset_call_counts() -> None:
    _native.reset_call_counts()


def faults_injected() -> int:
    """How many calls a fault rule has acted on."""
    return int(_native.faults_injected())
