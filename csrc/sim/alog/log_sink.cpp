#include "alog/log_sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace alog {

namespace {

// An fd that stays open for the life of the process (closing it during exit
// would lose the lines of libraries that log from their destructors).
int open_sink() {
    const char* path = std::getenv("ASCEND_LOG_FILE");
    if (path == nullptr || *path == '\0') return STDERR_FILENO;
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    return fd >= 0 ? fd : STDERR_FILENO;
}

}  // namespace

void write_line(const char* data, size_t length) {
    static const int fd = open_sink();
    while (length > 0) {
        const ssize_t n = ::write(fd, data, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // nowhere to report a failure of the logger itself
        data += n;
        length -= static_cast<size_t>(n);
    }
}

}  // namespace alog
