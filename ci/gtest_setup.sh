#!/usr/bin/env bash
# Installs GoogleTest (Debian/Ubuntu: libgtest-dev) for the C++ unit tests (tests/cxx/test_unit.py,
# csrc/**/test/); does nothing when present. Used by the tox envs cov, asan and tsan (tox.ini), which
# set NPU_SIM_REQUIRE_GTEST so that the unit tests fail rather than skip without it.
set -euo pipefail

if [[ -f /usr/include/gtest/gtest.h ]]; then
    echo "gtest_setup: GoogleTest is installed"
    exit 0
fi
bash "$(dirname "$0")/apt_install.sh" gtest_setup libgtest-dev
echo "gtest_setup: GoogleTest installed"
