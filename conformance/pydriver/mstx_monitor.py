"""MstxMonitor: start validation, marks, ranges and domains (py_mstx_monitor).

    python -m conformance.pydriver.mstx_monitor

Workload on stream ``s`` of device 0, while monitor "mark"/"range" runs: host mark ``py_host_mark``,
mark ``py_dev_mark`` on ``s``, host range ``py_host_range`` (@r_host), range ``py_dev_range`` on
``s`` around a kernel (@r_dev), and in domain ``py_domain`` a mark ``py_dom_mark`` and a range
``py_dom_range`` (@r_dom).
"""

from __future__ import annotations

from types import ModuleType

from conformance.pydriver.runtime import Driver, Recorder, import_package

WORKLOAD = """mark py_host_mark @m_host
mark py_dev_mark s @m_dev
range_start r1 py_host_range @r_host
range_end r1 @r_host_end
range_start r2 py_dev_range s @r_dev
launch py_in_range s
range_end r2 @r_dev_end
domain_create d py_domain @d_create
domain_mark d py_dom_mark @m_dom
domain_range_start r3 d py_dom_range @r_dom
domain_range_end d r3 @r_dom_end
sync s
"""


def _noop(_data: object) -> None:
    """A callable that ignores what it gets."""


def run(driver: Driver, mspti: ModuleType) -> None:
    monitor_class = mspti.MstxMonitor
    driver.run("acl_init\nset_device 0\ncreate_stream s\n")
    # PY-START-03: INVALID_PARAMETER only when neither callback is callable.
    driver.call("start_neither", "MstxMonitor.start", monitor_class().start, None, None)
    for label, args in (("start_mark_only", (_noop, None)), ("start_range_only", (None, _noop))):
        monitor = monitor_class()
        driver.call(label, "MstxMonitor.start", monitor.start, *args)
        driver.call(f"{label}_stop", "MstxMonitor.stop", monitor.stop)
    # PY-DOM-01: argument checks, then valid names.
    probe = monitor_class()
    for label, fn, value in (
        ("dom_enable_empty", "enable_domain", ""),
        ("dom_disable_empty", "disable_domain", ""),
        ("dom_enable_int", "enable_domain", 5),
        ("dom_disable_none", "disable_domain", None),
        ("dom_disable_valid", "disable_domain", "py_other_domain"),
        ("dom_enable_valid", "enable_domain", "py_other_domain"),
    ):
        driver.call(label, f"MstxMonitor.{fn}", getattr(probe, fn), value)
    monitor = monitor_class()
    driver.call(
        "start", "MstxMonitor.start", monitor.start, Recorder(driver, "mark"), Recorder(driver, "range")
    )
    driver.run(WORKLOAD)
    driver.call("stop", "MstxMonitor.stop", monitor.stop)
    driver.run("domain_destroy d\ndestroy_stream s\nreset_device 0\n")


def main() -> int:
    driver = Driver()
    mspti = import_package(driver)
    if mspti is not None:
        run(driver, mspti)
    driver.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
