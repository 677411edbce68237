#include "core/log_plog.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "alog/log_level.h"
#include "core/immortal.h"

namespace npusim {

namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr ? std::string(v) : std::string();
}

std::string log_root() {
    if (std::string p = env("ASCEND_PROCESS_LOG_PATH"); !p.empty()) return p;
    if (std::string p = env("ASCEND_WORK_PATH"); !p.empty()) return p + "/log";
    return env("HOME") + "/ascend/log";
}

// mkdir -p; existing directories are fine.
bool make_dirs(const std::string& path) {
    for (size_t pos = 1; pos <= path.size(); ++pos) {
        if (pos != path.size() && path[pos] != '/') continue;
        const std::string prefix = path.substr(0, pos);
        if (::mkdir(prefix.c_str(), 0750) != 0 && errno != EEXIST) return false;
    }
    return true;
}

std::string process_name() {
    char buf[256] = {};
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "unknown";
    const std::string path(buf, static_cast<size_t>(n));
    return path.substr(path.rfind('/') + 1);
}

// Local time (as CANN's logger uses) with microseconds.
struct LocalTime {
    tm t{};
    long usec = 0;
};

LocalTime local_now() {
    timeval tv{};
    ::gettimeofday(&tv, nullptr);
    const time_t sec = tv.tv_sec;
    LocalTime now;
    ::localtime_r(&sec, &now.t);
    now.usec = static_cast<long>(tv.tv_usec);
    return now;
}

struct PlogFile {
    int fd = -1;
    std::string process;

    PlogFile() : process(process_name()) {
        const std::string dir = log_root() + "/debug/plog";
        if (!make_dirs(dir)) return;
        const LocalTime now = local_now();
        const tm& t = now.t;
        char name[96];
        std::snprintf(name, sizeof name, "/plog-%d_%04d%02d%02d%02d%02d%02d%03ld.log", static_cast<int>(::getpid()),
                      t.tm_year + 1900, t.tm_mon + 1, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, now.usec / 1000);
        fd = ::open((dir + name).c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    }
};

// Opened on the first line; never closed (lines logged during exit still land).
PlogFile& plog_file() {
    static Immortal<PlogFile> file;
    return file.get();
}

const char* level_name(int level) {
    switch (level) {
        case kPlogDebug: return "DEBUG";
        case kPlogInfo: return "INFO";
        case kPlogWarn: return "WARNING";
        case kPlogError: return "ERROR";
        default: return "EVENT";
    }
}

}  // namespace

bool plog_enabled(int level) { return level == kPlogEvent || alog::enabled(level); }

void plog_write(int level, const char* module, const char* message) {
    if (!plog_enabled(level)) return;
    PlogFile& file = plog_file();
    if (file.fd < 0) return;
    const LocalTime now = local_now();
    const tm& t = now.t;
    char line[1400];
    int n = std::snprintf(line, sizeof line, "[%s] %s(%d,%s):%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld %s",
                          level_name(level), module, static_cast<int>(::getpid()), file.process.c_str(),
                          t.tm_year + 1900, t.tm_mon + 1, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, now.usec / 1000,
                          now.usec % 1000, message);
    if (n < 0) return;
    size_t length = std::min(static_cast<size_t>(n), sizeof line - 2);
    line[length++] = '\n';
    const char* data = line;
    while (length > 0) {
        const ssize_t w = ::write(file.fd, data, length);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        data += w;
        length -= static_cast<size_t>(w);
    }
}

}  // namespace npusim
