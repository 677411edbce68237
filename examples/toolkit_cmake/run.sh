#!/usr/bin/env bash
# Configures, builds and runs toolkit_cmake the way the msPTI samples' scripts do: CMake against
# the toolkit of the current environment, then the program with the toolkit's libmspti.so preloaded.
# Use: source <toolkit>/set_env.sh && ./run.sh [BUILD_DIR]
set -euo pipefail
: "${ASCEND_HOME_PATH:?source <toolkit>/set_env.sh first}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-$here/build}"
cmake -S "$here" -B "$build" >/dev/null
cmake --build "$build" >/dev/null
LD_PRELOAD="${ASCEND_HOME_PATH}/lib64/libmspti.so" "$build/toolkit_cmake"
