"""Compiling the programs the package ships as sources (the calibration runner, the benchmark
programs) against a simulated toolkit, at run time, into a cache keyed by what went into them."""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from sim_runtime.toolkit import Toolkit

__all__ = ["ProgramBuildError", "build_program"]


class ProgramBuildError(RuntimeError):
    """The compiler failed; the message holds its diagnostics."""


def build_program(
    compiler: str,
    sources: Sequence[Path],
    toolkit: Toolkit,
    *,
    cache: Path,
    flags: Sequence[str] = (),
    libs: Sequence[str] = (),
) -> Path:
    """Compiles ``sources`` with ``-I<toolkit>/include``, linked to ``libs`` in the toolkit's lib64
    (with an rpath to it), unless the cache already holds the program of the same sources, headers
    beside them, toolkit, compiler and flags. Returns the executable."""
    digest = hashlib.sha256()
    headers = sorted({h for src in sources for ext in ("*.h", "*.hpp") for h in src.parent.glob(ext)})
    for path in [*sources, *headers]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update("\0".join([compiler, str(toolkit.lib64), *flags, *libs]).encode())
    exe = cache / f"{sources[0].stem}-{digest.hexdigest()[:16]}"
    if exe.exists():
        return exe
    cache.mkdir(parents=True, exist_ok=True)
    partial = exe.with_suffix(f".{os.getpid()}.tmp")
    cmd = [
        compiler,
        *flags,
        f"-I{toolkit.include}",
        *(str(s) for s in sources),
        "-o",
        str(partial),
        f"-L{toolkit.lib64}",
        f"-Wl,-rpath,{toolkit.lib64}",
        *(f"-l{lib}" for lib in libs),
    ]
    # The compiler is no program on the simulator: it gets none of the libraries this process preloads.
    environ = {name: value for name, value in os.environ.items() if name != "LD_PRELOAD"}
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=environ)
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        raise ProgramBuildError(f"building {sources[0].name} failed:\n{done.stderr.strip()}")
    partial.replace(exe)
    return exe
