#include "core/log.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "core/config.h"
#include "core/log_plog.h"

namespace npusim {

namespace {

// The CANN module a message belongs to, from the prefix the simulator's components give their
// messages ("hccl: ...", "HCCL_EXEC_TIMEOUT=..."); the rest is the runtime's.
const char* module_of(const char* message) {
    static const struct {
        const char* prefix;
        const char* module;
    } kModules[] = {{"hccl", "HCCL"}, {"HCCL", "HCCL"}, {"hixl", "HIXL"}, {"acl", "ASCENDCL"}, {"mstx", "PROFILING"}};
    for (const auto& m : kModules) {
        if (std::strncmp(message, m.prefix, std::strlen(m.prefix)) == 0) return m.module;
    }
    return "RUNTIME";
}

bool to_stderr(LogLevel level) { return static_cast<int>(level) >= static_cast<int>(sim_config().log_level); }

}  // namespace

bool log_enabled(LogLevel level) {
    return level != LogLevel::Off && (to_stderr(level) || plog_enabled(static_cast<int>(level)));
}

void log_message(LogLevel level, const char* fmt, ...) {
    static const char* const kNames[] = {"debug", "info", "warn", "error", "off"};
    if (!log_enabled(level)) return;
    char line[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(line, sizeof line, fmt, args);
    va_end(args);
    // The plog has its own threshold (ASCEND_GLOBAL_LOG_LEVEL); stderr keeps NPU_SIM_LOG_LEVEL's.
    plog_write(static_cast<int>(level), module_of(line), line);
    if (to_stderr(level)) std::fprintf(stderr, "npu-sim [%s] %s\n", kNames[static_cast<int>(level)], line);
}

}  // namespace npusim
