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
if ! command -v apt-get >/dev/null 2>&1; then
    echo "fuzz_setup: apt-get not found; install ${packages[*]} (or equivalent) by hand" >&2
    exit 1
fi
sudo=()
if [[ "$(id -u)" != 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "fuzz_setup: need root (or sudo) to install ${packages[*]}" >&2
        exit 1
    fi
fi
echo "fuzz_setup: installing ${packages[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
have_libfuzzer || { echo "fuzz_setup: libFuzzer still missing after the install" >&2; exit 1; }
echo "fuzz_setup: $("$clang_bin" --version | head -n1) with libFuzzer installed"
