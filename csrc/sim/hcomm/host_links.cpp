#include "host_links.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <set>

#include "core/log.h"
#include "host_nic.h"
#include "transport.h"

namespace npusim::hcomm {

namespace {

struct Hello {
    uint32_t rank = 0;
    uint32_t reserved = 0;
    uint64_t token = 0;
};

void no_delay(const Fd& fd) { transport::set_no_delay(fd.get()); }

std::string first_line(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

std::string link_target(const char* path) {
    char buf[256] = {};
    const ssize_t n = ::readlink(path, buf, sizeof(buf) - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace

void HostLinks::Flow::settle() {
    while (message != nullptr && piece < message->pieces.size() && offset >= message->pieces[piece].length) {
        ++piece;
        offset = 0;
    }
}

uint64_t host_identity() {
    const std::string text = first_line("/proc/sys/kernel/random/boot_id") + "|" + link_target("/proc/self/ns/net") +
                             "|" + link_target("/proc/self/ns/pid") + "|" + host_nic().ip;
    uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

bool HostLinks::listen(std::string& ip, uint16_t& port) {
    ip = host_nic().ip;
    std::string error;
    listener_ = listen_tcp(ip, 0, &port, &error);
    if (!listener_.valid()) {
        // HCCL_IF_IP names an address this host does not hold: listen on all of its family.
        const std::string any = ip.find(':') != std::string::npos ? "::" : "0.0.0.0";
        listener_ = listen_tcp(any, 0, &port, &error);
    }
    if (!listener_.valid()) {
        log_message(LogLevel::Error, "hccl: cannot listen for peer links on %s: %s", ip.c_str(), error.c_str());
        return false;
    }
    return true;
}

bool HostLinks::connect(uint32_t rank, uint64_t token, const std::vector<Partner>& partners, Deadline deadline,
                        int32_t& missing) {
    std::map<uint32_t, uint64_t> expected;  // lower partners still to accept, with their tokens
    const std::string source = connect_source();
    for (const Partner& p : partners) {
        if (p.rank < rank) {
            expected[p.rank] = p.token;
            continue;
        }
        Fd fd = connect_until(p.ip, p.port, source, deadline);
        const Hello hello{rank, 0, token};
        if (!fd.valid() || write_all(fd, &hello, sizeof(hello)) != IoStatus::Ok) {
            log_message(LogLevel::Error, "hccl: rank %u cannot connect to rank %u at %s port %u", rank, p.rank,
                        p.ip.c_str(), unsigned(p.port));
            missing = static_cast<int32_t>(p.rank);
            return false;
        }
        no_delay(fd);
        links_[p.rank] = std::move(fd);
    }
    while (!expected.empty()) {
        Fd fd = wait_readable(listener_, deadline) ? accept_tcp(listener_) : Fd();
        if (!fd.valid()) {
            missing = static_cast<int32_t>(expected.begin()->first);
            log_message(LogLevel::Error, "hccl: rank %u: rank %u did not connect within HCCL_EXEC_TIMEOUT", rank,
                        expected.begin()->first);
            return false;
        }
        Hello hello;
        if (read_all(fd, &hello, sizeof(hello), deadline) != IoStatus::Ok) continue;
        const auto it = expected.find(hello.rank);
        if (it == expected.end() || it->second != hello.token) continue;  // not a partner's: dropped
        no_delay(fd);
        links_[hello.rank] = std::move(fd);
        expected.erase(it);
    }
    return true;
}

bool HostLinks::accept_from(uint32_t peer, const std::vector<Partner>& all, Deadline deadline) {
    while (links_.count(peer) == 0) {
        Fd fd = listener_.valid() && wait_readable(listener_, deadline) ? accept_tcp(listener_) : Fd();
        if (!fd.valid()) return false;
        Hello hello;
        if (read_all(fd, &hello, sizeof(hello), deadline) != IoStatus::Ok) continue;
        if (hello.rank >= all.size() || all[hello.rank].token != hello.token || links_.count(hello.rank) != 0) continue;
        no_delay(fd);
        links_[hello.rank] = std::move(fd);
    }
    return true;
}

bool HostLinks::ensure(uint32_t rank, uint64_t token, uint32_t peer, const std::vector<Partner>& all, Deadline deadline,
                       int32_t& missing) {
    if (links_.count(peer) != 0) return true;
    bool ok = false;
    if (peer < rank) {
        ok = accept_from(peer, all, deadline);
    } else if (peer < all.size()) {
        Fd fd = connect_until(all[peer].ip, all[peer].port, connect_source(), deadline);
        const Hello hello{rank, 0, token};
        ok = fd.valid() && write_all(fd, &hello, sizeof(hello)) == IoStatus::Ok;
        if (ok) {
            no_delay(fd);
            links_[peer] = std::move(fd);
        }
    }
    if (!ok) {
        log_message(LogLevel::Error, "hccl: rank %u: no link to rank %u within HCCL_EXEC_TIMEOUT", rank, peer);
        missing = static_cast<int32_t>(peer);
    }
    return ok;
}

bool HostLinks::exchange(const LinkMessage* outgoing, size_t n_out, const LinkMessage* incoming, size_t n_in,
                         Deadline deadline, int32_t& missing) {
    active_.clear();
    auto link_of = [&](uint32_t peer) -> Active* {
        for (Active& l : active_) {
            if (l.peer == peer) return &l;
        }
        const auto it = links_.find(peer);
        if (it == links_.end()) return nullptr;
        active_.push_back(Active{peer, it->second.get(), {}, {}});
        return &active_.back();
    };
    active_.reserve(n_out + n_in);  // pointers into it stay valid below
    for (size_t i = 0; i < n_out; ++i) {
        Active* l = link_of(outgoing[i].peer);
        if (l == nullptr) {
            missing = static_cast<int32_t>(outgoing[i].peer);
            return false;
        }
        l->out.message = &outgoing[i];
    }
    for (size_t i = 0; i < n_in; ++i) {
        Active* l = link_of(incoming[i].peer);
        if (l == nullptr) {
            missing = static_cast<int32_t>(incoming[i].peer);
            return false;
        }
        l->in.message = &incoming[i];
    }
    for (;;) {
        fds_.clear();
        polled_.clear();
        for (size_t i = 0; i < active_.size(); ++i) {
            Active& l = active_[i];
            l.out.settle();
            l.in.settle();
            short events = 0;
            if (!l.out.done()) events |= POLLOUT;
            if (!l.in.done()) events |= POLLIN;
            if (events == 0) continue;
            fds_.push_back(pollfd{l.fd, events, 0});
            polled_.push_back(i);
        }
        if (fds_.empty()) return true;
        const int ready = ::poll(fds_.data(), fds_.size(), deadline.poll_ms());
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) {
            // The deadline passed: name a peer we still wait for (one that has not sent first).
            const Active* late = &active_[polled_.front()];
            for (size_t i : polled_) {
                if (!active_[i].in.done()) {
                    late = &active_[i];
                    break;
                }
            }
            missing = static_cast<int32_t>(late->peer);
            return false;
        }
        for (size_t f = 0; f < fds_.size(); ++f) {
            Active& l = active_[polled_[f]];
            const short got = fds_[f].revents;
            if ((got & POLLIN) != 0 && !l.in.done()) {
                const LinkPiece& p = l.in.message->pieces[l.in.piece];
                size_t n = 0;
                if (transport::recv_some(l.fd, p.data + l.in.offset, static_cast<size_t>(p.length - l.in.offset), n) !=
                    transport::IoStatus::Ok) {
                    missing = static_cast<int32_t>(l.peer);  // the peer closed its end: it is gone
                    return false;
                }
                l.in.offset += n;
            }
            if ((got & POLLOUT) != 0 && !l.out.done()) {
                const LinkPiece& p = l.out.message->pieces[l.out.piece];
                size_t n = 0;
                if (transport::send_some(l.fd, p.data + l.out.offset, static_cast<size_t>(p.length - l.out.offset),
                                         n) != transport::IoStatus::Ok) {
                    missing = static_cast<int32_t>(l.peer);
                    return false;
                }
                l.out.offset += n;
                bytes_sent_ += n;
            }
            if ((got & (POLLERR | POLLNVAL)) != 0 || ((got & POLLHUP) != 0 && (got & POLLIN) == 0)) {
                missing = static_cast<int32_t>(l.peer);
                return false;
            }
        }
    }
}

}  // namespace npusim::hcomm
