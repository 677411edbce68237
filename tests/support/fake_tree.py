"""A stand-in for the installed native trees: every file the toolkit links, with fake contents.

Tests of the toolkit, the CLIs and the launcher point ``NPU_SIM_PREFIX`` / ``NPU_SIM_MSPTI_PREFIX``
at it, so that they run without the native build.
"""

from __future__ import annotations

from pathlib import Path

from sim_runtime import paths


def elf_bytes(e_type: int = 3, *, big_endian: bool = False) -> bytes:
    """The start of a 64-bit ELF header with the given object type (3 = shared object)."""
    ident = b"\x7fELF" + bytes([2, 2 if big_endian else 1, 1]) + bytes(9)
    return ident + e_type.to_bytes(2, "big" if big_endian else "little") + bytes(46)


def make_native_tree(base: Path, mspti_library: Path | None = None) -> tuple[Path, Path]:
    """A fake installed sim_runtime root and mspti_core root under ``base``: (sim root, mspti root).

    Each header folder holds ``<folder>.h`` and each header file and library exists; the msPTI
    library is a link to ``mspti_library`` when given, else a fake ELF file.
    """
    sim, mspti = base / "sim", base / "mspti"
    for header_dir in paths.SIM_HEADER_DIRS:
        (sim / "include" / header_dir).mkdir(parents=True)
        (sim / "include" / header_dir / f"{header_dir}.h").write_text("/* header */\n")
    for header in paths.SIM_HEADER_FILES:
        (sim / "include" / header).write_text("/* header */\n")
    (sim / "lib64").mkdir()
    for library in paths.SIM_LIBRARIES:
        (sim / "lib64" / library).write_bytes(elf_bytes())
    (mspti / "include" / "mspti").mkdir(parents=True)
    (mspti / "include" / "mspti" / "mspti.h").write_text("/* mspti */\n")
    (mspti / "lib64").mkdir()
    if mspti_library is None:
        (mspti / "lib64" / paths.MSPTI_LIBRARY).write_bytes(elf_bytes())
    else:
        (mspti / "lib64" / paths.MSPTI_LIBRARY).symlink_to(mspti_library)
    (mspti / paths.MSPTI_PYTHON_PACKAGE).mkdir(parents=True)
    (mspti / paths.MSPTI_PYTHON_PACKAGE / "__init__.py").write_text('"""mspti"""\n')
    return sim, mspti
