#!/usr/bin/env bash
# The project's test command (README "Test"): every env of tox.ini's envlist, one after another, each
# timed, with a table of the minutes beside docs/ci.md's budget at the end (ci/run_envs.py). The envs:
# lint, the newcomer tier (the README's install from a fresh venv, then every documented command
# through the toolkit's paths), the whole suite with Python and C++ coverage (gated; HTA and torch_npu
# installed, so the real consumers run too), the tests that reach native code concurrently or through
# the seam under AddressSanitizer+UBSan and under ThreadSanitizer (ci/sanitizer_tests.txt), and a
# libFuzzer smoke run of every fuzz target (docs/reliability.md, docs/ci.md).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 ci/run_envs.py "$@"
