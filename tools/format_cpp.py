"""Formats the tree's C and C++ files with clang-format (the style of `.clang-format`), or checks them.

    python tools/format_cpp.py            # format every tracked C/C++ file in place
    python tools/format_cpp.py --check    # list the files that would change; exit 1 if any (tox -e lint)

CANN's public headers (csrc/sim/include, csrc/mspti/include) keep CANN's text: a `.clang-format` with
`DisableFormat` in those folders leaves them as they are.

clang-format's output differs between major versions: use the one of tox's lint env
(`pip install 'clang-format==23.1.5'`).
"""

from __future__ import annotations

import argparse
import difflib
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".c", ".h", ".cpp", ".hpp", ".cc")
INSTALL_HINT = "pip install 'clang-format==23.1.5'"
# clang-format --dry-run names each place that would change as "<file>:<line>:<col>: error: ...".
_FINDING = re.compile(r"^(.+?):\d+:\d+: (?:error|warning): ", re.MULTILINE)


@dataclass(frozen=True)
class Difference:
    path: str
    lines: int  # lines that differ (removed plus added)


def tracked_sources() -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", *(f"*{s}" for s in SUFFIXES)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return sorted(p for p in out.split("\0") if p)


def differing_lines(before: str, after: str) -> int:
    a, b = before.splitlines(), after.splitlines()
    return sum(1 for line in difflib.ndiff(a, b) if line[:2] in ("- ", "+ "))


def formatted(clang_format: str, path: str) -> str:
    return subprocess.run(
        [clang_format, "--style=file", str(ROOT / path)], check=True, capture_output=True, text=True
    ).stdout


def check(clang_format: str, paths: list[str]) -> list[Difference]:
    # One clang-format process for the whole tree (a process per file costs 15x more); only the files
    # it names are formatted again to count their lines.
    run = subprocess.run(
        [clang_format, "--dry-run", "--style=file", *paths], cwd=ROOT, capture_output=True, text=True
    )
    if run.returncode != 0 and not run.stderr:
        raise RuntimeError(f"{clang_format} exited {run.returncode}")
    named = {Path(m).resolve() for m in _FINDING.findall(run.stderr)}
    found = []
    for path in paths:
        if (ROOT / path).resolve() in named:
            source = (ROOT / path).read_text(encoding="utf-8")
            found.append(Difference(path, differing_lines(source, formatted(clang_format, path))))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="format_cpp.py", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    parser.add_argument("--clang-format", default="clang-format", help="the clang-format to run")
    args = parser.parse_args(argv)
    clang_format = shutil.which(args.clang_format)
    if clang_format is None:
        print(f"format_cpp.py: {args.clang_format} not found; {INSTALL_HINT}", file=sys.stderr)
        return 2
    paths = tracked_sources()
    if not args.check:
        subprocess.run([clang_format, "--style=file", "-i", *(str(ROOT / p) for p in paths)], check=True)
        print(f"formatted {len(paths)} files")
        return 0
    differences = check(clang_format, paths)
    for d in differences:
        print(f"would reformat {d.path} ({d.lines} lines)")
    lines = sum(d.lines for d in differences)
    summary = f"{len(differences)} of {len(paths)} files would change ({lines} lines)"
    print(f"{summary}; `python tools/format_cpp.py` formats" if differences else summary)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
