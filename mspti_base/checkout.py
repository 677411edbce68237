"""Running from a source checkout: prefer the installed package's files to the checkout's.

Python puts the current folder first on ``sys.path`` for ``python -m`` and ``python -c``, so in the
repository root ``import mspti_core`` finds the source folder, which has no compiled parts (no
``_mspti`` module, no ``lib64/``), instead of the package ``pip install .`` installed. A package
calls :func:`prefer_installed` first thing in its ``__init__``: when its own folder lacks the
compiled marker and an installed copy of the same package has it, the installed copy's folder goes
first in ``__path__``, so every submodule (and every path derived from a submodule's ``__file__``)
comes from the installed package.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["prefer_installed"]


def prefer_installed(name: str, package_path: list[str], marker: str) -> list[str]:
    """``package_path`` with an installed copy of package ``name`` first when this one lacks ``marker``.

    ``marker`` is a glob relative to the package folder naming a compiled file (``_mspti*.so``).
    """
    here = Path(package_path[0]).resolve()
    if any(here.glob(marker)):
        return package_path
    for entry in sys.path:
        candidate = (Path(entry) if entry else Path.cwd()) / name
        try:
            resolved = candidate.resolve()
        except OSError:
            continue
        if resolved != here and (resolved / "__init__.py").is_file() and any(resolved.glob(marker)):
            return [str(resolved), *package_path]
    return package_path
