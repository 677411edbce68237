#!/usr/bin/env bash
# Builds the three programs with their own build files (CMake, make) against the toolkit of the
# current environment and runs each as CANN's examples run: the runtime and HCCL programs directly,
# the msPTI program with the toolkit's libmspti.so preloaded, as the msPTI samples' scripts do.
# Use: source <toolkit>/set_env.sh && ./run.sh [BUILD_DIR]
set -euo pipefail
: "${ASCEND_HOME_PATH:?source <toolkit>/set_env.sh first}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-$here/build}"
mkdir -p "$build"
cmake -S "$here" -B "$build" -DASCEND_CANN_PACKAGE_PATH="$ASCEND_HOME_PATH" >/dev/null
cmake --build "$build" >/dev/null
make -s -C "$here" OUT="$build" >/dev/null
"$build/runtime_client"
LD_PRELOAD="${ASCEND_HOME_PATH}/lib64/libmspti.so" "$build/mspti_client"
"$build/hccl_client"
