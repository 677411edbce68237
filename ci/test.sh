#!/usr/bin/env bash
# The project's test command (README "Test"): lint, the suite, and the suite under
# AddressSanitizer+UBSan and ThreadSanitizer. Each tox env builds its own wheel.
set -euo pipefail
cd "$(dirname "$0")/.."
exec tox run -e lint,py,asan,tsan "$@"
