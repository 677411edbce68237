#!/usr/bin/env bash
# Builds this sample (see ../mspti_common/build_sample.sh for the flags it honours).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../mspti_common/build_sample.sh" "$here" mspti_callback_mstx
