"""What a breakdown is built from, and its errors."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DEFAULT_DOMAIN", "BreakdownError", "BreakdownOptions", "ConversionRefused", "slug"]

#: The domain name msPTI gives markers of mstx's default domain.
DEFAULT_DOMAIN = "default"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]+")


class BreakdownError(ValueError):
    """The capture does not declare a structure that can be broken down; the message says where."""


class ConversionRefused(RuntimeError):
    """Accounting is below 100 %: some kernels are unattributed. ``account`` is the zero-remainder
    line and ``details`` lists the unattributed kernels by reason."""

    def __init__(self, account: str, details: list[str]) -> None:
        super().__init__(f"refusing to emit the breakdown: {account}\n" + "\n".join(details))
        self.account = account
        self.details = details


def slug(text: str) -> str:
    """A name as it appears in a node id: runs of characters other than letters, digits, '_', '.'
    and '-' become '_' (so a name cannot add path levels)."""
    cleaned = _UNSAFE.sub("_", text.strip())
    return cleaned or "_"


@dataclass(frozen=True)
class BreakdownOptions:
    """``model_id`` defaults to the slug of ``model_name``; ``report_id`` to ``<model_id>-pid<pid>``.

    Structure comes from the mstx ranges of one process (``pid``, default: the lowest): top-level
    ranges named ``step_range`` (default domain) delimit steps, and the structure is the nesting of
    ranges inside the representative step (default: step 1 when there are two steps or more, so
    that step 0 is treated as warm-up, else step 0). Ranges of ``runtime_domain`` declare runtime
    auxiliary nodes; ranges of ``sampler_domain`` declare sampled windows (kept out of the nesting).
    ``declarations`` adds what a capture cannot say (semantics, code references, residual branches,
    dataflow between structures, source-only structure; format in docs/trace.md).
    """

    model_name: str = "model"
    model_id: str | None = None
    report_id: str | None = None
    pid: int | None = None
    step_range: str = "step"
    representative_step: int | None = None
    runtime_domain: str = "runtime"
    sampler_domain: str = "sampler"
    declarations: dict[str, Any] = field(default_factory=dict)

    @property
    def resolved_model_id(self) -> str:
        return slug(self.model_id or self.declarations.get("model_id") or self.model_name).lower()

    @property
    def namespace(self) -> str:
        return f"model/{self.resolved_model_id}"
