"""LD_PRELOAD values: the one builder every launcher uses to put msPTI (or a library beside it) into
a process's preload list.

A value is split on colons and blanks (the dynamic loader accepts both). Sanitizer runtimes stay in
front of everything else: a sanitizer's runtime must be the first library a process loads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["is_sanitizer_runtime", "preload_parts", "preload_value"]

_SANITIZER_RUNTIME = re.compile(r"^(lib(a|t|ub|l|hwa)san\.so|libclang_rt\.)")


def is_sanitizer_runtime(entry: str) -> bool:
    """Whether ``entry`` (a path or a file name) is a sanitizer's runtime library."""
    return _SANITIZER_RUNTIME.match(Path(entry).name) is not None


def preload_parts(value: str) -> list[str]:
    """The entries of an LD_PRELOAD value, in order, without empty ones."""
    return [part for part in re.split(r"[: ]", value) if part]


def preload_value(
    existing: str,
    *,
    first: Sequence[str] = (),
    last: Sequence[str] = (),
    drop: Callable[[str], bool] | None = None,
    separator: str = ":",
) -> str:
    """``existing`` with ``first`` put ahead of its entries and ``last`` after them.

    Each entry appears once (the first time it is named); entries for which ``drop`` is true are left
    out of ``existing``; sanitizer runtimes come before everything else, in their order.
    """
    added = {*first, *last}
    kept = [
        part for part in preload_parts(existing) if part not in added and (drop is None or not drop(part))
    ]
    ordered = list(dict.fromkeys([*first, *kept, *last]))
    runtimes = [part for part in ordered if is_sanitizer_runtime(part)]
    return separator.join([*runtimes, *(part for part in ordered if part not in runtimes)])
