#include "common/log.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "common/thread_id.h"
#include "cann/library_loader.h"

namespace mspti::log {
namespace {

constexpr int32_t kModuleProfiling = 31;

using CheckLevelFn = int32_t (*)(int32_t, int32_t);
using DlogFn = void (*)(int32_t, int32_t, const char*, ...);

seam::CannFunction<CheckLevelFn> kCheckLevel{seam::CannLibrary::kAlog, "CheckLogLevelForC"};
seam::CannFunction<DlogFn> kDlog{seam::CannLibrary::kAlog, "DlogInnerForC"};

const char* BaseName(const char* path) {
    const char* slash = std::strrchr(path, '/');
    return slash != nullptr ? slash + 1 : path;
}

}  // namespace

void Write(Level level, const char* file, int line, const char* fmt, ...) {
    // Loading libascendalog may itself want to log; a thread already logging drops nested messages.
    thread_local bool busy = false;
    if (busy) return;
    busy = true;
    const CheckLevelFn check = kCheckLevel.get();
    const DlogFn dlog = kDlog.get();
    if (check != nullptr && dlog != nullptr && check(kModuleProfiling, level) == 1) {
        char message[1024];
        int n = std::snprintf(message, sizeof message, "(mspti)[%s:%d] >>> (tid:%u) ", BaseName(file), line,
                              CurrentThreadId());
        if (n < 0) n = 0;
        if (static_cast<size_t>(n) < sizeof message) {
            va_list args;
            va_start(args, fmt);
            std::vsnprintf(message + n, sizeof message - static_cast<size_t>(n), fmt, args);
            va_end(args);
        }
        dlog(kModuleProfiling, level, "%s", message);
    }
    busy = false;
}

}  // namespace mspti::log
