"""The device scenarios: one module per family, registered in a fixed order.

The registration order is the order the suite lists and runs the scenarios in, so splitting or
moving a family must keep it.
"""

from __future__ import annotations

from conformance.scenarios import SCENARIOS

#: (module under conformance.scenarios.device, scenario), in registration order.
DEVICE_SCENARIOS = (
    ("memory", "mem_records"),
    ("memcpy_memset", "memcpy_records"),
    ("memcpy_memset", "memset_records"),
    ("copy_timing", "copy_device_timing"),
    ("copy_timing", "copy_direct"),
    ("correlation", "corr_ids"),
    ("correlation", "corr_direct"),
    ("kernels", "kernel_records"),
    ("kernels", "disable_drains"),
    ("kernels", "kernel_enable_window"),
    ("kind_switches", "kinds_independent"),
    ("kind_switches", "enable_device_order"),
    ("aclnn", "aclnn_records"),
)


def test_device_scenarios_register_in_order_one_family_per_module() -> None:
    prefix = "conformance.scenarios.device."
    found = [
        (entry.build.__module__.removeprefix(prefix), name)
        for name, entry in SCENARIOS.items()
        if entry.build.__module__.startswith(prefix)
    ]
    assert found == list(DEVICE_SCENARIOS)
    for name, entry in SCENARIOS.items():
        if entry.build.__module__.startswith(prefix):
            assert entry.check is not None and entry.check.__module__ == entry.build.__module__, name


def test_device_scenarios_sit_between_collectives_and_external() -> None:
    names = list(SCENARIOS)
    modules = [SCENARIOS[name].build.__module__ for name in names]
    first = names.index(DEVICE_SCENARIOS[0][1])
    last = names.index(DEVICE_SCENARIOS[-1][1])
    assert modules[first - 1] == "conformance.scenarios.collectives"
    assert modules[last + 1] == "conformance.scenarios.external"
