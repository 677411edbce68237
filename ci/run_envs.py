"""Runs the default tox envs one after another and prints each env's time (ci/test.sh).

    python ci/run_envs.py [tox run args...]

The envs and their order are tox.ini's envlist; every env runs even after one fails, as
`tox run -e a,b,c` does. At the end a table gives each env's verdict and minutes beside the
minutes docs/ci.md budgets for it, and the total; the exit status is non-zero when any env failed.
"""

from __future__ import annotations

import configparser
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUDGET_ROW = re.compile(r"^\|\s*`([\w.-]+)`\s*\|[^|]*\|\s*([\d.]+)\s*\|")


@dataclass(frozen=True)
class EnvRun:
    name: str
    status: int
    minutes: float


def envlist(tox_ini: Path = REPO / "tox.ini") -> list[str]:
    """tox.ini's default envs, in order."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(tox_ini, encoding="utf-8")
    raw = parser.get("tox", "envlist")
    return [name.strip() for name in re.split(r"[,\s]+", raw) if name.strip()]


def budgets(doc: Path = REPO / "docs" / "ci.md") -> dict[str, float]:
    """The minutes docs/ci.md's budget table gives each env (its rows: | `env` | what | minutes | ...)."""
    found: dict[str, float] = {}
    for line in doc.read_text(encoding="utf-8").splitlines():
        match = BUDGET_ROW.match(line)
        if match:
            found[match.group(1)] = float(match.group(2))
    return found


def run(env: str, extra: list[str]) -> EnvRun:
    print(f"=== {env}: started at {time.strftime('%H:%M:%S')}", flush=True)
    begin = time.monotonic()
    status = subprocess.call(["tox", "run", "-e", env, *extra], cwd=REPO)
    minutes = (time.monotonic() - begin) / 60
    print(f"=== {env}: {'ok' if status == 0 else f'FAILED (exit {status})'} in {minutes:.1f} min", flush=True)
    return EnvRun(env, status, minutes)


def table(runs: list[EnvRun], budget: dict[str, float]) -> str:
    lines = [f"{'env':<14} {'verdict':<8} {'minutes':>8} {'budget':>8}"]
    for r in runs:
        planned = budget.get(r.name)
        lines.append(
            f"{r.name:<14} {'ok' if r.status == 0 else 'FAILED':<8} {r.minutes:>8.1f} "
            f"{'-' if planned is None else f'{planned:.1f}':>8}"
        )
    total = sum(r.minutes for r in runs)
    planned_total = sum(budget.get(r.name, 0.0) for r in runs)
    lines.append(f"{'total':<14} {'':<8} {total:>8.1f} {planned_total:>8.1f}")
    return "\n".join(lines)


def main() -> int:
    runs = [run(env, sys.argv[1:]) for env in envlist()]
    print("\nCI time by env (docs/ci.md has the budget):")
    print(table(runs, budgets()))
    failed = [r.name for r in runs if r.status != 0]
    if failed:
        print(f"failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
