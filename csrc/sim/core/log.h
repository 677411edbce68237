// The simulator's own diagnostics: on stderr, filtered by NPU_SIM_LOG_LEVEL, and in CANN's
// process log (core/log_plog.h), filtered by ASCEND_GLOBAL_LOG_LEVEL.
#pragma once

#include "core/export.h"

namespace npusim {

enum class LogLevel : int { Debug = 0, Info = 1, Warn = 2, Error = 3, Off = 4 };

NPUSIM_API void log_message(LogLevel level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
// True when log_message would write a line of this level to either place.
NPUSIM_API bool log_enabled(LogLevel level);

}  // namespace npusim
