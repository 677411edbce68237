#include "cann/library_loader.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <mutex>
#include <string>

#include "common/log.h"

namespace mspti::seam {
namespace {

constexpr const char* kNames[] = {"libascend_hal.so", "libascendalog.so", "libascendcl.so", "libhccl.so",
                                  "libprofapi.so"};
constexpr size_t kCount = static_cast<size_t>(CannLibrary::kCount);

struct LibraryTable {
    std::once_flag once[kCount];
    void* handles[kCount] = {};
};

LibraryTable& Table() {
    static LibraryTable table;  // trivially safe during exit: handles are plain pointers
    return table;
}

std::string ResolvePath(const char* name) {
    const char* home = getenv("ASCEND_HOME_PATH");
    if (home != nullptr && home[0] != '\0') {
        std::string candidate = std::string(home) + "/lib64/" + name;
        if (access(candidate.c_str(), R_OK) == 0) {
            char real[PATH_MAX];
            if (realpath(candidate.c_str(), real) != nullptr) return real;
            return candidate;
        }
    }
    return name;
}

void Open(CannLibrary lib) {
    const size_t i = static_cast<size_t>(lib);
    const std::string path = ResolvePath(kNames[i]);
    void* handle = dlopen(path.c_str(), RTLD_LAZY);
    if (handle == nullptr) {
        const char* err = dlerror();
        // The log itself lives in one of these libraries: never log the failure to load it.
        if (lib != CannLibrary::kAlog) MSPTI_LOGW("cannot load %s: %s", path.c_str(), err != nullptr ? err : "?");
    }
    Table().handles[i] = handle;
}

}  // namespace

const char* LibraryName(CannLibrary lib) {
    const size_t i = static_cast<size_t>(lib);
    return i < kCount ? kNames[i] : "?";
}

void* LibraryHandle(CannLibrary lib) {
    const size_t i = static_cast<size_t>(lib);
    if (i >= kCount) return nullptr;
    LibraryTable& t = Table();
    std::call_once(t.once[i], [lib] { Open(lib); });
    return t.handles[i];
}

void* LibrarySymbol(CannLibrary lib, const char* name) {
    void* handle = LibraryHandle(lib);
    if (handle == nullptr) return nullptr;
    void* sym = dlsym(handle, name);
    if (sym == nullptr && lib != CannLibrary::kAlog) {
        MSPTI_LOGW("%s has no symbol %s", LibraryName(lib), name);
    }
    return sym;
}

}  // namespace mspti::seam
