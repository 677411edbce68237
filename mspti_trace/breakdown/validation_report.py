"""The result of validating facts files: each failure names its invariant and what it concerns."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Failure:
    invariant: str
    subject: str | None
    message: str

    def __str__(self) -> str:
        where = f" [{self.subject}]" if self.subject else ""
        return f"{self.invariant}{where}: {self.message}"


@dataclass
class ValidationReport:
    failures: list[Failure] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    account: str | None = None

    @property
    def ok(self) -> bool:
        return not self.failures

    def invariants_failed(self) -> set[str]:
        return {failure.invariant for failure in self.failures}

    def fail(self, invariant: str, subject: str | None, message: str) -> None:
        self.failures.append(Failure(invariant, subject, message))

    def summary(self) -> str:
        if self.ok:
            return f"valid: {len(self.checked)} invariants hold" + (
                f"; {self.account}" if self.account else ""
            )
        lines = [f"invalid: {len(self.failures)} failure(s)"]
        lines.extend(f"  {failure}" for failure in self.failures)
        return "\n".join(lines)
