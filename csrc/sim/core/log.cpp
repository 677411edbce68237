#include "core/log.h"

#include <cstdarg>
#include <cstdio>

#include "core/config.h"

namespace npusim {

bool log_enabled(LogLevel level) { return static_cast<int>(level) >= static_cast<int>(sim_config().log_level); }

void log_message(LogLevel level, const char* fmt, ...) {
    if (!log_enabled(level)) return;
    static const char* const kNames[] = {"debug", "info", "warn", "error", "off"};
    char line[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(line, sizeof line, fmt, args);
    va_end(args);
    std::fprintf(stderr, "npu-sim [%s] %s\n", kNames[static_cast<int>(level)], line);
}

}  // namespace npusim
