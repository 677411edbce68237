// The math library under the GEMM primitive (opapi/gemm.h): OpenBLAS as the scipy-openblas32 wheel
// ships it (libscipy_openblas.so, every symbol prefixed scipy_), a dependency of the package.
//
// Found at first use, in this order: the wheel's folder beside the installed package
// (<site-packages>/scipy_openblas32/lib, reached from libopapi's real path, so a toolkit's lib64
// symlink leads there too), then the folder of the wheel a build was configured with (a CMake build
// tree; also in its RUNPATH), then the dynamic linker's search (LD_LIBRARY_PATH works but is not
// needed). When none is found, one warning is logged and the GEMM runs its own loops.
//
// Threads: the caller's torch default, which is OMP_NUM_THREADS when set, otherwise the number of
// physical cores; one in a ThreadSanitizer build. OpenBLAS itself runs single-threaded on its caller
// (its pool's threads spin between products, which on a loaded machine costs a scheduling quantum
// per product); libopapi splits large products, the heads of attention and large element-wise loops
// into that many parts on threads of its own (parallel_parts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace npusim::opapi {

struct MathLibrary {
    std::string path;  // the file loaded ("" when none was found)
    int threads = 1;   // the thread count of products and of the element-wise loops (the library's own)
};

// Loaded once (thread-safe), never unloaded.
const MathLibrary& math_library();

// Row-major C[m,n] = alpha * op(A) * op(B) + beta * C through the library's cblas_sgemm; false
// (nothing computed) when the library was not found or a size does not fit its 32-bit integers.
bool library_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                   int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

// Runs fn(begin, end) over parts of [0, count): up to math_library().threads contiguous parts, each
// on a thread of its own (the first on the caller's), joined before it returns. Inside a part (and
// with one thread) fn(0, count) runs on the caller as it is: work is split once, at the outermost level.
void parallel_parts(int64_t count, const std::function<void(int64_t, int64_t)>& fn);

// Element-wise, row and reduction loops over at least this many elements split across the math
// threads (smaller ones cost less than starting a thread).
constexpr int64_t kParallelFrom = int64_t{1} << 16;

// The thread count of torch's default for this process (see above), at least 1.
int default_math_threads();

}  // namespace npusim::opapi

// For tools and tests: "<path of the loaded library>\t<threads>" into buffer (with its NUL) when
// size allows, "" as the path when none was found; returns the size needed.
extern "C" __attribute__((visibility("default"))) size_t npusim_opapi_math_library(char* buffer, size_t size);
