// Application logging (aclAppLog) and the recent-error query (aclGetRecentErrMsg).
#include <cstdarg>
#include <cstdio>

#include "acl/acl.h"
#include "core/fault_plan.h"
#include "core/log.h"

namespace {

npusim::LogLevel log_level_of(aclLogLevel level) {
    switch (level) {
        case ACL_DEBUG: return npusim::LogLevel::Debug;
        case ACL_INFO: return npusim::LogLevel::Info;
        case ACL_WARNING: return npusim::LogLevel::Warn;
        default: return npusim::LogLevel::Error;
    }
}

}  // namespace

extern "C" {

// One line on the simulator's log (stderr, filtered by NPU_SIM_LOG_LEVEL), naming where it was written.
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
                                   const char* fmt, ...) {
    (void)NPUSIM_FAULT("aclAppLog");  // counted; a void result cannot carry an error code
    const npusim::LogLevel level = log_level_of(logLevel);
    if (fmt == nullptr || !npusim::log_enabled(level)) return;
    char text[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    npusim::log_message(level, "[app] %s:%u %s: %s", file == nullptr ? "?" : file, line, func == nullptr ? "?" : func,
                        text);
}

// The simulator keeps no per-thread error message: a failing call's log line (NPU_SIM_LOG_LEVEL)
// says why it failed. The result is NULL, CANN's answer when a thread has no message (its runtime
// examples print it as "<null>"; torch_npu reads NULL as an empty message).
ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void) {
    (void)NPUSIM_FAULT("aclGetRecentErrMsg");  // counted; the result is a message, not an aclError
    return nullptr;
}

}  // extern "C"
