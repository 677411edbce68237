#!/usr/bin/env bash
# The newcomer tier: what a new user does, from nothing, on a machine with only the system toolchain.
#
# In a copy of this checkout (tracked and untracked-but-not-ignored files), with a fresh virtual
# environment and no extras: the README's two commands, then, through the toolkit's own paths only
# (set_env.sh, $ASCEND_HOME_PATH, $ASCEND_TOOLKIT_HOME), programs written the way CANN samples and
# third-party tools are written, and once each command the README and docs/ document. A missing
# dependency, header, library or path fails it.
#
# Not run here: hardware-only commands (--cann, --python-package mspti on Atlas), the long campaigns
# (tox -e fuzz, fuzz-tsan, the slow tests), full-length benchmark runs, and the in-tree benchmarks of
# `python -m benchmarks` (they compile the test suite's programs).
#
# Use: bash ci/newcomer.sh   (about 4 minutes on a 2-core machine, most of it `pip install .`)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/npu-sim-newcomer.XXXXXX")"
keep=${NEWCOMER_KEEP:-0}
cleanup() { if [[ "$keep" != 1 ]]; then rm -rf "$work"; else echo "newcomer: kept $work"; fi; }
trap cleanup EXIT
logs="$work/logs"
mkdir -p "$logs"
started=$SECONDS
steps=0

# step NAME COMMAND...: runs COMMAND with its output in a log ($last_log); shows the log and stops on
# failure.
last_log=
step() {
    local name=$1
    shift
    steps=$((steps + 1))
    local log
    log="$logs/$(printf '%02d' "$steps")-$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_').log"
    last_log=$log
    local begin=$SECONDS
    if "$@" >"$log" 2>&1; then
        printf 'newcomer: ok    %-44s %4ss\n' "$name" "$((SECONDS - begin))"
    else
        local status=$?
        printf 'newcomer: FAIL  %-44s (exit %s)\n' "$name" "$status"
        tail -n 60 "$log"
        exit 1
    fi
}

# expect FILE TEXT...: each TEXT must appear in FILE (a step's output, checked by the next step).
expect() {
    local file=$1
    shift
    local text
    for text in "$@"; do
        grep -qF -- "$text" "$file" || { echo "expected '$text' in $file:"; cat "$file"; return 1; }
    done
}

# --- a copy of the checkout, as a fresh clone would have it ----------------------------------------
src="$work/mspti-sim"
mkdir -p "$src"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard) | (cd "$repo" && python3 -c '
import os, shutil, sys
dest = sys.argv[1]
for name in sys.stdin.buffer.read().split(b"\0"):
    path = os.fsdecode(name)
    if path and os.path.lexists(path):
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(path, target, follow_symlinks=False)
' "$src")
cd "$src"

# --- the README: set up and run the main job --------------------------------------------------------
readme_main_job() {
    python3 -m venv .venv && . .venv/bin/activate
    pip install . && mspti-conformance run
}
step "README: pip install . && mspti-conformance run" readme_main_job
# shellcheck disable=SC1091
. .venv/bin/activate
expect "$last_log" "RESULT: PASSED"

# --- the toolkit, found and checked -----------------------------------------------------------------
step "npu-sim env --check" npu-sim env --check
toolkit="$(npu-sim env --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["ASCEND_TOOLKIT_HOME"])')"
# Everything below sees only what CANN's set_env.sh gives (and, for the README's g++ line, npu-sim env).
# shellcheck disable=SC1091
source "$toolkit/set_env.sh"
step "set_env.sh gives every variable" bash -c '
    for name in ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH ASCEND_OPP_PATH ASCEND_AICPU_PATH; do
        test -d "${!name}" || { echo "$name=${!name} is not a directory"; exit 1; }
    done
    test -f "$ASCEND_TOOLKIT_HOME/tools/mspti/include/mspti.h" && test -f "$ASCEND_TOOLKIT_HOME/tools/mspti/lib64/libmspti.so"
    case ":$PYTHONPATH:" in *":$ASCEND_TOOLKIT_HOME/python/site-packages:"*) ;; *) echo "PYTHONPATH=$PYTHONPATH"; exit 1;; esac
    npu-sim env --check | tail -n 1 | grep -q "every path the toolkit provides is present"'

# --- programs written the CANN way ------------------------------------------------------------------
step "CMake: securec.h, acl_prof.h, hixl.h, tools/mspti" bash examples/toolkit_cmake/run.sh "$work/toolkit_cmake"
expect "$last_log" "toolkit_cmake: OK" "aclprofInit: 0"
step "CANN's clients: libacl_rt, securec.h, hccl.h" bash examples/cann_clients/run.sh "$work/cann_clients"
expect "$last_log" "runtime_client: OK" "mspti_client: OK" "hccl_client: OK"
step "python: from mspti import KernelMonitor" \
    env LD_PRELOAD="$ASCEND_HOME_PATH/lib64/libmspti.so" python examples/cann_python/kernel_monitor.py 50
step "python: ctypes libms_tools_ext.so + MstxMonitor" \
    env LD_PRELOAD="$ASCEND_HOME_PATH/lib64/libmspti.so" python examples/cann_python/mstx_ctypes.py 20
step "python: the vendor result type is a plain Enum" python -c '
import enum, mspti
assert not isinstance(mspti.MsptiResult.MSPTI_SUCCESS, int), "MsptiResult must be a plain Enum"
assert isinstance(mspti.MsptiResult.MSPTI_SUCCESS, enum.Enum)
assert mspti.MsptiResult.MSPTI_SUCCESS != 0
print(mspti.__file__)'

# --- the README's "Using the simulator" -------------------------------------------------------------
readme_using_the_simulator() {
    eval "$(npu-sim env)"
    cp examples/acl_basic/main.cpp "$work/app.cpp"
    # shellcheck disable=SC2086  # the flag variables hold several words
    g++ "$work/app.cpp" $ASCEND_CFLAGS $ASCEND_LDFLAGS -o "$work/app"
    npu-sim run -- "$work/app"
    npu-sim run --mspti "$ASCEND_HOME_PATH/lib64/libmspti.so" --soc Ascend950PR_9599 --clock virtual -- "$work/app"
    npu-sim info
}
step "README: g++ app, npu-sim run, npu-sim info" readme_using_the_simulator

# --- docs/trace.md ----------------------------------------------------------------------------------
trace_commands() {
    bash examples/decoder_breakdown/build.sh "$work/decoder"
    npu-sim trace -o "$work/trace" --clock virtual -- "$work/decoder"
    npu-sim trace export "$work/trace" -o "$work/trace.json" --check
    npu-sim trace export "$work/trace" --format kineto -o "$work/kineto" --check
    npu-sim trace breakdown "$work/trace" -o "$work/breakdown" --declarations examples/decoder_breakdown/declarations.json
    npu-sim trace validate "$work/breakdown"
    npu-sim trace report "$work/trace" -o "$work/report.html"
    test -s "$work/trace.json" && test -s "$work/report.html"
    # As on an Ascend host: mspti-trace with the toolkit's own libmspti.so (set_env.sh's paths only).
    mspti-trace -o "$work/trace-host" -- "$work/decoder"
    mspti-trace export "$work/trace-host" --format ascend-pt -o "$work/ascend-pt" --check
}
step "docs/trace.md: trace, export, breakdown, validate, report, mspti-trace" trace_commands

# --- docs/timing.md ----------------------------------------------------------------------------------
step "npu-sim calibrate --rows check" npu-sim calibrate --rows check
expect "$last_log" "within"

# --- docs/performance.md: npu-sim bench, short runs ---------------------------------------------------
step "npu-sim bench (short runs)" npu-sim bench launch_rate record_delivery record_memory trace_export \
    --count 20000 --rounds 1
expect "$last_log" "added wall ns per traced launch" "records/s, wall clock, 2 thread(s)" "Kineto export"

# --- docs/conformance.md ----------------------------------------------------------------------------
step "mspti-conformance run -k ACT-BUF (another SoC)" mspti-conformance run --sim Ascend910_9382 -k ACT-BUF \
    --report-dir "$work/conformance-buf"
step "mspti-conformance run --profile upstream -k MSTX" mspti-conformance run --profile upstream -k MSTX \
    --report-dir "$work/conformance-upstream"
step "mspti-conformance list" mspti-conformance list -k marker --profile upstream

# --- examples/python_*: python -m mspti_core run, from the repository root ---------------------------
step "python -m mspti_core run (python_monitor)" python -m mspti_core run --clock virtual \
    examples/python_monitor/monitor.py --ranks 2
step "python -m mspti_core run (python_mstx_monitor)" python -m mspti_core run --clock virtual \
    examples/python_mstx_monitor/monitor.py --ranks 2

# --- the pytest plugin: the [pytest] extra, then the entry point without -p -------------------------
# The extra's requirements as the installed wheel declares them: `pip install '.[pytest]'` would build
# the wheel a second time (about 100 s) only to install the same package plus these.
pytest_extra() {
    local wanted
    wanted=$(python - <<'PY'
from importlib.metadata import requires

extra = [r.split(";")[0].strip() for r in requires("mspti-sim") or [] if 'extra == "pytest"' in r]
assert extra, "the installed wheel declares no [pytest] extra"
print(" ".join(extra))
PY
) || return 1
    pip install $wanted
}
step "pip install the [pytest] extra's requirements" pytest_extra
pytest_plugin() {
    mkdir -p "$work/pytest-empty" && cd "$work/pytest-empty"  # no test files: only the clause items
    pytest --conformance -q -p no:cacheprovider --conformance-k ACT-EXT \
        --conformance-report-dir "$work/conformance-pytest"
}
step "pytest --conformance (entry point)" pytest_plugin
expect "$last_log" " passed"
cd "$src"

# --- docs/performance.md: the instruction budget, gated on the README's (Release) install ----------
# (the test suite's conftest needs hypothesis, of the [test] extra; the install itself stays as is)
step "pip install hypothesis (for the test suite's conftest)" pip install "hypothesis>=6.100"
step "instruction ceilings (tests/bench/test_launch_instructions.py)" \
    pytest -q -p no:cacheprovider tests/bench/test_launch_instructions.py
expect "$last_log" "1 passed"

echo "newcomer: $steps steps passed in $((SECONDS - started)) s"
