// Logging through CANN's libascendalog (module 31, PROFILING), like every CANN
// component. When libascendalog is unavailable, messages are dropped: logging
// never fails a call.
#pragma once

#include <cstdint>

namespace mspti::log {

enum Level : int32_t { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

void Write(Level level, const char* file, int line, const char* fmt, ...) __attribute__((format(printf, 4, 5)));

}  // namespace mspti::log

#define MSPTI_LOG(level, ...) ::mspti::log::Write(level, __FILE__, __LINE__, __VA_ARGS__)
#define MSPTI_LOGD(...) MSPTI_LOG(::mspti::log::kDebug, __VA_ARGS__)
#define MSPTI_LOGI(...) MSPTI_LOG(::mspti::log::kInfo, __VA_ARGS__)
#define MSPTI_LOGW(...) MSPTI_LOG(::mspti::log::kWarn, __VA_ARGS__)
#define MSPTI_LOGE(...) MSPTI_LOG(::mspti::log::kError, __VA_ARGS__)
