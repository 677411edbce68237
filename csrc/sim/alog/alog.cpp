// libascendalog's C API: CheckLogLevelForC and the variadic DlogInnerForC.
//
// This library deliberately depends on nothing but libc: profilers load it
// first, before any other CANN library, and must be able to log even when the
// simulator's core cannot start.
#include <cstdarg>
#include <cstdio>

#include "alog/log_level.h"
#include "alog/log_sink.h"
#include "core/export.h"
#include "seam/alog.h"

namespace {

const char* level_name(int32_t level) {
    static const char* const kNames[] = {"DEBUG", "INFO", "WARN", "ERROR"};
    return kNames[level];
}

// Names of the module ids CANN components log under; others print as MODULE.
const char* module_name(int32_t module_id) {
    switch (module_id) {
        case 0: return "SLOG";
        case 3: return "HCCL";
        case 4: return "FMK";
        case 6: return "DVPP";
        case 7: return "RUNTIME";
        case 10: return "DRV";
        case 12: return "HIXL";
        case 31: return "PROFILING";
        case 33: return "APP";
        case 34: return "TS";
        case 36: return "AICPU";
        case 45: return "GE";
        case 48: return "ASCENDCL";
        default: return "MODULE";
    }
}

}  // namespace

NPUSIM_C_EXPORT int32_t CheckLogLevelForC(int32_t moduleId, int32_t logLevel) {
    (void)moduleId;  // one global threshold: per-module levels are not modelled
    return alog::enabled(logLevel) ? 1 : 0;
}

NPUSIM_C_EXPORT void DlogInnerForC(int32_t moduleId, int32_t level, const char* fmt, ...) {
    if (fmt == nullptr || !alog::enabled(level)) return;
    char line[4096];
    const int prefix = std::snprintf(line, sizeof line, "[%s] %s(%d) ", level_name(level), module_name(moduleId),
                                     static_cast<int>(moduleId));
    if (prefix < 0) return;
    size_t length = static_cast<size_t>(prefix);
    va_list args;
    va_start(args, fmt);
    const int body = std::vsnprintf(line + length, sizeof line - length, fmt, args);
    va_end(args);
    if (body > 0) length += static_cast<size_t>(body);
    // A message longer than the buffer is cut; the line still ends with exactly one newline.
    if (length > sizeof line - 2) length = sizeof line - 2;
    if (length == 0 || line[length - 1] != '\n') line[length++] = '\n';
    alog::write_line(line, length);
}
