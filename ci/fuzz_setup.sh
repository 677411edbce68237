#!/usr/bin/env bash
# Installs what the fuzz targets need: clang with libFuzzer and the sanitizer runtimes, and
# llvm-symbolizer for readable reports. Debian/Ubuntu (apt-get); does nothing when present.
# Used by the tox envs fuzz-smoke and fuzz (tox.ini).
set -euo pipefail

FUZZ_LLVM_VERSION="${FUZZ_LLVM_VERSION:-14}"
clang_bin="clang-${FUZZ_LLVM_VERSION}"

have_libfuzzer() {
    command -v "$clang_bin" >/dev/null 2>&1 || return 1
    local lib
    lib="$("$clang_bin" -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)"
    [[ "$lib" == /* && -f "$lib" ]] && return 0
    # Newer layouts keep the runtimes under a target-triple directory.
    lib="$("$clang_bin" -print-runtime-dir 2>/dev/null || true)"
    [[ -n "$lib" && ( -f "$lib/libclang_rt.fuzzer-x86_64.a" || -f "$lib/libclang_rt.fuzzer.a" ) ]]
}

if have_libfuzzer && command -v "llvm-symbolizer-${FUZZ_LLVM_VERSION}" >/dev/null 2>&1; then
    echo "fuzz_setup: $("$clang_bin" --version | head -n1) with libFuzzer is installed"
    exit 0
fi

packages=("clang-${FUZZ_LLVM_VERSION}" "libclang-rt-${FUZZ_LLVM_VERSION}-dev" "llvm-${FUZZ_LLVM_VERSION}")
bash "$(dirname "$0")/apt_install.sh" fuzz_setup "${packages[@]}"
have_libfuzzer || { echo "fuzz_setup: libFuzzer still missing after the install" >&2; exit 1; }
echo "fuzz_setup: $("$clang_bin" --version | head -n1) with libFuzzer installed"
