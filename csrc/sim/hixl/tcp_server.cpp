#include "tcp_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <shared_mutex>
#include <vector>

#include "core/log.h"

namespace hixl {

using wire::IoResult;

namespace {

constexpr int kBacklog = 64;

bool send_ack(int fd, wire::Kind kind, Status status, const char* data, uint64_t len) {
    const wire::Deadline deadline = wire::Deadline::never();
    wire::AckHead ack;
    ack.status = status;
    if (wire::send_header(fd, kind, sizeof ack + len, deadline) != IoResult::Ok) return false;
    if (wire::send_all(fd, &ack, sizeof ack, deadline) != IoResult::Ok) return false;
    return len == 0 || wire::send_all(fd, data, len, deadline) == IoResult::Ok;
}

}  // namespace

Status TcpServer::start(const Endpoint& ep, uint16_t& bound_port) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(ep.port);
    if (inet_pton(AF_INET, ep.ip.c_str(), &addr.sin_addr) != 1) return PARAM_INVALID;
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    const int one = 1;
    if (listen_fd_ < 0 || wake_fd_ < 0 || ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        ::bind(listen_fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listen_fd_, kBacklog) != 0) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL Initialize: cannot listen on %s: %s", ep.name().c_str(),
                            std::strerror(errno));
        stop();
        return FAILED;
    }
    socklen_t len = sizeof addr;
    (void)::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    bound_port = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
    return SUCCESS;
}

void TcpServer::stop() {
    if (wake_fd_ >= 0) {
        const uint64_t one = 1;
        (void)!::write(wake_fd_, &one, sizeof one);
    }
    if (acceptor_.joinable()) acceptor_.join();
    std::list<Link> links;
    {
        std::lock_guard<std::mutex> lock(links_mutex_);
        links.swap(links_);
    }
    for (Link& link : links) (void)::shutdown(link.fd, SHUT_RDWR);  // wakes the link's thread
    for (Link& link : links) {
        if (link.thread.joinable()) link.thread.join();
        ::close(link.fd);
    }
    if (listen_fd_ >= 0) ::close(listen_fd_);
    if (wake_fd_ >= 0) ::close(wake_fd_);
    listen_fd_ = wake_fd_ = -1;
}

void TcpServer::reap_finished() {
    std::lock_guard<std::mutex> lock(links_mutex_);
    for (auto it = links_.begin(); it != links_.end();) {
        if (it->done->load(std::memory_order_acquire)) {
            it->thread.join();
            ::close(it->fd);
            it = links_.erase(it);
        } else {
            ++it;
        }
    }
}

void TcpServer::accept_loop() {
    for (;;) {
        pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
        const int rc = ::poll(fds, 2, -1);
        if (rc < 0 && errno == EINTR) continue;
        if (rc < 0 || (fds[1].revents & POLLIN) != 0) return;
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) continue;
        const int one = 1;
        (void)::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        reap_finished();
        auto done = std::make_shared<std::atomic<bool>>(false);
        std::lock_guard<std::mutex> lock(links_mutex_);
        links_.push_back(Link{fd, std::thread([this, fd, done] {
                                  serve(fd);
                                  done->store(true, std::memory_order_release);
                              }),
                              done});
    }
}

void TcpServer::serve(int fd) {
    const wire::Deadline never = wire::Deadline::never();
    for (;;) {
        wire::Header h;
        if (wire::recv_header(fd, h, never) != IoResult::Ok) return;
        switch (static_cast<wire::Kind>(h.kind)) {
            case wire::Kind::Hello:
                if (wire::discard(fd, h.length, never) != IoResult::Ok) return;
                if (!send_ack(fd, wire::Kind::HelloAck, SUCCESS, nullptr, 0)) return;
                break;
            case wire::Kind::Transfer:
                if (!serve_transfer(fd, h)) return;
                break;
            default: return;  // Bye, or a message this side does not know
        }
    }
}

bool TcpServer::serve_transfer(int fd, const wire::Header& header) {
    const wire::Deadline never = wire::Deadline::never();
    wire::TransferHead head;
    if (header.length < sizeof head || wire::recv_all(fd, &head, sizeof head, never) != IoResult::Ok) return false;
    const uint64_t ranges_bytes = uint64_t(head.count) * sizeof(wire::RangeDesc);
    if (header.length - sizeof head < ranges_bytes) return false;
    std::vector<wire::RangeDesc> ranges(head.count);
    if (wire::recv_all(fd, ranges.data(), ranges_bytes, never) != IoResult::Ok) return false;
    const uint64_t data_len = header.length - sizeof head - ranges_bytes;
    uint64_t total = 0;
    bool sane = head.op == READ || head.op == WRITE;
    for (const wire::RangeDesc& r : ranges) {
        sane = sane && r.len != 0 && total + r.len > total;
        total += r.len;
    }
    if (!sane || data_len != (head.op == WRITE ? total : 0)) {
        if (wire::discard(fd, data_len, never) != IoResult::Ok) return false;
        return send_ack(fd, wire::Kind::TransferAck, PARAM_INVALID, nullptr, 0);
    }
    std::unique_ptr<char[]> buffer(new (std::nothrow) char[total]);
    if (!buffer) {
        if (wire::discard(fd, data_len, never) != IoResult::Ok) return false;
        return send_ack(fd, wire::Kind::TransferAck, FAILED, nullptr, 0);
    }
    if (head.op == WRITE && wire::recv_all(fd, buffer.get(), total, never) != IoResult::Ok) return false;
    Status status = SUCCESS;
    {
        std::shared_lock<std::shared_mutex> lock(memory_.mutex());
        for (const wire::RangeDesc& r : ranges) {
            if (!memory_.covers(r.addr, r.len)) status = PARAM_INVALID;
        }
        char* p = buffer.get();
        for (size_t i = 0; status == SUCCESS && i < ranges.size(); ++i) {
            void* target = reinterpret_cast<void*>(ranges[i].addr);
            if (head.op == WRITE) std::memcpy(target, p, ranges[i].len);
            else std::memcpy(p, target, ranges[i].len);
            p += ranges[i].len;
        }
    }
    if (status != SUCCESS) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL server: a requested range is outside registered memory");
    }
    const bool with_data = status == SUCCESS && head.op == READ;
    return send_ack(fd, wire::Kind::TransferAck, status, buffer.get(), with_data ? total : 0);
}

}  // namespace hixl
