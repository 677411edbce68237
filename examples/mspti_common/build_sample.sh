#!/usr/bin/env bash
# Builds one msPTI sample: build_sample.sh SAMPLE_DIR OUTPUT_NAME.
# Uses $ASCEND_CFLAGS / $ASCEND_LDFLAGS when set, else the layout under $ASCEND_HOME_PATH
# (a CANN toolkit, or the simulator's: eval "$(npu-sim env)").
set -euo pipefail
sample_dir=$1
output=$2
: "${ASCEND_HOME_PATH:?set ASCEND_HOME_PATH (for the simulator: eval \"\$(npu-sim env)\")}"
cflags=${ASCEND_CFLAGS:-"-I$ASCEND_HOME_PATH/include"}
ldflags=${ASCEND_LDFLAGS:-"-L$ASCEND_HOME_PATH/lib64 -Wl,-rpath,$ASCEND_HOME_PATH/lib64"}
common="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC2086  # the flag variables hold several words
${CXX:-g++} -std=c++17 -O2 -Wall -Wextra -I"$common" $cflags "$sample_dir/main.cpp" -o "$sample_dir/$output" \
    $ldflags -lascendcl -lopapi -lnnopbase -lmspti -ldl -lpthread
echo "built $sample_dir/$output"
