"""The breakdown's output folder: breakdown owns what it wrote there, and nothing else.

Each run records the files it wrote in ``.mspti-trace-breakdown.json``. A re-run into the same
folder first removes the files of the previous run, so that the folder holds exactly the new
run's files (a different prefix or model id would otherwise leave the old facts beside the new).
A folder that is not empty and was not written by breakdown, or that holds files breakdown did
not write, is refused: breakdown never deletes what it did not write.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from mspti_trace.breakdown.options import BreakdownError

__all__ = ["MANIFEST_FILE", "claim_output_dir", "record_written"]

MANIFEST_FILE = ".mspti-trace-breakdown.json"


def _files_in(root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for path in root.rglob("*") if not path.is_dir()}


def _previous_run(root: Path) -> set[str] | None:
    manifest = root / MANIFEST_FILE
    if not manifest.is_file():
        return None
    try:
        written = json.loads(manifest.read_text(encoding="utf-8"))["written"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BreakdownError(f"{manifest}: not a breakdown's list of written files ({error})") from None
    if not isinstance(written, list) or not all(isinstance(name, str) for name in written):
        raise BreakdownError(f"{manifest}: not a breakdown's list of written files")
    return set(written)


def claim_output_dir(out: Path) -> None:
    """Makes ``out`` ready for a run: new, empty, or holding only an earlier run's files (removed
    here); raises BreakdownError, changing nothing, for any other folder."""
    if not out.exists():
        return
    if not out.is_dir():
        raise BreakdownError(f"{out}: not a folder; give a new or empty folder for the breakdown")
    present = _files_in(out)
    if not present:
        return
    previous = _previous_run(out)
    if previous is None:
        raise BreakdownError(
            f"{out}: not empty and not written by breakdown (no {MANIFEST_FILE}); give a new or empty folder"
        )
    foreign = sorted(present - previous - {MANIFEST_FILE})
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise BreakdownError(
            f"{out}: holds files breakdown did not write ({shown}); move them or give another folder"
        )
    for name in sorted(previous & present):
        (out / name).unlink()
    (out / MANIFEST_FILE).unlink()
    for directory in sorted((p for p in out.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        if not any(directory.iterdir()):
            directory.rmdir()


def record_written(out: Path, paths: Iterable[Path]) -> None:
    """Records the files a run wrote into ``out``."""
    names = sorted(path.relative_to(out).as_posix() for path in paths)
    (out / MANIFEST_FILE).write_text(json.dumps({"written": names}, indent=1) + "\n", encoding="utf-8")
