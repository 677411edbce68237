#!/usr/bin/env bash
# The project's test command (README "Test"): lint, the newcomer tier (the README's install from a
# fresh venv, then every documented command through the toolkit's paths), the suite with Python and
# C++ coverage (gated), the trace export read by HTA, torch_npu programs on the simulator, the suite under AddressSanitizer+UBSan and
# ThreadSanitizer, and a libFuzzer smoke run of every fuzz target (docs/reliability.md). Each tox env
# builds its own wheel or tree.
set -euo pipefail
cd "$(dirname "$0")/.."
exec tox run -e lint,newcomer,cov,hta,torch-npu,asan,tsan,fuzz-smoke "$@"
