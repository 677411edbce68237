#!/usr/bin/env bash
# Builds hccl_allreduce against a CANN toolkit (or the simulator's, via `npu-sim env`).
set -euo pipefail
: "${ASCEND_HOME_PATH:?set ASCEND_HOME_PATH (e.g. eval \"\$(npu-sim env)\")}"
cd "$(dirname "$0")"
ASCEND_CFLAGS="${ASCEND_CFLAGS:--I$ASCEND_HOME_PATH/include}"
ASCEND_LDFLAGS="${ASCEND_LDFLAGS:--L$ASCEND_HOME_PATH/lib64 -lascendcl -lhccl}"
# shellcheck disable=SC2086  # the flag variables are word lists
g++ -std=c++17 -O2 -Wall -Wextra main.cpp $ASCEND_CFLAGS $ASCEND_LDFLAGS -pthread -o hccl_allreduce
echo "built $(pwd)/hccl_allreduce"
