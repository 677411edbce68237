"""Abstract API call sequences and their rendering as driver scripts.

Commands refer to earlier ranges and allocations by index (modulo how many exist), so that any
sequence is valid and Hypothesis can shrink it freely; a command with nothing to refer to renders
as nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "DOMAINS",
    "Command",
    "Flush",
    "Free",
    "Malloc",
    "Mark",
    "Pop",
    "Push",
    "RangeEnd",
    "RangeStart",
    "SetDomain",
    "Step",
    "Subscribe",
    "Switch",
    "Unsubscribe",
    "render",
]

#: Marker domains a sequence uses: "default" is the non-domain API, the others are created first.
DOMAINS: tuple[str, ...] = ("default", "alpha", "bravo")
_HANDLES = {"alpha": "dalpha", "bravo": "dbravo"}


@dataclass(frozen=True)
class Subscribe:
    pass


@dataclass(frozen=True)
class Unsubscribe:
    pass


@dataclass(frozen=True)
class Switch:
    """Enable (on) or disable an activity kind."""

    kind: str
    on: bool


@dataclass(frozen=True)
class Flush:
    pass


@dataclass(frozen=True)
class Push:
    kind: str
    value: int


@dataclass(frozen=True)
class Pop:
    kind: str


@dataclass(frozen=True)
class SetDomain:
    domain: str
    on: bool


@dataclass(frozen=True)
class Mark:
    domain: str


@dataclass(frozen=True)
class RangeStart:
    domain: str


@dataclass(frozen=True)
class RangeEnd:
    which: int


@dataclass(frozen=True)
class Malloc:
    size: int


@dataclass(frozen=True)
class Free:
    which: int


Command = (
    Subscribe
    | Unsubscribe
    | Switch
    | Flush
    | Push
    | Pop
    | SetDomain
    | Mark
    | RangeStart
    | RangeEnd
    | Malloc
    | Free
)


@dataclass(frozen=True)
class Step:
    """A rendered command: its label, script line and what it refers to."""

    label: str
    line: str
    command: Command
    message: str = ""  # marks and range starts: the (unique) message
    domain: str = ""
    target: str = ""  # range ends: label of the range start; frees: label of the malloc


def render(commands: Sequence[Command], *, acl: bool) -> tuple[str, list[Step]]:
    """The driver script for ``commands`` (with prelude and final flush) and its steps."""
    prelude = ["register A A", "domain_create dalpha alpha", "domain_create dbravo bravo"]
    if acl:
        prelude += ["acl_init", "set_device 0"]
    steps: list[Step] = []
    open_ranges: list[tuple[str, str, str]] = []  # (label, variable, domain)
    allocations: list[tuple[str, str]] = []  # (label, variable)
    for index, command in enumerate(commands):
        label = f"s{index}"
        step = _render(command, label, open_ranges, allocations, acl)
        if step is not None:
            steps.append(step)
    lines = [*prelude, *(step.line for step in steps), "flush 1 @final_flush", "dropped @dropped"]
    return "\n".join(lines) + "\n", steps


def _render(
    command: Command,
    label: str,
    open_ranges: list[tuple[str, str, str]],
    allocations: list[tuple[str, str]],
    acl: bool,
) -> Step | None:
    if isinstance(command, Subscribe):
        return Step(label, f"subscribe @{label}", command)
    if isinstance(command, Unsubscribe):
        return Step(label, f"unsubscribe current @{label}", command)
    if isinstance(command, Switch):
        if command.kind == "MEMORY" and not acl:
            return None
        verb = "enable" if command.on else "disable"
        return Step(label, f"{verb} {command.kind} @{label}", command)
    if isinstance(command, Flush):
        return Step(label, f"flush 0 @{label}", command)
    if isinstance(command, Push):
        return Step(label, f"push {command.kind} {command.value} @{label}", command)
    if isinstance(command, Pop):
        return Step(label, f"pop {command.kind} @{label}", command)
    if isinstance(command, SetDomain):
        verb = "domain_enable" if command.on else "domain_disable"
        return Step(label, f"{verb} {command.domain} @{label}", command, domain=command.domain)
    if isinstance(command, Mark):
        message = f"mark-{label}"
        if command.domain == "default":
            line = f"mark {message} @{label}"
        else:
            line = f"domain_mark {_HANDLES[command.domain]} {message} @{label}"
        return Step(label, line, command, message=message, domain=command.domain)
    if isinstance(command, RangeStart):
        message = f"range-{label}"
        variable = f"r{label}"
        if command.domain == "default":
            line = f"range_start {variable} {message} @{label}"
        else:
            line = f"domain_range_start {variable} {_HANDLES[command.domain]} {message} @{label}"
        open_ranges.append((label, variable, command.domain))
        return Step(label, line, command, message=message, domain=command.domain)
    if isinstance(command, RangeEnd):
        if not open_ranges:
            return None
        start_label, variable, domain = open_ranges.pop(command.which % len(open_ranges))
        if domain == "default":
            line = f"range_end {variable} @{label}"
        else:
            line = f"domain_range_end {_HANDLES[domain]} {variable} @{label}"
        return Step(label, line, command, domain=domain, target=start_label)
    if isinstance(command, Malloc):
        if not acl:
            return None
        variable = f"p{label}"
        allocations.append((label, variable))
        return Step(label, f"malloc {variable} {command.size} @{label}", command)
    if isinstance(command, Free):
        if not acl or not allocations:
            return None
        malloc_label, variable = allocations.pop(command.which % len(allocations))
        return Step(label, f"free {variable} @{label}", command, target=malloc_label)
    raise TypeError(f"unknown command {command!r}")
