#include "alog/log_level.h"

#include <cstdlib>

namespace alog {

namespace {

int32_t read_threshold() {
    const char* text = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
    if (text == nullptr || *text == '\0') return kError;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < kDebug || value > kNull) return kError;
    return static_cast<int32_t>(value);
}

}  // namespace

int32_t global_threshold() {
    static const int32_t threshold = read_threshold();
    return threshold;
}

bool enabled(int32_t level) { return level >= kDebug && level < kNull && level >= global_threshold(); }

}  // namespace alog
