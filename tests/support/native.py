"""Locate the native build and compile test programs against it.

Tests run against the installed package (``pip install .``) by default. A developer
iterating on C++ can point ``NPU_SIM_BUILD_DIR`` at a CMake build tree instead; its
``lib64/`` holds every library, exactly as the installed ``lib64/`` folders do.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from mspti_base.preload import preload_value
from mspti_base.record_layouts_cpp import header_text as schema_header_text

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class NativeTree:
    """Where the simulator's and msPTI's libraries and headers are."""

    sim_lib64: Path
    mspti_lib64: Path
    include_dirs: tuple[Path, ...]
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def mspti_library(self) -> Path:
        return self.mspti_lib64 / "libmspti.so"

    def env(self, preload_mspti: bool = False, **overrides: str) -> dict[str, str]:
        """An environment that runs a program on the simulator, like `npu-sim run` does."""
        env = {
            k: v for k, v in os.environ.items() if not k.startswith("NPU_SIM_") or k == "NPU_SIM_BUILD_DIR"
        }
        env.pop("LD_PRELOAD", None)
        env["ASCEND_HOME_PATH"] = str(self.sim_lib64.parent)
        paths = [str(self.sim_lib64), str(self.mspti_lib64)]
        env["LD_LIBRARY_PATH"] = os.pathsep.join([*paths, env.get("LD_LIBRARY_PATH", "")]).rstrip(os.pathsep)
        env["MSTX_INJECTION_PATH"] = str(self.sim_lib64 / "libprofapi.so")
        env.update(self.extra_env)
        runtime = os.environ.get("NPU_SIM_SANITIZER_PRELOAD", "")
        preload = preload_value(
            "",
            first=[runtime] if runtime else [],
            last=[str(self.mspti_library)] if preload_mspti else [],
            separator=" ",
        )
        if preload:
            env["LD_PRELOAD"] = preload
        env.update(overrides)
        return env


def find_native_tree() -> NativeTree:
    include = (
        REPO / "csrc" / "sim" / "include",
        REPO / "csrc" / "seam" / "include",
        REPO / "csrc" / "mspti" / "include",
    )
    build = os.environ.get("NPU_SIM_BUILD_DIR")
    if build:
        lib64 = Path(build).resolve() / "lib64"
        # The record schema of the tree's headers (what its libraries write), not an installed copy's.
        facts = Path(build).resolve() / "generated" / "schema" / "record_header.json"
        extra = {"MSPTI_RECORD_HEADER": str(facts)} if facts.is_file() else {}
        return NativeTree(sim_lib64=lib64, mspti_lib64=lib64, include_dirs=include, extra_env=extra)
    import mspti_core
    import sim_runtime

    sim_lib64 = Path(sim_runtime.__path__[0]).resolve() / "lib64"
    mspti_lib64 = Path(mspti_core.__path__[0]).resolve() / "lib64"
    if not (sim_lib64 / "libascendcl.so").exists():
        raise FileNotFoundError(
            f"{sim_lib64}/libascendcl.so is missing: install the project (`pip install .`) "
            "or set NPU_SIM_BUILD_DIR to a CMake build tree"
        )
    return NativeTree(sim_lib64=sim_lib64, mspti_lib64=mspti_lib64, include_dirs=include)


def _record_kinds_text(schema: str) -> str:
    """The ``MSPTI_SCHEMA_RECORD_KINDS*`` X-macros of record_schema.h's text, alone: C programs
    include them (the rest of the header is C++)."""
    lines = schema.splitlines()
    macros: list[str] = []
    for number, line in enumerate(lines):
        if line.startswith("#define MSPTI_SCHEMA_RECORD_KINDS"):
            end = number
            while lines[end].endswith("\\"):
                end += 1
            macros += lines[number : end + 1]
    if not macros:
        raise RuntimeError(
            "record_schema.h (mspti_base.record_layouts_cpp) defines no MSPTI_SCHEMA_RECORD_KINDS"
        )
    return "\n".join(
        [
            "// The X-macros of record_schema.h (mspti_base.record_layouts_cpp), for C test programs.",
            "#ifndef MSPTI_SCHEMA_RECORD_KINDS_H",
            "#define MSPTI_SCHEMA_RECORD_KINDS_H",
            *macros,
            "#endif",
            "",
        ]
    )


def schema_include_dir(out_dir: Path) -> Path:
    """A folder for ``-I`` that holds the record schema (docs/architecture.md, "The record schema"):
    ``mspti_schema/record_schema.h`` for C++ and ``mspti_schema/record_kinds.h``, its kind X-macros,
    for C. Named by the headers' content, so that a program's build key follows the schema."""
    from conformance.build import schema_folder  # the suite writes its programs' schema header the same way

    return schema_folder(out_dir, {"record_kinds.h": _record_kinds_text(schema_header_text())})


class ProgramBuilder:
    """Compiles C/C++ test programs once per folder, keyed by their sources and flags; every
    program may include the record schema's headers (`schema_include_dir`). Processes may share the
    folder (the xdist workers of a run, support.run_folder): a program is compiled under a name of
    this process and renamed into place, so the others see it whole or not at all."""

    def __init__(self, tree: NativeTree, out_dir: Path) -> None:
        self.tree = tree
        self.out_dir = out_dir

    def build(self, sources: list[Path], libs: list[str], extra_flags: list[str] | None = None) -> Path:
        flags = list(extra_flags or [])
        schema = schema_include_dir(self.out_dir)
        digest = hashlib.sha256(schema.name.encode())
        # A program's own headers sit beside it (torture.h, channel_program.h): they are part of its key.
        headers = sorted({h for src in sources for ext in ("*.h", "*.hpp") for h in src.parent.glob(ext)})
        for path in [*sources, *headers]:
            digest.update(path.read_bytes())
        digest.update(" ".join([*libs, *flags]).encode())
        exe = self.out_dir / f"{sources[0].stem}-{digest.hexdigest()[:12]}"
        if exe.exists():
            return exe
        partial = exe.with_name(f".{exe.name}.{os.getpid()}.{threading.get_ident()}")
        is_cpp = any(s.suffix in (".cpp", ".cc") for s in sources)
        compiler = shutil.which("g++" if is_cpp else "gcc") or ("g++" if is_cpp else "gcc")
        cmd = [
            compiler,
            "-O1",
            "-g",
            "-Wall",
            "-Wextra",
            "-Werror",
            *(f"-I{d}" for d in self.tree.include_dirs),
            f"-I{schema}",
            *(str(s) for s in sources),
            "-o",
            str(partial),
            f"-L{self.tree.sim_lib64}",
            f"-L{self.tree.mspti_lib64}",
            f"-Wl,-rpath,{self.tree.sim_lib64}",
            *(f"-l{lib}" for lib in libs),
            "-lpthread",
            "-ldl",
            *flags,
        ]
        if is_cpp:
            cmd.insert(1, "-std=c++17")
        sanitize = os.environ.get("NPU_SIM_TEST_SANITIZE", "")
        if sanitize:
            cmd.insert(1, f"-fsanitize={sanitize}")
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            partial.unlink(missing_ok=True)
            raise RuntimeError(f"compiling {sources[0].name} failed:\n{' '.join(cmd)}\n{result.stderr}")
        os.replace(partial, exe)
        return exe


def run_program(
    exe: Path, env: dict[str, str], args: list[str] | None = None, timeout: float = 60.0
) -> subprocess.CompletedProcess[str]:
    """Runs a test program; a crash or non-zero exit is reported with its output."""
    return subprocess.run([str(exe), *(args or [])], env=env, capture_output=True, text=True, timeout=timeout)


class Stalled(Exception):
    """A watched program made no progress for its stall limit (or ran past its hard limit)."""

    def __init__(self, message: str, stdout: str, stderr: str) -> None:
        super().__init__(message)
        self.stdout = stdout
        self.stderr = stderr


def run_watched_program(
    exe: Path,
    env: dict[str, str],
    args: list[str],
    progress_prefix: str,
    stall_s: float,
    limit_s: float,
) -> subprocess.CompletedProcess[str]:
    """Runs a program that prints a line starting with ``progress_prefix`` whenever it gets further.

    Slow is not stuck: the program may take as long as it needs (up to ``limit_s``, a safety net
    far above any run), as long as no ``stall_s`` pass without a progress line. A program that
    stops progressing is killed and `Stalled` raised with its output so far.
    """
    proc = subprocess.Popen(
        [str(exe), *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stderr is not None
    out: list[str] = []
    err: list[str] = []
    last_progress = [time.monotonic()]

    def read_stdout() -> None:
        for line in proc.stdout:  # type: ignore[union-attr]
            out.append(line)
            if line.startswith(progress_prefix):
                last_progress[0] = time.monotonic()

    def read_stderr() -> None:
        err.extend(proc.stderr)  # type: ignore[arg-type]

    readers = [threading.Thread(target=f, daemon=True) for f in (read_stdout, read_stderr)]
    for reader in readers:
        reader.start()
    started = time.monotonic()
    reason = ""
    while proc.poll() is None:
        now = time.monotonic()
        if now - last_progress[0] > stall_s:
            reason = f"no progress for {stall_s:.0f} s (after {now - started:.0f} s)"
        elif now - started > limit_s:
            reason = f"still running after {limit_s:.0f} s, though progressing"
        if reason:
            proc.kill()
            proc.wait()
            break
        time.sleep(0.2)
    for reader in readers:
        reader.join(timeout=10)
    stdout, stderr = "".join(out), "".join(err)
    if reason:
        raise Stalled(f"{exe.name} {' '.join(args)}: {reason}", stdout, stderr)
    return subprocess.CompletedProcess([str(exe), *args], proc.returncode, stdout, stderr)


def package_root() -> Path:
    """The folder this test process imports sim_runtime, mspti_core and conformance from."""
    import sim_runtime

    return Path(sim_runtime.__path__[0]).resolve().parent


def python_subprocess_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """An environment in which a child `python` imports the same packages as this test process."""
    env = dict(os.environ if base is None else base)
    root = str(package_root())
    env["PYTHONPATH"] = os.pathsep.join([root, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    runtime = os.environ.get("NPU_SIM_SANITIZER_PRELOAD", "")
    if runtime:
        env["LD_PRELOAD"] = preload_value(env.get("LD_PRELOAD", ""), first=[runtime], separator=" ")
    return env


def without_sanitizer_runtime(env: dict[str, str]) -> dict[str, str]:
    """``env`` for a shell or build tool: no ThreadSanitizer runtime preloaded (bash crashes under it).

    Programs compiled with the sanitizer link its runtime themselves; other preloads stay. The
    AddressSanitizer runtime stays: it must come first for any process that loads our libraries.
    """
    runtime = os.environ.get("NPU_SIM_SANITIZER_PRELOAD", "")
    if "tsan" not in Path(runtime).name:
        return dict(env)
    out = dict(env)
    kept = preload_value(out.get("LD_PRELOAD", ""), drop=lambda part: part == runtime, separator=" ")
    if kept:
        out["LD_PRELOAD"] = kept
    else:
        out.pop("LD_PRELOAD", None)
    return out
