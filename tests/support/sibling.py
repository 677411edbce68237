"""Importing a helper module that sits beside a conftest, in folders whose names shadow the standard
library as packages (``tests/trace`` would import as the stdlib's ``trace``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_sibling(folder: Path, name: str) -> ModuleType:
    """``folder/<name>.py`` as a module, loaded once per session under a name unique to ``folder``."""
    module_name = "tests_" + "_".join(folder.resolve().parts[-2:]) + f"_{name}"
    module_name = module_name.replace("-", "_")
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
