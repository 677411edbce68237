#!/usr/bin/env bash
# Builds the fuzz targets (and the native libraries they load) with clang, libFuzzer
# instrumentation and a sanitizer, into build/fuzz (or build/fuzz-tsan).
#
#   fuzz/build.sh [address|thread]        FUZZ_BUILD_DIR overrides the build directory
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize="${1:-${FUZZ_SANITIZE:-address}}"
case "$sanitize" in
    address) default_dir=build/fuzz ;;
    thread) default_dir=build/fuzz-tsan ;;
    *) echo "usage: fuzz/build.sh [address|thread]" >&2; exit 2 ;;
esac
build_dir="${FUZZ_BUILD_DIR:-$default_dir}"
version="${FUZZ_LLVM_VERSION:-14}"
cc="${FUZZ_CC:-$(command -v "clang-$version" || command -v clang || true)}"
cxx="${FUZZ_CXX:-$(command -v "clang++-$version" || command -v clang++ || true)}"
if [[ -z "$cc" || -z "$cxx" ]]; then
    echo "fuzz/build.sh: clang not found (run ci/fuzz_setup.sh)" >&2
    exit 1
fi
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
    cmake -S fuzz -B "$build_dir" "${generator[@]}" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
        -DFUZZ_SANITIZE="$sanitize"
fi
jobs="${FUZZ_BUILD_JOBS:-$(nproc)}"
cmake --build "$build_dir" --target fuzz_targets -j "$jobs"
echo "fuzz/build.sh: targets in $build_dir/bin"
