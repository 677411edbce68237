#!/usr/bin/env bash
# Installs valgrind (callgrind counts the instructions of `npu-sim bench launch_instructions` and of
# the instruction-ceiling test). Debian/Ubuntu (apt-get); does nothing when present.
# Used by the tox env newcomer (tox.ini), which gates the ceilings on the README's install.
set -euo pipefail

if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
    echo "valgrind_setup: $(valgrind --version) is installed"
    exit 0
fi
bash "$(dirname "$0")/apt_install.sh" valgrind_setup valgrind
echo "valgrind_setup: $(valgrind --version) installed"
