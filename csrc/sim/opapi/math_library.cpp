#include "opapi/math_library.h"

#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "core/log.h"

#ifdef NPU_SIM_OPENBLAS_HEADER
#include <cblas.h>  // scipy-openblas32's header: every symbol carries the scipy_ prefix
#endif

#if defined(__SANITIZE_THREAD__)
#define NPU_SIM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NPU_SIM_TSAN 1
#endif
#endif

namespace npusim::opapi {

namespace {

namespace fs = std::filesystem;

// cblas_sgemm's C ABI (the enums are ints); the header's declaration when it was found at build time.
#ifdef NPU_SIM_OPENBLAS_HEADER
using SgemmFn = decltype(&scipy_cblas_sgemm);
using SetThreadsFn = decltype(&scipy_openblas_set_num_threads);
constexpr auto kRowMajor = CblasRowMajor;
constexpr auto kNoTrans = CblasNoTrans;
constexpr auto kTrans = CblasTrans;
#else
using SgemmFn = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
using SetThreadsFn = void (*)(int);
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
#endif

constexpr const char* kLibraryFile = "libscipy_openblas.so";

struct Loaded {
    MathLibrary info;
    SgemmFn sgemm = nullptr;
};

// Set on the threads of a parallel_parts call while they run their part: work inside is not split again.
thread_local bool t_in_part = false;

// The folder of the file this code was loaded from, symlinks resolved ("" when unknown).
fs::path own_folder() {
    Dl_info dl{};
    if (dladdr(reinterpret_cast<const void*>(&own_folder), &dl) == 0 || dl.dli_fname == nullptr) return {};
    std::error_code ec;
    const fs::path real = fs::canonical(dl.dli_fname, ec);
    return ec ? fs::path{} : real.parent_path();
}

// <site-packages>/sim_runtime/lib64/libopapi.so -> <site-packages>/scipy_openblas32/lib/<library>.
std::string wheel_candidate() {
    const fs::path folder = own_folder();
    if (folder.empty()) return {};
    return (folder.parent_path().parent_path() / "scipy_openblas32" / "lib" / kLibraryFile).string();
}

Loaded load() {
    Loaded out;
#ifdef NPU_SIM_TSAN
    out.info.threads = 1;  // OpenBLAS's own threads are not instrumented: a sanitizer could not see its joins
#else
    out.info.threads = default_math_threads();
#endif
    void* handle = nullptr;
    std::string path = wheel_candidate();
    std::error_code ec;
    if (!path.empty() && fs::exists(path, ec)) handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
#ifdef NPU_SIM_OPENBLAS_LIBDIR
    if (handle == nullptr) {  // the wheel a build tree was configured with (a sanitizer's dlopen skips RUNPATH)
        path = std::string(NPU_SIM_OPENBLAS_LIBDIR) + "/" + kLibraryFile;
        if (fs::exists(path, ec)) handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    }
#endif
    if (handle == nullptr) {
        path = kLibraryFile;  // libopapi's RUNPATH, then the linker's usual search
        handle = dlopen(kLibraryFile, RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == nullptr) {
        log_message(LogLevel::Warn,
                    "libopapi: %s (the scipy-openblas32 package) was not found; matmul and convolution run "
                    "on the simulator's own loops (reinstall the package: pip install .)",
                    kLibraryFile);
        return out;
    }
    out.sgemm = reinterpret_cast<SgemmFn>(dlsym(handle, "scipy_cblas_sgemm"));
    auto set_threads = reinterpret_cast<SetThreadsFn>(dlsym(handle, "scipy_openblas_set_num_threads"));
    if (out.sgemm == nullptr || set_threads == nullptr) {
        log_message(LogLevel::Warn, "libopapi: %s lacks scipy_cblas_sgemm; matmul runs on the simulator's own loops",
                    path.c_str());
        out.sgemm = nullptr;
        return out;
    }
    Dl_info dl{};
    if (dladdr(reinterpret_cast<const void*>(out.sgemm), &dl) != 0 && dl.dli_fname != nullptr) path = dl.dli_fname;
    out.info.path = path;
    set_threads(1);  // OpenBLAS computes on its caller; libopapi splits the work (parallel_parts)
    return out;
}

const Loaded& loaded() {
    static const Loaded instance = load();
    return instance;
}

// Distinct (package, core) pairs of the CPUs in /sys: torch's count of physical cores.
int physical_cores() {
    std::set<std::pair<std::string, std::string>> cores;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/sys/devices/system/cpu", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() < 4 || name.compare(0, 3, "cpu") != 0 ||
            name.find_first_not_of("0123456789", 3) != std::string::npos) {
            continue;
        }
        std::ifstream package(entry.path() / "topology" / "physical_package_id");
        std::ifstream core(entry.path() / "topology" / "core_id");
        std::string p, c;
        if (package >> p && core >> c) cores.emplace(p, c);
    }
    return static_cast<int>(cores.size());
}

}  // namespace

int default_math_threads() {
    if (const char* env = std::getenv("OMP_NUM_THREADS"); env != nullptr && *env != '\0') {
        char* end = nullptr;
        const long value = std::strtol(env, &end, 10);
        if (*end == '\0' && value > 0 && value <= 1024) return static_cast<int>(value);
    }
    const int cores = physical_cores();
    if (cores > 0) return cores;
    const unsigned hw = std::thread::hardware_concurrency();
    return hw > 0 ? static_cast<int>(hw) : 1;
}

const MathLibrary& math_library() { return loaded().info; }

void parallel_parts(int64_t count, const std::function<void(int64_t, int64_t)>& fn) {
    const int64_t parts = std::min<int64_t>(count, math_library().threads);
    if (parts <= 1 || t_in_part) {
        fn(0, count);
        return;
    }
    auto part = [&](int64_t index) {
        t_in_part = true;
        fn(count * index / parts, count * (index + 1) / parts);
        t_in_part = false;
    };
    std::vector<std::thread> workers;
    workers.reserve(size_t(parts - 1));
    for (int64_t i = 1; i < parts; ++i) workers.emplace_back(part, i);
    part(0);
    for (std::thread& worker : workers) worker.join();
}

bool library_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                   int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
    const Loaded& lib = loaded();
    if (lib.sgemm == nullptr) return false;
    for (int64_t v : {m, n, k, lda, ldb, ldc}) {
        if (v > INT_MAX) return false;
    }
    lib.sgemm(kRowMajor, trans_a ? kTrans : kNoTrans, trans_b ? kTrans : kNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), alpha, a, static_cast<int>(lda), b, static_cast<int>(ldb), beta,
              c, static_cast<int>(ldc));
    return true;
}

}  // namespace npusim::opapi

size_t npusim_opapi_math_library(char* buffer, size_t size) {
    const npusim::opapi::MathLibrary& lib = npusim::opapi::math_library();
    const std::string text = lib.path + "\t" + std::to_string(lib.threads);
    if (buffer != nullptr && size > text.size()) std::memcpy(buffer, text.c_str(), text.size() + 1);
    return text.size() + 1;
}
