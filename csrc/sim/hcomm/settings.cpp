#include "settings.h"

#include <cmath>
#include <cstdlib>

#include "core/immortal.h"
#include "core/log.h"

namespace npusim::hcomm {

bool parse_seconds(const std::string& text, std::chrono::nanoseconds& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    const double seconds = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !std::isfinite(seconds) || seconds < 0) return false;
    out = std::chrono::nanoseconds(static_cast<int64_t>(std::llround(seconds * 1e9)));
    return true;
}

namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

Settings load() {
    Settings s;
    const std::string connect = env("HCCL_CONNECT_TIMEOUT");
    if (!connect.empty() && !parse_seconds(connect, s.connect_timeout)) {
        log_message(LogLevel::Warn, "HCCL_CONNECT_TIMEOUT='%s' is not a number of seconds; using 120", connect.c_str());
    }
    s.exec_timeout = s.connect_timeout;
    const std::string exec = env("HCCL_EXEC_TIMEOUT");
    if (!exec.empty() && !parse_seconds(exec, s.exec_timeout)) {
        log_message(LogLevel::Warn, "HCCL_EXEC_TIMEOUT='%s' is not a number of seconds; ignored", exec.c_str());
        s.exec_timeout = s.connect_timeout;
    }
    s.algo = env("HCCL_ALGO");
    s.master = env("HCCL_SIM_MASTER");
    s.move_data = env("HCCL_SIM_DATA") != "0";
    return s;
}

}  // namespace

const Settings& settings() {
    // Immortal: ranks (threads) may still run collectives while another thread calls exit().
    static Immortal<const Settings> s(load());
    return s.get();
}

}  // namespace npusim::hcomm
