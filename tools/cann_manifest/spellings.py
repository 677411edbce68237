"""Whether code that must build against the real CANN uses only CANN's public spellings.

    python tools/cann_manifest/spellings.py [PATH ...]

Scans C and C++ sources (default: msPTI's CANN-facing code, csrc/mspti and csrc/seam, and the
calibration runner sim_runtime/data/calibrate_runner.cpp) for identifiers of CANN's families
(acl*, Hccl*, mstx*, ACL_*, HCCL_*) that the manifest does not list, and for includes of headers
CANN refuses to have included directly (e.g. mstx/mstx_detail/mstx_types.h). Comments and string
literals are not scanned. Standard library only; exit 1 on a finding.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
MANIFEST = REPO / "sim_runtime" / "data" / "cann_manifest.json"
ALLOWLIST = Path(__file__).with_name("allowlist.toml")
DEFAULT_PATHS = (
    REPO / "csrc" / "mspti",
    REPO / "csrc" / "seam",
    REPO / "sim_runtime" / "data" / "calibrate_runner.cpp",
)
SOURCES = (".h", ".hpp", ".c", ".cc", ".cpp")
IDENTIFIER = re.compile(
    r"\b(acl[A-Za-z][A-Za-z0-9_]*|Hccl[A-Za-z0-9_]+|mstx[A-Za-z0-9_]+|ACL_[A-Za-z0-9_]+|HCCL_[A-Za-z0-9_]+)\b"
)
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.MULTILINE)
_COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str


def manifest_names(manifest: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for facts in manifest["headers"].values():
        for kind in ("functions", "records", "enums", "enumerators", "typedefs", "constants"):
            for item in facts.get(kind, []):
                names.add(item["name"])
                for f in item.get("fields", []):
                    names.add(f["name"])
    return names


def forbidden_headers(manifest: dict[str, Any]) -> set[str]:
    return {h for h, facts in manifest["headers"].items() if not facts["direct_include"]}


def _blank(match: re.Match[str]) -> str:
    """A comment or literal becomes blank, keeping its line breaks (findings name the right line)."""
    return "\n" * match.group(0).count("\n") + " "


def _files(paths: Iterable[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in SOURCES)
        elif path.suffix in SOURCES:
            found.append(path)
    return found


def allowed_names(path: Path = ALLOWLIST) -> set[str]:
    entries = tomllib.loads(path.read_text()).get("spelling", [])
    for entry in entries:
        if not entry.get("reason"):
            raise SystemExit(f"{path}: spelling {entry.get('name')}: needs a reason")
    return {entry["name"] for entry in entries}


def scan(paths: Iterable[Path] = DEFAULT_PATHS, manifest_path: Path = MANIFEST) -> tuple[list[Finding], int]:
    manifest = json.loads(manifest_path.read_text())
    names = manifest_names(manifest) | allowed_names()
    forbidden = forbidden_headers(manifest)
    findings: list[Finding] = []
    files = _files(paths)
    for path in files:
        text = path.read_text(errors="replace")
        rel = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else str(path)
        for match in INCLUDE.finditer(text):
            if match.group(1) in forbidden:
                line = text.count("\n", 0, match.start()) + 1
                findings.append(
                    Finding(
                        rel, line, f"includes {match.group(1)}, which CANN refuses to have included directly"
                    )
                )
        code = _COMMENT_OR_STRING.sub(_blank, INCLUDE.sub(lambda m: "\n" * m.group(0).count("\n"), text))
        for match in IDENTIFIER.finditer(code):
            if match.group(1) not in names:
                line = code.count("\n", 0, match.start()) + 1
                findings.append(
                    Finding(rel, line, f"{match.group(1)} is not a CANN public name (not in the manifest)")
                )
    return findings, len(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    args = parser.parse_args(argv)
    missing = [p for p in args.paths if not p.exists()]
    if missing:
        parser.error(f"{missing[0]} does not exist")
    if not args.manifest.is_file():
        parser.error(f"no manifest at {args.manifest}")
    findings, count = scan([p.resolve() for p in args.paths] or DEFAULT_PATHS, args.manifest)
    for f in findings:
        print(f"{f.path}:{f.line}: {f.what}")
    print(f"{count} files, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
