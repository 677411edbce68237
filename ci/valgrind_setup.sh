#!/usr/bin/env bash
# Installs valgrind (callgrind counts the instructions of `npu-sim bench launch_instructions` and of
# the instruction-ceiling test). Debian/Ubuntu (apt-get); does nothing when present.
# Used by the tox env newcomer (tox.ini), which gates the ceilings on the README's install.
set -euo pipefail

if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
    echo "valgrind_setup: $(valgrind --version) is installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "valgrind_setup: apt-get not found; install valgrind by hand" >&2
    exit 1
fi
sudo=()
if [[ "$(id -u)" != 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "valgrind_setup: need root (or sudo) to install valgrind" >&2
        exit 1
    fi
fi
echo "valgrind_setup: installing valgrind"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends valgrind >/dev/null
echo "valgrind_setup: $(valgrind --version) installed"
