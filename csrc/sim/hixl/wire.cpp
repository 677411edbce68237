#include "wire.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

namespace hixl::wire {

namespace {

// Milliseconds left for poll(): -1 when there is no deadline, 0 when it has passed.
int poll_timeout(const Deadline& deadline) {
    if (deadline.none) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline.at - Clock::now()).count();
    if (left <= 0) return 0;
    return left > INT_MAX ? INT_MAX : static_cast<int>(left) + 1;
}

IoResult wait_ready(int fd, short events, const Deadline& deadline) {
    for (;;) {
        pollfd p{fd, events, 0};
        const int rc = ::poll(&p, 1, poll_timeout(deadline));
        if (rc > 0) return IoResult::Ok;  // readiness or an error: the next call reports which
        if (rc == 0) return IoResult::Timeout;
        if (errno != EINTR) return IoResult::Closed;
    }
}

}  // namespace

IoResult send_all(int fd, const void* data, size_t len, Deadline deadline) {
    const char* p = static_cast<const char*>(data);
    while (len > 0) {
        const ssize_t n = ::send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            p += n;
            len -= static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            const IoResult r = wait_ready(fd, POLLOUT, deadline);
            if (r != IoResult::Ok) return r;
            continue;
        }
        return IoResult::Closed;
    }
    return IoResult::Ok;
}

IoResult recv_all(int fd, void* data, size_t len, Deadline deadline) {
    char* p = static_cast<char*>(data);
    while (len > 0) {
        const ssize_t n = ::recv(fd, p, len, MSG_DONTWAIT);
        if (n > 0) {
            p += n;
            len -= static_cast<size_t>(n);
            continue;
        }
        if (n == 0) return IoResult::Closed;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            const IoResult r = wait_ready(fd, POLLIN, deadline);
            if (r != IoResult::Ok) return r;
            continue;
        }
        return IoResult::Closed;
    }
    return IoResult::Ok;
}

IoResult send_header(int fd, Kind kind, uint64_t length, Deadline deadline) {
    Header h;
    h.kind = static_cast<uint32_t>(kind);
    h.length = length;
    return send_all(fd, &h, sizeof h, deadline);
}

IoResult recv_header(int fd, Header& header, Deadline deadline) {
    const IoResult r = recv_all(fd, &header, sizeof header, deadline);
    if (r != IoResult::Ok) return r;
    if (header.magic != kMagic || header.length > kMaxPayload) return IoResult::Closed;
    return IoResult::Ok;
}

IoResult discard(int fd, uint64_t len, Deadline deadline) {
    char sink[4096];
    while (len > 0) {
        const size_t chunk = len < sizeof sink ? static_cast<size_t>(len) : sizeof sink;
        const IoResult r = recv_all(fd, sink, chunk, deadline);
        if (r != IoResult::Ok) return r;
        len -= chunk;
    }
    return IoResult::Ok;
}

int connect_tcp(const std::string& ip, uint16_t port, Deadline deadline, bool& timed_out) {
    timed_out = false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    if (inet_pton(AF_INET, ip.c_str(), &addr.sin_addr) != 1) return -1;
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
    if (rc != 0 && errno == EINPROGRESS) {
        const IoResult r = wait_ready(fd, POLLOUT, deadline);
        int err = 0;
        socklen_t len = sizeof err;
        if (r == IoResult::Timeout) {
            timed_out = true;
            rc = -1;
        } else if (r == IoResult::Ok && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0) {
            rc = 0;
        } else {
            rc = -1;
        }
    }
    if (rc != 0) {
        ::close(fd);
        return -1;
    }
    const int one = 1;
    (void)::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

}  // namespace hixl::wire
