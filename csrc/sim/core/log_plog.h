// The process log (plog) CANN's components write, and the simulator's messages with them.
//
// Where (hicann/runtime src/dfx/log/liblog/slog/plog/plog_file_mgr.c, log_file_info.h):
//   <root>/debug/plog/plog-<pid>_<YYYYMMDDhhmmssmmm>.log, local time of the first line,
//   <root> = $ASCEND_PROCESS_LOG_PATH, else $ASCEND_WORK_PATH/log, else $HOME/ascend/log;
//   directories are created as needed.
// Line (dlog_message.c "[%s] %s(%d,%s):%s ", dlog_time.c "%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld"):
//   [WARNING] HCCL(4242,prog):2026-12-06-22:15:01.123.456 message
//   with CANN's level names DEBUG, INFO, WARNING, ERROR, EVENT.
// Which: a message at or above ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, the default; 4
// nothing), read once like libascendalog does (alog/log_level.h); EVENT lines always.
// Not modelled: file rotation and size limits, the run/ and security/ trees, per-module
// levels (ASCEND_MODULE_LOG_LEVEL), ASCEND_SLOG_PRINT_TO_STDOUT.
#pragma once

namespace npusim {

// CANN's level numbers; kPlogEvent is DLOG_EVENT.
constexpr int kPlogDebug = 0, kPlogInfo = 1, kPlogWarn = 2, kPlogError = 3, kPlogEvent = 0x10;

// Appends one line (a single write(), so lines of threads and processes never interleave).
// `module` is a CANN module name (HCCL, RUNTIME, ASCENDCL, ...). No-op below the threshold or
// when the file cannot be created (there is nowhere to report that).
void plog_write(int level, const char* module, const char* message);
// True when a line of this level goes to the plog.
bool plog_enabled(int level);

}  // namespace npusim
