"""Scenarios the catalogue names but that are not written yet (their clauses report "not automated")."""

from __future__ import annotations

from conformance.scenarios.registry import planned

planned(
    "py_comm_unknown_dtype",
    "a runtime that reports a communication data type outside the Python enum (the simulated HCCL has none)",
)
planned("platform_support", "hardware of several chip generations")
planned("platform_device_ids", "hardware with device-visibility remapping")
