#!/usr/bin/env bash
# Grade the vendor's msPTI on a real Ascend host with the conformance suite.
#
#   ci/hardware-validate.sh [REPORT_DIR] [extra mspti-conformance run options...]
#
# Needs: a CANN toolkit installed and sourced (ASCEND_HOME_PATH set, e.g. by set_env.sh), npu-smi,
# g++, Python 3.10+ with this project installed (`pip install .`, which provides mspti-conformance).
# The run uses the toolkit's headers and libraries and its lib64/libmspti.so, under the "upstream"
# profile (observed vendor behaviour); pass `--profile spec` to grade against the documented
# contract instead. Environment: MSPTI=/path/to/libmspti.so overrides the library under test;
# MSPTI_CONFORMANCE_KERNEL_BIN=/path/to/kernel.o (+ a kernel named in it) enables the raw-launch
# kernel scenarios, which otherwise are skipped on hardware.
set -euo pipefail

report_dir="${1:-mspti-conformance-hw-$(date +%Y%m%d-%H%M%S)}"
[[ $# -gt 0 ]] && shift

fail() { echo "hardware-validate: $*" >&2; exit 2; }

[[ -n "${ASCEND_HOME_PATH:-}" ]] || fail "ASCEND_HOME_PATH is not set; source the CANN set_env.sh first"
[[ -d "$ASCEND_HOME_PATH/include" && -d "$ASCEND_HOME_PATH/lib64" ]] \
    || fail "$ASCEND_HOME_PATH does not look like a CANN toolkit (no include/ or lib64/)"
mspti="${MSPTI:-$ASCEND_HOME_PATH/lib64/libmspti.so}"
[[ -f "$mspti" ]] || fail "no msPTI library at $mspti (set MSPTI=/path/to/libmspti.so)"
[[ -f "$ASCEND_HOME_PATH/include/mspti/mspti.h" ]] || fail "no msPTI headers under $ASCEND_HOME_PATH/include/mspti"
command -v npu-smi >/dev/null || fail "npu-smi not found: is the Ascend driver installed?"
command -v mspti-conformance >/dev/null || fail "mspti-conformance not found: pip install this project first"
command -v g++ >/dev/null || fail "g++ not found: the scenarios are compiled on this host"

echo "== host: $(uname -n), $(uname -m)"
echo "== CANN: $ASCEND_HOME_PATH"
echo "== msPTI under test: $mspti"
npu-smi info | head -n 20 || true
echo

status=0
mspti-conformance run --cann "$ASCEND_HOME_PATH" --mspti "$mspti" --profile upstream \
    --report-dir "$report_dir" "$@" || status=$?

echo
echo "== report: $report_dir/report.html (also report.json, junit.xml; run logs in $report_dir/runs)"
case "$status" in
    0) echo "== every applicable automated clause passed" ;;
    1) echo "== some clauses failed: see the report (each failure names its clause and keeps its log)" ;;
    *) echo "== the suite could not run (exit $status)" ;;
esac
exit "$status"
