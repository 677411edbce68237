#include "transport/socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "transport/address.h"

namespace npusim::transport {

namespace {

constexpr size_t kChunkBytes = size_t(1) << 20;  // one write/read call moves at most this much

// Waits for `events` until the deadline: Ok when ready (or in error: the next call reports it).
IoStatus wait_for(const Fd& fd, short events, const Deadline& deadline) {
    for (;;) {
        pollfd p{fd.get(), events, 0};
        const int rc = ::poll(&p, 1, deadline.poll_ms());
        if (rc > 0) return IoStatus::Ok;
        if (rc == 0) {
            if (deadline.passed()) return IoStatus::Timeout;
            continue;
        }
        if (errno != EINTR) return IoStatus::Ok;
    }
}

}  // namespace

void set_no_delay(int fd) {
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int Deadline::poll_ms() const {
    if (at == SteadyTime::max()) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(at - std::chrono::steady_clock::now());
    return static_cast<int>(std::clamp<int64_t>(left.count() + 1, 0, 1'000'000));
}

Fd& Fd::operator=(Fd&& other) noexcept {
    if (this != &other) {
        reset();
        fd_ = other.release();
    }
    return *this;
}

void Fd::reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void Fd::shutdown_both() const {
    if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

Fd listen_tcp(const std::string& host, uint16_t port, uint16_t* bound_port, std::string* error, int* error_number) {
    SocketAddress addr;
    if (error_number) *error_number = 0;
    if (!resolve_address(host, port, addr)) {
        if (error) *error = "cannot resolve '" + host + "'";
        if (error_number) *error_number = EADDRNOTAVAIL;
        return Fd();
    }
    Fd fd(::socket(addr.family(), SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) {
        if (error) *error = std::strerror(errno);
        if (error_number) *error_number = errno;
        return Fd();
    }
    const int one = 1;
    setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd.get(), addr.get(), addr.length) != 0 || ::listen(fd.get(), 256) != 0) {
        if (error) *error = std::strerror(errno);
        if (error_number) *error_number = errno;
        return Fd();
    }
    socklen_t len = sizeof addr.storage;
    getsockname(fd.get(), addr.get(), &len);
    if (bound_port) *bound_port = addr.port();
    return fd;
}

Fd connect_tcp(const std::string& host, uint16_t port, const std::string& source, std::chrono::milliseconds attempt,
               IoStatus* why) {
    if (why) *why = IoStatus::Closed;
    SocketAddress addr;
    if (!resolve_address(host, port, addr)) return Fd();
    Fd fd(::socket(addr.family(), SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!fd.valid()) return Fd();
    if (!source.empty()) {
        SocketAddress local;
        // A source of the other family (an IPv4 interface, an IPv6 root) cannot be bound: the
        // system picks the source then.
        if (resolve_address(source, 0, local) && local.family() == addr.family() &&
            ::bind(fd.get(), local.get(), local.length) != 0) {
            return Fd();
        }
    }
    // Non-blocking, so that a host that drops the packets costs `attempt`, not the kernel's minutes.
    if (::connect(fd.get(), addr.get(), addr.length) != 0) {
        if (errno != EINPROGRESS && errno != EINTR) return Fd();
        pollfd p{fd.get(), POLLOUT, 0};
        int rc;
        do {
            rc = ::poll(&p, 1, static_cast<int>(std::max<int64_t>(attempt.count(), 1)));
        } while (rc < 0 && errno == EINTR);
        if (rc == 0 && why) *why = IoStatus::Timeout;
        int err = 0;
        socklen_t len = sizeof err;
        if (rc <= 0 || ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) return Fd();
    }
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) return Fd();
    set_no_delay(fd.get());
    if (why) *why = IoStatus::Ok;
    return fd;
}

std::string peer_address(const Fd& fd) {
    SocketAddress addr;
    addr.length = sizeof addr.storage;
    if (::getpeername(fd.get(), addr.get(), &addr.length) != 0) return "?";
    return addr.text();
}

bool is_local_address(const std::string& host) {
    SocketAddress want;
    if (!resolve_address(host, 0, want)) return false;
    if (want.loopback()) return true;  // all of 127/8 is the loopback's
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0) return false;
    bool found = false;
    for (const ifaddrs* a = list; a != nullptr && !found; a = a->ifa_next) {
        if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != want.family()) continue;
        if (want.family() == AF_INET6) {
            const auto* mine = reinterpret_cast<const sockaddr_in6*>(a->ifa_addr);
            const auto* wanted = reinterpret_cast<const sockaddr_in6*>(&want.storage);
            found = std::memcmp(&mine->sin6_addr, &wanted->sin6_addr, sizeof mine->sin6_addr) == 0;
        } else {
            found = reinterpret_cast<const sockaddr_in*>(a->ifa_addr)->sin_addr.s_addr ==
                    reinterpret_cast<const sockaddr_in*>(&want.storage)->sin_addr.s_addr;
        }
    }
    ::freeifaddrs(list);
    return found;
}

Fd accept_tcp(const Fd& listener) {
    for (;;) {
        const int fd = ::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) {
            set_no_delay(fd);
            return Fd(fd);
        }
        if (errno == EINTR || errno == ECONNABORTED) continue;
        return Fd();
    }
}

IoStatus write_all(const Fd& fd, const void* data, size_t length, Deadline deadline) {
    const char* p = static_cast<const char*>(data);
    // With a limit the writes do not block: a full socket buffer is waited for until the deadline.
    const int flags = MSG_NOSIGNAL | (deadline.limited() ? MSG_DONTWAIT : 0);
    while (length > 0) {
        const ssize_t n = ::send(fd.get(), p, std::min(length, kChunkBytes), flags);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (deadline.limited() && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                const IoStatus st = wait_for(fd, POLLOUT, deadline);
                if (st != IoStatus::Ok) return st;
                continue;
            }
            return errno == EPIPE || errno == ECONNRESET ? IoStatus::Closed : IoStatus::Error;
        }
        p += n;
        length -= size_t(n);
    }
    return IoStatus::Ok;
}

IoStatus send_some(int fd, const void* data, size_t length, size_t& moved) {
    moved = 0;
    for (;;) {
        const ssize_t n = ::send(fd, data, length, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n >= 0) {
            moved = static_cast<size_t>(n);
            return IoStatus::Ok;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return IoStatus::Ok;
        return errno == EPIPE || errno == ECONNRESET ? IoStatus::Closed : IoStatus::Error;
    }
}

IoStatus recv_some(int fd, void* data, size_t length, size_t& moved) {
    moved = 0;
    for (;;) {
        const ssize_t n = ::recv(fd, data, length, MSG_DONTWAIT);
        if (n > 0) {
            moved = static_cast<size_t>(n);
            return IoStatus::Ok;
        }
        if (n == 0) return length == 0 ? IoStatus::Ok : IoStatus::Closed;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return IoStatus::Ok;
        return errno == ECONNRESET ? IoStatus::Closed : IoStatus::Error;
    }
}

bool wait_readable(const Fd& fd, Deadline deadline) { return wait_for(fd, POLLIN, deadline) == IoStatus::Ok; }

IoStatus read_all(const Fd& fd, void* data, size_t length, Deadline deadline) {
    char* p = static_cast<char*>(data);
    while (length > 0) {
        if (deadline.limited() && !wait_readable(fd, deadline)) return IoStatus::Timeout;
        const ssize_t n = ::recv(fd.get(), p, std::min(length, kChunkBytes), 0);
        if (n == 0) return IoStatus::Closed;
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno == ECONNRESET ? IoStatus::Closed : IoStatus::Error;
        }
        p += n;
        length -= size_t(n);
    }
    return IoStatus::Ok;
}

IoStatus skip_bytes(const Fd& fd, uint64_t length, Deadline deadline) {
    std::vector<char> sink(static_cast<size_t>(std::min<uint64_t>(length, kChunkBytes)));
    while (length > 0) {
        const size_t step = static_cast<size_t>(std::min<uint64_t>(length, sink.size()));
        const IoStatus st = read_all(fd, sink.data(), step, deadline);
        if (st != IoStatus::Ok) return st;
        length -= step;
    }
    return IoStatus::Ok;
}

}  // namespace npusim::transport
