"""Fault plans: which simulator functions fail, how, and on which calls.

A plan is the value of ``NPU_SIM_FAULTS``. The C++ core parses the same grammar, so this module is
the Python reference for it::

    PLAN   := RULE (';' RULE)*            empty rules (e.g. a trailing ';') are ignored
    RULE   := FUNCTION ':' ACTION ['@' WHEN]
    FUNCTION := C identifier              an exported simulator function, e.g. aclrtMalloc
    ACTION := 'error=' INT                return INT (decimal or 0x hex, optionally negative)
            | 'delay=' UINT UNIT          sleep before the call; UNIT is ns | us | ms | s
            | 'short=' UINT               return at most UINT bytes (read-like functions)
            | 'garble'                    corrupt the returned bytes (seeded)
            | 'stall'                     block until the simulator shuts down or 10 s pass
    WHEN   := N | N '+' | N '-' M | 'every=' K
                                          only call N (1-based) | call N and later |
                                          calls N..M inclusive | every Kth call; absent = every call

Whitespace around tokens is ignored. ``format_fault_plan`` writes the canonical form, and
``parse_fault_plan(format_fault_plan(rules)) == rules`` for every valid tuple of rules.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path

__all__ = [
    "ERROR_CODE_MAX",
    "ERROR_CODE_MIN",
    "EXPECTED_FORM",
    "FAULT_POINTS_FILE",
    "MAX_CALL",
    "MAX_DELAY_NS",
    "MAX_SHORT_BYTES",
    "FaultAction",
    "FaultPlanError",
    "FaultRule",
    "check_fault_points",
    "fault_point_names",
    "format_fault_plan",
    "nearest_fault_points",
    "parse_fault_plan",
]

#: Error codes must fit a 32-bit C int; hex bit patterns up to 0xFFFFFFFF are accepted as well.
ERROR_CODE_MIN = -(2**31)
ERROR_CODE_MAX = 2**32 - 1
#: Delays, byte limits and call numbers are carried as unsigned 64-bit integers by the C++ core.
MAX_DELAY_NS = 2**64 - 1
MAX_SHORT_BYTES = 2**64 - 1
MAX_CALL = 2**64 - 1

EXPECTED_FORM = (
    "expected FUNCTION:ACTION[@WHEN] with ACTION one of error=INT | delay=N(ns|us|ms|s) | short=N | "
    "garble | stall and WHEN one of N | N+ | N-M | every=K"
)

_UNIT_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SIGNED_INT = re.compile(r"-?(?:0[xX][0-9A-Fa-f]+|[0-9]+)")
_UNSIGNED_INT = re.compile(r"[0-9]+")
_DURATION = re.compile(r"([0-9]+)(ns|us|ms|s)")
_WHEN_ONLY = re.compile(r"([0-9]+)")
_WHEN_FROM = re.compile(r"([0-9]+)\s*\+")
_WHEN_RANGE = re.compile(r"([0-9]+)\s*-\s*([0-9]+)")
_WHEN_EVERY = re.compile(r"every\s*=\s*([0-9]+)")


class FaultPlanError(ValueError):
    """A fault plan (or one rule of it) does not follow the grammar.

    ``rule`` is the offending rule text (empty when the rule was built directly) and ``index`` its
    1-based position in the plan (0 when unknown).
    """

    def __init__(self, problem: str, rule: str = "", index: int = 0, *, grammar: bool = True) -> None:
        self.problem = problem
        self.rule = rule
        self.index = index
        where = "fault rule"
        if index:
            where += f" {index}"
        if rule:
            where += f" {rule!r}"
        # A grammar error is followed by the expected form; a well-formed rule naming no fault point is not.
        super().__init__(f"{where}: {problem}; {EXPECTED_FORM}" if grammar else f"{where}: {problem}")


class FaultAction(str, Enum):
    """What a matching call does instead of (or before) its normal behaviour."""

    ERROR = "error"
    DELAY = "delay"
    SHORT = "short"
    GARBLE = "garble"
    STALL = "stall"

    @property
    def takes_value(self) -> bool:
        return self in (FaultAction.ERROR, FaultAction.DELAY, FaultAction.SHORT)


@dataclass(frozen=True)
class FaultRule:
    """One ``FUNCTION:ACTION[@WHEN]`` rule.

    ``value`` is the error code for ``error``, the delay in nanoseconds for ``delay``, the byte
    limit for ``short`` and ``None`` for ``garble`` and ``stall``.

    The calls a rule applies to (1-based per function) are ``first_call..last_call`` inclusive
    (``last_call=None``: no upper bound), or, when ``every`` is set, calls ``every, 2*every, ...``
    (then ``first_call`` is 1 and ``last_call`` is ``None``).
    """

    function: str
    action: FaultAction
    value: int | None = None
    first_call: int = 1
    last_call: int | None = None
    every: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.function, str) or not _IDENTIFIER.fullmatch(self.function):
            raise FaultPlanError(f"function {self.function!r} is not a C identifier")
        if not isinstance(self.action, FaultAction):
            try:
                object.__setattr__(self, "action", FaultAction(self.action))
            except ValueError:
                raise FaultPlanError(f"unknown action {self.action!r}") from None
        self._check_value()
        self._check_calls()

    def _check_value(self) -> None:
        action, value = self.action, self.value
        if not action.takes_value:
            if value is not None:
                raise FaultPlanError(f"action {action.value!r} takes no value, got {value!r}")
            return
        if not isinstance(value, int) or isinstance(value, bool):
            raise FaultPlanError(f"action {action.value!r} needs an integer value, got {value!r}")
        if action is FaultAction.ERROR and not ERROR_CODE_MIN <= value <= ERROR_CODE_MAX:
            raise FaultPlanError(
                f"error code {value} does not fit a 32-bit int ({ERROR_CODE_MIN}..{ERROR_CODE_MAX:#x})"
            )
        if action is FaultAction.DELAY and not 0 <= value <= MAX_DELAY_NS:
            raise FaultPlanError(f"delay {value} ns is outside 0..{MAX_DELAY_NS} ns")
        if action is FaultAction.SHORT and not 0 <= value <= MAX_SHORT_BYTES:
            raise FaultPlanError(f"short byte count {value} is outside 0..{MAX_SHORT_BYTES}")

    def _check_calls(self) -> None:
        for name in ("first_call", "last_call", "every"):
            number = getattr(self, name)
            if number is None:
                continue
            if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_CALL:
                raise FaultPlanError(f"{name} must be an integer in 1..{MAX_CALL}, got {number!r}")
        if self.every is not None and (self.first_call != 1 or self.last_call is not None):
            raise FaultPlanError("every=K cannot be combined with a call range")
        if self.last_call is not None and self.last_call < self.first_call:
            raise FaultPlanError(f"call range {self.first_call}-{self.last_call} ends before it starts")

    def applies_to(self, call: int) -> bool:
        """Whether the ``call``-th call (1-based) of ``function`` is affected."""
        if call < 1:
            raise ValueError(f"call numbers start at 1, got {call}")
        if self.every is not None:
            return call % self.every == 0
        return call >= self.first_call and (self.last_call is None or call <= self.last_call)

    def __str__(self) -> str:
        return f"{self.function}:{self._action_text()}{self._when_text()}"

    def _action_text(self) -> str:
        if self.action is FaultAction.DELAY:
            assert self.value is not None
            return f"delay={_format_duration(self.value)}"
        if self.action.takes_value:
            return f"{self.action.value}={self.value}"
        return self.action.value

    def _when_text(self) -> str:
        if self.every is not None:
            return f"@every={self.every}"
        if self.last_call is None:
            return "" if self.first_call == 1 else f"@{self.first_call}+"
        if self.last_call == self.first_call:
            return f"@{self.first_call}"
        return f"@{self.first_call}-{self.last_call}"


def parse_fault_plan(text: str) -> tuple[FaultRule, ...]:
    """Parse a whole plan; raises :class:`FaultPlanError` naming the first bad rule."""
    if not isinstance(text, str):
        raise TypeError(f"a fault plan is a string, got {type(text).__name__}")
    rules: list[FaultRule] = []
    for index, chunk in enumerate(text.split(";"), start=1):
        rule_text = chunk.strip()
        if not rule_text:
            continue
        try:
            rules.append(_parse_rule(rule_text))
        except FaultPlanError as error:
            raise FaultPlanError(error.problem, rule_text, index) from None
    return tuple(rules)


#: Written by the build (``csrc/sim/core/scan_fault_points.cmake``), one name a line.
FAULT_POINTS_FILE = Path(__file__).parent / "data" / "fault_points.txt"


@cache
def fault_point_names() -> frozenset[str]:
    """Every exported simulator function with a fault point, as the build scanned them from the
    sources (``csrc/sim/core/scan_fault_points.cmake``): the installed list, read without loading
    the simulator (whose libraries read the configuration as they load); else the native module's
    copy of the same list."""
    try:
        return frozenset(FAULT_POINTS_FILE.read_text(encoding="utf-8").split())
    except FileNotFoundError:
        from sim_runtime import _native  # type: ignore[attr-defined]

        return frozenset(_native.fault_point_functions())


def nearest_fault_points(name: str, count: int = 5) -> list[str]:
    """The fault points whose names are closest to ``name`` (best first; empty when none is close)."""
    return difflib.get_close_matches(name, sorted(fault_point_names()), n=count, cutoff=0.6)


def check_fault_points(rules: Iterable[FaultRule]) -> None:
    """Raises :class:`FaultPlanError` for the first rule whose function has no fault point (a plan
    naming it would never act), with the nearest valid names."""
    known = fault_point_names()
    for index, rule in enumerate(rules, start=1):
        if rule.function in known:
            continue
        close = nearest_fault_points(rule.function)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see docs/reliability.md"
        raise FaultPlanError(
            f"{rule.function!r} is not a simulator function with a fault point{hint}",
            str(rule),
            index,
            grammar=False,
        )


def format_fault_plan(rules: Iterable[FaultRule]) -> str:
    """The canonical text of ``rules`` (rules joined by ``;``, no whitespace)."""
    parts = []
    for rule in rules:
        if not isinstance(rule, FaultRule):
            raise TypeError(f"expected FaultRule, got {type(rule).__name__}")
        parts.append(str(rule))
    return ";".join(parts)


def _parse_rule(text: str) -> FaultRule:
    head, at, when = text.partition("@")
    if at and not when.strip():
        raise FaultPlanError("nothing after '@'")
    function, colon, action = head.partition(":")
    function, action = function.strip(), action.strip()
    if not colon:
        raise FaultPlanError("missing ':' between FUNCTION and ACTION")
    if not _IDENTIFIER.fullmatch(function):
        raise FaultPlanError(f"function {function!r} is not a C identifier")
    kind, value = _parse_action(action)
    first, last, every = _parse_when(when.strip()) if at else (1, None, None)
    return FaultRule(function, kind, value, first, last, every)


def _parse_action(text: str) -> tuple[FaultAction, int | None]:
    name, sep, argument = (part.strip() for part in text.partition("="))
    try:
        action = FaultAction(name)
    except ValueError:
        raise FaultPlanError(f"unknown action {name!r}") from None
    if not action.takes_value:
        if sep:
            raise FaultPlanError(f"action {name!r} takes no value")
        return action, None
    if not argument:
        raise FaultPlanError(f"action {name!r} needs a value ({name}=...)")
    if action is FaultAction.ERROR:
        if not _SIGNED_INT.fullmatch(argument):
            raise FaultPlanError(f"error code {argument!r} is not a decimal or 0x hex integer")
        return action, _parse_signed(argument)
    if action is FaultAction.DELAY:
        match = _DURATION.fullmatch(argument)
        if not match:
            raise FaultPlanError(f"delay {argument!r} is not an integer followed by ns, us, ms or s")
        return action, int(match.group(1)) * _UNIT_NS[match.group(2)]
    if not _UNSIGNED_INT.fullmatch(argument):
        raise FaultPlanError(f"short byte count {argument!r} is not a non-negative decimal integer")
    return action, int(argument)


def _parse_signed(text: str) -> int:
    """Decimal (leading zeros allowed) or ``0x`` hex, with an optional leading ``-``."""
    digits = text.removeprefix("-")
    number = int(digits[2:], 16) if digits[:2].lower() == "0x" else int(digits, 10)
    return -number if text.startswith("-") else number


def _parse_when(text: str) -> tuple[int, int | None, int | None]:
    if match := _WHEN_EVERY.fullmatch(text):
        return 1, None, _call_number(match.group(1), "every=K")
    if match := _WHEN_RANGE.fullmatch(text):
        first, last = _call_number(match.group(1), "N-M"), _call_number(match.group(2), "N-M")
        if last < first:
            raise FaultPlanError(f"call range {first}-{last} ends before it starts")
        return first, last, None
    if match := _WHEN_FROM.fullmatch(text):
        return _call_number(match.group(1), "N+"), None, None
    if match := _WHEN_ONLY.fullmatch(text):
        call = _call_number(match.group(1), "N")
        return call, call, None
    raise FaultPlanError(f"call selector {text!r} is not N, N+, N-M or every=K")


def _call_number(text: str, form: str) -> int:
    number = int(text)
    if not 1 <= number <= MAX_CALL:
        raise FaultPlanError(f"call number {text} in {form} must be in 1..{MAX_CALL} (calls count from 1)")
    return number


def _format_duration(nanoseconds: int) -> str:
    for unit in ("s", "ms", "us"):
        scale = _UNIT_NS[unit]
        if nanoseconds and nanoseconds % scale == 0:
            return f"{nanoseconds // scale}{unit}"
    return f"{nanoseconds}ns"
