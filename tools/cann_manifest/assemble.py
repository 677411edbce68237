"""Assemble CANN's public include/ tree from checkouts of the public repositories (sources.toml).

    python tools/cann_manifest/assemble.py --out DIR \\
        --repo hicann/runtime=PATH ... [--local hicann/hcomm=FOLDER@COMMIT]

PATH is a git repository (work tree or bare); headers are read from its HEAD commit with `git show`,
so nothing is checked out. FOLDER holds the [[local]] repository's files at their repository paths.
DIR receives the tree and `cann_sources.json` (the release, each repository's commit and package
version), which generate.py copies into the manifest. Nothing here is committed: DIR is a scratch
folder.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

SOURCES = Path(__file__).with_name("sources.toml")


@dataclass(frozen=True)
class RepoRecord:
    name: str
    commit: str
    version: str
    origin: str  # "git" (read at that commit) or "files" (a folder of files from the repository)


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True).stdout


def _version(repo: Path, version_file: str) -> str:
    try:
        text = _git(repo, "show", f"HEAD:{version_file}").decode()
    except subprocess.CalledProcessError:
        return ""
    match = re.search(r'VERSION\s+"([^"]+)"', text) or re.search(r"^Version=(\S+)", text, re.MULTILINE)
    return match.group(1) if match else ""


def _copy_from_git(repo: Path, src: str, dst: Path) -> list[Path]:
    listing = _git(repo, "ls-tree", "-r", "--name-only", "HEAD", "--", src).decode().split()
    if not listing:
        raise SystemExit(f"assemble: {src} is not in {repo} at HEAD")
    written = []
    for path in listing:
        if not path.endswith((".h", ".hpp")):
            continue
        target = dst if path == src else dst / Path(path).relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_git(repo, "show", f"HEAD:{path}"))
        written.append(target)
    return written


def _parse_pairs(values: list[str], what: str) -> dict[str, str]:
    pairs = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep:
            raise SystemExit(f"assemble: {what} takes NAME=PATH, got {value!r}")
        pairs[name] = path
    return pairs


def assemble(out: Path, repos: dict[str, str], locals_: dict[str, str]) -> list[RepoRecord]:
    sources = tomllib.loads(SOURCES.read_text())
    records: list[RepoRecord] = []
    roles: dict[str, str] = {}  # include-relative path -> role of the entry that wrote it last
    for repo in sources["repo"]:
        name = repo["name"]
        if name not in repos:
            raise SystemExit(f"assemble: no checkout given for {name} (--repo {name}=PATH)")
        path = Path(repos[name])
        for entry in repo["map"]:
            for target in _copy_from_git(path, entry["from"], out / entry["to"]):
                roles[target.relative_to(out).as_posix()] = entry.get("role", "public")
        commit = _git(path, "rev-parse", "HEAD").decode().strip()
        records.append(RepoRecord(name, commit, _version(path, repo.get("version_file", "")), "git"))
    for local in sources.get("local", []):
        name = local["name"]
        if name not in locals_:
            raise SystemExit(f"assemble: no folder given for {name} (--local {name}=FOLDER@COMMIT)")
        folder, _, commit = locals_[name].partition("@")
        if not re.fullmatch(r"[0-9a-f]{40}", commit):
            raise SystemExit(f"assemble: --local {name} needs FOLDER@COMMIT (40 hex digits)")
        for entry in local["files"]:
            target = out / entry["to"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((Path(folder) / entry["from"]).read_bytes())
            roles[entry["to"]] = "public"
        for standin in local.get("standin", []):
            target = out / standin["to"]
            guard = "STANDIN_" + re.sub(r"\W", "_", standin["to"]).upper()
            lines = [f"#ifndef {guard}", f"#define {guard}"]
            lines += [f"#include {inc}" for inc in standin["includes"]]
            target.write_text("\n".join([*lines, "#endif", ""]))
            roles[standin["to"]] = "standin"
        records.append(RepoRecord(name, commit, "", "files"))
    (out / "cann_sources.json").write_text(
        json.dumps(
            {
                "release": sources["release"],
                "repositories": [asdict(r) for r in records],
                "public": sorted(p for p, role in roles.items() if role == "public"),
                "standins": sorted(p for p, role in roles.items() if role == "standin"),
            },
            indent=1,
        )
        + "\n"
    )
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--repo", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--local", action="append", default=[], metavar="NAME=FOLDER@COMMIT")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        records = assemble(args.out, _parse_pairs(args.repo, "--repo"), _parse_pairs(args.local, "--local"))
    except subprocess.CalledProcessError as error:
        parser.error(f"git failed ({' '.join(error.cmd[:4])} ...): {error.stderr.decode().strip()}")
    except FileNotFoundError as error:
        parser.error(f"cannot read {error.filename}")
    for record in records:
        print(f"{record.name:36} {record.commit} {record.version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
