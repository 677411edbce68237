#!/usr/bin/env bash
# Builds decoder_breakdown with $ASCEND_CFLAGS / $ASCEND_LDFLAGS (for the simulator:
# eval "$(npu-sim env)"); falls back to the layout under $ASCEND_HOME_PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out=${1:-"$here/decoder_breakdown"}
: "${ASCEND_HOME_PATH:?set ASCEND_HOME_PATH (for the simulator: eval \"\$(npu-sim env)\")}"
cflags=${ASCEND_CFLAGS:-"-I$ASCEND_HOME_PATH/include"}
ldflags=${ASCEND_LDFLAGS:-"-L$ASCEND_HOME_PATH/lib64 -Wl,-rpath,$ASCEND_HOME_PATH/lib64 -lascendcl -lnnopbase -lopapi -lhccl -lprofapi"}
# shellcheck disable=SC2086  # the flag variables hold several words
${CXX:-g++} -std=c++17 -O2 -Wall -Wextra -Werror $cflags "$here/main.cpp" -o "$out" $ldflags -ldl -lpthread
echo "built $out"
