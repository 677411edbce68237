"""The simulated CANN for ``python -m mspti_core run``: the environment `npu-sim run` gives a program.

Registered as the entry point ``simulator`` of the group ``mspti_core.run`` (pyproject.toml), since
mspti_core sits below the simulator's package and imports nothing from it (docs/architecture.md,
"Layers"). Errors are ``ValueError`` (:class:`~sim_runtime.config.ConfigError`,
:class:`~sim_runtime.toolkit.ToolkitError`) or ``OSError``, with a message saying what to change.
"""

from __future__ import annotations

import os
from pathlib import Path

from mspti_core.constant import Constant
from sim_runtime.config import SimConfig, parse_setting
from sim_runtime.toolkit import build_toolkit

__all__ = ["simulator_environment"]


def simulator_environment(
    mspti: Path | None, soc: str | None, clock: str | None, environ: dict[str, str]
) -> dict[str, str]:
    """``environ`` with the simulator's toolkit, msPTI preloaded and the folder of sim_runtime on PYTHONPATH.

    ``soc`` and ``clock`` (the raw command-line values, ``None`` if not given) override the settings of
    ``environ``; ``mspti`` names another libmspti.so to link into the toolkit.
    """
    config = SimConfig.from_env(environ)
    changes = {
        name: parse_setting(name, raw, source=f"--{name}")
        for name, raw in (("soc", soc), ("clock", clock))
        if raw is not None
    }
    if changes:
        config = config.replace(**changes)
    toolkit = build_toolkit(mspti, environ=environ)
    env = dict(environ)
    env.update(toolkit.env(config, preload=True, environ=environ))
    env[Constant.LIBRARY_ENV] = str(toolkit.mspti_link)
    root = str(Path(__file__).resolve().parents[1])
    existing = [entry for entry in environ.get("PYTHONPATH", "").split(os.pathsep) if entry and entry != root]
    env["PYTHONPATH"] = os.pathsep.join([root, *existing])
    return env
