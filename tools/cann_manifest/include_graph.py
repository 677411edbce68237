"""The include graph of a header tree, as g++ sees it (`g++ -H`): for each header, the headers of the
tree it reaches and the standard headers it makes visible. Shared by generate.py (CANN's tree) and
check.py (ours), so both sides are measured the same way. Standard library only.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

CXX = os.environ.get("CXX", "g++")
CXXFLAGS = ["-std=c++17", "-x", "c++", "-fsyntax-only"]
# The ISO C and C++ standard headers: what a program may rely on a header to make visible. Headers
# internal to a C library (features.h, bits/...) or POSIX ones differ between systems and are left out.
STANDARD = frozenset(
    (
        "assert.h",
        "complex.h",
        "ctype.h",
        "errno.h",
        "fenv.h",
        "float.h",
        "inttypes.h",
        "iso646.h",
        "limits.h",
        "locale.h",
        "math.h",
        "setjmp.h",
        "signal.h",
        "stdalign.h",
        "stdarg.h",
        "stdatomic.h",
        "stdbool.h",
        "stddef.h",
        "stdint.h",
        "stdio.h",
        "stdlib.h",
        "stdnoreturn.h",
        "string.h",
        "tgmath.h",
        "threads.h",
        "time.h",
        "uchar.h",
        "wchar.h",
        "wctype.h",
        "algorithm",
        "any",
        "array",
        "atomic",
        "bitset",
        "charconv",
        "chrono",
        "codecvt",
        "complex",
        "condition_variable",
        "deque",
        "exception",
        "execution",
        "filesystem",
        "forward_list",
        "fstream",
        "functional",
        "future",
        "initializer_list",
        "iomanip",
        "ios",
        "iosfwd",
        "iostream",
        "istream",
        "iterator",
        "limits",
        "list",
        "locale",
        "map",
        "memory",
        "memory_resource",
        "mutex",
        "new",
        "numeric",
        "optional",
        "ostream",
        "queue",
        "random",
        "ratio",
        "regex",
        "scoped_allocator",
        "set",
        "shared_mutex",
        "sstream",
        "stack",
        "stdexcept",
        "streambuf",
        "string",
        "string_view",
        "system_error",
        "thread",
        "tuple",
        "type_traits",
        "typeindex",
        "typeinfo",
        "unordered_map",
        "unordered_set",
        "utility",
        "valarray",
        "variant",
        "vector",
    )
)
_C_LIBRARY = re.compile(
    r"^c(assert|ctype|errno|float|inttypes|limits|locale|math|setjmp|signal|stdarg|stddef|stdint|stdio|stdlib"
    r"|string|time|uchar|wchar|wctype)$"
)


@dataclass(frozen=True)
class HeaderGraph:
    standalone: bool  # compiles when it is the only header included
    error: str  # the first error line when it does not
    tree: frozenset[str]  # headers of the tree it reaches, include-relative
    visible: frozenset[str]  # standard headers it reaches (top-level names; C names for C++ wrappers)


def system_dirs(ordered: bool = False) -> list[str]:
    """g++'s system include folders: in search order, or longest first (for naming a header)."""
    out = subprocess.run(
        [CXX, "-x", "c++", "-E", "-v", "-"], input="", capture_output=True, text=True, check=False
    ).stderr
    dirs, inside = [], False
    for line in out.splitlines():
        if line.startswith("#include <...> search starts here"):
            inside = True
        elif line.startswith("End of search list"):
            break
        elif inside:
            dirs.append(os.path.realpath(line.strip()))
    return dirs if ordered else sorted(dirs, key=len, reverse=True)


def standard_name(path: str, sysdirs: list[str]) -> str:
    real = os.path.realpath(path)
    for d in sysdirs:
        if real.startswith(d + os.sep):
            name = real[len(d) + 1 :]
            match = _C_LIBRARY.match(name)
            return f"{match.group(1)}.h" if match else name
    return real


def header_graph(root: Path, header: str, sysdirs: list[str], defines: tuple[str, ...] = ()) -> HeaderGraph:
    root = root.resolve()
    proc = subprocess.run(
        [CXX, *CXXFLAGS, "-H", f"-I{root}", *defines, "-"],
        input=f'#include "{header}"\n',
        capture_output=True,
        text=True,
        check=False,
    )
    errors = [line for line in proc.stderr.splitlines() if " error: " in line or line.startswith("error")]
    # Every header reached counts, not only those a tree header includes itself: g++ lists a guarded
    # header once, under whichever header reached it first.
    tree: set[str] = set()
    visible: set[str] = set()
    for line in proc.stderr.splitlines():
        match = re.match(r"^\.+ (.+)$", line)
        if not match:
            continue
        real = os.path.realpath(match.group(1))
        if real.startswith(str(root) + os.sep):
            tree.add(os.path.relpath(real, root))
            continue
        name = standard_name(real, sysdirs)
        if name in STANDARD:
            visible.add(name)
    tree.discard(header)
    return HeaderGraph(
        standalone=proc.returncode == 0,
        error=errors[0].split(" error: ", 1)[-1] if errors else "",
        tree=frozenset(tree),
        visible=frozenset(visible),
    )
