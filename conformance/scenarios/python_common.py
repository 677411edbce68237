"""Helpers of the Python-package scenarios: their invocations and what their drivers logged."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.checks import ClauseCheck
from conformance.execute import Invocation
from conformance.log import Call, LogError, RunLog
from conformance.scenarios.registry import ScenarioEnv

__all__ = ["PY_NEEDS", "enum_value", "objects", "py_invocation", "require_import", "returned"]

#: Every Python scenario needs the package (feature "python") and an msPTI to load.
PY_NEEDS: tuple[str, ...] = ("mspti", "python")


def py_invocation(env: ScenarioEnv, module: str, *args: str, name: str = "main", **extra: Any) -> Invocation:
    """``python -m conformance.pydriver.MODULE ARGS`` with the environment that imports the package."""
    return Invocation(
        name=name,
        python_module=f"conformance.pydriver.{module}",
        args=tuple(args),
        env=dict(env.python),
        **extra,
    )


def require_import(log: RunLog) -> Mapping[str, Any]:
    """The driver's ``py_import`` event; LogError when the package could not be imported."""
    event = log.first("py_import")
    if event is None:
        raise LogError("the driver logged no py_import event (did it start?)")
    if not event.get("ok"):
        raise LogError(f"import {event.get('package')} failed: {event.get('error')}")
    return event


def objects(log: RunLog, callback: str) -> list[Mapping[str, Any]]:
    """The ``pydata`` events of one callback, in delivery order."""
    return [e for e in log.of_type("pydata") if e.get("cb") == callback]


def enum_value(value: Any) -> Any:
    """The number behind a logged enum member ({"enum", "name", "value"}), else the value itself."""
    if isinstance(value, Mapping) and "enum" in value:
        return value.get("value")
    return value


def returned(c: ClauseCheck, call: Call, allowed: int | str | list[int | str], what: str = "") -> bool:
    """A package call returned one of the ``allowed`` result codes without raising."""
    description = what or f"{call.fn}({', '.join(call.get('args') or [])}) [{call.label}]"
    if call.get("exc"):
        return c.check(False, f"{description} raised {call.get('exc')}")
    return c.returns(call, allowed, description)
