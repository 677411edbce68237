// The logging threshold of libascendalog, from ASCEND_GLOBAL_LOG_LEVEL.
//
// 0 debug, 1 info, 2 warn, 3 error (the default), 4 null (log nothing). The
// variable is read once, on first use, like CANN's logger reads it at start-up;
// a value outside 0..4 falls back to the default. Per-module levels
// (ASCEND_MODULE_LOG_LEVEL) are not modelled.
#pragma once

#include <cstdint>

namespace alog {

constexpr int32_t kDebug = 0;
constexpr int32_t kError = 3;
constexpr int32_t kNull = 4;

int32_t global_threshold();
// True for a message level 0..3 at or above the threshold.
bool enabled(int32_t level);

}  // namespace alog
