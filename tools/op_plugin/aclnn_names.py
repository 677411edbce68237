"""Writes sim_runtime/data/op_plugin_aclnn.txt: the aclnn operators torch_npu's op-plugin calls, read
from an op-plugin checkout (or bare clone) at a given commit. Development tool; not shipped.

    python tools/op_plugin/aclnn_names.py --git-dir /path/to/op-plugin.git --commit 517f2e7

An operator counts when op-plugin runs it: the first argument of an EXEC_NPU_*CMD* call in
op_plugin/ops/opapi/ (any .cpp / .h), or an `exec:` entry of op_plugin/config/op_plugin_functions.yaml
(the operators whose op-api code is generated)."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "sim_runtime" / "data" / "op_plugin_aclnn.txt"
EXEC_CALL = re.compile(r"EXEC_NPU_\w*CMD\w*\(\s*(aclnn[A-Z]\w*)")
YAML_EXEC = re.compile(r"^\s*exec:\s*(aclnn[A-Z]\w*)", re.MULTILINE)


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True
    ).stdout


def names_at(git_dir: str, commit: str) -> set[str]:
    names: set[str] = set()
    for path in git(git_dir, "ls-tree", "-r", "--name-only", commit, "op_plugin/ops/opapi").split():
        if path.endswith((".cpp", ".h")):
            names.update(EXEC_CALL.findall(git(git_dir, "show", f"{commit}:{path}")))
    names.update(
        YAML_EXEC.findall(git(git_dir, "show", f"{commit}:op_plugin/config/op_plugin_functions.yaml"))
    )
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", required=True, help="an op-plugin clone's git directory")
    parser.add_argument("--commit", required=True, help="the commit to read")
    args = parser.parse_args(argv)
    try:
        full = git(args.git_dir, "rev-parse", f"{args.commit}^{{commit}}").strip()
        names = names_at(args.git_dir, full)
    except subprocess.CalledProcessError as error:
        print(f"aclnn_names: git failed: {error.stderr.strip()}", file=sys.stderr)
        return 2
    header = [
        "# The aclnn operators torch_npu's op-plugin calls (tools/op_plugin/aclnn_names.py): the first",
        "# argument of each EXEC_NPU_*CMD* call in op_plugin/ops/opapi/ and each `exec:` of",
        "# op_plugin_functions.yaml.",
        "repository Ascend/op-plugin",
        f"commit {full}",
    ]
    DATA.write_text("\n".join(header + sorted(names)) + "\n")
    print(f"{len(names)} operators at {full[:12]} -> {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
