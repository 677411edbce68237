"""Formats the tree's C and C++ files with clang-format (the style of `.clang-format`), or checks them.

    python tools/format_cpp.py                 # format every tracked C/C++ file in place
    python tools/format_cpp.py --check         # list the files that would change; exit 1 if any
    python tools/format_cpp.py --check --listed  # only the files of tools/format_cpp_files.txt (lint)
    python tools/format_cpp.py --write-list    # write the files that pass now into that list

The lint gate (tox -e lint) checks the listed files: those the tree passes today. Once the whole tree
has been formatted, the list is rewritten with --write-list and then names every file.

clang-format's output differs between major versions: use the one of tox's lint env
(`pip install 'clang-format==23.1.5'`).
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / "tools" / "format_cpp_files.txt"
SUFFIXES = (".c", ".h", ".cpp", ".hpp", ".cc")
INSTALL_HINT = "pip install 'clang-format==23.1.5'"


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


def listed_sources() -> list[str]:
    names = [line.strip() for line in LIST.read_text(encoding="utf-8").splitlines()]
    return [n for n in names if n and not n.startswith("#")]


def differing_lines(before: str, after: str) -> int:
    a, b = before.splitlines(), after.splitlines()
    return sum(1 for line in difflib.ndiff(a, b) if line[:2] in ("- ", "+ "))


def check(clang_format: str, paths: list[str]) -> list[Difference]:
    found = []
    for path in paths:
        source = (ROOT / path).read_text(encoding="utf-8")
        formatted = subprocess.run(
            [clang_format, "--style=file", f"--assume-filename={ROOT / path}"],
            input=source,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        if formatted != source:
            found.append(Difference(path, differing_lines(source, formatted)))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="format_cpp.py", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    parser.add_argument("--listed", action="store_true", help=f"only the files of {LIST.relative_to(ROOT)}")
    parser.add_argument("--write-list", action="store_true", help="list the files that pass now")
    parser.add_argument("--clang-format", default="clang-format", help="the clang-format to run")
    args = parser.parse_args(argv)
    clang_format = shutil.which(args.clang_format)
    if clang_format is None:
        print(f"format_cpp.py: {args.clang_format} not found; {INSTALL_HINT}", file=sys.stderr)
        return 2
    tracked = tracked_sources()
    paths = tracked
    if args.listed:
        paths = listed_sources()
        missing = sorted(set(paths) - set(tracked))
        if missing:
            print(f"format_cpp.py: {LIST.relative_to(ROOT)} names untracked files: {', '.join(missing)}")
            return 2
    if args.write_list:
        failing = {d.path for d in check(clang_format, tracked)}
        passing = [p for p in tracked if p not in failing]
        LIST.write_text(
            "# C/C++ files the lint gate checks with tools/format_cpp.py --check --listed (they pass).\n"
            + "".join(f"{p}\n" for p in passing),
            encoding="utf-8",
        )
        print(f"{len(passing)} of {len(tracked)} files pass; written to {LIST.relative_to(ROOT)}")
        return 0
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
