#!/usr/bin/env bash
# apt_install.sh WHO PACKAGE...: installs Debian/Ubuntu packages with apt-get, as root or through
# sudo; messages start with WHO. Shared by the setup scripts of ci/ (fuzz_setup.sh, valgrind_setup.sh,
# mpi_setup.sh, gtest_setup.sh).
set -euo pipefail
who=$1
shift
if ! command -v apt-get >/dev/null 2>&1; then
    echo "$who: apt-get not found; install $* (or equivalent) by hand" >&2
    exit 1
fi
sudo=()
if [[ "$(id -u)" != 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "$who: need root (or sudo) to install $*" >&2
        exit 1
    fi
fi
echo "$who: installing $*"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
