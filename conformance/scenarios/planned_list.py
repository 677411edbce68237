"""Scenarios the catalogue names but that are not written yet (their clauses report "not automated")."""

from __future__ import annotations

from conformance.scenarios.registry import planned

planned("graph_replay", "graph capture and replay in the simulated runtime and the driver")
planned("reentrancy_probe", "an isolated probe that records from inside buffer callbacks (THR-07)")
planned("py_import", "the Python monitor package (mspti_core) and a Python driver")
planned("py_monitors", "the Python monitor package and a Python driver")
planned("py_mstx_monitor", "the Python MstxMonitor and a Python driver")
planned("py_hccl_monitors", "the Python Hccl/Communication monitors and a multi-rank Python driver")
planned("platform_support", "hardware of several chip generations")
planned("platform_device_ids", "hardware with device-visibility remapping")
